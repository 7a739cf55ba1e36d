"""Trains models/digits: a small CNN that reads a 28x28 grayscale digit (white ink on black) and answers 10 logits.

Data: scikit-learn's bundled 8x8 handwritten digits (UCI optdigits, 1797 images; no download) upsampled to 28x28,
mixed with synthetic stroke digits (jittered polylines of each digit drawn with a random pen width) so that
digits drawn with a mouse or finger, which are sharper than the blurry 8x8 scans, are read too. Heavy augmentation
(affine, pen width, blur, contrast). The held-out split (20 %, stratified, seed 0) is never trained on; it is
written to test/integration/image/digits-heldout.json, and test/integration/image/digits-accuracy.test.ts
measures the accuracy of the committed model on it through the served REST /image route.

    nice -n 19 /usr/bin/python3 models/train/train_digits.py [--epochs 40] [--device auto]
"""
import argparse
import json
import math
import os
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import export_onnx, pick_device, seed_everything  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
SIZE = 28

# Digit skeletons in a unit box (x right, y down): lists of polylines.
def _arc(cx, cy, rx, ry, a0, a1, n=14):
    return [(cx + rx * math.cos(math.radians(a)), cy + ry * math.sin(math.radians(a)))
            for a in np.linspace(a0, a1, n)]


# Each digit: variants, each a list of strokes (polylines).
_ONE = [(0.5, 0.08), (0.5, 0.92)]
_FOUR = [(0.65, 0.92), (0.65, 0.08), (0.15, 0.66), (0.88, 0.66)]
_SEVEN = [(0.15, 0.1), (0.85, 0.1), (0.42, 0.92)]
TEMPLATES = {
    0: [[_arc(0.5, 0.5, 0.3, 0.42, -90, 270, 20)]],
    1: [[_ONE], [[(0.32, 0.28), *_ONE]], [[(0.32, 0.28), *_ONE], [(0.3, 0.92), (0.7, 0.92)]]],
    2: [[[(0.2, 0.3), (0.33, 0.13), (0.55, 0.08), (0.76, 0.18), (0.78, 0.38), (0.2, 0.9), (0.84, 0.9)]]],
    3: [[[(0.2, 0.15), (0.55, 0.08), (0.78, 0.22), (0.72, 0.42), (0.45, 0.5), (0.75, 0.6), (0.8, 0.8),
          (0.55, 0.93), (0.2, 0.85)]]],
    4: [[_FOUR], [[(0.25, 0.08), (0.18, 0.55), (0.85, 0.55)], [(0.62, 0.3), (0.62, 0.95)]]],
    5: [[[(0.8, 0.1), (0.28, 0.1), (0.24, 0.46), (0.55, 0.4), (0.78, 0.55), (0.76, 0.8), (0.5, 0.93), (0.2, 0.84)]],
        [[(0.28, 0.1), (0.24, 0.46), (0.55, 0.4), (0.78, 0.55), (0.76, 0.8), (0.5, 0.93), (0.2, 0.84)],
         [(0.28, 0.1), (0.8, 0.1)]]],
    6: [[[(0.72, 0.1), (0.42, 0.25), (0.24, 0.6), (0.32, 0.86), (0.55, 0.93), (0.75, 0.78), (0.7, 0.56),
          (0.46, 0.5), (0.26, 0.62)]]],
    7: [[_SEVEN], [_SEVEN, [(0.3, 0.52), (0.72, 0.52)]]],
    8: [[_arc(0.5, 0.28, 0.22, 0.2, 90, 450, 16), _arc(0.5, 0.71, 0.26, 0.22, -90, 270, 16)]],
    9: [[[*_arc(0.48, 0.32, 0.24, 0.22, 0, 360, 16), (0.72, 0.32), (0.62, 0.92)]]],
}


def render_strokes(polylines, width, res):
    """Anti-aliased pen strokes: intensity from the distance to the nearest segment."""
    ys, xs = np.mgrid[0:res, 0:res]
    px = (xs + 0.5) / res
    py = (ys + 0.5) / res
    dist = np.full((res, res), np.inf)
    for line in polylines:
        for (x1, y1), (x2, y2) in zip(line[:-1], line[1:]):
            dx, dy = x2 - x1, y2 - y1
            l2 = dx * dx + dy * dy
            t = np.clip(((px - x1) * dx + (py - y1) * dy) / l2, 0, 1) if l2 > 0 else np.zeros_like(px)
            d = np.hypot(px - (x1 + t * dx), py - (y1 + t * dy))
            dist = np.minimum(dist, d)
    aa = 1.0 / res
    return np.clip((width / 2 - dist) / aa + 0.5, 0, 1)


