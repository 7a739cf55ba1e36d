#!/usr/bin/env python3
"""JPEG test frames for the GPU image path (issue #19), made on the GPU machine (sharp is not there; PIL is).

  python3 bench/cuda/jpeg_fixtures.py OUT_DIR

Writes OUT_DIR/index.json and, per frame, NAME.jpg and (where PIL decodes it) NAME.rgb: PIL's (libjpeg-turbo's)
decoded pixels, interleaved RGB, the reference the GPU test compares nvJPEG with. Also OUT_DIR/bench-224/ and
OUT_DIR/bench-640/: 256 frames each for the decode benchmark (low-pass random texture, quality 85, as the issue's
torchvision reference).
"""
import io
import json
import os
import sys

import numpy as np
from PIL import Image

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(19)


def smooth(w, h):
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    r = 127.5 + 110 * np.sin(x / 23.0) * np.cos(y / 31.0)
    g = 127.5 + 110 * np.sin((x + y) / 41.0)
    b = 127.5 + 110 * np.cos(x / 17.0 - y / 29.0)
    return np.clip(np.stack([r, g, b], -1), 0, 255).astype(np.uint8)


def texture(w, h, cell=4):
    small = rng.integers(0, 256, size=(h // cell + 1, w // cell + 1, 3), dtype=np.uint8)
    img = Image.fromarray(small).resize((w, h), Image.BILINEAR)
    return np.asarray(img)


def save(name, arr, ref=True, **kw):
    buf = io.BytesIO()
    mode = kw.pop('mode', None)
    img = Image.fromarray(arr)
    if mode is not None:
        img = img.convert(mode)
    img.save(buf, format='JPEG', **kw)
    data = buf.getvalue()
    with open(os.path.join(out, name + '.jpg'), 'wb') as f:
        f.write(data)
    entry = {'name': name, 'bytes': len(data), 'width': arr.shape[1], 'height': arr.shape[0]}
    if ref:
        dec = np.asarray(Image.open(io.BytesIO(data)).convert('RGB'))
        dec.tofile(os.path.join(out, name + '.rgb'))
        entry['ref'] = name + '.rgb'
    return entry, data


entries = []
e, _ = save('smooth-444', smooth(640, 480), quality=95, subsampling=0)
entries.append({**e, 'kind': 'baseline', 'subsampling': '444'})
e, base420 = save('smooth-420', smooth(640, 480), quality=90, subsampling=2)
entries.append({**e, 'kind': 'baseline', 'subsampling': '420'})
e, _ = save('texture-420-224', texture(224, 224), quality=85)
entries.append({**e, 'kind': 'baseline', 'subsampling': '420'})
e, _ = save('progressive-420', smooth(640, 480), quality=90, subsampling=2, progressive=True)
entries.append({**e, 'kind': 'progressive', 'subsampling': '420'})
e, _ = save('odd-size', smooth(333, 217), quality=90, subsampling=2)
entries.append({**e, 'kind': 'baseline', 'subsampling': '420'})
e, _ = save('gray', smooth(320, 240), quality=90, mode='L')
entries.append({**e, 'kind': 'grayscale'})
e, _ = save('cmyk', smooth(64, 48), ref=False, quality=90, mode='CMYK')
entries.append({**e, 'kind': 'cmyk'})
with open(os.path.join(out, 'truncated.jpg'), 'wb') as f:
    f.write(base420[: len(base420) * 6 // 10])
entries.append({'name': 'truncated', 'kind': 'truncated', 'width': 640, 'height': 480, 'bytes': len(base420) * 6 // 10})
with open(os.path.join(out, 'corrupt.jpg'), 'wb') as f:
    f.write(b'\xff\xd8\xff' + bytes(rng.integers(0, 256, size=5000, dtype=np.uint8)))
entries.append({'name': 'corrupt', 'kind': 'corrupt', 'width': 0, 'height': 0, 'bytes': 5003})

bench = {}
for label, (w, h) in {'224': (224, 224), '640': (640, 480)}.items():
    d = os.path.join(out, 'bench-' + label)
    os.makedirs(d, exist_ok=True)
    sizes = []
    for i in range(256):
        buf = io.BytesIO()
        Image.fromarray(texture(w, h, cell=3 if label == '224' else 4)).save(buf, format='JPEG', quality=85)
        sizes.append(len(buf.getvalue()))
        with open(os.path.join(d, '%03d.jpg' % i), 'wb') as f:
            f.write(buf.getvalue())
    bench[label] = {'width': w, 'height': h, 'frames': 256, 'meanBytes': sum(sizes) / len(sizes)}

with open(os.path.join(out, 'index.json'), 'w') as f:
    json.dump({'frames': entries, 'bench': bench}, f, indent=1)
print(json.dumps({'frames': [(e['name'], e['bytes']) for e in entries], 'bench': bench}))
