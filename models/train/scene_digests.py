"""Writes models/train/shapes-scene-digests.json: SHA-256 digests of scenes rendered by the Python generator.

test/unit/preprocess/shapes-scene.test.ts renders the same seeds with the TypeScript generator and compares, so the
two generators cannot drift apart silently.

    /usr/bin/python3 models/train/scene_digests.py
"""
import hashlib
import json
import os
import sys

import numpy as np

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from shapes_scene import generate_scene, render_scene  # noqa: E402

SEEDS = [1, 2, 3, 42, 1000, 65535, 123456789, 4294967295]
SCALES = [1, 2.5, 4]


def digest(seed, scale):
    pixels, objects = render_scene(generate_scene(seed), scale)
    h = hashlib.sha256(pixels.tobytes())
    # boxes as little-endian float64 [cls, x1, y1, x2, y2] per object: exact, not a decimal rendering
    h.update(np.array([v for cls, box in objects for v in (cls, *box)], dtype='<f8').tobytes())
    return {'seed': seed, 'scale': scale, 'width': int(pixels.shape[1]), 'height': int(pixels.shape[0]),
            'objects': len(objects), 'sha256': h.hexdigest()}


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'shapes-scene-digests.json')
    with open(out, 'w') as f:
        json.dump({'generator': 'models/train/shapes_scene.py', 'numpy': np.__version__,
                   'scenes': [digest(s, k) for s in SEEDS for k in SCALES]}, f, indent=1)
        f.write('\n')
    print(out)


if __name__ == '__main__':
    main()
