"""Helpers shared by the training scripts: device choice, seeding, ONNX export checks."""
import os
import random

import numpy as np
import torch


def pick_device(name):
    if name == 'auto':
        return torch.device('cuda' if torch.cuda.is_available() else 'cpu')
    return torch.device(name)


def seed_everything(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def export_onnx(module, example, path, input_names, output_names, opset=17):
    """Exports with a dynamic batch dimension (legacy TorchScript exporter: it exists in torch 1.13 and 2.x)."""
    module.eval()
    dynamic = {n: {0: 'batch'} for n in input_names + output_names}
    kwargs = dict(input_names=input_names, output_names=output_names, dynamic_axes=dynamic, opset_version=opset,
                  do_constant_folding=True)
    try:
        torch.onnx.export(module, example, path, dynamo=False, **kwargs)
    except TypeError:  # torch < 2.5 has no `dynamo` argument
        torch.onnx.export(module, example, path, **kwargs)
    import onnx
    model = onnx.load(path)
    onnx.checker.check_model(model)
    # Keep the file small and free of training-time metadata.
    model.producer_name = 'rtserve models/train'
    model.doc_string = ''
    onnx.save(model, path)
    return os.path.getsize(path)


def fix_output_dims(path, dims_by_output):
    """Replaces symbolic dims the exporter invented (e.g. 'Concatboxes_dim_1') with the fixed sizes they have."""
    import onnx
    model = onnx.load(path)
    for out in model.graph.output:
        want = dims_by_output.get(out.name)
        if want is None:
            continue
        for d, v in zip(out.type.tensor_type.shape.dim, want):
            if isinstance(v, int):
                d.ClearField('dim_param')
                d.dim_value = v
    onnx.checker.check_model(model)
    onnx.save(model, path)
    return os.path.getsize(path)
