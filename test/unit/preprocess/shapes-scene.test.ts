/**
 * The TypeScript scene generator (models/train/shapes-scene.ts) against its Python twin (digests written by
 * models/train/scene_digests.py), and the properties the tests, benchmark and demo rely on.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  SCENE_HEIGHT,
  SCENE_WIDTH,
  boxOf,
  generateScene,
  iou,
  mulberry32,
  mulberryAt,
  renderScene,
  sceneAt,
  sceneObjects,
} from '../../../models/train/shapes-scene.ts';

interface DigestEntry {
  seed: number;
  scale: number;
  width: number;
  height: number;
  objects: number;
  sha256: string;
}

const digests = JSON.parse(readFileSync(new URL('../../../models/train/shapes-scene-digests.json', import.meta.url), 'utf8')) as {
  scenes: DigestEntry[];
};

describe('shapes scene generator', () => {
  test('renders exactly the pixels and boxes of the Python generator (models/train/shapes_scene.py)', () => {
    assert.ok(digests.scenes.length >= 10);
    for (const d of digests.scenes) {
      const r = renderScene(generateScene(d.seed), d.scale);
      assert.equal(r.width, d.width);
      assert.equal(r.height, d.height);
      assert.equal(r.objects.length, d.objects, `seed ${d.seed}`);
      const h = createHash('sha256').update(r.pixels);
      const boxes = new Float64Array(r.objects.flatMap((o) => [o.cls, ...o.box]));
      h.update(new Uint8Array(boxes.buffer));
      assert.equal(h.digest('hex'), d.sha256, `seed ${d.seed} at scale ${d.scale}: TypeScript and Python scenes differ`);
    }
  });

  test('mulberryAt(seed, k) is the k-th value of the sequential generator', () => {
    for (const seed of [0, 1, 0xdeadbeef, 4294967295]) {
      const r = mulberry32(seed);
      for (let k = 0; k < 2000; k++) assert.equal(mulberryAt(seed, k), r(), `seed ${seed}, k ${k}`);
    }
    // far into the stream, where (k + 1) · GOLDEN no longer fits in 53 bits
    const r = mulberry32(7);
    let last = 0;
    for (let k = 0; k <= 3_000_000; k++) last = r();
    assert.equal(mulberryAt(7, 3_000_000), last);
  });

  test('every scene has 1 to 5 shapes of the three classes, inside the frame, overlapping little', () => {
    const seen = new Set<number>();
    for (let seed = 1; seed <= 300; seed++) {
      const spec = generateScene(seed);
      assert.ok(spec.shapes.length >= 1 && spec.shapes.length <= 5, `seed ${seed}: ${spec.shapes.length} shapes`);
      const boxes = spec.shapes.map((s) => boxOf(s));
      for (const [i, b] of boxes.entries()) {
        seen.add(spec.shapes[i]?.cls ?? -1);
        assert.ok(
          b[0] >= -1e-9 && b[1] >= -1e-9 && b[2] <= SCENE_WIDTH + 1e-9 && b[3] <= SCENE_HEIGHT + 1e-9,
          `seed ${seed}: box ${b.join(',')} leaves the frame`,
        );
        for (const other of boxes.slice(i + 1)) assert.ok(iou(b, other) <= 0.15);
      }
    }
    assert.deepEqual([...seen].sort(), [0, 1, 2]);
  });

  test('the same seed gives the same scene; different seeds differ', () => {
    assert.deepEqual(generateScene(5), generateScene(5));
    assert.notDeepEqual(renderScene(generateScene(5)).pixels, renderScene(generateScene(6)).pixels);
  });

  test('a shape is painted in its own colour at its centre when nothing covers it', () => {
    let checked = 0;
    for (let seed = 1; seed <= 50; seed++) {
      const spec = { ...generateScene(seed), noiseAmp: 0 };
      const r = renderScene(spec);
      const last = spec.shapes.at(-1);
      if (last === undefined) continue;
      const x = Math.floor(last.cx);
      const y = Math.floor(last.cy);
      const o = (y * r.width + x) * 3;
      assert.deepEqual([r.pixels[o], r.pixels[o + 1], r.pixels[o + 2]], [...last.color], `seed ${seed}`);
      checked++;
    }
    assert.equal(checked, 50);
  });

  test('animated scenes keep every shape inside the frame and scale boxes with the rendering', () => {
    const spec = generateScene(11);
    for (const t of [0, 0.5, 3.7, 60, 1234.5]) {
      const moved = sceneAt(spec, t);
      for (const o of sceneObjects(moved)) {
        assert.ok(o.box[0] >= -1e-6 && o.box[1] >= -1e-6 && o.box[2] <= SCENE_WIDTH + 1e-6 && o.box[3] <= SCENE_HEIGHT + 1e-6, `t=${t}`);
      }
    }
    for (const [i, s] of sceneAt(spec, 0).shapes.entries()) {
      assert.ok(Math.abs(s.cx - (spec.shapes[i]?.cx ?? NaN)) < 1e-9 && Math.abs(s.cy - (spec.shapes[i]?.cy ?? NaN)) < 1e-9);
    }
    assert.notDeepEqual(sceneAt(spec, 1).shapes, spec.shapes);
    const big = renderScene(sceneAt(spec, 2), 4);
    assert.equal(big.width, 640);
    assert.deepEqual(
      big.objects.map((o) => o.box),
      sceneObjects(sceneAt(spec, 2)).map((o) => o.box.map((v) => v * 4)),
    );
  });
});
