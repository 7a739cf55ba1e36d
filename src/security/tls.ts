import { readFileSync } from 'node:fs';
import { ServerCredentials } from '@grpc/grpc-js';
import { rtError } from '../errors/registry.ts';

/** The TLS settings of the server config (flat keys so that flags and RTSERVE_TLS_* variables can set them). */
export interface TlsConfig {
  readonly tlsCert?: string | undefined;
  readonly tlsKey?: string | undefined;
  readonly tlsCa?: string | undefined;
}

/** PEM material read from the configured files. */
export interface TlsMaterial {
  readonly cert: Buffer;
  readonly key: Buffer;
  /** Present = mutual TLS: client certificates signed by this CA are required. */
  readonly ca?: Buffer;
}

function readPem(path: string, what: string): Buffer {
  let data: Buffer;
  try {
    data = readFileSync(path);
  } catch (err) {
    throw rtError('BAD_CONFIG', `${what}: cannot read ${path}: ${(err as Error).message}`);
  }
  if (!data.includes('-----BEGIN ')) throw rtError('BAD_CONFIG', `${what}: ${path} is not a PEM file`);
  return data;
}

/** Reads the certificate, key and optional CA; undefined when TLS is off. Both cert and key, or neither. */
export function loadTlsMaterial(config: TlsConfig): TlsMaterial | undefined {
  const { tlsCert, tlsKey, tlsCa } = config;
  if (tlsCert === undefined && tlsKey === undefined) {
    if (tlsCa !== undefined) throw rtError('BAD_CONFIG', 'tlsCa (--tls-ca) needs tlsCert and tlsKey (--tls-cert, --tls-key)');
    return undefined;
  }
  if (tlsCert === undefined || tlsKey === undefined) {
    throw rtError(
      'BAD_CONFIG',
      `TLS needs both a certificate and a key: ${tlsCert === undefined ? '--tls-cert / tlsCert' : '--tls-key / tlsKey'} is missing`,
    );
  }
  return {
    cert: readPem(tlsCert, 'tlsCert'),
    key: readPem(tlsKey, 'tlsKey'),
    ...(tlsCa === undefined ? {} : { ca: readPem(tlsCa, 'tlsCa') }),
  };
}

/** Options for node:https (and so fastify's `https`): TLS 1.2+, client certificates required when a CA is set. */
export function httpsServerOptions(tls: TlsMaterial): {
  cert: Buffer;
  key: Buffer;
  ca?: Buffer;
  requestCert: boolean;
  rejectUnauthorized: boolean;
  minVersion: 'TLSv1.2';
} {
  return {
    cert: tls.cert,
    key: tls.key,
    minVersion: 'TLSv1.2',
    ...(tls.ca === undefined ? {} : { ca: tls.ca }),
    requestCert: tls.ca !== undefined,
    rejectUnauthorized: tls.ca !== undefined,
  };
}

/** gRPC server credentials: TLS with the same material (client certificates checked when a CA is set). */
export function grpcServerCredentials(tls: TlsMaterial | undefined): ServerCredentials {
  if (tls === undefined) return ServerCredentials.createInsecure();
  return ServerCredentials.createSsl(tls.ca ?? null, [{ private_key: tls.key, cert_chain: tls.cert }], tls.ca !== undefined);
}
