"""Trains models/shapes: a small CenterNet-style detector for circles, squares and triangles in 160x120 RGB scenes.

Scenes come from models/train/shapes_scene.py (the Python twin of models/train/shapes-scene.ts, identical pixels
from a seed). Training seeds are 1_000_000 and up; seeds below 100_000 are kept for evaluation (the REST test
in test/integration/image/shapes-map.test.ts uses seeds 1..N).

Network: a 3-level conv backbone (strides 2, 4, 8) with the stride-8 features upsampled and merged into the
stride-4 ones, then heads for a per-class centre heatmap (3 x 30 x 40), box size and centre offset, as in
CenterNet ("Objects as Points", Zhou et al. 2019). The exported ONNX graph decodes itself: sigmoid, 3x3 max-pool
peak picking, top-K over classes and positions, box assembly. Outputs, per image: `boxes` [K, 4] (x1, y1, x2, y2
in input pixels), `scores` [K], `classes` [K] (INT32). Score thresholding, class-aware NMS and mapping back to the
original image happen in rtserve's `detection` postprocess.

    nice -n 19 /usr/bin/python3 models/train/train_shapes.py [--scenes 20000] [--epochs 30] [--device auto]
"""
import argparse
import io
import json
import math
import multiprocessing as mp
import os
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import export_onnx, fix_output_dims, pick_device, seed_everything  # noqa: E402
from shapes_scene import SCENE_HEIGHT, SCENE_WIDTH, generate_scene, render_scene  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
W, H, STRIDE, NUM_CLASSES, TOP_K = SCENE_WIDTH, SCENE_HEIGHT, 4, 3, 50
OW, OH = W // STRIDE, H // STRIDE
TRAIN_SEED0 = 1_000_000


def make_sample(args):
    """One training image: rendered at scale 1, or at 2x/4x and area-downsampled (what a resize of a large camera
    frame looks like), sometimes JPEG-compressed."""
    seed, variant = args
    spec = generate_scene(seed)
    rnd = np.random.default_rng(seed)
    if variant == 'hires':
        s = int(rnd.choice([2, 4]))
        px, objs = render_scene(spec, s)
        px = px.reshape(H, s, W, s, 3).mean(axis=(1, 3))
        px = np.floor(px + 0.5).astype(np.uint8)
        objs = [(c, tuple(v / s for v in b)) for c, b in objs]
    else:
        px, objs = render_scene(spec, 1)
    if rnd.random() < 0.3:
        from PIL import Image
        buf = io.BytesIO()
        Image.fromarray(px).save(buf, format='JPEG', quality=int(rnd.integers(40, 95)))
        px = np.asarray(Image.open(io.BytesIO(buf.getvalue())).convert('RGB'))
    return px, objs


def build_dataset(seeds, hires_fraction, workers):
    variants = ['hires' if (s * 2654435761) % 1000 < hires_fraction * 1000 else 'plain' for s in seeds]
    with mp.Pool(workers) as pool:
        samples = pool.map(make_sample, list(zip(seeds, variants)), chunksize=64)
    images = np.stack([s[0] for s in samples])
    return images, [s[1] for s in samples]


def gaussian_radius(w, h):
    # A Gaussian whose spread follows the object's size in output cells (simplified CenterNet radius).
    return max(0.7, 0.16 * math.sqrt(w * h) / STRIDE)


def build_targets(objects):
    n = len(objects)
    hm = np.zeros((n, NUM_CLASSES, OH, OW), np.float32)
    wh = np.zeros((n, 2, OH, OW), np.float32)
    off = np.zeros((n, 2, OH, OW), np.float32)
    mask = np.zeros((n, 1, OH, OW), np.float32)
    ys, xs = np.mgrid[0:OH, 0:OW]
    for i, objs in enumerate(objects):
        for cls, (x1, y1, x2, y2) in objs:
            cx, cy = (x1 + x2) / 2 / STRIDE, (y1 + y2) / 2 / STRIDE
            ix, iy = min(OW - 1, int(cx)), min(OH - 1, int(cy))
            sigma = gaussian_radius(x2 - x1, y2 - y1)
            g = np.exp(-((xs - ix) ** 2 + (ys - iy) ** 2) / (2 * sigma * sigma))
            hm[i, cls] = np.maximum(hm[i, cls], g)
            wh[i, :, iy, ix] = ((x2 - x1) / STRIDE, (y2 - y1) / STRIDE)
            off[i, :, iy, ix] = (cx - ix, cy - iy)
            mask[i, 0, iy, ix] = 1
    return hm, wh, off, mask


