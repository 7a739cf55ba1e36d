/**
 * Which front-end worker holds a client's connection (docs/workers.md): node:cluster hands each new connection to
 * the next worker; the kernel says which process got it.
 */
import { readdir, readFile, readlink } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { until } from '../../helpers/until.ts';
import { TestWs } from '../ws/ws-test-client.ts';

/**
 * Which of `pids` holds the server end of the client connection from `localPort` (Linux: the socket's inode in
 * /proc/net/tcp, then the process whose file descriptors include it).
 */
export async function workerOfConnection(localPort: number, pids: readonly number[]): Promise<number> {
  const hexPort = localPort.toString(16).toUpperCase().padStart(4, '0');
  let inode: string | undefined;
  await until(async () => {
    for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
      for (const line of (await readFile(file, 'utf8')).split('\n').slice(1)) {
        const f = line.trim().split(/\s+/);
        // local address, remote address, …, inode: the server's end has the client's port as its remote port.
        if (f[2]?.endsWith(`:${hexPort}`) === true && f[9] !== undefined && f[9] !== '0') inode = f[9];
      }
    }
    return inode !== undefined;
  }, `the server end of the connection from port ${localPort}`);
  for (const pid of pids) {
    for (const fd of await readdir(`/proc/${pid}/fd`)) {
      const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
      if (target === `socket:[${inode}]`) return pid;
    }
  }
  throw new Error(`no worker holds the connection from port ${localPort}`);
}

/** WebSocket sessions until there is one on each of `pids` (every worker), with the worker each is on. */
export async function sessionsOnEveryWorker(httpUrl: string, pids: readonly number[]): Promise<{ ws: TestWs; pid: number }[]> {
  const sessions: { ws: TestWs; pid: number }[] = [];
  while (new Set(sessions.map((x) => x.pid)).size < pids.length) {
    if (sessions.length >= 16) throw new Error('sixteen connections all went to one worker');
    const ws = await TestWs.open(httpUrl);
    const localPort = (ws.ws as unknown as { _socket: Socket })._socket.localPort;
    if (localPort === undefined) throw new Error('the WebSocket has no local port');
    sessions.push({ ws, pid: await workerOfConnection(localPort, pids) });
  }
  return sessions;
}
