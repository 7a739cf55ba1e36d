"""The charlm decoder: a small byte-level, decoder-only transformer (GPT-style, pre-LayerNorm, learned absolute
positions, multi-query attention, tied input/output embeddings).

One module serves training and ONNX export. The export signature carries the KV cache explicitly, in the naming
that Hugging Face Optimum uses for decoder exports, so the serving loop (src/generate/) can decode one token per
step and batch sequences of different lengths:

  inputs   input_ids        int64 [batch, seq]          new tokens (the prompt at prefill, one token per step after)
           position_ids     int64 [batch, seq]          position of each new token in its own sequence
           attention_mask   int64 [batch, past + seq]   1 = attend to that cache column, 0 = padding
           past_key_values.<i>.key / .value  float32 [batch, 1, past, head_dim]   (one KV head: multi-query)
  outputs  logits           float32 [batch, seq, vocab]
           present.<i>.key / .value          float32 [batch, 1, past + seq, head_dim]  (= past ++ new)

Why multi-query attention (one K/V head shared by every query head, Shazeer 2019, arXiv:1911.02150): on a CPU the
decoding step of a batch is dominated by moving the KV cache (present = concat(past, new) copies it every step),
and one KV head makes the cache 4x smaller than four heads would.

Why positions and a mask are inputs: continuous batching puts sequences of different lengths in one batch. Cache
columns are shared by the batch, so a short sequence has padding columns that the mask hides, and each sequence
keeps its own positions. Attention is order-free over cache columns (positions are added to the embeddings, so
they are already inside K), which lets the server place a sequence's columns anywhere in the batch cache.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB = 257  # 256 byte values + <|endoftext|>
EOS = 256


class Config:
    def __init__(self, d_model=256, n_layer=4, n_head=4, d_ff=1024, max_context=512, dropout=0.0):
        self.d_model = d_model
        self.n_layer = n_layer
        self.n_head = n_head
        self.head_dim = d_model // n_head
        self.d_ff = d_ff
        self.max_context = max_context
        self.dropout = dropout
        self.vocab = VOCAB

    def as_dict(self):
        return dict(d_model=self.d_model, n_layer=self.n_layer, n_head=self.n_head, d_ff=self.d_ff,
                    max_context=self.max_context, dropout=self.dropout)


class Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        d, hd = cfg.d_model, cfg.head_dim
        self.n_head, self.head_dim = cfg.n_head, hd
        self.ln1 = nn.LayerNorm(d)
        self.q = nn.Linear(d, d)
        self.kv = nn.Linear(d, 2 * hd)
        self.o = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, cfg.d_ff)
        self.fc2 = nn.Linear(cfg.d_ff, d)
        self.drop = nn.Dropout(cfg.dropout)

    def forward(self, x, bias, past_k, past_v):
        B, S, D = x.shape
        h = self.ln1(x)
        q = self.q(h).view(B, S, self.n_head, self.head_dim).transpose(1, 2)  # B,H,S,hd
        kv = self.kv(h).view(B, S, 2, self.head_dim)
        k = kv[:, :, 0, :].unsqueeze(1)  # B,1,S,hd
        v = kv[:, :, 1, :].unsqueeze(1)
        if past_k is None:
            # Training: no cache; causal attention over the window (fused kernel when torch has one).
            if hasattr(F, 'scaled_dot_product_attention'):
                y = F.scaled_dot_product_attention(q, k.expand(B, self.n_head, S, self.head_dim),
                                                   v.expand(B, self.n_head, S, self.head_dim),
                                                   dropout_p=self.drop.p if self.training else 0.0, is_causal=True)
            else:
                att = (q @ k.transpose(-1, -2)) / math.sqrt(self.head_dim) + bias
                y = self.drop(att.softmax(-1)) @ v
            present_k, present_v = k, v
        else:
            present_k = torch.cat([past_k, k], dim=2)  # B,1,T,hd
            present_v = torch.cat([past_v, v], dim=2)
            # One K/V head serves every query head, so the heads are stacked on the query axis: one batched GEMM
            # [B, 1, H*S, hd] x [B, 1, hd, T] per product instead of H broadcast ones (fewer, larger kernel calls
            # on a CPU). `bias` is already [B, 1, H*S, T]; the 1/sqrt(hd) scale is folded into q.
            qs = (q * (1.0 / math.sqrt(self.head_dim))).reshape(B, 1, self.n_head * S, self.head_dim)
            att = qs @ present_k.transpose(-1, -2) + bias
            y = (att.softmax(-1) @ present_v).reshape(B, self.n_head, S, self.head_dim)
        y = y.transpose(1, 2).reshape(B, S, D)
        x = x + self.drop(self.o(y))
        x = x + self.drop(self.fc2(F.gelu(self.fc1(self.ln2(x)))))
        return x, present_k, present_v


class CharLM(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.tok = nn.Embedding(cfg.vocab, cfg.d_model)
        self.pos = nn.Embedding(cfg.max_context, cfg.d_model)
        self.blocks = nn.ModuleList([Block(cfg) for _ in range(cfg.n_layer)])
        self.ln_f = nn.LayerNorm(cfg.d_model)
        self.drop = nn.Dropout(cfg.dropout)
        self.apply(self._init)
        for b in self.blocks:  # GPT-2's scaled init of the residual projections
            nn.init.normal_(b.o.weight, std=0.02 / math.sqrt(2 * cfg.n_layer))
            nn.init.normal_(b.fc2.weight, std=0.02 / math.sqrt(2 * cfg.n_layer))

    @staticmethod
    def _init(m):
        if isinstance(m, nn.Linear):
            nn.init.normal_(m.weight, std=0.02)
            nn.init.zeros_(m.bias)
        elif isinstance(m, nn.Embedding):
            nn.init.normal_(m.weight, std=0.02)

    def logits_of(self, x):
        return self.ln_f(x) @ self.tok.weight.t()  # tied output embedding

    def forward_train(self, ids):
        """ids: B,S (positions 0..S-1) -> logits B,S,V."""
        B, S = ids.shape
        pos = torch.arange(S, device=ids.device)
        x = self.drop(self.tok(ids) + self.pos(pos)[None])
        bias = None
        if not hasattr(F, 'scaled_dot_product_attention'):
            causal = torch.ones(S, S, device=ids.device, dtype=torch.bool).tril()
            bias = torch.zeros(S, S, device=ids.device).masked_fill(~causal, float('-inf'))
        for b in self.blocks:
            x, _, _ = b(x, bias, None, None)
        return self.logits_of(x)

    def forward(self, input_ids, position_ids, attention_mask, *past):
        """The exported step: see the module docstring for the signature."""
        S = input_ids.shape[1]
        T = attention_mask.shape[1]
        x = self.tok(input_ids) + self.pos(position_ids)
        # allowed[b, i, c] = mask[b, c] and (c <= past + i): the new tokens see every unmasked cache column and,
        # among themselves, only earlier ones (causal). A finite -1e9 (not -inf) keeps fully masked rows (padding
        # queries) free of NaN, which would otherwise leak into later layers' K/V through 0 * NaN.
        col = torch.arange(T, device=input_ids.device)
        row = torch.arange(S, device=input_ids.device) + (T - S)
        causal = (col[None, :] <= row[:, None]).to(torch.float32)  # S,T
        allowed = causal[None, None, :, :] * attention_mask[:, None, None, :].to(torch.float32)  # B,1,S,T
        # Repeated once per head, in the stacked-heads row order (head-major) the blocks use.
        bias = ((1.0 - allowed) * -1e9).repeat(1, 1, self.cfg.n_head, 1)  # B,1,H*S,T
        presents = []
        for i, b in enumerate(self.blocks):
            x, k, v = b(x, bias, past[2 * i], past[2 * i + 1])
            presents += [k, v]
        return (self.logits_of(x), *presents)


def count_params(model):
    # The tied output embedding is counted once.
    return sum(p.numel() for p in model.parameters())
