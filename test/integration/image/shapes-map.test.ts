/**
 * Detection quality of the bundled `shapes` model, measured through the served REST path: held-out generated
 * scenes (seeds 1..N; training used seeds from 1,000,000) drawn at 640x480, sent as JPEG to POST /image, scored
 * with mAP@0.5 (PASCAL VOC AP) against the generator's boxes. models/shapes/MODEL_CARD.md quotes these numbers.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { meanAveragePrecision, type GroundTruth, type ScoredBox } from '../../../src/postprocess/average-precision.ts';
import { startTestServer } from '../../helpers/server.ts';
import { encodeScene, scene } from './image-helpers.ts';

const SCENES = 150;
/**
 * Measured 0.9919 (JPEG) and 0.9918 (PNG) on every run (deterministic here; models/shapes/MODEL_CARD.md); the
 * README claims 0.99. The gate leaves 0.01 for another machine's JPEG decoder and resize rounding, no more.
 */
const MIN_MAP = 0.98;

let server: RunningServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

interface DetectionBody {
  image: { width: number; height: number };
  detections: { box: number[]; class_id: number; label: string; score: number }[];
}

async function measure(format: 'jpeg' | 'png', scale: number): Promise<{ map: number; perClass: Map<number, number> }> {
  const dets: ScoredBox[] = [];
  const truths: GroundTruth[] = [];
  for (let start = 1; start <= SCENES; start += 8) {
    await Promise.all(
      Array.from({ length: Math.min(8, SCENES - start + 1) }, async (_, k) => {
        const seed = start + k;
        const r = scene(seed, scale);
        for (const o of r.objects) truths.push({ image: seed, classId: o.cls, box: o.box });
        // A low threshold gives the whole precision-recall curve (mAP), not one point of it.
        const res = await fetch(`${server.httpUrl}/v2/models/shapes/image?score_threshold=0.05`, {
          method: 'POST',
          headers: { 'content-type': `image/${format}` },
          body: await encodeScene(r, format),
        });
        assert.equal(res.status, 200);
        const body = (await res.json()) as DetectionBody;
        assert.deepEqual([body.image.width, body.image.height], [r.width, r.height]);
        for (const d of body.detections) dets.push({ image: seed, classId: d.class_id, score: d.score, box: d.box });
      }),
    );
  }
  return meanAveragePrecision(dets, truths, 0.5);
}

test('shapes: mAP@0.5 >= 0.98 on held-out 640x480 JPEG scenes over REST /image', async () => {
  const { map, perClass } = await measure('jpeg', 4);
  console.log(
    `shapes mAP@0.5 over REST, ${SCENES} scenes 640x480 JPEG q85: ${map.toFixed(4)} (circle ${perClass.get(0)?.toFixed(3)}, square ${perClass.get(1)?.toFixed(3)}, triangle ${perClass.get(2)?.toFixed(3)})`,
  );
  assert.ok(map >= MIN_MAP, `mAP@0.5 ${map} < ${MIN_MAP}`);
});

test('shapes: mAP@0.5 >= 0.98 at the model input size (160x120 PNG, no resize)', async () => {
  const { map } = await measure('png', 1);
  console.log(`shapes mAP@0.5 over REST, ${SCENES} scenes 160x120 PNG: ${map.toFixed(4)}`);
  assert.ok(map >= MIN_MAP, `mAP@0.5 ${map} < ${MIN_MAP}`);
});
