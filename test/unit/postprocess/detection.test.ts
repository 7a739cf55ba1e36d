import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { nonMaxSuppression, postprocessDetections, type DetectionOptions } from '../../../src/postprocess/detection.ts';
import { boxIou, boxToSource, type ImageTransform } from '../../../src/postprocess/geometry.ts';
import { meanAveragePrecision } from '../../../src/postprocess/average-precision.ts';

const identity: ImageTransform = {
  sourceWidth: 100,
  sourceHeight: 100,
  targetWidth: 100,
  targetHeight: 100,
  scaleX: 1,
  scaleY: 1,
  offsetX: 0,
  offsetY: 0,
};
const opts = (over: Partial<DetectionOptions> = {}): DetectionOptions => ({
  boxFormat: 'xyxy',
  normalized: false,
  scoreThreshold: 0.3,
  iouThreshold: 0.5,
  maxDetections: 100,
  classAware: true,
  ...over,
});

describe('detection postprocess', () => {
  test('IoU of boxes', () => {
    assert.equal(boxIou([0, 0, 10, 10], [0, 0, 10, 10]), 1);
    assert.equal(boxIou([0, 0, 10, 10], [10, 0, 20, 10]), 0);
    assert.ok(Math.abs(boxIou([0, 0, 10, 10], [5, 0, 15, 10]) - 50 / 150) < 1e-12);
  });

  test('NMS keeps the best of overlapping boxes of a class, and boxes of other classes', () => {
    const dets = [
      { box: [0, 0, 10, 10], classId: 0, score: 0.9 },
      { box: [1, 1, 11, 11], classId: 0, score: 0.8 },
      { box: [1, 1, 11, 11], classId: 1, score: 0.7 },
      { box: [50, 50, 60, 60], classId: 0, score: 0.6 },
    ];
    assert.deepEqual(
      nonMaxSuppression(dets, 0.5, true).map((d) => d.score),
      [0.9, 0.7, 0.6],
    );
    assert.deepEqual(
      nonMaxSuppression(dets, 0.5, false).map((d) => d.score),
      [0.9, 0.6],
    );
    assert.deepEqual(
      nonMaxSuppression(dets, 0.5, true, 2).map((d) => d.score),
      [0.9, 0.7],
    );
  });

  test('threshold, formats, degenerate boxes, labels and limits', () => {
    const c = {
      // xywh: 3 candidates
      boxes: [10, 10, 20, 20, 12, 12, 20, 20, 40, 40, 0, 5],
      scores: [0.2, 0.9, 0.95],
      classes: [0, 2, 1],
      count: 3,
    };
    const r = postprocessDetections(c, identity, opts({ boxFormat: 'xywh', labels: ['circle', 'square', 'triangle'] }));
    // the first is under the threshold, the third has zero width
    assert.deepEqual(r, [{ box: [12, 12, 32, 32], classId: 2, label: 'triangle', score: 0.9 }]);
    const cxcy = postprocessDetections({ boxes: [50, 50, 20, 10], scores: [1], classes: [0], count: 1 }, identity, opts({ boxFormat: 'cxcywh' }));
    assert.deepEqual(cxcy[0]?.box, [40, 45, 60, 55]);
    const norm = postprocessDetections({ boxes: [0.1, 0.2, 0.5, 0.6], scores: [1], classes: [0], count: 1 }, identity, opts({ normalized: true }));
    assert.deepEqual(norm[0]?.box, [10, 20, 50, 60]);
    const nan = postprocessDetections({ boxes: [0, 0, 1, 1], scores: [Number.NaN], classes: [0], count: 1 }, identity, opts({ scoreThreshold: 0 }));
    assert.deepEqual(nan, []);
  });

  test('boxes map back to the original image through the resize transform, clipped to it', () => {
    // 640x480 resized to 160x160 with letterbox: scale 0.25, 20 px of padding above
    const t: ImageTransform = {
      sourceWidth: 640,
      sourceHeight: 480,
      targetWidth: 160,
      targetHeight: 160,
      scaleX: 0.25,
      scaleY: 0.25,
      offsetX: 0,
      offsetY: 20,
    };
    assert.deepEqual(boxToSource([10, 30, 20, 40], t), [40, 40, 80, 80]);
    assert.deepEqual(boxToSource([-5, 10, 170, 150], t), [0, 0, 640, 480]);
    const r = postprocessDetections({ boxes: [10, 30, 20, 40], scores: [0.5], classes: [1], count: 1 }, t, opts());
    assert.deepEqual(r[0]?.box, [40, 40, 80, 80]);
  });
});

describe('mean average precision', () => {
  const truths = [
    { image: 0, classId: 0, box: [0, 0, 10, 10] },
    { image: 0, classId: 1, box: [20, 20, 30, 30] },
    { image: 1, classId: 0, box: [0, 0, 10, 10] },
  ];
  test('perfect detections give 1', () => {
    const dets = truths.map((t) => ({ ...t, score: 0.9 }));
    assert.equal(meanAveragePrecision(dets, truths).map, 1);
  });
  test('a duplicate is a false positive, a miss lowers recall, a wrong class finds nothing', () => {
    const dets = [
      { image: 0, classId: 0, box: [0, 0, 10, 10], score: 0.9 },
      { image: 0, classId: 0, box: [1, 1, 10, 10], score: 0.8 }, // duplicate of a found object
      { image: 0, classId: 0, box: [20, 20, 30, 30], score: 0.7 }, // wrong class
    ];
    const { map, perClass } = meanAveragePrecision(dets, truths);
    // class 0: one of two found at precision 1 → AP 0.5; class 1: nothing → 0
    assert.equal(perClass.get(0), 0.5);
    assert.equal(perClass.get(1), 0);
    assert.equal(map, 0.25);
  });
  test('ranking matters: a false positive above a true one lowers AP', () => {
    const one = [{ image: 0, classId: 0, box: [0, 0, 10, 10] }];
    const good = meanAveragePrecision(
      [
        { image: 0, classId: 0, box: [0, 0, 10, 10], score: 0.9 },
        { image: 0, classId: 0, box: [50, 50, 60, 60], score: 0.1 },
      ],
      one,
    );
    const bad = meanAveragePrecision(
      [
        { image: 0, classId: 0, box: [0, 0, 10, 10], score: 0.1 },
        { image: 0, classId: 0, box: [50, 50, 60, 60], score: 0.9 },
      ],
      one,
    );
    assert.equal(good.map, 1);
    assert.equal(bad.map, 0.5);
  });
});
