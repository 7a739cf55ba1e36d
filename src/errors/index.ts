export { CATEGORY_MAPPING, ERROR_CODES, RtError, rtError, toRtError } from './registry.ts';
export type { ErrorCategory, ErrorCode, RtErrorOptions } from './registry.ts';
