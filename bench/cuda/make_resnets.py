"""Exports torchvision-architecture ResNet-18 and ResNet-50 with random weights to ONNX (dynamic batch).

Random weights, but realistic activations: BatchNorm running statistics are measured on random images in
train mode (cumulative average), so the eval-mode network is normalized like a trained one and FP16 sees
trained-like value ranges. The last BatchNorm of each residual branch gets a small scale (0.1-0.4), as trained
ResNets end up with and as residual-scaling initialisations (SkipInit, Fixup, torchvision's zero_init_residual
in the limit) start from: with unit scales on every branch, the residual stream of a random ResNet-50 grows
block after block and even PyTorch's own FP16 differs from its FP32 by 4e-2 (bench/results/cuda-2026-11-29.json,
fp16Sensitivity), which no FP16 engine could then meet a 1e-2 gate on. Seeded: the same files on every run.

  python3 bench/cuda/make_resnets.py OUTDIR
"""
import copy
import sys
import time

import torch
import torchvision


def make(name: str, out: str) -> None:
    torch.manual_seed(0)
    model = getattr(torchvision.models, name)(weights=None).cuda()
    for m in model.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.momentum = None  # cumulative moving average over the calibration batches
            m.reset_running_stats()
            with torch.no_grad():
                m.weight.uniform_(0.5, 1.5)
                m.bias.uniform_(-0.2, 0.2)
    for m in model.modules():
        last_bn = getattr(m, "bn3", None) if isinstance(m, torchvision.models.resnet.Bottleneck) else (
            getattr(m, "bn2", None) if isinstance(m, torchvision.models.resnet.BasicBlock) else None)
        if last_bn is not None:
            with torch.no_grad():
                last_bn.weight.uniform_(0.1, 0.4)
    model.train()
    with torch.no_grad():
        for _ in range(4):
            model(torch.randn(32, 3, 224, 224, device="cuda"))
    model.eval()
    with torch.no_grad():
        # The model's own FP16 sensitivity: PyTorch FP16 against PyTorch FP32 on fresh inputs (same metric as
        # correctness.py), so the engine's error can be read against what FP16 does to this network anyway.
        xs = torch.randn(64, 3, 224, 224, device="cuda")
        ref = model(xs).float()
        half = copy.deepcopy(model).half()(xs.half()).float()
        rel = (half - ref).abs().max().item() / ref.abs().max().item()
        top1 = (half.argmax(-1) == ref.argmax(-1)).float().mean().item()
        print(f"{name}: PyTorch FP16 vs FP32 rel max err {rel:.2e}, top-1 agreement {top1:.3f}", flush=True)
    model.cpu()
    x = torch.randn(1, 3, 224, 224)
    t0 = time.time()
    try:
        # The TorchScript exporter: one Conv (BatchNorm folded in eval mode), Relu, Add, pools, Flatten, Gemm.
        torch.onnx.export(model, (x,), out, input_names=["input"], output_names=["logits"], opset_version=17,
                          dynamic_axes={"input": {0: "batch"}, "logits": {0: "batch"}}, dynamo=False)
    except Exception as e:  # noqa: BLE001 - fall back to the dynamo exporter where the old one is gone
        print(f"{name}: TorchScript exporter failed ({e}); trying the dynamo exporter", flush=True)
        batch = torch.export.Dim("batch", min=1, max=1024)
        torch.onnx.export(model, (x,), out, input_names=["input"], output_names=["logits"], opset_version=18,
                          dynamic_shapes={"x": {0: batch}}, dynamo=True, external_data=False)
    print(f"{name}: wrote {out} in {time.time() - t0:.1f} s", flush=True)


if __name__ == "__main__":
    outdir = sys.argv[1]
    make("resnet18", f"{outdir}/resnet18.onnx")
    make("resnet50", f"{outdir}/resnet50.onnx")
