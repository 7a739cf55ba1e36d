"""Checks the CUDA engine's outputs against onnxruntime CPU FP32 (Python onnxruntime), batch by batch.

bench/cuda/engine-bench.ts writes, per model and batch size, the fresh random inputs it fed the engine and the
engine's outputs (.npy); this runs the source ONNX model on the same inputs and reports the relative error
max|engine - ref| / max|ref| (the gate: <= 1e-2 for FP16) and the top-1 agreement.

  python3 bench/cuda/correctness.py DIR OUT.json
"""
import glob
import json
import os
import sys

import numpy as np
import onnxruntime as ort


def main() -> int:
    d, out = sys.argv[1], sys.argv[2]
    rows, ok = [], True
    sessions = {}
    for x_path in sorted(glob.glob(os.path.join(d, "*__b*__x.npy")), key=lambda p: (p.split("__")[0], int(p.split("__b")[1].split("__")[0]))):
        model, b = os.path.basename(x_path).split("__")[0], int(x_path.split("__b")[1].split("__")[0])
        y_path = x_path.replace("__x.npy", "__y.npy")
        onnx_path = os.path.join(d, f"{model}.onnx")
        if model not in sessions:
            so = ort.SessionOptions()
            sessions[model] = ort.InferenceSession(onnx_path, so, providers=["CPUExecutionProvider"])
        s = sessions[model]
        x, y = np.load(x_path), np.load(y_path)
        ref = s.run(None, {s.get_inputs()[0].name: x})[0]
        rel = float(np.max(np.abs(y - ref)) / max(np.max(np.abs(ref)), 1e-12))
        rel_l2 = float(np.linalg.norm(y - ref) / max(np.linalg.norm(ref), 1e-12))
        top1 = float(np.mean(np.argmax(y, axis=-1) == np.argmax(ref, axis=-1)))
        passed = rel <= 1e-2 and bool(np.all(np.isfinite(y)))
        ok = ok and passed
        rows.append({"model": model, "batch": b, "relMaxError": rel, "relL2Error": rel_l2, "top1Agreement": top1, "passed": passed})
        print(f"{model} b={b}: rel max err {rel:.2e}, rel L2 {rel_l2:.2e}, top-1 agreement {top1:.3f} {'PASS' if passed else 'FAIL'}", flush=True)
    with open(out, "w") as f:
        json.dump({"reference": f"onnxruntime {ort.__version__} CPUExecutionProvider FP32", "gate": "relMaxError <= 1e-2", "rows": rows, "passed": ok and bool(rows)}, f, indent=1)
    return 0 if ok and rows else 1


if __name__ == "__main__":
    sys.exit(main())
