/**
 * The shape of Triton's ModelConfig message (model_config.proto, docs/protocol.md §1.2) as far as a config loader needs
 * it, derived from the zod schema: which fields exist, which are repeated, which are maps, and which Triton fields
 * rtserve does not support (those are dropped with a warning rather than rejected, so that a Triton user's config
 * loads unchanged).
 * The pbtxt parser maps text format onto the JSON spelling with it; JSON/YAML configs are filtered with it.
 */
import { z } from 'zod';
import { type ConfigFieldMeta, modelConfigSchema } from '../config/model-config.ts';

export type FieldType =
  | { readonly t: 'string' }
  | { readonly t: 'int' }
  | { readonly t: 'bool' }
  /** `values[i]` is the enum value numbered i in the .proto (text format may write either). */
  | { readonly t: 'enum'; readonly values: readonly string[] }
  /** A string, number or bool, kept as written (rtserve engine options). */
  | { readonly t: 'scalar' }
  | { readonly t: 'message'; readonly message: MessageDesc }
  /** protobuf map<K, V>: text format writes repeated `{ key: .. value: .. }` entries; JSON writes an object. */
  | { readonly t: 'map'; readonly value: FieldType }
  /** A string or a message (rtserve `engine.providers` entries). */
  | { readonly t: 'stringOrMessage'; readonly message: MessageDesc };

export interface FieldDesc {
  readonly type: FieldType;
  readonly repeated?: boolean;
}

export interface MessageDesc {
  /** Protobuf message name, for messages ("unknown field 'x' in ModelInput"). */
  readonly name: string;
  readonly fields: Readonly<Record<string, FieldDesc>>;
  /** Triton fields of this message that rtserve ignores (with a warning). */
  readonly unsupported: readonly string[];
}

/**
 * The field table of ModelConfig, derived from its zod schema (the one description, src/config/model-config.ts):
 * objects become messages (named by their `message` metadata, else by their path), arrays repeated fields, records
 * maps, and a union of a string and an object a `stringOrMessage`. Sections marked `jsonOnly` stay out.
 */
export const MODEL_CONFIG_DESC: MessageDesc = describeMessage(modelConfigSchema, 'ModelConfig');

function metaOf(schema: z.ZodType): ConfigFieldMeta {
  return (schema.meta() ?? {}) as ConfigFieldMeta;
}

/** Strips what does not change a field's shape: optional, default, prefault, nullable, readonly, and pipes. */
function unwrap(schema: z.ZodType): z.ZodType {
  if (
    schema instanceof z.ZodOptional ||
    schema instanceof z.ZodDefault ||
    schema instanceof z.ZodPrefault ||
    schema instanceof z.ZodNullable ||
    schema instanceof z.ZodReadonly
  ) {
    return unwrap(schema.unwrap() as z.ZodType);
  }
  // `int` is a pipe into a number; `enum.transform(..)` a pipe out of the enum.
  if (schema instanceof z.ZodPipe) return unwrap((schema.out instanceof z.ZodTransform ? schema.in : schema.out) as z.ZodType);
  return schema;
}

/** The objects a message is made of: one, or the members of a union of objects (version_policy's oneof). */
function objectShapes(schema: z.ZodType): Record<string, z.ZodType>[] | undefined {
  if (schema instanceof z.ZodObject) return [schema.shape as Record<string, z.ZodType>];
  if (!(schema instanceof z.ZodUnion)) return undefined;
  const members = (schema.options as readonly z.ZodType[]).map((o) => unwrap(o));
  if (!members.every((m) => m instanceof z.ZodObject)) return undefined;
  return members.map((m) => (m as z.ZodObject).shape as Record<string, z.ZodType>);
}

function describeMessage(schema: z.ZodType, path: string): MessageDesc {
  const meta = metaOf(schema);
  const fields: Record<string, FieldDesc> = {};
  for (const shape of objectShapes(unwrap(schema)) ?? []) {
    for (const [key, inner] of Object.entries(shape)) {
      if (metaOf(unwrap(inner)).jsonOnly === true) continue;
      fields[key] = describeField(inner, `${path}.${key}`);
    }
  }
  return { name: meta.message ?? path.replace(/^ModelConfig\./, ''), fields, unsupported: meta.unsupported ?? [] };
}

function describeField(schema: z.ZodType, path: string): FieldDesc {
  const s = unwrap(schema);
  if (s instanceof z.ZodArray) return { type: describeType(s.element as z.ZodType, path), repeated: true };
  return { type: describeType(s, path) };
}

function describeType(schema: z.ZodType, path: string): FieldType {
  const s = unwrap(schema);
  if (s instanceof z.ZodString) return { t: 'string' };
  if (s instanceof z.ZodNumber) return { t: 'int' };
  if (s instanceof z.ZodBoolean) return { t: 'bool' };
  if (s instanceof z.ZodEnum) {
    const zero = metaOf(s).enumZero;
    return { t: 'enum', values: [...(zero === undefined ? [] : [zero]), ...(s.options as string[])] };
  }
  if (s instanceof z.ZodRecord) return { t: 'map', value: describeType(s.valueType as z.ZodType, path) };
  if (objectShapes(s) !== undefined) return { t: 'message', message: describeMessage(s, path) };
  if (s instanceof z.ZodUnion) {
    const members = (s.options as readonly z.ZodType[]).map((o) => unwrap(o));
    const object = members.find((m) => m instanceof z.ZodObject);
    if (object !== undefined) return { t: 'stringOrMessage', message: describeMessage(object, path) };
    return { t: 'scalar' };
  }
  throw new Error(`config-fields: no field type for the schema of ${path}`);
}

/** Triton's scheduling oneof members other than dynamic_batching (rtserve has no such schedulers). */
export const UNSUPPORTED_SCHEDULERS: readonly string[] = ['sequence_batching', 'ensemble_scheduling'];

export function unsupportedFieldWarning(source: string, path: string): string {
  return `${source}: field '${path}' is not supported by rtserve and was ignored`;
}

/**
 * Removes the Triton fields rtserve does not support from a JSON/YAML config (any depth), returning a copy and
 * one warning per distinct field path. Keys the schema does not know at all stay, so that the strict schema
 * rejects them with a hint.
 */
export function dropUnsupportedFields(value: unknown, source: string): { value: unknown; warnings: string[]; dropped: string[] } {
  const dropped = new Set<string>();
  const walkType = (v: unknown, type: FieldType, path: string): unknown => {
    if (type.t === 'message' || (type.t === 'stringOrMessage' && typeof v === 'object')) return walkMessage(v, type.message, path);
    if (type.t === 'map' && v !== null && typeof v === 'object' && !Array.isArray(v)) {
      const out: Record<string, unknown> = {};
      for (const [k, inner] of Object.entries(v)) out[k] = walkType(inner, type.value, path);
      return out;
    }
    return v;
  };
  const walkMessage = (v: unknown, desc: MessageDesc, path: string): unknown => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(v)) {
      const childPath = path === '' ? key : `${path}.${key}`;
      if (desc.unsupported.includes(key)) {
        dropped.add(childPath);
        continue;
      }
      const field = desc.fields[key];
      if (field === undefined) out[key] = inner;
      else if (field.repeated === true && Array.isArray(inner)) out[key] = inner.map((x) => walkType(x, field.type, childPath));
      else out[key] = walkType(inner, field.type, childPath);
    }
    return out;
  };
  const result = walkMessage(value, MODEL_CONFIG_DESC, '');
  return { value: result, warnings: [...dropped].map((p) => unsupportedFieldWarning(source, p)), dropped: [...dropped] };
}
