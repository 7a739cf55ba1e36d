#!/usr/bin/env node
// Writes src/onnx/onnx.proto back from the FileDescriptorProto that a protoc-compiled ONNX package embeds (the npm
// package onnx-buf ships ONNX's onnx.proto only in that form: `fileDesc("<base64>")` in dist/onnx_pb.js).
//
//   npm pack onnx-buf@1.20.0-1 && tar xzf onnx-buf-1.20.0-1.tgz
//   node scripts/onnx-proto-from-descriptor.mjs package/dist/onnx_pb.js > /tmp/onnx.proto
//
// then put the header of src/onnx/onnx.proto on top, copy it there and run `npm run gen:onnx`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const protobuf = require('protobufjs');
const descriptor = require('protobufjs/ext/descriptor');

const [file] = process.argv.slice(2);
if (file === undefined) {
  process.stderr.write('usage: onnx-proto-from-descriptor.mjs <onnx_pb.js>\n');
  process.exit(2);
}
const b64 = /fileDesc\("([A-Za-z0-9+/=]+)"/.exec(readFileSync(file, 'utf8'))?.[1];
if (b64 === undefined) throw new Error(`${file}: no fileDesc("...") found`);
const fdp = descriptor.FileDescriptorProto.decode(Buffer.from(b64, 'base64'));
const root = protobuf.Root.fromDescriptor(descriptor.FileDescriptorSet.create({ file: [fdp] }));
const dir = mkdtempSync(join(tmpdir(), 'onnx-proto-'));
writeFileSync(join(dir, 'onnx.json'), JSON.stringify(root.toJSON()));
const pbjs = join(require.resolve('protobufjs-cli/package.json'), '..', 'bin', 'pbjs');
const text = execFileSync(process.execPath, [pbjs, '-t', 'proto2', join(dir, 'onnx.json')], { encoding: 'utf8' });
// pbjs quotes an enum-valued file option; protoc wants the bare name.
process.stdout.write(text.replace('option optimize_for = "LITE_RUNTIME";', 'option optimize_for = LITE_RUNTIME;'));
