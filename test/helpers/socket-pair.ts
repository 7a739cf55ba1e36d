/** Two ends of a real Unix socket (a server on a temporary path and a client connected to it), for channel tests. */
import { createServer, connect, type Socket } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function socketPair(): Promise<{ a: Socket; b: Socket; done: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'rtserve-frames-'));
  const path = join(dir, 's.sock');
  const server = createServer();
  const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
  await new Promise<void>((resolve) => server.listen(path, resolve));
  const a = connect(path);
  const b = await accepted;
  return {
    a,
    b,
    done: async () => {
      a.destroy();
      b.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
