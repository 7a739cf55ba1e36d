#!/usr/bin/env bash
# The GPU decoder's device run (issue #31), after `bench/cuda/run.sh setup addon` and `source .device/cuda/env.sh`:
# checkpoints and greedy references (bench/cuda/llm_ref.py write), rtserve's decoder on them (bench/cuda/llm-bench.ts:
# correctness and timings), the GPU unit test, then the PyTorch anchor (eager, then static/compiled) on the 1B shape.
# Everything lands in $OUT: summary.txt (ending with bench/cuda/llm-summary.ts's comparison), llm-bench.json,
# llm-gpu-tests.json (the GPU unit test's record: a skip there fails it), anchor-eager.json, anchor-static.json,
# logs.tgz. Steps have their own time limits
# (LLM_*_S) so a slow one cannot take the others' output with it.
set -uo pipefail
OUT=${OUT:-/tmp/llm-out}
W=${LLM_WORK:-/tmp/llm-work}
mkdir -p "$OUT" "$W/logs"
# LLM_8B=1 adds the Llama-3.1-8B shape (16 GB of weights written, loaded, checked and timed like the 1B one).
CKPTS=${LLM_CKPTS:-tiny-llama,tiny-qwen2,tiny-gpt2,llama-1b${LLM_8B:+,llama-8b}}
TIMED=llama-1b${LLM_8B:+,llama-8b}
t0=$(date +%s)
el() { echo $(( $(date +%s) - t0 )); }
step() {
  local name=$1 limit=$2
  shift 2
  echo "[$(el)s] start $name (limit ${limit}s)" | tee -a "$OUT/summary.txt"
  timeout --kill-after=5 "$limit" bash -c "$*" > "$W/logs/$name.log" 2>&1
  local rc=$?
  echo "[$(el)s] $name rc=$rc" | tee -a "$OUT/summary.txt"
  tail -n "${TAIL:-8}" "$W/logs/$name.log" | cut -c1-400 | sed "s/^/  $name| /" | tee -a "$OUT/summary.txt"
  tar -czf "$OUT/logs.tgz" -C "$W" logs 2>/dev/null
  return $rc
}
nvidia-smi --query-gpu=name,memory.total,memory.used --format=csv,noheader >> "$OUT/summary.txt" 2>&1
step write "${LLM_WRITE_S:-90}" "python3 bench/cuda/llm_ref.py write $W/ckpt --only $CKPTS"
step bench "${LLM_BENCH_S:-90}" "node bench/cuda/llm-bench.ts --dir $W/ckpt --out $OUT/llm-bench.json --only $CKPTS --timed $TIMED ${LLM_BENCH_ARGS:-}"
[ -n "${LLM_UNIT-1}" ] && step unit "${LLM_UNIT_S:-60}" "node bench/cuda/gpu-tests.ts --out $OUT/llm-gpu-tests.json test/unit/engine/cuda/llm-engine.test.ts"
step anchor-eager "${LLM_EAGER_S:-60}" "python3 bench/cuda/llm_ref.py anchor $W/ckpt/llama-1b --modes eager --streams 1,64 --out $OUT/anchor-eager.json"
[ -n "${LLM_STATIC-1}" ] && step anchor-static "${LLM_STATIC_S:-150}" "python3 bench/cuda/llm_ref.py anchor $W/ckpt/llama-1b --modes static --streams ${LLM_STATIC_STREAMS:-64,1} --out $OUT/anchor-static.json"
node bench/cuda/llm-summary.ts "$OUT" 2>&1 | tee -a "$OUT/summary.txt"
echo "[$(el)s] done" | tee -a "$OUT/summary.txt"
