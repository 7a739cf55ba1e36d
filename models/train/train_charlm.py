#!/usr/bin/python3
"""Builds the corpus for, trains and exports `charlm`, the bundled byte-level code model (models/charlm/).

    # 1. corpus: Python 3.11's standard library sources on this machine, split by file (every 20th file held out)
    /usr/bin/python3 models/train/train_charlm.py corpus
    # 2. train (CUDA when there is a GPU, else CPU; the weights go to <out>/charlm-weights.npz with a log)
    /usr/bin/python3 models/train/train_charlm.py train --minutes 5 --out models/train/.cache
    # 3. export to ONNX opset 17 with explicit KV-cache inputs/outputs, write config.json, measure held-out loss
    /usr/bin/python3 models/train/train_charlm.py export --weights models/train/.cache/charlm-weights.npz

Weights travel as .npz (plain arrays) so training can run under one torch version (2.x on the GPU machine) and
export under another (Debian's 1.13 here). See models/charlm/MODEL_CARD.md for what came out.
"""
import argparse
import contextlib
import json
import lzma
import math
import os
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from charlm_model import EOS, VOCAB, CharLM, Config, count_params  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CACHE = os.path.join(HERE, '.cache')
MODEL_DIR = os.path.join(ROOT, 'models', 'charlm')
STDLIB = '/usr/lib/python3.11'
HELD_OUT_EVERY = 20
SAMPLE_BYTES = 8192


def stdlib_files(root):
    out = []
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x not in ('test', 'tests', 'idle_test', 'site-packages',
                                                     'dist-packages', '__pycache__'))
        out += [os.path.join(d, f) for f in sorted(files) if f.endswith('.py')]
    return sorted(out)


def cmd_corpus(args):
    """Documents are joined by a NUL byte (absent from the sources), which becomes <|endoftext|> when loaded."""
    files = stdlib_files(args.stdlib)
    train, held = [], []
    for i, path in enumerate(files):
        with open(path, 'rb') as f:
            data = f.read()
        if b'\0' in data or len(data) == 0:
            continue
        try:
            data.decode('utf-8')
        except UnicodeDecodeError:
            continue
        (held if i % HELD_OUT_EVERY == 7 else train).append(data)
    os.makedirs(CACHE, exist_ok=True)
    for name, docs in (('train', train), ('heldout', held)):
        blob = b'\0'.join(docs)
        with lzma.open(os.path.join(CACHE, f'charlm-{name}.txt.xz'), 'wb', preset=6) as f:
            f.write(blob)
        print(f'{name}: {len(docs)} files, {len(blob)} bytes')
    # The sample the TypeScript test measures perplexity on: the first held-out bytes, cut at a line end.
    sample = b'\0'.join(held)[:SAMPLE_BYTES]
    sample = sample[:sample.rfind(b'\n') + 1].split(b'\0')[0]
    os.makedirs(MODEL_DIR, exist_ok=True)
    with open(os.path.join(MODEL_DIR, 'heldout-sample.txt'), 'wb') as f:
        f.write(sample)
    print(f'sample: {len(sample)} bytes of held-out text')


def load_tokens(path):
    with lzma.open(path, 'rb') as f:
        raw = np.frombuffer(f.read(), dtype=np.uint8)
    toks = raw.astype(np.int64)
    toks[raw == 0] = EOS
    # Every document starts after an <|endoftext|>, as prompts do at serving time (the server prepends it).
    return np.concatenate([[EOS], toks, [EOS]])


@torch.no_grad()
def evaluate(model, toks, ctx, device, max_windows=None):
    """Mean next-token NLL (nats) over non-overlapping windows; the first token of each window is context only."""
    model.eval()
    n = (len(toks) - 1) // ctx
    if max_windows is not None:
        n = min(n, max_windows)
    total, count = 0.0, 0
    data = torch.from_numpy(toks[: n * ctx + 1])
    for s in range(0, n, 64):
        e = min(n, s + 64)
        x = torch.stack([data[i * ctx:(i + 1) * ctx] for i in range(s, e)]).to(device)
        y = torch.stack([data[i * ctx + 1:(i + 1) * ctx + 1] for i in range(s, e)]).to(device)
        logits = model.forward_train(x).float()
        total += F.cross_entropy(logits.reshape(-1, VOCAB), y.reshape(-1), reduction='sum').item()
        count += y.numel()
    model.train()
    return total / count


