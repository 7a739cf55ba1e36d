#!/usr/bin/env python3
"""Camera frames for the camera-stream benchmark (issue #30), made on the GPU machine (sharp is not there; PIL is).

  python3 bench/cuda/camera_frames.py OUT_DIR [COUNT]

Renders COUNT (default 150) held-out `shapes` scenes (seeds 1..COUNT; training used seeds from 1,000,000) at 4x,
640x480, with the training generator (models/train/shapes_scene.py), and writes OUT_DIR/frame-NNNN.jpg (JPEG
quality 85, 4:2:0, PIL/libjpeg-turbo) and OUT_DIR/truths.json: {"frame-NNNN.jpg": [[class, x1, y1, x2, y2], ...]} in
frame pixels, the ground truth the benchmark scores served detections with (mAP@0.5).
"""
import io
import json
import os
import sys

from PIL import Image

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', '..', 'models', 'train'))
from shapes_scene import generate_scene, render_scene  # noqa: E402

out = sys.argv[1]
count = int(sys.argv[2]) if len(sys.argv) > 2 else 150
os.makedirs(out, exist_ok=True)
truths = {}
sizes = []
for seed in range(1, count + 1):
    pixels, objects = render_scene(generate_scene(seed), 4)
    buf = io.BytesIO()
    Image.fromarray(pixels).save(buf, format='JPEG', quality=85)
    name = 'frame-%04d.jpg' % seed
    with open(os.path.join(out, name), 'wb') as f:
        f.write(buf.getvalue())
    sizes.append(len(buf.getvalue()))
    truths[name] = [[cls, *box] for cls, box in objects]
with open(os.path.join(out, 'truths.json'), 'w') as f:
    json.dump(truths, f)
print(json.dumps({'frames': count, 'width': 640, 'height': 480, 'meanJpegBytes': sum(sizes) / len(sizes)}))