def conv(cin, cout, stride=1, dilation=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, dilation, dilation=dilation, bias=False), nn.BatchNorm2d(cout),
                         nn.ReLU(inplace=True))


class ShapesNet(nn.Module):
    def __init__(self, width=32):
        super().__init__()
        c1, c2, c3 = width // 2, width, width * 2
        self.s2 = nn.Sequential(conv(3, c1, 2), conv(c1, c1))                       # 60 x 80
        self.s4 = nn.Sequential(conv(c1, c2, 2), conv(c2, c2))                      # 30 x 40
        self.s8 = nn.Sequential(conv(c2, c3, 2), conv(c3, c3), conv(c3, c3, dilation=2), conv(c3, c3))  # 15 x 20
        self.merge = nn.Sequential(nn.Conv2d(c2 + c3, c2, 1, bias=False), nn.BatchNorm2d(c2), nn.ReLU(inplace=True),
                                   conv(c2, c2), conv(c2, c2, dilation=2))
        self.head = nn.Sequential(conv(c2, c2), nn.Conv2d(c2, NUM_CLASSES + 4, 1))
        self.head[1].bias.data[:NUM_CLASSES] = -2.19  # CenterNet's prior: sigmoid(-2.19) = 0.1

    def forward(self, x):
        f4 = self.s4(self.s2(x))
        f8 = self.s8(f4)
        up = F.interpolate(f8, scale_factor=2, mode='nearest')
        y = self.head(self.merge(torch.cat([f4, up], 1)))
        return y[:, :NUM_CLASSES], y[:, NUM_CLASSES:NUM_CLASSES + 2], y[:, NUM_CLASSES + 2:]


class Decoded(nn.Module):
    """The exported graph: network + CenterNet decoding to a fixed number of candidate boxes per image."""

    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, image):
        logits, wh, off = self.net(image)
        hm = torch.sigmoid(logits)
        peaks = (F.max_pool2d(hm, 3, 1, 1) == hm).to(hm.dtype)
        b = hm.shape[0]
        scores, inds = torch.topk((hm * peaks).reshape(b, -1), TOP_K)
        cls = torch.div(inds, OH * OW, rounding_mode='floor')
        pix = inds - cls * (OH * OW)
        ys = torch.div(pix, OW, rounding_mode='floor')
        xs = pix - ys * OW
        idx = pix.unsqueeze(1).expand(b, 2, TOP_K)
        wh_k = torch.gather(wh.reshape(b, 2, OH * OW), 2, idx)
        off_k = torch.gather(off.reshape(b, 2, OH * OW), 2, idx)
        cx = (xs.to(hm.dtype) + off_k[:, 0]) * STRIDE
        cy = (ys.to(hm.dtype) + off_k[:, 1]) * STRIDE
        w = wh_k[:, 0] * STRIDE
        h = wh_k[:, 1] * STRIDE
        boxes = torch.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], 2)
        return boxes, scores, cls.to(torch.int32)


def focal_loss(logits, target):
    pred = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    pos = target.eq(1).float()
    neg = 1 - pos
    pos_loss = torch.log(pred) * (1 - pred) ** 2 * pos
    neg_loss = torch.log(1 - pred) * pred ** 2 * (1 - target) ** 4 * neg
    n = pos.sum().clamp(min=1)
    return -(pos_loss.sum() + neg_loss.sum()) / n


