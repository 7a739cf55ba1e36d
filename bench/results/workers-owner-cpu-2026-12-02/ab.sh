#!/usr/bin/env bash
# Interleaved A/B of the engine owner's CPU per request with `--workers 2`, REST binary (#18; the runs of
# bench/results/workers-owner-cpu-2026-12-02.md). BASE and NEW are checkouts with node_modules (BASE had this
# commit's bench/profile-served.ts copied in for --workers). The order alternates by round.
#   BASE=/tmp/owner-base NEW=$PWD OUTDIR=/tmp/owner-runs ROUNDS=4 C=16 TAG=s16 ab.sh
ROUNDS=${ROUNDS:-3}; C=${C:-16}; SECS=${SECS:-5}; TAG=${TAG:-ab}; OUTDIR=${OUTDIR:-/tmp/owner-runs}
mkdir -p "$OUTDIR"
for r in $(seq 1 "$ROUNDS"); do
  for m in simple mlp; do
    if [ $((r % 2)) -eq 1 ]; then order="base new"; else order="new base"; fi
    for v in $order; do
      dir=$BASE; [ "$v" = new ] && dir=$NEW
      f=$OUTDIR/$TAG-$m-$v-$r.txt
      (cd "$dir" && timeout 120 node --import tsx bench/profile-served.ts --model $m --concurrency "$C" --seconds "$SECS" --workers 2 > "$f" 2>&1)
      echo "$r $m $v $(grep -E 'infer/s' "$f" | head -1 | cut -c1-90) | $(grep -E 'node \(main\)' "$f" | head -1 | awk '{print $1,$2}') | $(grep -E '  total$' "$f" | awk '{print $1,$2}') | $(grep 'load average at end' "$f" | cut -d: -f2)"
    done
  done
done
