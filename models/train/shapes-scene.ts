/**
 * Procedural "shapes" scenes: circles, squares and triangles of random size, colour and position on a gradient
 * background with clutter lines and pixel noise. The `shapes` detector (models/shapes) is trained on these scenes
 * and tests, the benchmark and the browser demo render them.
 *
 * The same generator exists in Python (models/train/shapes_scene.py, used for training). Both produce identical
 * pixels and boxes from a seed: the random stream is mulberry32 in both, and rendering uses only +, -, *, /,
 * sqrt, floor, min and max on doubles (all exactly rounded in IEEE 754), never sin/cos/exp/log, whose last bit may
 * differ between V8 and libm. test/unit/preprocess/shapes-scene.test.ts compares against digests written by the
 * Python side (models/train/shapes-scene-digests.json).
 *
 * Coordinates are in "scene pixels" of a width × height scene (160 × 120 by default); `render` can draw the same
 * scene at an integer or fractional scale (the demo draws at 4×, 640 × 480).
 */

export const SHAPE_CLASSES = ['circle', 'square', 'triangle'] as const;
export type ShapeClass = (typeof SHAPE_CLASSES)[number];

export type Rgb = readonly [number, number, number];

/** [x1, y1, x2, y2] in scene pixels. */
export type Box = readonly [number, number, number, number];

export interface SceneShape {
  /** Index into SHAPE_CLASSES. */
  readonly cls: number;
  readonly cx: number;
  readonly cy: number;
  /** Circle: radius; square: half side; triangle: circumradius. */
  readonly size: number;
  /** Unit vector giving the orientation (squares and triangles). */
  readonly dirX: number;
  readonly dirY: number;
  readonly color: Rgb;
  /** Velocity in scene pixels per second, for the animated demo scene. */
  readonly vx: number;
  readonly vy: number;
}

export interface ClutterLine {
  readonly x1: number;
  readonly y1: number;
  readonly x2: number;
  readonly y2: number;
  readonly thickness: number;
  readonly color: Rgb;
}

export interface SceneSpec {
  readonly width: number;
  readonly height: number;
  readonly bg0: Rgb;
  readonly bg1: Rgb;
  /** Gradient runs top to bottom when true, left to right otherwise. */
  readonly bgVertical: boolean;
  readonly lines: readonly ClutterLine[];
  readonly shapes: readonly SceneShape[];
  /** Uniform pixel noise in [-noiseAmp, noiseAmp] per channel. */
  readonly noiseAmp: number;
  readonly noiseSeed: number;
}

export interface SceneObject {
  readonly cls: number;
  readonly label: ShapeClass;
  readonly box: Box;
}

export interface RenderedScene {
  readonly width: number;
  readonly height: number;
  /** RGB, row-major, 3 bytes per pixel. */
  readonly pixels: Uint8Array;
  /** Ground truth in the rendered image's pixels (scene boxes times the scale). */
  readonly objects: readonly SceneObject[];
}

export const SCENE_WIDTH = 160;
export const SCENE_HEIGHT = 120;

const GOLDEN = 0x6d2b79f5;