def average_precision(detections, truths, cls, iou_thr=0.5):
    """VOC-style AP (all-point interpolation) for one class. detections: [(image, score, box)]."""
    def iou(a, b):
        iw = min(a[2], b[2]) - max(a[0], b[0])
        ih = min(a[3], b[3]) - max(a[1], b[1])
        if iw <= 0 or ih <= 0:
            return 0.0
        inter = iw * ih
        return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)

    gts = {i: [b for c, b in objs if c == cls] for i, objs in enumerate(truths)}
    used = {i: [False] * len(v) for i, v in gts.items()}
    total = sum(len(v) for v in gts.values())
    dets = sorted([d for d in detections if d[3] == cls], key=lambda d: -d[1])
    tp, fp = [], []
    for img, score, box, _ in dets:
        best, best_j = 0.0, -1
        for j, g in enumerate(gts[img]):
            o = iou(box, g)
            if o > best:
                best, best_j = o, j
        if best >= iou_thr and not used[img][best_j]:
            used[img][best_j] = True
            tp.append(1)
            fp.append(0)
        else:
            tp.append(0)
            fp.append(1)
    if total == 0:
        return float('nan')
    tp, fp = np.cumsum(tp), np.cumsum(fp)
    rec = tp / total
    prec = tp / np.maximum(tp + fp, 1e-9)
    mrec = np.concatenate([[0], rec, [1]])
    mpre = np.concatenate([[0], prec, [0]])
    for i in range(len(mpre) - 2, -1, -1):
        mpre[i] = max(mpre[i], mpre[i + 1])
    idx = np.where(mrec[1:] != mrec[:-1])[0]
    return float(np.sum((mrec[idx + 1] - mrec[idx]) * mpre[idx + 1]))


def nms_per_class(boxes, scores, classes, score_thr=0.05, iou_thr=0.5):
    keep = []
    order = np.argsort(-scores)
    for i in order:
        if scores[i] < score_thr:
            break
        ok = True
        for j in keep:
            if classes[j] != classes[i]:
                continue
            a, b = boxes[i], boxes[j]
            iw = min(a[2], b[2]) - max(a[0], b[0])
            ih = min(a[3], b[3]) - max(a[1], b[1])
            if iw > 0 and ih > 0:
                inter = iw * ih
                u = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
                if inter / u > iou_thr:
                    ok = False
                    break
        if ok:
            keep.append(i)
    return keep