def crop_to_ink(img, margin, out=SIZE):
    """Square crop around the ink's bounding box plus a margin, resized to out x out (what the demo does)."""
    ys, xs = np.nonzero(img > 0.1)
    if len(xs) == 0:
        return np.zeros((out, out), np.float32)
    x0, x1, y0, y1 = xs.min(), xs.max() + 1, ys.min(), ys.max() + 1
    side = max(x1 - x0, y1 - y0) * (1 + 2 * margin)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    t = torch.from_numpy(img.astype(np.float32))[None, None]
    # affine_grid samples the square [cx - side/2, cx + side/2] (in pixels) into out x out.
    h, w = img.shape
    theta = torch.tensor([[[side / w, 0, (2 * cx / w) - 1], [0, side / h, (2 * cy / h) - 1]]], dtype=torch.float32)
    grid = F.affine_grid(theta, (1, 1, out * 2, out * 2), align_corners=False)
    big = F.grid_sample(t, grid, mode='bilinear', padding_mode='zeros', align_corners=False)
    return F.avg_pool2d(big, 2)[0, 0].numpy()


def synthetic_digits(n, rng):
    images = np.zeros((n, SIZE, SIZE), np.float32)
    labels = rng.integers(0, 10, n)
    for i, d in enumerate(labels):
        variants = TEMPLATES[int(d)]
        lines = variants[int(rng.integers(0, len(variants)))]
        # jitter points, then a random affine
        ang = math.radians(rng.uniform(-14, 14))
        sx, sy = rng.uniform(0.75, 1.1), rng.uniform(0.8, 1.1)
        sh = rng.uniform(-0.25, 0.25)
        ca, sa = math.cos(ang), math.sin(ang)
        out = []
        for line in lines:
            pts = []
            for (x, y) in line:
                x += rng.normal(0, 0.025)
                y += rng.normal(0, 0.025)
                x, y = (x - 0.5) * sx + sh * (y - 0.5), (y - 0.5) * sy
                pts.append((0.5 + ca * x - sa * y, 0.5 + sa * x + ca * y))
            out.append(pts)
        pen = rng.uniform(0.05, 0.16)
        img = render_strokes(out, pen, 64)
        images[i] = crop_to_ink(img, rng.uniform(0.04, 0.18))
    return images, labels


def sklearn_digits():
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split
    d = load_digits()
    x = d.images.astype(np.float32) / 16.0
    y = d.target.astype(np.int64)
    idx = np.arange(len(y))
    tr, te = train_test_split(idx, test_size=0.2, random_state=0, stratify=y)
    return x, y, np.sort(tr), np.sort(te)


def augment(batch, gen):
    """batch: [B, 1, 28, 28] in [0, 1]. Random affine, pen width (dilate/erode), blur, contrast."""
    b = batch.shape[0]
    dev = batch.device
    ang = (torch.rand(b, device=dev, generator=gen) * 2 - 1) * math.radians(15)
    sc = 0.85 + torch.rand(b, device=dev, generator=gen) * 0.3
    shx = (torch.rand(b, device=dev, generator=gen) * 2 - 1) * 0.2
    tx = (torch.rand(b, device=dev, generator=gen) * 2 - 1) * 0.12
    ty = (torch.rand(b, device=dev, generator=gen) * 2 - 1) * 0.12
    cos, sin = torch.cos(ang) / sc, torch.sin(ang) / sc
    theta = torch.stack([torch.stack([cos, -sin + shx, tx], 1), torch.stack([sin, cos, ty], 1)], 1)
    grid = F.affine_grid(theta, batch.shape, align_corners=False)
    x = F.grid_sample(batch, grid, mode='bilinear', padding_mode='zeros', align_corners=False)
    r = torch.rand(b, 1, 1, 1, device=dev, generator=gen)
    dil = F.max_pool2d(x, 3, 1, 1)
    ero = -F.max_pool2d(-x, 3, 1, 1)
    x = torch.where(r < 0.2, dil, torch.where(r > 0.9, ero, x))
    r = torch.rand(b, 1, 1, 1, device=dev, generator=gen)
    blur = F.avg_pool2d(F.pad(x, (1, 1, 1, 1), mode='replicate'), 3, 1)
    x = torch.where(r < 0.25, blur, x)
    # contrast / sharpening: crisp canvas strokes vs soft scans
    r = torch.rand(b, 1, 1, 1, device=dev, generator=gen)
    k = 4 + torch.rand(b, 1, 1, 1, device=dev, generator=gen) * 8
    sharp = torch.sigmoid((x - 0.35) * k * 2)
    x = torch.where(r < 0.3, sharp, x)
    gain = 0.7 + torch.rand(b, 1, 1, 1, device=dev, generator=gen) * 0.5
    x = (x * gain).clamp(0, 1)
    x = x + torch.randn(x.shape, device=dev, generator=gen) * 0.03
    return x.clamp(0, 1)


