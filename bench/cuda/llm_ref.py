"""Random-weight Hugging Face decoder checkpoints and the PyTorch anchor for the GPU decoder (issue #31).

  python3 bench/cuda/llm_ref.py write DIR [--only tiny-llama,...]
      writes DIR/<name>/ (config.json, generation_config.json, model.safetensors, FP16) for tiny-llama, tiny-qwen2,
      tiny-gpt2 and llama-1b (the Llama-3.2-1B shape: hidden 2048, 16 layers, 32 heads, 8 KV heads, MLP 8192,
      vocab 128256, tied embeddings, llama3 RoPE scaling; llama-8b, the Llama-3.1-8B shape, only when named), and
      DIR/<name>/reference.json: 20 prompts of 32 random
      token ids and the 64 greedy tokens transformers' generate gives each (one batch of 20, no padding, FP16, eager).
  python3 bench/cuda/llm_ref.py anchor DIR/llama-1b --modes eager,static --streams 1,64 --out OUT.json
      transformers generate on 512-token prompts, 128 greedy tokens, timed after a warm-up: eager (dynamic cache) and
      cache_implementation="static" (transformers compiles the decode step). Decode tok/s takes the prefill out: the time
      of generate(max_new_tokens=1) on the same prompts is subtracted, and 127 tokens per stream are counted.

Random weights: transformers' own initialisation (normal, std initializer_range), biases random too (std 0.02) so
Qwen2's QKV bias and GPT-2's biases are exercised, and the LM head (or the tied embedding) scaled by 4 so greedy
decoding has margins well above FP16 rounding (a trained model's logits are far more peaked than a random one's).
"""
import argparse
import json
import os
import sys
import time

import torch
import transformers
from transformers import AutoModelForCausalLM, GenerationConfig

PROMPTS, PROMPT_LEN, REF_TOKENS = 20, 32, 64

SHAPES = {
    "tiny-llama": dict(
        arch="LlamaForCausalLM", model_type="llama", hidden_size=256, num_hidden_layers=2, num_attention_heads=8,
        num_key_value_heads=2, intermediate_size=512, vocab_size=1000, max_position_embeddings=2048,
        rope={"rope_type": "llama3", "rope_theta": 500000.0, "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
              "original_max_position_embeddings": 256},
        rms_norm_eps=1e-5, tie_word_embeddings=False),
    "tiny-qwen2": dict(
        arch="Qwen2ForCausalLM", model_type="qwen2", hidden_size=256, num_hidden_layers=2, num_attention_heads=8,
        num_key_value_heads=4, intermediate_size=512, vocab_size=1000, max_position_embeddings=2048,
        rope={"rope_type": "default", "rope_theta": 1000000.0},
        rms_norm_eps=1e-6, tie_word_embeddings=True),
    "tiny-gpt2": dict(
        arch="GPT2LMHeadModel", model_type="gpt2", n_embd=256, n_layer=2, n_head=4, vocab_size=1000, n_positions=1024),
    "llama-1b": dict(
        arch="LlamaForCausalLM", model_type="llama", hidden_size=2048, num_hidden_layers=16, num_attention_heads=32,
        num_key_value_heads=8, intermediate_size=8192, vocab_size=128256, max_position_embeddings=131072,
        head_dim=64,
        rope={"rope_type": "llama3", "rope_theta": 500000.0, "factor": 32.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
              "original_max_position_embeddings": 8192},
        rms_norm_eps=1e-5, tie_word_embeddings=True),
    "llama-8b": dict(
        arch="LlamaForCausalLM", model_type="llama", hidden_size=4096, num_hidden_layers=32, num_attention_heads=32,
        num_key_value_heads=8, intermediate_size=14336, vocab_size=128256, max_position_embeddings=131072,
        head_dim=128,
        rope={"rope_type": "llama3", "rope_theta": 500000.0, "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
              "original_max_position_embeddings": 8192},
        rms_norm_eps=1e-5, tie_word_embeddings=False),
}
DEFAULT = "tiny-llama,tiny-qwen2,tiny-gpt2,llama-1b"


def config_of(name):
    s = dict(SHAPES[name])
    arch = s.pop("arch")
    model_type = s.pop("model_type")
    rope = s.pop("rope", None)
    cfg = transformers.AutoConfig.for_model(model_type, **s)
    if rope is not None:
        if int(transformers.__version__.split(".")[0]) >= 5:
            cfg.rope_parameters = dict(rope)  # transformers 5: one dict, theta included
        else:
            cfg.rope_theta = rope["rope_theta"]
            if rope["rope_type"] != "default":
                cfg.rope_scaling = {k: v for k, v in rope.items() if k != "rope_theta"}
    cfg.architectures = [arch]
    cfg.bos_token_id = None
    cfg.eos_token_id = None
    cfg.pad_token_id = None
    return cfg


