/**
 * A real redis-server for the tests that share rate limits through Redis: started by the test on a free loopback
 * port with no persistence, stoppable and restartable on the same port (a Redis restart). Under CI=true a missing
 * redis-server fails the test (test/helpers/tools.ts).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { assertPresent, skipUnlessPresent } from './tools.ts';

export const hasRedis = spawnSync('redis-server', ['--version']).status === 0;
const INSTALL = 'apt-get install redis-server';

/** The skip reason for a Redis suite (none under CI=true). */
export const redisSkip = (): false | string => skipUnlessPresent(hasRedis, 'redis-server', INSTALL);

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

function accepts(port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const c = connect(port, '127.0.0.1');
    c.once('connect', () => {
      c.end();
      resolve(true);
    });
    c.once('error', () => resolve(false));
  });
}

export class RedisServer {
  private child: ChildProcess | undefined;

  private constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<RedisServer> {
    assertPresent(hasRedis, 'redis-server', INSTALL);
    const r = new RedisServer(await freePort());
    await r.restart();
    return r;
  }

  /** Starts it (again) on its port and resolves once it accepts connections. */
  async restart(): Promise<void> {
    if (this.child !== undefined) throw new Error('redis-server is running');
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    this.child = child;
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code) => reject(new Error(`redis-server exited (${code}) on port ${this.port}`))),
    );
    exited.catch(() => {});
    for (let i = 0; !(await Promise.race([accepts(this.port), exited])); i++) {
      if (i > 400) throw new Error(`redis-server did not accept connections on port ${this.port}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** Kills it (SIGKILL: no goodbye to clients) and resolves once it has exited. */
  async kill(): Promise<void> {
    const child = this.child;
    if (child === undefined) return;
    this.child = undefined;
    if (child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }
}
