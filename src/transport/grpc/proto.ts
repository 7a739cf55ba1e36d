/**
 * The .proto files rtserve serves, loaded once with @grpc/proto-loader: `inference` (proto/grpc_service.proto and
 * proto/model_config.proto, docs/protocol.md §2.5) and `grpc.health.v1` (the health.proto that grpc-health-check ships).
 * The package definitions drive grpc-js (service paths, the generic codec for the small RPCs) and server
 * reflection (@grpc/reflection reads their file descriptors).
 */
import { join } from 'node:path';
import * as protoLoader from '@grpc/proto-loader';
import { protoPath as healthProtoPath } from 'grpc-health-check';
import { packageRoot } from '../../util/package-root.ts';

/** The folder of rtserve's .proto files, found from the package root so it works under src/ and dist/ alike. */
export function protoDir(): string {
  return join(packageRoot(), 'src', 'transport', 'grpc', 'proto');
}

/** The main .proto file; clients can generate their code from it (`model_config.proto` sits beside it). */
export function inferenceProtoPath(): string {
  return join(protoDir(), 'grpc_service.proto');
}

/**
 * proto-loader options for the generic codec: field names as in the .proto (snake_case, as Triton's JSON),
 * 64-bit integers as numbers (shapes, counts and nanoseconds stay below 2^53), enums as their names, and every
 * field present with its default so handlers never test for undefined.
 */
export const PROTO_LOADER_OPTIONS: protoLoader.Options = Object.freeze({
  keepCase: true,
  longs: Number,
  enums: String,
  defaults: true,
  oneofs: true,
});

let inference: protoLoader.PackageDefinition | undefined;
let health: protoLoader.PackageDefinition | undefined;

export function inferencePackageDefinition(): protoLoader.PackageDefinition {
  inference ??= protoLoader.loadSync('grpc_service.proto', { ...PROTO_LOADER_OPTIONS, includeDirs: [protoDir()] });
  return inference;
}

export function healthPackageDefinition(): protoLoader.PackageDefinition {
  health ??= protoLoader.loadSync(healthProtoPath, PROTO_LOADER_OPTIONS);
  return health;
}
