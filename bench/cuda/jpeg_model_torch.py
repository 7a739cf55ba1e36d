#!/usr/bin/env python3
"""The PyTorch peer of rtserve's served JPEG path (issue #30), in the same run:

  python3 bench/cuda/jpeg_model_torch.py FRAMES_DIR OUT.json [--batch 256]

JPEG bytes in, class out, as a PyTorch user would build it on this GPU: torchvision.io.decode_jpeg(device='cuda') on a
batch of frames (nvJPEG), resize to 224x224 where a frame is another size, normalize (ImageNet mean/std) to FP16
channels-last, and ResNet-50 (torchvision, random weights, the same architecture as rtserve's plan) captured in a CUDA
graph with cuDNN autotuning; top-5 taken on the GPU and copied back. img/s is the median of timed rounds of whole
batches (torch.cuda.synchronize around each). No server, no network: the engine-side ceiling of that stack.
"""
import argparse
import json
import os
import statistics
import time

import torch
import torchvision
from torchvision.io import decode_jpeg

p = argparse.ArgumentParser()
p.add_argument('frames')
p.add_argument('out')
p.add_argument('--batch', type=int, default=256)
p.add_argument('--rounds', type=int, default=9)
a = p.parse_args()

torch.backends.cudnn.benchmark = True
files = sorted(f for f in os.listdir(a.frames) if f.endswith('.jpg'))
datas = [torchvision.io.read_file(os.path.join(a.frames, f)) for f in files]
batch = [datas[i % len(datas)] for i in range(a.batch)]
mean = torch.tensor([0.485, 0.456, 0.406], device='cuda').view(1, 3, 1, 1) * 255
std = torch.tensor([0.229, 0.224, 0.225], device='cuda').view(1, 3, 1, 1) * 255

model = torchvision.models.resnet50(weights=None).cuda().half().eval().to(memory_format=torch.channels_last)
static_in = torch.zeros(a.batch, 3, 224, 224, device='cuda', dtype=torch.half).to(memory_format=torch.channels_last)


def preprocess(imgs):
    x = torch.stack([i if i.shape[1:] == (224, 224) else torch.nn.functional.interpolate(i.unsqueeze(0).float(), size=(224, 224), mode='bilinear', antialias=True)[0] for i in imgs])
    return ((x.float() - mean) / std).half().contiguous(memory_format=torch.channels_last)


with torch.no_grad():
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            model(static_in)
    torch.cuda.current_stream().wait_stream(s)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        static_out = model(static_in)


def step():
    static_in.copy_(preprocess(decode_jpeg(batch, device='cuda')))
    graph.replay()
    return torch.topk(static_out.float(), 5, dim=1).indices.cpu()


def timed(fn):
    fn()
    torch.cuda.synchronize()
    ts = []
    for _ in range(a.rounds):
        t0 = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts)


with torch.no_grad():
    t_all = timed(step)
    t_model = timed(graph.replay)
    t_dec = timed(lambda: preprocess(decode_jpeg(batch, device='cuda')))
res = {
    'torch': torch.__version__,
    'torchvision': torchvision.__version__,
    'device': torch.cuda.get_device_name(0),
    'batch': a.batch,
    'frames': len(files),
    'meanBytes': sum(int(x.numel()) for x in datas) / len(datas),
    'jpegToTop5ImgPerS': a.batch / t_all,
    'decodePreprocessImgPerS': a.batch / t_dec,
    'modelGraphImgPerS': a.batch / t_model,
}
print(json.dumps(res))
with open(a.out, 'w') as f:
    json.dump(res, f, indent=1)