def random_model(name, seed=0):
    torch.manual_seed(seed)
    cfg = config_of(name)
    with torch.device("cuda"):  # initialised on the GPU: an 8B model's CPU init would take minutes
        model = AutoModelForCausalLM.from_config(cfg, dtype=torch.float16, attn_implementation="sdpa").eval()
    with torch.no_grad():
        for n, p in model.named_parameters():
            if n.endswith(".bias"):
                p.normal_(0, 0.02)
        head = model.get_output_embeddings().weight
        head.mul_(4.0)
    return model


def legacy_rope(path):
    """transformers 5 may write RoPE as `rope_parameters`; src/hf reads rope_theta / rope_scaling: write both."""
    with open(path) as f:
        cfg = json.load(f)
    rp = cfg.get("rope_parameters")
    if isinstance(rp, dict):
        if "rope_theta" in rp:
            cfg["rope_theta"] = rp["rope_theta"]
        if rp.get("rope_type", "default") != "default":
            cfg["rope_scaling"] = {k: v for k, v in rp.items() if k != "rope_theta"}
    with open(path, "w") as f:
        json.dump(cfg, f, indent=1)


def prompts_of(vocab, count, length, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, vocab, (count, length), generator=g)


def greedy(model, ids, new_tokens, **kw):
    # No end-of-sequence id anywhere in these checkpoints: every call generates exactly new_tokens tokens.
    gc = GenerationConfig(do_sample=False, max_new_tokens=new_tokens, pad_token_id=0, eos_token_id=None, bos_token_id=None, **kw)
    with torch.no_grad():
        out = model.generate(ids, attention_mask=torch.ones_like(ids), generation_config=gc)
    return out[:, ids.shape[1]:]


def write(root, only):
    os.makedirs(root, exist_ok=True)
    for name in only:
        t0 = time.time()
        model = random_model(name)
        d = os.path.join(root, name)
        model.save_pretrained(d, safe_serialization=True)
        with open(os.path.join(d, "generation_config.json"), "w") as f:
            json.dump({}, f)
        legacy_rope(os.path.join(d, "config.json"))
        ids = prompts_of(model.config.vocab_size, PROMPTS, PROMPT_LEN, seed=7).cuda()
        toks = greedy(model, ids, REF_TOKENS)
        assert toks.shape[1] == REF_TOKENS, f"{name}: generate stopped after {toks.shape[1]} tokens"
        ref = {"prompts": ids.cpu().tolist(), "tokens": toks.cpu().tolist(), "transformers": transformers.__version__,
               "torch": torch.__version__}
        with open(os.path.join(d, "reference.json"), "w") as f:
            json.dump(ref, f)
        print(f"{name}: written in {time.time() - t0:.1f} s, {sum(p.numel() for p in model.parameters()) / 1e6:.1f} M params",
              flush=True)
        del model
        torch.cuda.empty_cache()


def timed(fn, iters):
    fn()  # warm-up (compiles on the static path)
    torch.cuda.synchronize()
    best = []
    for _ in range(iters):
        t0 = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        best.append(time.perf_counter() - t0)
    return min(best)


def anchor(path, modes, streams, out, new_tokens=128, prompt_len=512, iters=2):
    from transformers import AutoModelForCausalLM as M
    model = M.from_pretrained(path, dtype=torch.float16, attn_implementation="sdpa").cuda().eval()
    res = {"model": path, "promptTokens": prompt_len, "newTokens": new_tokens, "torch": torch.__version__,
           "transformers": transformers.__version__, "device": torch.cuda.get_device_name(0), "runs": []}
    for mode in modes:
        kw = {"cache_implementation": "static"} if mode == "static" else {}
        for b in streams:
            ids = prompts_of(model.config.vocab_size, b, prompt_len, seed=11).cuda()
            try:
                t0 = time.time()
                full = timed(lambda: greedy(model, ids, new_tokens, **kw), iters)
                first = timed(lambda: greedy(model, ids, 1, **kw), iters)
                decode = max(full - first, 1e-9)
                r = {"mode": mode, "streams": b, "generateS": full, "prefillS": first,
                     "decodeTokPerS": b * (new_tokens - 1) / decode, "msPerStep": decode / (new_tokens - 1) * 1000,
                     "wallS": time.time() - t0}
            except Exception as e:  # a compile failure is reported, not fatal
                r = {"mode": mode, "streams": b, "error": str(e)[:400]}
            print(json.dumps(r), flush=True)
            res["runs"].append(r)
            with open(out, "w") as f:
                json.dump(res, f, indent=1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=["write", "anchor"])
    ap.add_argument("path")
    ap.add_argument("--only", default=DEFAULT)
    ap.add_argument("--modes", default="eager,static")
    ap.add_argument("--streams", default="1,64")
    ap.add_argument("--out", default="anchor.json")
    a = ap.parse_args()
    if a.cmd == "write":
        write(a.path, a.only.split(","))
    else:
        anchor(a.path, a.modes.split(","), [int(x) for x in a.streams.split(",")], a.out)


if __name__ == "__main__":
    sys.exit(main())