def evaluate(decoder, images, truths, dev, batch=256):
    decoder.eval()
    dets = []
    with torch.no_grad():
        for s in range(0, len(images), batch):
            x = torch.from_numpy(images[s:s + batch]).to(dev).permute(0, 3, 1, 2).float() / 255
            boxes, scores, classes = [t.cpu().numpy() for t in decoder(x)]
            for k in range(len(x)):
                for i in nms_per_class(boxes[k], scores[k], classes[k]):
                    dets.append((s + k, float(scores[k][i]), boxes[k][i].tolist(), int(classes[k][i])))
    aps = [average_precision(dets, truths, c) for c in range(NUM_CLASSES)]
    return float(np.mean(aps)), aps


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--scenes', type=int, default=20000)
    ap.add_argument('--epochs', type=int, default=30)
    ap.add_argument('--batch', type=int, default=64)
    ap.add_argument('--width', type=int, default=32)
    ap.add_argument('--eval-scenes', type=int, default=500)
    ap.add_argument('--device', default='auto')
    ap.add_argument('--time-budget', type=float, default=0, help='stop training after this many seconds (0: none)')
    ap.add_argument('--workers', type=int, default=max(1, min(16, (os.cpu_count() or 2) - 1)))
    ap.add_argument('--out', default=os.path.join(ROOT, 'models', 'shapes', '1', 'model.onnx'))
    args = ap.parse_args()
    seed_everything(0)
    dev = pick_device(args.device)
    started = time.time()

    train_x, train_objs = build_dataset(list(range(TRAIN_SEED0, TRAIN_SEED0 + args.scenes)), 0.3, args.workers)
    eval_seeds = list(range(1, args.eval_scenes + 1))
    eval_x, eval_objs = build_dataset(eval_seeds, 0.0, args.workers)
    # the 640x480 path: scenes drawn at 4x, then downsampled
    hi = []
    for s in eval_seeds[:200]:
        px, objs = render_scene(generate_scene(s), 4)
        hi.append((np.floor(px.reshape(H, 4, W, 4, 3).mean(axis=(1, 3)) + 0.5).astype(np.uint8),
                   [(c, tuple(v / 4 for v in b)) for c, b in objs]))
    eval_hi_x = np.stack([h[0] for h in hi])
    eval_hi_objs = [h[1] for h in hi]
    hm, wh, off, mask = build_targets(train_objs)
    print(f'data: {len(train_x)} train scenes, {len(eval_x)} eval; {time.time() - started:.0f}s', flush=True)

    tx = torch.from_numpy(train_x).to(dev)
    t_hm, t_wh, t_off, t_mask = (torch.from_numpy(a).to(dev) for a in (hm, wh, off, mask))
    net = ShapesNet(args.width).to(dev)
    params = sum(p.numel() for p in net.parameters())
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    steps = args.epochs * (len(tx) // args.batch)
    train_started = time.time()

    def progress():
        # Fraction of training done: by steps, or by time when a time budget is set (whichever is further).
        p = step / steps
        if args.time_budget > 0:
            p = max(p, (time.time() - train_started) / args.time_budget)
        return min(1.0, p)

    def set_lr(p):
        # Linear warm-up over the first 5 %, then cosine decay to zero.
        lr = 2e-3 * (p / 0.05 if p < 0.05 else 0.5 * (1 + math.cos(math.pi * (p - 0.05) / 0.95)))
        for g in opt.param_groups:
            g['lr'] = lr
    gen = torch.Generator(device='cpu')
    gen.manual_seed(0)
    decoder = Decoded(net)
    step = 0
    for epoch in range(args.epochs):
        if progress() >= 1:
            print(f'time budget reached after {epoch} epochs', flush=True)
            break
        net.train()
        perm = torch.randperm(len(tx), generator=gen).to(dev)
        for s in range(0, len(tx) - args.batch + 1, args.batch):
            if progress() >= 1:
                break
            idx = perm[s:s + args.batch]
            x = tx[idx].permute(0, 3, 1, 2).float() / 255
            # photometric jitter: brightness / contrast per image, channel swap
            if torch.rand(1, generator=gen).item() < 0.5:
                x = x[:, torch.randperm(3, generator=gen).to(dev)]
            g = 0.8 + 0.4 * torch.rand(x.shape[0], 1, 1, 1, device=dev)
            bias = (torch.rand(x.shape[0], 1, 1, 1, device=dev) - 0.5) * 0.2
            x = (x * g + bias).clamp(0, 1)
            # horizontal flip (boxes flip with the maps)
            flip = torch.rand(1, generator=gen).item() < 0.5
            thm, twh, toff, tm = t_hm[idx], t_wh[idx], t_off[idx], t_mask[idx]
            if flip:
                x = x.flip(3)
                thm, twh, tm = thm.flip(3), twh.flip(3), tm.flip(3)
                toff = toff.flip(3)
                # the sub-cell x offset mirrors within the cell: (1 - dx), except that a centre at exactly
                # the cell's left edge would move cells; close enough for training.
                toff = torch.cat([(1 - toff[:, :1]) * tm, toff[:, 1:]], 1)
            logits, pwh, poff = net(x)
            n = tm.sum().clamp(min=1)
            loss = (focal_loss(logits, thm) + 0.1 * (F.l1_loss(pwh * tm, twh * tm, reduction='sum') / n)
                    + (F.l1_loss(poff * tm, toff * tm, reduction='sum') / n))
            opt.zero_grad()
            loss.backward()
            set_lr(progress())
            opt.step()
            step += 1
        if epoch % 5 == 4 or epoch == args.epochs - 1:
            m, aps = evaluate(decoder, eval_x, eval_objs, dev)
            print(f'epoch {epoch + 1}: loss {loss.item():.3f} mAP@0.5 {m:.4f} {[round(a, 3) for a in aps]} '
                  f'({time.time() - started:.0f}s)', flush=True)

    m, aps = evaluate(decoder, eval_x, eval_objs, dev)
    m_hi, _ = evaluate(decoder, eval_hi_x, eval_hi_objs, dev)
    net = net.cpu().eval()
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    export_onnx(Decoded(net), torch.zeros(1, 3, H, W), args.out, ['image'], ['boxes', 'scores', 'classes'])
    size = fix_output_dims(args.out, {'boxes': ['batch', TOP_K, 4], 'scores': ['batch', TOP_K], 'classes': ['batch', TOP_K]})
    print(json.dumps({'map50': m, 'ap_per_class': aps, 'map50_downsampled_4x': m_hi, 'eval_scenes': len(eval_x),
                      'params': params, 'onnx_bytes': size, 'seconds': round(time.time() - started, 1),
                      'device': str(dev), 'torch': torch.__version__}))


if __name__ == '__main__':
    main()