def cmd_train(args):
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    device = 'cuda' if torch.cuda.is_available() and not args.cpu else 'cpu'
    cfg = Config(d_model=args.d_model, n_layer=args.layers, n_head=args.heads, d_ff=4 * args.d_model,
                 max_context=args.ctx, dropout=args.dropout)
    model = CharLM(cfg).to(device)
    n_params = count_params(model)
    train = load_tokens(os.path.join(args.corpus, 'charlm-train.txt.xz'))
    held = load_tokens(os.path.join(args.corpus, 'charlm-heldout.txt.xz'))
    print(f'device {device}, torch {torch.__version__}, params {n_params}, train tokens {len(train)}, '
          f'held-out tokens {len(held)}', flush=True)
    data = torch.from_numpy(train).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, betas=(0.9, 0.95), weight_decay=0.1)
    def autocast():
        # bf16 on the GPU; plain fp32 on CPU (torch 1.13 initializes CUDA even for a disabled CUDA autocast).
        return torch.autocast(device_type='cuda', dtype=torch.bfloat16) if device == 'cuda' else contextlib.nullcontext()
    ctx, bs = args.ctx, args.batch
    budget_s = args.minutes * 60
    log = []
    start = time.time()
    total_steps = None
    t30 = 0.0
    step = 0
    best = (float('inf'), None)
    offsets = torch.arange(ctx + 1, device=device)
    while True:
        elapsed = time.time() - start
        # Size the cosine schedule to the time budget from the speed of steps 30..130 (the first steps pay for
        # CUDA and allocator warm-up), with 5% left for evaluations.
        if step == 30:
            t30 = elapsed
        if total_steps is None and step == 130:
            per_step = (elapsed - t30) / 100
            total_steps = max(step, step + int(0.95 * (budget_s - elapsed) / per_step))
            print(f'schedule: {total_steps} steps ({per_step * 1000:.1f} ms/step)', flush=True)
        if total_steps is not None and step >= total_steps:
            break
        warm = 200
        t = step / (total_steps or 10**9)
        lr = args.lr * min(1.0, (step + 1) / warm) * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(1.0, t))))
        for g in opt.param_groups:
            g['lr'] = lr
        starts = torch.randint(0, len(train) - ctx - 1, (bs,), device=device)
        batch = data[starts[:, None] + offsets[None, :]]
        x, y = batch[:, :-1], batch[:, 1:]
        with autocast():
            logits = model.forward_train(x)
        loss = F.cross_entropy(logits.float().reshape(-1, VOCAB), y.reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        step += 1
        if step % args.eval_every == 0 or (total_steps is not None and step == total_steps):
            with autocast():
                val = evaluate(model, held, ctx, device, max_windows=256)
            entry = dict(step=step, seconds=round(time.time() - start, 1), lr=lr, train_loss=round(loss.item(), 4),
                         heldout_loss=round(val, 4))
            log.append(entry)
            print(json.dumps(entry), flush=True)
            if val < best[0]:
                best = (val, {k: v.detach().float().cpu().numpy().copy() for k, v in model.state_dict().items()})
    model.load_state_dict({k: torch.from_numpy(v) for k, v in best[1].items()})
    final = evaluate(model.float(), held, ctx, device)
    os.makedirs(args.out, exist_ok=True)
    np.savez(os.path.join(args.out, 'charlm-weights.npz'), **best[1])
    summary = dict(config=cfg.as_dict(), params=n_params, steps=step, batch=bs, ctx=ctx, lr=args.lr,
                   seconds=round(time.time() - start, 1), device=device, torch=torch.__version__,
                   tokens_seen=step * bs * ctx, train_tokens=int(len(train)), heldout_tokens=int(len(held)),
                   heldout_loss_best_subset=round(best[0], 4), heldout_loss_full_fp32=round(final, 4),
                   heldout_ppl_full_fp32=round(math.exp(final), 4), log=log)
    with open(os.path.join(args.out, 'charlm-train-log.json'), 'w') as f:
        json.dump(summary, f, indent=1)
    print(json.dumps({k: v for k, v in summary.items() if k != 'log'}), flush=True)


def cmd_export(args):
    import onnx
    with open(args.log) as f:
        summary = json.load(f)
    cfg = Config(**summary['config'])
    model = CharLM(cfg)
    weights = np.load(args.weights)
    model.load_state_dict({k: torch.from_numpy(weights[k]) for k in weights.files})
    model.eval()
    held = load_tokens(os.path.join(args.corpus, 'charlm-heldout.txt.xz'))
    nll = evaluate(model, held, cfg.max_context, 'cpu')
    print(f'held-out loss {nll:.4f} nats/byte, perplexity {math.exp(nll):.3f} (torch {torch.__version__}, fp32)')
    model.eval()  # evaluate() leaves the model in training mode (dropout on)

    L, hd = cfg.n_layer, cfg.head_dim
    names_in = ['input_ids', 'position_ids', 'attention_mask']
    names_out = ['logits']
    dyn = {'input_ids': {0: 'batch', 1: 'seq'}, 'position_ids': {0: 'batch', 1: 'seq'},
           'attention_mask': {0: 'batch', 1: 'total'}, 'logits': {0: 'batch', 1: 'seq'}}
    for i in range(L):
        for kv in ('key', 'value'):
            names_in.append(f'past_key_values.{i}.{kv}')
            names_out.append(f'present.{i}.{kv}')
            dyn[f'past_key_values.{i}.{kv}'] = {0: 'batch', 2: 'past'}
            dyn[f'present.{i}.{kv}'] = {0: 'batch', 2: 'total'}
    B, P, S = 2, 3, 4
    example = (torch.randint(0, VOCAB, (B, S)), torch.arange(P, P + S)[None].repeat(B, 1),
               torch.ones(B, P + S, dtype=torch.int64),
               *[torch.randn(B, 1, P, hd) for _ in range(2 * L)])
    version_dir = os.path.join(MODEL_DIR, '1')
    os.makedirs(version_dir, exist_ok=True)
    path = os.path.join(version_dir, 'model.onnx')
    torch.onnx.export(model, example, path, input_names=names_in, output_names=names_out, dynamic_axes=dyn,
                      opset_version=17, do_constant_folding=True)
    m = onnx.load(path)
    onnx.checker.check_model(m)
    assert not any(n.op_type == 'Dropout' for n in m.graph.node), 'the exported graph must be the eval-mode model'
    m.producer_name = 'rtserve models/train/train_charlm.py'
    m.doc_string = 'charlm: byte-level decoder-only transformer trained on Python 3.11 stdlib sources (see MODEL_CARD.md)'
    onnx.save(m, path)

    # Self-check of the cache contract against the training forward pass: a prefill of part of a window and
    # then one token per step must give the same logits as the whole window at once.
    with torch.no_grad():
        ids = torch.from_numpy(held[:40])[None]
        full = model.forward_train(ids)[0]
        past = [torch.zeros(1, 1, 0, hd) for _ in range(2 * L)]
        out = model(ids[:, :30], torch.arange(30)[None], torch.ones(1, 30, dtype=torch.int64), *past)
        diffs = [(out[0][0] - full[:30]).abs().max().item()]
        past = list(out[1:])
        for t in range(30, 40):
            out = model(ids[:, t:t + 1], torch.tensor([[t]]), torch.ones(1, t + 1, dtype=torch.int64), *past)
            past = list(out[1:])
            diffs.append((out[0][0, 0] - full[t]).abs().max().item())
    print(f'incremental vs full forward: max |diff| {max(diffs):.2e}')

    config = {
        'name': 'charlm',
        'backend': 'onnxruntime',
        # The batch dimension is the generation batch; the KServe route may also run single steps.
        'max_batch_size': 64,
        'parameters': {'description': {'string_value': 'byte-level Python code model; see MODEL_CARD.md'}},
        # Decoding steps are small: on a CPU, one thread per step beats splitting it (thread-pool hand-offs cost
        # more than they save; bench/results/generate-*.json compares both).
        'engine': {'intra_op_num_threads': 1},
        'generate': {
            'tokenizer': 'bytes',
            'vocab_size': VOCAB,
            'eos_token_id': EOS,
            'bos_token_id': EOS,
            'max_context': cfg.max_context,
            'num_layers': L,
            'inputs': {'input_ids': 'input_ids', 'position_ids': 'position_ids', 'attention_mask': 'attention_mask',
                       'past_key': 'past_key_values.{layer}.key', 'past_value': 'past_key_values.{layer}.value'},
            'outputs': {'logits': 'logits', 'present_key': 'present.{layer}.key',
                        'present_value': 'present.{layer}.value'},
        },
        # The default warmup (every dynamic dim = 1) would give a mask one column shorter than past + new tokens.
        'model_warmup': [{
            'name': 'one decode step',
            'batch_size': 1,
            'inputs': {
                'input_ids': {'data_type': 'TYPE_INT64', 'dims': [1], 'zero_data': True},
                'position_ids': {'data_type': 'TYPE_INT64', 'dims': [1], 'zero_data': True},
                'attention_mask': {'data_type': 'TYPE_INT64', 'dims': [2], 'zero_data': True},
                **{f'past_key_values.{i}.{kv}': {'data_type': 'TYPE_FP32', 'dims': [1, 1, hd], 'zero_data': True}
                   for i in range(L) for kv in ('key', 'value')},
            },
        }],
    }
    with open(os.path.join(MODEL_DIR, 'config.json'), 'w') as f:
        json.dump(config, f, indent=2)
        f.write('\n')
    stats = dict(heldout_loss_nats_per_byte=round(nll, 4), heldout_ppl=round(math.exp(nll), 4),
                 onnx_bytes=os.path.getsize(path), incremental_max_abs_diff=max(diffs))
    with open(os.path.join(args.out, 'charlm-export.json'), 'w') as f:
        json.dump(stats, f, indent=1)
    print(json.dumps(stats))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest='cmd', required=True)
    c = sub.add_parser('corpus')
    c.add_argument('--stdlib', default=STDLIB)
    t = sub.add_parser('train')
    t.add_argument('--corpus', default=CACHE)
    t.add_argument('--out', default=CACHE)
    t.add_argument('--minutes', type=float, default=4.0)
    t.add_argument('--cpu', action='store_true')
    t.add_argument('--seed', type=int, default=1234)
    t.add_argument('--d-model', type=int, default=256)
    t.add_argument('--layers', type=int, default=4)
    t.add_argument('--heads', type=int, default=4)
    t.add_argument('--ctx', type=int, default=512)
    t.add_argument('--batch', type=int, default=64)
    t.add_argument('--lr', type=float, default=2e-3)
    t.add_argument('--dropout', type=float, default=0.0)
    t.add_argument('--eval-every', type=int, default=250)
    e = sub.add_parser('export')
    e.add_argument('--weights', default=os.path.join(CACHE, 'charlm-weights.npz'))
    e.add_argument('--log', default=os.path.join(CACHE, 'charlm-train-log.json'))
    e.add_argument('--corpus', default=CACHE)
    e.add_argument('--out', default=CACHE)
    args = p.parse_args()
    {'corpus': cmd_corpus, 'train': cmd_train, 'export': cmd_export}[args.cmd](args)


if __name__ == '__main__':
    main()
