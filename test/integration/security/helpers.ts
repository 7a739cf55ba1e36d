import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A valid request to the bundled `simple` model (INPUT0 + INPUT1, INT32 [1,16]). */
export function simpleRequest(a = 1, b = 2): { inputs: { name: string; datatype: string; shape: number[]; data: number[] }[] } {
  return {
    inputs: [
      { name: 'INPUT0', datatype: 'INT32', shape: [1, 16], data: Array.from({ length: 16 }, (_, i) => i * a) },
      { name: 'INPUT1', datatype: 'INT32', shape: [1, 16], data: Array.from({ length: 16 }, () => b) },
    ],
  };
}

export interface Certs {
  readonly dir: string;
  readonly caCert: string;
  readonly serverCert: string;
  readonly serverKey: string;
  readonly clientCert: string;
  readonly clientKey: string;
  /** A client certificate from another CA: must be refused by a server trusting only `caCert`. */
  readonly rogueCert: string;
  readonly rogueKey: string;
  cleanup(): Promise<void>;
}

function openssl(args: string[], cwd: string): void {
  const r = spawnSync('openssl', args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`openssl ${args.join(' ')} failed: ${r.stderr}`);
}

/** Throwaway certificates: a CA, a server cert for 127.0.0.1/localhost, a client cert, and a rogue client cert. */
export async function makeCerts(): Promise<Certs> {
  const dir = await mkdtemp(join(tmpdir(), 'rtserve-certs-'));
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', '/CN=rtserve test CA'], dir);
  openssl(['req', '-x509', ...ec, '-keyout', 'rogue-ca.key', '-out', 'rogue-ca.crt', '-days', '2', '-subj', '/CN=rogue CA'], dir);
  const issue = (name: string, ca: string, extra: string[]): void => {
    openssl(['req', ...ec, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`], dir);
    openssl(
      [
        'x509',
        '-req',
        '-in',
        `${name}.csr`,
        '-CA',
        `${ca}.crt`,
        '-CAkey',
        `${ca}.key`,
        '-CAcreateserial',
        '-out',
        `${name}.crt`,
        '-days',
        '2',
        ...extra,
      ],
      dir,
    );
  };
  const { writeFileSync } = await import('node:fs');
  writeFileSync(join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
  writeFileSync(join(dir, 'client.ext'), 'extendedKeyUsage=clientAuth\n');
  issue('server', 'ca', ['-extfile', 'server.ext']);
  issue('client', 'ca', ['-extfile', 'client.ext']);
  issue('rogue', 'rogue-ca', ['-extfile', 'client.ext']);
  const p = (f: string): string => join(dir, f);
  return {
    dir,
    caCert: p('ca.crt'),
    serverCert: p('server.crt'),
    serverKey: p('server.key'),
    clientCert: p('client.crt'),
    clientKey: p('client.key'),
    rogueCert: p('rogue.crt'),
    rogueKey: p('rogue.key'),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}
