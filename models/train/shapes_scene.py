"""Procedural "shapes" scenes, a port of models/train/shapes-scene.ts that gives identical pixels and boxes.

Same random stream (mulberry32), same order of draws, same double-precision arithmetic (only +, -, *, /, sqrt,
floor, min, max), so a seed renders to the same bytes in Python and TypeScript. Rendering is vectorised with
numpy; every pixel in a shape's bounding range is tested with exactly the TypeScript expression.
"""
import math

import numpy as np

SHAPE_CLASSES = ('circle', 'square', 'triangle')
SCENE_WIDTH = 160
SCENE_HEIGHT = 120
GOLDEN = 0x6D2B79F5
M32 = 0xFFFFFFFF
SQRT3_2 = math.sqrt(3) / 2


def _imul(a, b):
    return (a * b) & M32


def _mix(t):
    t &= M32
    t = _imul(t ^ (t >> 15), t | 1)
    t ^= (t + _imul(t ^ (t >> 7), t | 61)) & M32
    return ((t ^ (t >> 14)) & M32) / 4294967296


def mulberry32(seed):
    state = [seed & M32]

    def rnd():
        state[0] = (state[0] + GOLDEN) & M32
        return _mix(state[0])

    return rnd


def mulberry_at(seed, count):
    """Values 0..count-1 of mulberry32(seed), vectorised (uint64 arithmetic keeps the low 32 bits exact)."""
    k = np.arange(1, count + 1, dtype=np.uint64)
    m = np.uint64(M32)
    t = (np.uint64(seed) + k * np.uint64(GOLDEN)) & m
    t = ((t ^ (t >> np.uint64(15))) * (t | np.uint64(1))) & m
    t = t ^ ((t + (((t ^ (t >> np.uint64(7))) * (t | np.uint64(61))) & m)) & m)
    t = (t ^ (t >> np.uint64(14))) & m
    return t.astype(np.float64) / 4294967296.0


def polygon_of(cls, cx, cy, size, u, v):
    if cls == 1:
        corners = [(size, size), (-size, size), (-size, -size), (size, -size)]
        return [(cx + (x * u - y * v), cy + (x * v + y * u)) for x, y in corners]
    dirs = [
        (u, v),
        (u * -0.5 - v * SQRT3_2, u * SQRT3_2 + v * -0.5),
        (u * -0.5 + v * SQRT3_2, -u * SQRT3_2 + v * -0.5),
    ]
    return [(cx + size * x, cy + size * y) for x, y in dirs]


def box_of(cls, cx, cy, size, u, v):
    if cls == 0:
        return (cx - size, cy - size, cx + size, cy + size)
    pts = polygon_of(cls, cx, cy, size, u, v)
    x1 = y1 = math.inf
    x2 = y2 = -math.inf
    for x, y in pts:
        x1 = min(x1, x)
        y1 = min(y1, y)
        x2 = max(x2, x)
        y2 = max(y2, y)
    return (x1, y1, x2, y2)


def iou(a, b):
    iw = min(a[2], b[2]) - max(a[0], b[0])
    ih = min(a[3], b[3]) - max(a[1], b[1])
    if iw <= 0 or ih <= 0:
        return 0.0
    inter = iw * ih
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return 0.0 if union <= 0 else inter / union


def _bg_at(spec, x, y, c):
    t = y / spec['height'] if spec['bgVertical'] else x / spec['width']
    a = spec['bg0'][c]
    b = spec['bg1'][c]
    return a + (b - a) * t


def generate_scene(seed, width=SCENE_WIDTH, height=SCENE_HEIGHT):
    r = mulberry32(seed)

    def rint(n):
        return math.floor(r() * n)

    def rgb():
        a = rint(256)
        b = rint(256)
        c = rint(256)
        return (a, b, c)

    bg0 = rgb()
    bg1 = rgb()
    bg_vertical = r() < 0.5
    spec = {'width': width, 'height': height, 'bg0': bg0, 'bg1': bg1, 'bgVertical': bg_vertical}

    lines = []
    line_count = rint(5)
    for _ in range(line_count):
        x1 = r() * width
        y1 = r() * height
        x2 = r() * width
        y2 = r() * height
        thickness = 1 + r() * 1.5
        lines.append({'x1': x1, 'y1': y1, 'x2': x2, 'y2': y2, 'thickness': thickness, 'color': rgb()})

    min_dim = min(width, height)
    shapes = []
    boxes = []
    shape_count = 1 + rint(5)
    for _ in range(shape_count):
        for _attempt in range(30):
            cls = rint(3)
            scale = 1 if cls == 0 else (0.85 if cls == 1 else 1.25)
            size = (0.06 + r() * 0.14) * min_dim * scale
            dx = r() * 2 - 1
            dy = r() * 2 - 1
            norm = math.sqrt(dx * dx + dy * dy)
            if norm < 1e-3:
                dx, dy = 1.0, 0.0
            else:
                dx /= norm
                dy /= norm
            probe = box_of(cls, 0, 0, size, dx, dy)
            cx = -probe[0] + r() * (width - (probe[2] - probe[0]))
            cy = -probe[1] + r() * (height - (probe[3] - probe[1]))
            speed = 8 + r() * 32
            vx = r() * 2 - 1
            vy = r() * 2 - 1
            vn = math.sqrt(vx * vx + vy * vy)
            if vn < 1e-3:
                vx, vy = speed, 0.0
            else:
                vx = (vx / vn) * speed
                vy = (vy / vn) * speed
            color = rgb()
            for _k in range(10):
                contrast = (abs(color[0] - _bg_at(spec, cx, cy, 0)) + abs(color[1] - _bg_at(spec, cx, cy, 1))
                            + abs(color[2] - _bg_at(spec, cx, cy, 2)))
                if contrast >= 150:
                    break
                color = rgb()
            shape = {'cls': cls, 'cx': cx, 'cy': cy, 'size': size, 'dirX': dx, 'dirY': dy, 'color': color,
                     'vx': vx, 'vy': vy}
            box = box_of(cls, cx, cy, size, dx, dy)
            if any(iou(b, box) > 0.15 for b in boxes):
                continue
            shapes.append(shape)
            boxes.append(box)
            break
    noise_amp = r() * 24
    noise_seed = math.floor(r() * 4294967296) & M32
    spec.update({'lines': lines, 'shapes': shapes, 'noiseAmp': noise_amp, 'noiseSeed': noise_seed})
    return spec


