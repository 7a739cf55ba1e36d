#!/usr/bin/env bash
# Issue #33's table on the GPU host in one command (docs/workers.md): ResNet-50 (the CUDA plan, FP32 bodies of
# 602 KB per image) served by `rtserve serve --workers N` for N in $WORKERS, loaded over REST binary and gRPC at 1 and
# 16 images per request by $CLIENTS `rtserve bench` processes at once (their img/s add up), then one more client
# process at the same setting to show the load generator is not the limit; then the small models
# (bench/workers-scale.sh). Every gRPC client process is one HTTP/2 channel, hence one connection and one worker
# (node:cluster hands out connections): with CLIENTS ≥ the workers count every worker gets gRPC work, as REST's
# pooled connections spread by themselves.
#   bench/cuda/frontend-run.sh             → $OUT/frontend.md, $OUT/frontend.json, $OUT/frontend.tgz
# Needs the addon built and /tmp/rtcuda-plans/resnet50.plan: without the plan it runs `bench/cuda/run.sh setup addon
# models engine50` first. The server is pinned to $SERVER_CPUS, the clients to $CLIENT_CPUS; their CPU seconds and the
# load average are recorded beside each row.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/frontend-out}
W=${WORK:-/tmp/frontend-work}
WORKERS=${WORKERS:-"1 8"}
CLIENTS=${CLIENTS:-8}
BATCHES=${BATCHES:-"1 16"}
PROTOCOLS=${PROTOCOLS:-"http-binary grpc"}
C=${C:-8}
DUR=${DUR:-3}
N_CPUS=$(nproc)
SERVER_CPUS=${SERVER_CPUS:-0-$((N_CPUS * 5 / 8 - 1))}
CLIENT_CPUS=${CLIENT_CPUS:-$((N_CPUS * 5 / 8))-$((N_CPUS - 1))}
mkdir -p "$OUT" "$W"
PLAN=/tmp/rtcuda-plans/resnet50.plan
repo=$(mktemp -d)
if [ -n "${REPO:-}" ]; then
  # A repository of its own with a model named resnet50 (a smoke run of this script off the GPU host).
  cp -r "$REPO"/. "$repo/"
else
  [ -f "$PLAN" ] || bench/cuda/run.sh setup addon models engine50 || { echo "no ResNet-50 plan: stopping"; exit 1; }
  [ -f .device/cuda/env.sh ] && source .device/cuda/env.sh
  mkdir -p "$repo/resnet50/1" && cp "$PLAN" "$repo/resnet50/1/model.plan"
  cat > "$repo/resnet50/config.json" <<'EOC'
{"name": "resnet50", "max_batch_size": 256,
 "input": [{"name": "input", "data_type": "TYPE_FP32", "dims": [3, 224, 224]}],
 "output": [{"name": "logits", "data_type": "TYPE_FP32", "dims": [1000]}],
 "dynamic_batching": {"preferred_batch_size": [64, 128, 256], "max_queue_delay_microseconds": 1000},
 "instance_group": [{"count": 2, "kind": "KIND_GPU"}]}
EOC
fi
ready() { python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$1/v2/models/resnet50/ready', timeout=2)" 2>/dev/null; }
cpu_s() { awk '{ print ($14 + $15 + $16 + $17) / 100 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
# One row: $1 workers, $2 protocol, $3 batch, $4 client processes; the server on port $5 (gRPC $5 + 1), process $6.
load() {
  local n=$1 p=$2 b=$3 k=$4 port=$5 pid=$6 tag="w$1-$2-b$3-k$4"
  local start_cpu clients
  start_cpu=$(cpu_s "$pid")
  # The clients run in a subshell whose `times` gives their CPU (user and system of its children) once they exited.
  clients=$(
    for i in $(seq 1 "$k"); do
      taskset -c "$CLIENT_CPUS" node src/cli/main.ts bench -m resnet50 -u "http://127.0.0.1:$port" --grpc-url "127.0.0.1:$((port + 1))" \
        --protocol "$p" -b "$b" --concurrency "$C" --duration "$DUR" --warmup 2 --max-trials 2 --stability-percentage 50 --no-progress -o "$W/$tag-$i.json" > "$W/$tag-$i.log" 2>&1 &
    done
    wait
    # Redirected, not piped: `times` in a pipeline runs in a fork of its own, whose children are none.
    times > "$W/$tag-times.txt"
    tail -n 1 "$W/$tag-times.txt" | awk '{ s = 0; for (f = 1; f <= 2; f++) { split($f, t, /[ms]/); s += t[1] * 60 + t[2] } print s }'
  )
  echo "{\"workers\": $n, \"protocol\": \"$p\", \"batch\": $b, \"clients\": $k, \"loadavg\": \"$(cut -d' ' -f1-3 /proc/loadavg)\", \"serverCpuS\": $(awk -v a="$(cpu_s "$pid")" -v b="$start_cpu" 'BEGIN { print a - b }'), \"clientCpuS\": ${clients:-0}}" > "$W/$tag-meta.json"
  echo "  $tag done: $(cat /proc/loadavg)"
}
for n in $WORKERS; do
  port=$((18200 + n * 10))
  taskset -c "$SERVER_CPUS" node src/cli/main.ts serve --model-repository "$repo" --http-port $port --grpc-port $((port + 1)) \
    --metrics-port 0 --log-level warn --workers "$n" > "$W/server-w$n.log" 2>&1 &
  pid=$!
  ok=0
  for _ in $(seq 1 120); do ready $port && { ok=1; break; }; kill -0 $pid 2>/dev/null || break; sleep 1; done
  if [ $ok = 0 ]; then echo "workers=$n: server not ready"; tail -n 30 "$W/server-w$n.log"; kill $pid 2>/dev/null; continue; fi
  echo "workers=$n ready: $(cat /proc/loadavg)"
  for b in $BATCHES; do
    for p in $PROTOCOLS; do
      load "$n" "$p" "$b" "$CLIENTS" $port $pid
    done
  done
  # One more client process at the heaviest setting: the sum should not move if the clients are not the limit.
  for p in $PROTOCOLS; do load "$n" "$p" 1 $((CLIENTS + 1)) $port $pid; done
  kill -TERM $pid
  wait $pid
done
rm -rf "$repo"
node bench/cuda/frontend-summary.ts "$W" "$OUT"
# The small models: served requests per second at each workers count (the ≥ 5× target).
OUT="$W/small" WORKERS="$WORKERS" SERVER_CPUS="$SERVER_CPUS" CLIENT_CPUS="$CLIENT_CPUS" bench/workers-scale.sh && cp "$W/small/workers-scale.md" "$OUT/small-models.md"
tar czf "$OUT/frontend.tgz" -C "$W" . 2>/dev/null || true
