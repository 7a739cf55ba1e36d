"""PyTorch baselines on the same GPU, same models (torchvision ResNets, random weights), FP16:
eager (channels-last, cudnn.benchmark autotuning) and the same with a CUDA graph per batch size.

Latency: median of per-call times (CUDA events around one forward; eager includes Python overhead).
Throughput: batches launched back to back, images / second.

  python3 bench/cuda/torch_bench.py OUT.json [--batches 1,2,...] [--models resnet50,resnet18]
"""
import argparse
import json
import statistics
import time

import torch
import torchvision


def timed(fn, iters: int) -> tuple[float, float]:
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    lat = []
    for _ in range(iters):
        start.record()
        fn()
        end.record()
        end.synchronize()
        lat.append(start.elapsed_time(end) * 1000.0)
    start.record()
    for _ in range(iters):
        fn()
    end.record()
    end.synchronize()
    return statistics.median(lat), start.elapsed_time(end) * 1000.0 / iters


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--batches", default="1,2,4,8,16,32,64,128,256")
    ap.add_argument("--models", default="resnet50,resnet18")
    ap.add_argument("--budget-s", type=float, default=4.0, help="seconds of timing per (model, mode, batch)")
    args = ap.parse_args()
    torch.backends.cudnn.benchmark = True
    results = {"torch": torch.__version__, "cudnn": torch.backends.cudnn.version(), "device": torch.cuda.get_device_name(), "rows": []}
    for name in args.models.split(","):
        torch.manual_seed(0)
        model = getattr(torchvision.models, name)(weights=None).eval().cuda().half().to(memory_format=torch.channels_last)
        for b in [int(x) for x in args.batches.split(",")]:
            x = torch.randn(b, 3, 224, 224, device="cuda", dtype=torch.half).to(memory_format=torch.channels_last)
            with torch.inference_mode():
                model(x)  # cudnn.benchmark autotunes this shape here
                torch.cuda.synchronize()
                t0 = time.time()
                for _ in range(3):
                    model(x)
                torch.cuda.synchronize()
                warm = (time.time() - t0) / 3
                iters = max(5, min(200, int(args.budget_s / 2 / max(warm, 1e-4))))
                lat, per = timed(lambda: model(x), iters)
                results["rows"].append({"model": name, "mode": "eager-fp16-channels-last", "batch": b, "latencyUs": lat,
                                        "throughputImgPerS": b / (per / 1e6), "iters": iters})
                print(f"{name} eager b={b}: {lat:.0f} us, {b / (per / 1e6):.0f} img/s", flush=True)
                static_x = x.clone()
                s = torch.cuda.Stream()
                s.wait_stream(torch.cuda.current_stream())
                with torch.cuda.stream(s):
                    for _ in range(3):
                        model(static_x)
                torch.cuda.current_stream().wait_stream(s)
                g = torch.cuda.CUDAGraph()
                with torch.cuda.graph(g):
                    model(static_x)
                lat, per = timed(g.replay, iters)
                results["rows"].append({"model": name, "mode": "cuda-graph-fp16-channels-last", "batch": b, "latencyUs": lat,
                                        "throughputImgPerS": b / (per / 1e6), "iters": iters})
                print(f"{name} graph b={b}: {lat:.0f} us, {b / (per / 1e6):.0f} img/s", flush=True)
                del g
    with open(args.out, "w") as f:
        json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
