"""The YOLO-style detector written by bench/cuda/detector-bench.ts (yolo-style.onnx), run in PyTorch on the same
GPU with the same weights: the ONNX graph's nodes executed as torch operations (Conv, Sigmoid, Mul, Add, Sub,
Slice, Concat, Pad, MaxPool, Resize, Reshape, Transpose), FP16, channels-last, cuDNN autotuning, and one CUDA
graph per batch size. Checked against onnxruntime FP32 at batch 1 before timing.

  python3 bench/cuda/detector_torch.py DIR [--batches 1,8,16,32,64]    (reads DIR/yolo-style.onnx, writes DIR/detector-torch.json)
"""
import argparse
import json
import statistics
import sys

import numpy as np
import onnx
import onnxruntime
import torch
import torch.nn.functional as F
from onnx import numpy_helper


def attrs(n):
    return {a.name: onnx.helper.get_attribute_value(a) for a in n.attribute}


def make_forward(model, dev):
    inits = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    params = {}
    for k, v in inits.items():
        t = torch.from_numpy(v.copy())
        if t.dtype == torch.float32:
            t = t.half()
            if t.dim() == 4:
                t = t.contiguous(memory_format=torch.channels_last)
            t = t.to(dev)
        params[k] = t  # integer constants (slice bounds, pads, shapes) stay host values
    nodes = list(model.graph.node)
    out_name = model.graph.output[0].name
    in_name = model.graph.input[0].name

    def forward(x):
        env = {in_name: x}
        get = lambda k: env[k] if k in env else params[k]
        for n in nodes:
            a = attrs(n)
            i = [get(k) if k else None for k in n.input]
            op = n.op_type
            if op == "Conv":
                p = a.get("pads", [0, 0, 0, 0])
                y = F.conv2d(i[0], i[1], i[2] if len(i) > 2 else None, stride=a.get("strides", [1, 1]), padding=(p[0], p[1]))
            elif op == "Sigmoid":
                y = torch.sigmoid(i[0])
            elif op == "Mul":
                y = i[0] * i[1]
            elif op == "Add":
                y = i[0] + i[1]
            elif op == "Sub":
                y = i[0] - i[1]
            elif op == "Slice":
                st, en, ax = int(i[1][0]), int(i[2][0]), int(i[3][0])
                y = i[0].narrow(ax, st, min(en, i[0].shape[ax]) - st)
            elif op == "Concat":
                y = torch.cat(i, dim=a["axis"])
            elif op == "Pad":
                p = [int(v) for v in i[1].tolist()]
                y = F.pad(i[0], (p[3], p[7], p[2], p[6]))
            elif op == "MaxPool":
                k, pd = a["kernel_shape"], a.get("pads", [0, 0, 0, 0])
                y = F.max_pool2d(i[0], k, stride=a.get("strides", [1, 1]), padding=(pd[0], pd[1]))
            elif op == "Resize":
                mode = a.get("mode", b"nearest").decode()
                if mode == "nearest":
                    y = F.interpolate(i[0], scale_factor=2, mode="nearest")
                else:
                    y = F.interpolate(i[0], scale_factor=2, mode="bilinear", align_corners=False)
            elif op == "Reshape":
                shape = [x.shape[0] if int(s) == 0 else int(s) for s, x in zip(i[1].tolist(), [i[0]] * 3)]
                y = i[0].reshape(shape)
            elif op == "Transpose":
                y = i[0].permute(*a["perm"])
            else:
                raise SystemExit(f"unsupported op {op}")
            env[n.output[0]] = y
        return env[out_name]

    return forward


def timed(fn, iters):
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    lat = []
    for _ in range(iters):
        s.record(); fn(); e.record(); e.synchronize()
        lat.append(s.elapsed_time(e) * 1000.0)
    s.record()
    for _ in range(iters):
        fn()
    e.record(); e.synchronize()
    return statistics.median(lat), s.elapsed_time(e) * 1000.0 / iters


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--batches", default="1,8,16,32,64")
    args = ap.parse_args()
    torch.backends.cudnn.benchmark = True
    dev = torch.device("cuda")
    model = onnx.load(f"{args.dir}/yolo-style.onnx")
    fwd = make_forward(model, dev)
    x = np.random.default_rng(0).standard_normal((1, 3, 480, 640)).astype(np.float32)
    ref = onnxruntime.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"images": x})[0]
    with torch.no_grad():
        got = fwd(torch.from_numpy(x).to(dev).half().contiguous(memory_format=torch.channels_last)).float().cpu().numpy()
    err = float(np.abs(got - ref).max() / np.abs(ref).max())
    print(f"torch fp16 vs onnxruntime fp32: relative max error {err:.2e}")
    rows = []
    for b in [int(v) for v in args.batches.split(",")]:
        xb = torch.randn(b, 3, 480, 640, device=dev).half().contiguous(memory_format=torch.channels_last)
        with torch.no_grad():
            for _ in range(3):
                fwd(xb)
            torch.cuda.synchronize()
            eager = timed(lambda: fwd(xb), 20 if b <= 16 else 10)
            s = torch.cuda.Stream()
            s.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(s):
                for _ in range(3):
                    fwd(xb)
            torch.cuda.current_stream().wait_stream(s)
            g = torch.cuda.CUDAGraph()
            with torch.cuda.graph(g):
                yb = fwd(xb)
            graph = timed(g.replay, 100 if b <= 8 else 30)
        row = {"batch": b, "eagerLatencyUs": round(eager[0]), "eagerImgPerS": round(b * 1e6 / eager[1]), "graphLatencyUs": round(graph[0]), "graphImgPerS": round(b * 1e6 / graph[1])}
        print(f"torch fp16 channels-last batch {b}: eager {row['eagerLatencyUs']} us {row['eagerImgPerS']} img/s; cuda graph {row['graphLatencyUs']} us {row['graphImgPerS']} img/s", flush=True)
        rows.append(row)
        del g
    json.dump({"torch": torch.__version__, "relErrVsOrtFp32": err, "rows": rows}, open(f"{args.dir}/detector-torch.json", "w"), indent=2)


if __name__ == "__main__":
    sys.exit(main())
