import assert from 'node:assert/strict';
import { test } from 'node:test';
import protobuf from 'protobufjs';
import type { z } from 'zod';
import { modelConfigSchema } from '../../../src/config/model-config.ts';
import { MODEL_CONFIG_DESC, type FieldDesc, type FieldType, type MessageDesc } from '../../../src/repository/config-fields.ts';

// ModelConfig is described once, by the zod schema (what a config may say, with the Triton message names and
// ignored fields as metadata). The field table the pbtxt parser and the unsupported-field filter walk
// (src/repository/config-fields.ts) is derived from it; Triton's model_config.proto (what the gRPC ModelConfig RPC
// sends; Triton's field numbers) is the wire contract beside it. These tests keep the proto and the schema in
// step: a field added to one and forgotten in the other fails here, naming the path.

const protoPath = new URL('../../../src/transport/grpc/proto/model_config.proto', import.meta.url).pathname;
const root = new protobuf.Root().loadSync(protoPath, { keepCase: true });

/** rtserve's own sections: in the schema and the field table, never in Triton's message. */
const RTSERVE_ONLY = new Set(['ModelConfig.engine', 'ModelOutput.label_filename']);
/** Sections that only JSON/YAML configs carry (no pbtxt spelling): in the schema only. */
const JSON_ONLY = new Set(['generate', 'preprocess', 'postprocess']);

/** Every message of the proto by its full name without the package and by its own name (`Latest`). */
const protoTypes = new Map<string, protobuf.Type>();
const indexTypes = (ns: protobuf.NamespaceBase): void => {
  for (const n of ns.nestedArray) {
    if (n instanceof protobuf.Type) {
      protoTypes.set(n.fullName.replace(/^\.inference\./, ''), n);
      if (!protoTypes.has(n.name)) protoTypes.set(n.name, n);
    }
    if (n instanceof protobuf.Namespace || n instanceof protobuf.Type) indexTypes(n);
  }
};
indexTypes(root);

function protoType(desc: MessageDesc): protobuf.Type | undefined {
  return protoTypes.get(desc.name);
}

function walkDesc(desc: MessageDesc, visit: (desc: MessageDesc, name: string, field: FieldDesc) => void, seen = new Set<MessageDesc>()): void {
  if (seen.has(desc)) return;
  seen.add(desc);
  for (const [name, field] of Object.entries(desc.fields)) {
    visit(desc, name, field);
    const inner = messageOf(field.type);
    if (inner !== undefined) walkDesc(inner, visit, seen);
  }
}

function messageOf(t: FieldType): MessageDesc | undefined {
  if (t.t === 'message' || t.t === 'stringOrMessage') return t.message;
  if (t.t === 'map') return messageOf(t.value);
  return undefined;
}

test('every field of the field table exists in model_config.proto with the same shape (or is an rtserve section)', () => {
  const problems: string[] = [];
  walkDesc(MODEL_CONFIG_DESC, (desc, name, field) => {
    const type = protoType(desc);
    if (type === undefined) return; // rtserve-only message (engine)
    const path = `${desc.name}.${name}`;
    if (RTSERVE_ONLY.has(path)) return;
    const pf = type.fields[name];
    if (pf === undefined) {
      problems.push(`${path}: not in model_config.proto`);
      return;
    }
    pf.resolve();
    const isMap = pf instanceof protobuf.MapField;
    if (isMap !== (field.type.t === 'map')) problems.push(`${path}: map in one form only`);
    if (!isMap && pf.repeated !== (field.repeated === true)) problems.push(`${path}: repeated in one form only`);
    if (field.type.t === 'enum') {
      const e = pf.resolvedType;
      if (!(e instanceof protobuf.Enum)) problems.push(`${path}: enum in the table, ${pf.type} in the proto`);
      else {
        const byNumber = Object.entries(e.values)
          .sort((a, b) => a[1] - b[1])
          .map(([k]) => k);
        if (JSON.stringify(byNumber) !== JSON.stringify(field.type.values))
          problems.push(`${path}: enum values ${field.type.values.join(',')} vs proto ${byNumber.join(',')}`);
      }
    }
    const inner = messageOf(field.type);
    if (inner !== undefined && !isMap && pf.resolvedType instanceof protobuf.Type && pf.resolvedType.name !== inner.name.split('.').pop()) {
      problems.push(`${path}: message ${inner.name} vs proto ${pf.resolvedType.name}`);
    }
  });
  assert.deepEqual(problems, []);
});

test('every field of model_config.proto is either read by rtserve or named as unsupported (never silently unknown)', () => {
  const problems: string[] = [];
  const visitMessage = (desc: MessageDesc): void => {
    const type = protoType(desc);
    if (type === undefined) return;
    for (const name of Object.keys(type.fields)) {
      if (!(name in desc.fields) && !desc.unsupported.includes(name)) problems.push(`${desc.name}.${name}`);
    }
  };
  visitMessage(MODEL_CONFIG_DESC);
  walkDesc(MODEL_CONFIG_DESC, (_d, _n, field) => {
    const inner = messageOf(field.type);
    if (inner !== undefined) visitMessage(inner);
  });
  assert.deepEqual(problems, []);
});

// zod 4: unwrap optional/default/array/record wrappers down to the object schema that holds the fields.
type AnyZod = z.ZodType;
function defOf(s: AnyZod): { type: string; [k: string]: unknown } {
  return (s as unknown as { _zod: { def: { type: string; [k: string]: unknown } } })._zod.def;
}
function objectShapes(s: AnyZod): Record<string, AnyZod>[] {
  const d = defOf(s);
  switch (d.type) {
    case 'object':
      return [d['shape'] as Record<string, AnyZod>];
    case 'optional':
    case 'default':
    case 'prefault':
    case 'nullable':
    case 'readonly':
      return objectShapes(d['innerType'] as AnyZod);
    case 'array':
      return objectShapes(d['element'] as AnyZod);
    case 'record':
      return objectShapes(d['valueType'] as AnyZod);
    case 'pipe':
      return objectShapes(d['in'] as AnyZod);
    case 'union':
      return (d['options'] as AnyZod[]).flatMap(objectShapes);
    default:
      return [];
  }
}

test('the zod schema and the field table name the same fields at every level', () => {
  const problems: string[] = [];
  const compare = (schema: AnyZod, desc: MessageDesc, path: string): void => {
    const shapes = objectShapes(schema);
    if (shapes.length === 0) {
      problems.push(`${path}: a message in the field table, not an object in the schema`);
      return;
    }
    const keys = new Set(shapes.flatMap((s) => Object.keys(s)));
    for (const k of keys) {
      if (path === 'ModelConfig' && JSON_ONLY.has(k)) continue;
      if (!(k in desc.fields)) problems.push(`${path}.${k}: in the schema, not in the field table`);
    }
    for (const [k, field] of Object.entries(desc.fields)) {
      if (!keys.has(k)) {
        problems.push(`${path}.${k}: in the field table, not in the schema`);
        continue;
      }
      const inner = messageOf(field.type);
      if (inner === undefined) continue;
      const sub = shapes.map((s) => s[k]).find((x) => x !== undefined);
      if (sub !== undefined) compare(sub, inner, `${path}.${k}`);
    }
  };
  compare(modelConfigSchema, MODEL_CONFIG_DESC, 'ModelConfig');
  assert.deepEqual(problems, []);
});
