import { boundMember } from './bound-member.ts';

/**
 * `target` with some members replaced: a member named in `overrides` is the override, every other member is the
 * target's own (methods bound to the target). The layers around the core's InferenceApi (generation, image
 * requests, request limits, shared memory) wrap it this way, so each changes only what it is about.
 */
export function withOverrides<T extends object>(target: T, overrides: Readonly<Record<string, unknown>>): T {
  return new Proxy(target, {
    get(t, prop) {
      if (typeof prop === 'string' && Object.hasOwn(overrides, prop)) return overrides[prop];
      // Bound once per method and kept (util/bound-member.ts): these layers sit on every request's path.
      return boundMember(t, prop);
    },
  });
}
