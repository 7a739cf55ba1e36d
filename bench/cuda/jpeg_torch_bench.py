#!/usr/bin/env python3
"""torchvision's nvJPEG decode, the reference for rtserve's GPU image path (issue #19), in the same run:

  python3 bench/cuda/jpeg_torch_bench.py FIXTURES_DIR OUT.json

For each bench set of jpeg_fixtures.py (bench-224, bench-640: 256 frames): torchvision.io.decode_jpeg on
device='cuda' with the whole list (batched), and decode + resize to 224x224 (antialiased bilinear) + normalize to
FP16, img/s as the median of timed rounds (torch.cuda.synchronize around each); CPU decode on one thread for scale.
"""
import json
import os
import statistics
import sys
import time

import torch
import torchvision
from torchvision.io import decode_jpeg

fx, out = sys.argv[1], sys.argv[2]
torch.set_num_threads(1)
res = {'torch': torch.__version__, 'torchvision': torchvision.__version__, 'device': torch.cuda.get_device_name(0), 'sets': {}}
mean = torch.tensor([0.485, 0.456, 0.406], device='cuda').view(1, 3, 1, 1) * 255
std = torch.tensor([0.229, 0.224, 0.225], device='cuda').view(1, 3, 1, 1) * 255
for label in ('224', '640'):
    d = os.path.join(fx, 'bench-' + label)
    files = sorted(os.listdir(d))
    datas = [torchvision.io.read_file(os.path.join(d, f)) for f in files]
    n = len(datas)

    def timed(fn, rounds=7):
        fn()
        torch.cuda.synchronize()
        ts = []
        for _ in range(rounds):
            t0 = time.perf_counter()
            fn()
            torch.cuda.synchronize()
            ts.append(time.perf_counter() - t0)
        return statistics.median(ts)

    t_dec = timed(lambda: decode_jpeg(datas, device='cuda'))

    def dec_pre():
        imgs = decode_jpeg(datas, device='cuda')
        x = torch.stack([torch.nn.functional.interpolate(i.unsqueeze(0).float(), size=(224, 224), mode='bilinear', antialias=True, align_corners=False)[0] for i in imgs])
        return ((x - mean) / std).half()

    t_pre = timed(dec_pre)
    cpu = datas[:64]
    t0 = time.perf_counter()
    for x in cpu:
        decode_jpeg(x)
    t_cpu = (time.perf_counter() - t0) / len(cpu)
    res['sets'][label] = {
        'frames': n,
        'meanBytes': sum(int(x.numel()) for x in datas) / n,
        'nvjpegBatchImgPerS': n / t_dec,
        'nvjpegBatchMs': t_dec * 1000,
        'decodeResizeNormalizeImgPerS': n / t_pre,
        'cpuOneThreadImgPerS': 1 / t_cpu,
    }
    print(label, json.dumps(res['sets'][label]))
with open(out, 'w') as f:
    json.dump(res, f, indent=1)