/** One mulberry32 step from a raw 32-bit state value (the state after the increment). */
function mix(state: number): number {
  let t = state >>> 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/** mulberry32 (the PRNG models/generate.ts uses), floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + GOLDEN) >>> 0;
    return mix(a);
  };
}

/** The k-th (0-based) value of mulberry32(seed) without running the k values before it: the state after k + 1
 *  increments is seed + (k + 1)·GOLDEN mod 2^32, and Math.imul is exactly that product mod 2^32. */
export function mulberryAt(seed: number, k: number): number {
  return mix((seed + Math.imul((k + 1) >>> 0, GOLDEN)) >>> 0);
}

const SQRT3_2 = Math.sqrt(3) / 2;

/** Vertices of a square or triangle, in scene pixels. */
export function polygonOf(s: Pick<SceneShape, 'cls' | 'cx' | 'cy' | 'size' | 'dirX' | 'dirY'>): [number, number][] {
  const { cx, cy, size, dirX: u, dirY: v } = s;
  if (s.cls === 1) {
    const corners: [number, number][] = [
      [size, size],
      [-size, size],
      [-size, -size],
      [size, -size],
    ];
    return corners.map(([x, y]) => [cx + (x * u - y * v), cy + (x * v + y * u)]);
  }
  // Triangle: the first vertex along (u, v), the others rotated by 120° and 240°.
  const dirs: [number, number][] = [
    [u, v],
    [u * -0.5 - v * SQRT3_2, u * SQRT3_2 + v * -0.5],
    [u * -0.5 + v * SQRT3_2, -u * SQRT3_2 + v * -0.5],
  ];
  return dirs.map(([x, y]) => [cx + size * x, cy + size * y]);
}

export function boxOf(s: Pick<SceneShape, 'cls' | 'cx' | 'cy' | 'size' | 'dirX' | 'dirY'>): Box {
  if (s.cls === 0) return [s.cx - s.size, s.cy - s.size, s.cx + s.size, s.cy + s.size];
  const pts = polygonOf(s);
  let x1 = Infinity;
  let y1 = Infinity;
  let x2 = -Infinity;
  let y2 = -Infinity;
  for (const [x, y] of pts) {
    x1 = Math.min(x1, x);
    y1 = Math.min(y1, y);
    x2 = Math.max(x2, x);
    y2 = Math.max(y2, y);
  }
  return [x1, y1, x2, y2];
}

export function iou(a: Box, b: Box): number {
  const iw = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const ih = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  if (iw <= 0 || ih <= 0) return 0;
  const inter = iw * ih;
  const union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter;
  return union <= 0 ? 0 : inter / union;
}

function bgAt(spec: Pick<SceneSpec, 'width' | 'height' | 'bg0' | 'bg1' | 'bgVertical'>, x: number, y: number, c: number): number {
  const t = spec.bgVertical ? y / spec.height : x / spec.width;
  const a = spec.bg0[c] as number;
  const b = spec.bg1[c] as number;
  return a + (b - a) * t;
}

/**
 * The scene of a seed. The order of random draws is part of the format (the Python port draws in the same
 * order): background, lines, shapes (with bounded rejection sampling), noise.
 */
export function generateScene(seed: number, width = SCENE_WIDTH, height = SCENE_HEIGHT): SceneSpec {
  const r = mulberry32(seed);
  const int = (n: number): number => Math.floor(r() * n);
  const rgb = (): Rgb => [int(256), int(256), int(256)];
  const bg0 = rgb();
  const bg1 = rgb();
  const bgVertical = r() < 0.5;
  const base = { width, height, bg0, bg1, bgVertical };

  const lines: ClutterLine[] = [];
  const lineCount = int(5);
  for (let i = 0; i < lineCount; i++) {
    lines.push({ x1: r() * width, y1: r() * height, x2: r() * width, y2: r() * height, thickness: 1 + r() * 1.5, color: rgb() });
  }

  const minDim = Math.min(width, height);
  const shapes: SceneShape[] = [];
  const boxes: Box[] = [];
  const shapeCount = 1 + int(5);
  for (let i = 0; i < shapeCount; i++) {
    for (let attempt = 0; attempt < 30; attempt++) {
      const cls = int(3);
      const scale = cls === 0 ? 1 : cls === 1 ? 0.85 : 1.25;
      const size = (0.06 + r() * 0.14) * minDim * scale;
      let dx = r() * 2 - 1;
      let dy = r() * 2 - 1;
      const norm = Math.sqrt(dx * dx + dy * dy);
      if (norm < 1e-3) {
        dx = 1;
        dy = 0;
      } else {
        dx /= norm;
        dy /= norm;
      }
      // Place the centre so that the whole box is inside the scene.
      const probe = boxOf({ cls, cx: 0, cy: 0, size, dirX: dx, dirY: dy });
      const cx = -probe[0] + r() * (width - (probe[2] - probe[0]));
      const cy = -probe[1] + r() * (height - (probe[3] - probe[1]));
      const speed = 8 + r() * 32;
      let vx = r() * 2 - 1;
      let vy = r() * 2 - 1;
      const vn = Math.sqrt(vx * vx + vy * vy);
      vx = vn < 1e-3 ? speed : (vx / vn) * speed;
      vy = vn < 1e-3 ? 0 : (vy / vn) * speed;
      let color = rgb();
      // Keep each shape visible against the background under it.
      for (let k = 0; k < 10; k++) {
        const contrast =
          Math.abs(color[0] - bgAt(base, cx, cy, 0)) + Math.abs(color[1] - bgAt(base, cx, cy, 1)) + Math.abs(color[2] - bgAt(base, cx, cy, 2));
        if (contrast >= 150) break;
        color = rgb();
      }
      const shape: SceneShape = { cls, cx, cy, size, dirX: dx, dirY: dy, color, vx, vy };
      const box = boxOf(shape);
      if (boxes.some((b) => iou(b, box) > 0.15)) continue;
      shapes.push(shape);
      boxes.push(box);
      break;
    }
  }
  const noiseAmp = r() * 24;
  const noiseSeed = Math.floor(r() * 4294967296) >>> 0;
  return { ...base, lines, shapes, noiseAmp, noiseSeed };
}

/** The scene with every shape moved along its velocity for `tSec` seconds, bouncing off the edges. */
export function sceneAt(spec: SceneSpec, tSec: number): SceneSpec {
  const bounce = (p: number, lo: number, hi: number): number => {
    const span = hi - lo;
    if (span <= 0) return lo;
    const m = (((p - lo) % (2 * span)) + 2 * span) % (2 * span);
    return lo + (m <= span ? m : 2 * span - m);
  };
  const shapes = spec.shapes.map((s) => {
    const b = boxOf(s);
    const cx = bounce(s.cx + s.vx * tSec, s.cx - b[0], spec.width - (b[2] - s.cx));
    const cy = bounce(s.cy + s.vy * tSec, s.cy - b[1], spec.height - (b[3] - s.cy));
    return { ...s, cx, cy };
  });
  return { ...spec, shapes };
}

export function sceneObjects(spec: SceneSpec, scale = 1): SceneObject[] {
  return spec.shapes.map((s) => {
    const b = boxOf(s);
    return { cls: s.cls, label: SHAPE_CLASSES[s.cls] ?? 'circle', box: [b[0] * scale, b[1] * scale, b[2] * scale, b[3] * scale] as Box };
  });
}

/**
 * Draws the scene at `scale` (output size round(width·scale) × round(height·scale)). Each output pixel samples
 * the scene at its centre; shapes are drawn in order over the lines, which are over the background.
 */
export function renderScene(spec: SceneSpec, scale = 1): RenderedScene {
  const W = Math.round(spec.width * scale);
  const H = Math.round(spec.height * scale);
  const acc = new Float64Array(W * H * 3);
  for (let j = 0; j < H; j++) {
    const y = (j + 0.5) / scale;
    for (let i = 0; i < W; i++) {
      const x = (i + 0.5) / scale;
      const o = (j * W + i) * 3;
      for (let c = 0; c < 3; c++) acc[o + c] = bgAt(spec, x, y, c);
    }
  }
  // Pixels whose centre falls in [x1, x2] × [y1, y2] (scene pixels); a slightly wider range is harmless because
  // every pixel in it is tested exactly.
  const range = (x1: number, y1: number, x2: number, y2: number): [number, number, number, number] => [
    Math.max(0, Math.floor(x1 * scale) - 1),
    Math.max(0, Math.floor(y1 * scale) - 1),
    Math.min(W - 1, Math.floor(x2 * scale) + 1),
    Math.min(H - 1, Math.floor(y2 * scale) + 1),
  ];
  const paint = (o: number, color: Rgb): void => {
    acc[o] = color[0];
    acc[o + 1] = color[1];
    acc[o + 2] = color[2];
  };
  for (const l of spec.lines) {
    const half = l.thickness / 2;
    const dx = l.x2 - l.x1;
    const dy = l.y2 - l.y1;
    const len2 = dx * dx + dy * dy;
    const [i0, j0, i1, j1] = range(
      Math.min(l.x1, l.x2) - half,
      Math.min(l.y1, l.y2) - half,
      Math.max(l.x1, l.x2) + half,
      Math.max(l.y1, l.y2) + half,
    );
    for (let j = j0; j <= j1; j++) {
      const y = (j + 0.5) / scale;
      for (let i = i0; i <= i1; i++) {
        const x = (i + 0.5) / scale;
        let t = len2 > 0 ? ((x - l.x1) * dx + (y - l.y1) * dy) / len2 : 0;
        t = Math.min(1, Math.max(0, t));
        const qx = x - (l.x1 + t * dx);
        const qy = y - (l.y1 + t * dy);
        if (qx * qx + qy * qy <= half * half) paint((j * W + i) * 3, l.color);
      }
    }
  }
  for (const s of spec.shapes) {
    const b = boxOf(s);
    const [i0, j0, i1, j1] = range(b[0], b[1], b[2], b[3]);
    const poly = s.cls === 0 ? undefined : polygonOf(s);
    const r2 = s.size * s.size;
    for (let j = j0; j <= j1; j++) {
      const y = (j + 0.5) / scale;
      for (let i = i0; i <= i1; i++) {
        const x = (i + 0.5) / scale;
        let inside: boolean;
        if (poly === undefined) {
          const ex = x - s.cx;
          const ey = y - s.cy;
          inside = ex * ex + ey * ey <= r2;
        } else {
          let pos = true;
          let neg = true;
          for (let k = 0; k < poly.length; k++) {
            const [ax, ay] = poly[k] as [number, number];
            const [bx, by] = poly[(k + 1) % poly.length] as [number, number];
            const cross = (bx - ax) * (y - ay) - (by - ay) * (x - ax);
            if (cross < 0) pos = false;
            if (cross > 0) neg = false;
          }
          inside = pos || neg;
        }
        if (inside) paint((j * W + i) * 3, s.color);
      }
    }
  }
  const pixels = new Uint8Array(W * H * 3);
  const amp = spec.noiseAmp;
  for (let k = 0; k < pixels.length; k++) {
    const v = Math.floor((acc[k] as number) + (mulberryAt(spec.noiseSeed, k) * 2 - 1) * amp + 0.5);
    pixels[k] = v < 0 ? 0 : Math.min(v, 255);
  }
  return { width: W, height: H, pixels, objects: sceneObjects(spec, W / spec.width) };
}
