/**
 * The worker ↔ owner frames (src/cluster/frame-channel.ts) over a real Unix socket: frames cut anywhere by the
 * stream, several in one chunk, binary parts of every length come back whole, in order, and 8-byte aligned.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FrameChannel, type FrameHead } from '../../../src/cluster/frame-channel.ts';
import { markExclusive } from '../../../src/tensor/exclusive-buffers.ts';
import { socketPair } from '../../helpers/socket-pair.ts';

function bytes(n: number, seed: number): Uint8Array {
  return Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff);
}

describe('FrameChannel', () => {
  test('frames sent through the channel arrive whole and in order, parts aligned', async () => {
    const { a, b, done } = await socketPair();
    try {
      const sender = new FrameChannel(a);
      const receiver = new FrameChannel(b);
      const got: { head: FrameHead; parts: Uint8Array[] }[] = [];
      const all = new Promise<void>((resolve) => {
        receiver.onMessage = (head, parts) => {
          got.push({ head, parts });
          if (got.length === 40) resolve();
        };
      });
      const sizes = [0, 1, 7, 8, 9, 65_535, 70_001, 3 * 1024 * 1024 + 5];
      for (let i = 0; i < 40; i++)
        sender.send({ i, text: 'é'.repeat(i) }, i % 3 === 0 ? [] : [bytes(sizes[i % sizes.length] ?? 0, i), bytes(i, i + 1)]);
      await all;
      got.forEach((g, i) => {
        assert.equal(g.head['i'], i);
        assert.equal(g.head['text'], 'é'.repeat(i));
        if (i % 3 === 0) assert.equal(g.parts.length, 0);
        else {
          assert.deepEqual(g.parts[0], bytes(sizes[i % sizes.length] ?? 0, i));
          assert.deepEqual(g.parts[1], bytes(i, i + 1));
          for (const p of g.parts) assert.equal(p.byteOffset % 8, 0);
        }
      });
    } finally {
      await done();
    }
  });

  test('a frame whose parts are all empty arrives with each of them (an answer with no detections)', async () => {
    const { a, b, done } = await socketPair();
    try {
      const receiver = new FrameChannel(b);
      const got = new Promise<Uint8Array[]>((resolve) => {
        receiver.onMessage = (_head, parts) => resolve(parts);
      });
      new FrameChannel(a).send({ r: 1 }, [new Uint8Array(0), new Uint8Array(0), new Uint8Array(0), new Uint8Array(0)]);
      const parts = await got;
      assert.equal(parts.length, 4);
      for (const p of parts) assert.equal(p.byteLength, 0);
    } finally {
      await done();
    }
  });

  test('a stream cut into one-byte and odd-sized chunks still yields the frames', async () => {
    const { a, b, done } = await socketPair();
    try {
      // Record what the channel writes, then replay it into the receiver in awkward pieces.
      const written: Buffer[] = [];
      const recorder = { write: (chunk: Uint8Array) => written.push(Buffer.from(chunk)) };
      const sender = new FrameChannel(a);
      const origWrite = a.write.bind(a);
      (a as unknown as { write: (c: Uint8Array) => boolean }).write = (c: Uint8Array) => {
        recorder.write(c);
        return origWrite(c);
      };
      sender.send({ n: 1 }, [bytes(100, 1)]);
      sender.send({ n: 2 });
      sender.send({ n: 3 }, [bytes(13, 3), bytes(0, 0)]);
      // The three leave together once the loop turn ends.
      await new Promise<void>((resolve) => setImmediate(resolve));
      const stream = Buffer.concat(written);
      const receiver = new FrameChannel(b);
      const heads: unknown[] = [];
      const partsOf: Uint8Array[][] = [];
      receiver.onMessage = (head, parts) => {
        heads.push(head['n']);
        partsOf.push(parts);
      };
      const feed = (chunk: Buffer): void => {
        b.emit('data', chunk);
      };
      for (let at = 0, k = 1; at < stream.length; k = (k % 5) + 1) {
        feed(stream.subarray(at, at + k));
        at += k;
      }
      // The real bytes arrive too (the same stream again): six frames in all.
      await new Promise<void>((resolve) => {
        const check = setInterval(() => {
          if (heads.length === 6) {
            clearInterval(check);
            resolve();
          }
        }, 5);
      });
      assert.deepEqual(heads, [1, 2, 3, 1, 2, 3]);
      assert.deepEqual(partsOf[0]?.[0], bytes(100, 1));
      assert.deepEqual(partsOf[2]?.[0], bytes(13, 3));
      assert.equal(partsOf[2]?.[1]?.byteLength, 0);
    } finally {
      await done();
    }
  });

  test('messages of one loop turn share a frame; a small part is copied as it is sent, so its sender may reuse it', async () => {
    const { a, b, done } = await socketPair();
    try {
      const sender = new FrameChannel(a);
      const receiver = new FrameChannel(b);
      const got: { head: FrameHead; parts: Uint8Array[] }[] = [];
      const all = new Promise<void>((resolve) => {
        receiver.onMessage = (head, parts) => {
          got.push({ head, parts: parts.map((p) => p.slice()) });
          if (got.length === 5) resolve();
        };
      });
      const reused = bytes(100, 1);
      sender.send({ n: 1 }, [reused]);
      reused.fill(0xee);
      sender.send({ n: 2 }, [reused]);
      sender.send({ n: 3 });
      // Over 16 KiB: it leaves at once, with the messages before it, in the same frame.
      sender.send({ n: 4 }, [bytes(20_000, 4)]);
      sender.send({ n: 5 }, [bytes(9, 5)]);
      await all;
      assert.deepEqual(
        got.map((g) => g.head['n']),
        [1, 2, 3, 4, 5],
      );
      assert.deepEqual(got[0]?.parts[0], bytes(100, 1));
      assert.deepEqual(got[1]?.parts[0], new Uint8Array(100).fill(0xee));
      assert.deepEqual(got[3]?.parts[0], bytes(20_000, 4));
      assert.deepEqual(got[4]?.parts[0], bytes(9, 5));
      assert.equal(sender.counts.messagesSent, 5);
      assert.equal(receiver.counts.messagesReceived, 5);
      // The first four in one frame (written when the large one was sent), the last in the frame of the loop turn.
      assert.equal(receiver.counts.framesReceived, 2);
    } finally {
      await done();
    }
  });

  test('the parts of a small frame share a slab (no frame buffer of their own), those of a large frame get one', async () => {
    const { a, b, done } = await socketPair();
    try {
      const sender = new FrameChannel(a);
      const receiver = new FrameChannel(b);
      const got: { parts: Uint8Array[]; frameBuffer: ArrayBuffer | undefined }[] = [];
      const all = new Promise<void>((resolve) => {
        receiver.onMessage = (_head, parts, frameBuffer) => {
          got.push({ parts, frameBuffer });
          if (got.length === 3) resolve();
        };
      });
      sender.send({ n: 1 }, [bytes(64, 1), bytes(5, 2)]);
      sender.send({ n: 2 }, [bytes(12, 3)]);
      sender.send({ n: 3 }, [bytes(5000, 4), bytes(3, 5)]);
      await all;
      const [small1, small2, large] = got;
      assert.equal(small1?.frameBuffer, undefined);
      assert.equal(small2?.frameBuffer, undefined);
      assert.deepEqual(small1?.parts, [bytes(64, 1), bytes(5, 2)]);
      assert.deepEqual(small2?.parts, [bytes(12, 3)]);
      for (const p of [...(small1?.parts ?? []), ...(small2?.parts ?? [])]) assert.equal(p.byteOffset % 8, 0);
      // Views over a shared slab are never marked as one request's own (an engine copies them instead of taking them).
      assert.equal(markExclusive(small2?.parts[0] as Uint8Array), false);
      assert.ok(large?.frameBuffer !== undefined);
      assert.equal(large?.frameBuffer.byteLength, 5000 + 8);
      assert.equal(large?.parts[0]?.buffer, large?.frameBuffer);
      assert.deepEqual(large?.parts, [bytes(5000, 4), bytes(3, 5)]);
    } finally {
      await done();
    }
  });
});
