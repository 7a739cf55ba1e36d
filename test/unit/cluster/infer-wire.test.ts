/**
 * Requests and responses over the worker ↔ owner channel (src/cluster/infer-wire.ts) on a real Unix socket: every
 * field of an InferRequest and an InferResponse crosses, a field the types do not know yet crosses too (the wire
 * carries fields by default: a field added to InferRequest is never dropped under --workers N), and the image form
 * of POST /v2/models/{m}/image crosses with its tensors.
 *
 * `every` below is checked against `Required<InferRequest>` by the type check (npm test type-checks first): a key
 * added to InferRequest fails it until the test names it, and the round trip then checks that it crosses.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ImageRequest, ImageResult } from '../../../src/api/image-types.ts';
import type { InferRequest, InferResponse } from '../../../src/api/types.ts';
import { FrameChannel } from '../../../src/cluster/frame-channel.ts';
import {
  imageRequestFromWire,
  imageRequestToWire,
  imageResultFromWire,
  imageResultToWire,
  requestFromWire,
  requestToWire,
  responseFromWire,
  responseToWire,
} from '../../../src/cluster/infer-wire.ts';
import { RpcPeer, type Payload } from '../../../src/cluster/rpc-peer.ts';
import { rtError } from '../../../src/errors/registry.ts';
import type { RequestContext } from '../../../src/observability/request-context.ts';
import { socketPair } from '../../helpers/socket-pair.ts';

const context: RequestContext = {
  requestId: 'req-1',
  trace: { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', parentSpanId: '00f067aa0ba902b7', flags: '01' },
  protocol: 'grpc',
  receivedNs: 123456789012345n,
};

const every = {
  model: 'm',
  version: '2',
  id: 'id-7',
  inputs: [
    { name: 'a', datatype: 'FP32', shape: [1, 2], data: new Float32Array([1.5, -2]) },
    { name: 'b', datatype: 'BYTES', shape: [1], data: [new TextEncoder().encode('text')] },
  ],
  sharedMemoryInputs: [{ name: 'c', datatype: 'INT32', shape: [4], sharedMemory: { region: 'r', offset: 8, byteSize: 16 }, index: 1 }],
  outputs: [{ name: 'out', parameters: { classification: 2 } }],
  parameters: { top_k: 3, flag: true, note: 'x' },
  signal: new AbortController().signal,
  protocol: 'grpc',
  context,
  principal: 'alice',
  frames: [{ width: 640, height: 480, resizeWidth: 224, resizeHeight: 168, offsetX: 0, offsetY: 28 }],
} satisfies Required<InferRequest>;

const response = {
  model_name: 'm',
  model_version: '2',
  id: 'id-7',
  parameters: { triton_final_response: true },
  outputs: [{ name: 'out', datatype: 'INT64', shape: [2], data: new BigInt64Array([5n, -6n]) }],
  sharedMemoryOutputs: new Map([['shm_out', { region: 'r', offset: 0, byteSize: 8 }]]),
} satisfies Required<InferResponse>;

/** An owner that answers each method with `serve`, and a worker that calls it, over a real socket. */
async function channel(serve: (method: string, value: unknown, parts: readonly Uint8Array[], signal: AbortSignal) => Promise<Payload>) {
  const { a, b, done } = await socketPair();
  new RpcPeer(
    new FrameChannel(b),
    (method, args, ctx) => serve(method, args.value, args.parts, ctx.signal),
    () => rtError('CANCELLED', 'gone'),
  );
  const worker = new RpcPeer(
    new FrameChannel(a),
    async () => ({ value: null }),
    () => rtError('ENGINE_OWNER_GONE', 'gone'),
  );
  return { worker, done };
}

describe('infer-wire', () => {
  test('every field of an InferRequest and an InferResponse crosses, and so does a field the wire does not know', async () => {
    let received: InferRequest | undefined;
    let receivedContext: RequestContext | undefined;
    const answer = { ...response, futureResponseField: { kept: 1 } } as InferResponse;
    const { worker, done } = await channel(async (_method, value, parts, signal) => {
      received = await requestFromWire(value, parts, signal);
      receivedContext = { ...(received.context as RequestContext) };
      // What the core fills into the context comes back to the worker's.
      (received.context as RequestContext).model = 'm';
      return responseToWire(answer, received.context);
    });
    try {
      const sent = { ...every, futureRequestField: ['kept'] } as InferRequest;
      const workerContext: RequestContext = { ...context };
      const got = await worker.call('infer', requestToWire({ ...sent, context: workerContext }));
      const back = responseFromWire(got.value, got.parts, workerContext);

      assert.ok(received !== undefined);
      assert.deepEqual(Object.keys(received).sort(), Object.keys(sent).sort());
      const { signal, context: _ctx, inputs, ...rest } = received;
      const { signal: _s, context: _c, inputs: sentInputs, ...sentRest } = sent;
      assert.deepEqual(rest, sentRest);
      assert.deepEqual(inputs, sentInputs);
      assert.notEqual(signal, every.signal, "the owner's own signal");
      assert.equal(signal?.aborted, false);
      assert.deepEqual(receivedContext, context);

      assert.deepEqual(Object.keys(back).sort(), Object.keys(answer).sort());
      assert.deepEqual(back, answer);
      assert.equal(workerContext.model, 'm');
    } finally {
      await done();
    }
  });

  test('the image form crosses: bytes and options to the owner, the result (with tensors) back', async () => {
    const tensors: ImageResult = {
      type: 'tensors',
      model_name: 'shapes',
      model_version: '1',
      id: 'img',
      image: { width: 640, height: 480, format: 'jpeg' },
      timing: { decode_us: 1, infer_us: 2, postprocess_us: 3 },
      outputs: [{ name: 'logits', datatype: 'FP32', shape: [1, 2], data: new Float32Array([0.25, 0.75]) }],
    };
    const { outputs: _outputs, ...base } = tensors;
    const classes: ImageResult = { ...base, type: 'classification', classes: [{ index: 3, label: 'three', score: 0.5 }] };
    let received: ImageRequest | undefined;
    const { worker, done } = await channel(async (_method, value, parts, signal) => {
      received = imageRequestFromWire(value, parts, signal);
      return imageResultToWire(received.model === 'digits' ? classes : tensors);
    });
    try {
      const sent: ImageRequest = {
        model: 'shapes',
        bytes: new Uint8Array([0xff, 0xd8, 0xff, 1, 2, 3]),
        version: '1',
        id: 'img',
        protocol: 'http',
        rawFrame: { width: 2, height: 1 },
        topK: 2,
        scoreThreshold: 0.25,
        iouThreshold: 0.5,
        maxDetections: 10,
        signal: new AbortController().signal,
      };
      const got = await worker.call('image', imageRequestToWire(sent));
      assert.deepEqual(imageResultFromWire(got.value, got.parts), tensors);
      const { signal: _s, ...sentFields } = sent;
      const { signal, ...receivedFields } = received as ImageRequest;
      assert.deepEqual(receivedFields, sentFields);
      assert.equal(signal?.aborted, false);

      const again = await worker.call('image', imageRequestToWire({ model: 'digits', bytes: new Uint8Array([1]) }));
      assert.deepEqual(imageResultFromWire(again.value, again.parts), classes);
    } finally {
      await done();
    }
  });
});