def scene_boxes(spec, scale=1.0):
    out = []
    for s in spec['shapes']:
        b = box_of(s['cls'], s['cx'], s['cy'], s['size'], s['dirX'], s['dirY'])
        out.append((s['cls'], (b[0] * scale, b[1] * scale, b[2] * scale, b[3] * scale)))
    return out


def render_scene(spec, scale=1):
    """Returns (pixels uint8 [H, W, 3], objects [(cls, (x1, y1, x2, y2))] in rendered pixels)."""
    W = int(math.floor(spec['width'] * scale + 0.5))
    H = int(math.floor(spec['height'] * scale + 0.5))
    xs = (np.arange(W, dtype=np.float64) + 0.5) / scale
    ys = (np.arange(H, dtype=np.float64) + 0.5) / scale
    acc = np.empty((H, W, 3), dtype=np.float64)
    for c in range(3):
        a = float(spec['bg0'][c])
        b = float(spec['bg1'][c])
        if spec['bgVertical']:
            col = a + (b - a) * (ys / spec['height'])
            acc[:, :, c] = col[:, None]
        else:
            row = a + (b - a) * (xs / spec['width'])
            acc[:, :, c] = row[None, :]

    def rng(x1, y1, x2, y2):
        return (max(0, math.floor(x1 * scale) - 1), max(0, math.floor(y1 * scale) - 1),
                min(W - 1, math.floor(x2 * scale) + 1), min(H - 1, math.floor(y2 * scale) + 1))

    def grid(i0, j0, i1, j1):
        gx = xs[i0:i1 + 1][None, :]
        gy = ys[j0:j1 + 1][:, None]
        return gx, gy

    for l in spec['lines']:
        half = l['thickness'] / 2
        dx = l['x2'] - l['x1']
        dy = l['y2'] - l['y1']
        len2 = dx * dx + dy * dy
        i0, j0, i1, j1 = rng(min(l['x1'], l['x2']) - half, min(l['y1'], l['y2']) - half,
                             max(l['x1'], l['x2']) + half, max(l['y1'], l['y2']) + half)
        if i1 < i0 or j1 < j0:
            continue
        x, y = grid(i0, j0, i1, j1)
        if len2 > 0:
            t = ((x - l['x1']) * dx + (y - l['y1']) * dy) / len2
        else:
            t = np.zeros(np.broadcast_shapes(x.shape, y.shape))
        t = np.minimum(1.0, np.maximum(0.0, t))
        qx = x - (l['x1'] + t * dx)
        qy = y - (l['y1'] + t * dy)
        inside = qx * qx + qy * qy <= half * half
        region = acc[j0:j1 + 1, i0:i1 + 1]
        region[inside] = np.array(l['color'], dtype=np.float64)

    for s in spec['shapes']:
        b = box_of(s['cls'], s['cx'], s['cy'], s['size'], s['dirX'], s['dirY'])
        i0, j0, i1, j1 = rng(*b)
        if i1 < i0 or j1 < j0:
            continue
        x, y = grid(i0, j0, i1, j1)
        if s['cls'] == 0:
            ex = x - s['cx']
            ey = y - s['cy']
            inside = ex * ex + ey * ey <= s['size'] * s['size']
        else:
            poly = polygon_of(s['cls'], s['cx'], s['cy'], s['size'], s['dirX'], s['dirY'])
            shape = np.broadcast_shapes(x.shape, y.shape)
            pos = np.ones(shape, dtype=bool)
            neg = np.ones(shape, dtype=bool)
            for k in range(len(poly)):
                ax, ay = poly[k]
                bx, by = poly[(k + 1) % len(poly)]
                cross = (bx - ax) * (y - ay) - (by - ay) * (x - ax)
                pos &= ~(cross < 0)
                neg &= ~(cross > 0)
            inside = pos | neg
        region = acc[j0:j1 + 1, i0:i1 + 1]
        region[inside] = np.array(s['color'], dtype=np.float64)

    flat = acc.reshape(-1)
    noise = (mulberry_at(spec['noiseSeed'], flat.size) * 2 - 1) * spec['noiseAmp']
    v = np.floor(flat + noise + 0.5)
    pixels = np.clip(v, 0, 255).astype(np.uint8).reshape(H, W, 3)
    return pixels, scene_boxes(spec, W / spec['width'])