class DigitNet(nn.Module):
    def __init__(self):
        super().__init__()

        def block(cin, cout, stride):
            return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))

        self.features = nn.Sequential(
            block(1, 24, 1), block(24, 32, 2),   # 14x14
            block(32, 32, 1), block(32, 64, 2),  # 7x7
            block(64, 64, 1), block(64, 96, 1),
        )
        self.drop = nn.Dropout(0.2)
        self.fc = nn.Linear(96, 10)

    def forward(self, x):
        x = self.features(x)
        x = F.adaptive_avg_pool2d(x, 1).flatten(1)
        return self.fc(self.drop(x))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--epochs', type=int, default=40)
    ap.add_argument('--synthetic', type=int, default=6000)
    ap.add_argument('--device', default='auto')
    ap.add_argument('--out', default=os.path.join(ROOT, 'models', 'digits', '1', 'model.onnx'))
    ap.add_argument('--heldout', default=os.path.join(ROOT, 'test', 'integration', 'image', 'digits-heldout.json'))
    args = ap.parse_args()
    seed_everything(0)
    dev = pick_device(args.device)
    started = time.time()

    x8, y, tr, te = sklearn_digits()
    up = F.interpolate(torch.from_numpy(x8)[:, None], size=(SIZE, SIZE), mode='bilinear', align_corners=False)
    rng = np.random.default_rng(0)
    syn_x, syn_y = synthetic_digits(args.synthetic, rng)
    syn_te_x, syn_te_y = synthetic_digits(1000, np.random.default_rng(1))
    print(f'data: sklearn train {len(tr)}, held-out {len(te)}; synthetic {len(syn_y)} (+1000 eval); '
          f'{time.time() - started:.1f}s', flush=True)

    train_x = torch.cat([up[tr], torch.from_numpy(syn_x)[:, None]]).to(dev)
    train_y = torch.cat([torch.from_numpy(y[tr]), torch.from_numpy(syn_y)]).to(dev)
    # Oversample the real scans: they are what the accuracy is measured on.
    weights = torch.cat([torch.full((len(tr),), 3.0), torch.ones(len(syn_y))]).to(dev)
    test_x, test_y = up[te].to(dev), torch.from_numpy(y[te]).to(dev)
    syn_test_x, syn_test_y = torch.from_numpy(syn_te_x)[:, None].to(dev), torch.from_numpy(syn_te_y).to(dev)

    model = DigitNet().to(dev)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    steps_per_epoch = 80
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=args.epochs * steps_per_epoch)
    gen = torch.Generator(device=dev)
    gen.manual_seed(0)

    def accuracy(xs, ys):
        model.eval()
        with torch.no_grad():
            return (model(xs).argmax(1) == ys).float().mean().item()

    for epoch in range(args.epochs):
        model.train()
        for _ in range(steps_per_epoch):
            idx = torch.multinomial(weights, 128, replacement=True, generator=gen)
            xb = augment(train_x[idx], gen)
            loss = F.cross_entropy(model(xb), train_y[idx], label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
        if epoch % 5 == 4 or epoch == args.epochs - 1:
            print(f'epoch {epoch + 1}: loss {loss.item():.3f} held-out {accuracy(test_x, test_y):.4f} '
                  f'synthetic {accuracy(syn_test_x, syn_test_y):.4f} ({time.time() - started:.0f}s)', flush=True)

    acc = accuracy(test_x, test_y)
    model = model.cpu().eval()
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    size = export_onnx(model, torch.zeros(1, 1, SIZE, SIZE), args.out, ['image'], ['logits'])
    # The held-out scans, as 0..16 levels, for the REST accuracy test.
    os.makedirs(os.path.dirname(args.heldout), exist_ok=True)
    with open(args.heldout, 'w') as f:
        json.dump({
            'source': 'sklearn.datasets.load_digits, train_test_split(test_size=0.2, random_state=0, stratify=y)',
            'levels': 16,
            'size': 8,
            'labels': [int(v) for v in y[te]],
            'images': [''.join('0123456789abcdefg'[int(v)] for v in d.reshape(-1)) for d in (x8[te] * 16).round()],
        }, f, separators=(',', ':'))
        f.write('\n')
    print(json.dumps({'heldout_accuracy': acc, 'heldout_count': len(te), 'onnx_bytes': size,
                      'seconds': round(time.time() - started, 1), 'device': str(dev), 'torch': torch.__version__}))


if __name__ == '__main__':
    main()
