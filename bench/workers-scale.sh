#!/usr/bin/env bash
# Served requests per second of small models against `rtserve serve --workers N` (#18, docs/workers.md), on one host:
# for each N in $WORKERS the server (pinned to $SERVER_CPUS) serves simple and mlp, and $CLIENTS `rtserve bench`
# processes (pinned to $CLIENT_CPUS, $C connections each, REST binary) load it at once; their throughputs add up.
# The server's and the clients' CPU seconds and the load average are recorded beside them.
#   OUT=/tmp/x WORKERS="1 8" bench/workers-scale.sh        → $OUT/workers-scale.json, $OUT/workers-scale.md
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/workers-scale}
WORKERS=${WORKERS:-"1 8"}
MODELS=${MODELS:-"simple mlp"}
CLIENTS=${CLIENTS:-4}
C=${C:-32}
DUR=${DUR:-2}
TRIALS=${TRIALS:-3}
N_CPUS=$(nproc)
SERVER_CPUS=${SERVER_CPUS:-0-$((N_CPUS * 3 / 4 - 1))}
CLIENT_CPUS=${CLIENT_CPUS:-$((N_CPUS * 3 / 4))-$((N_CPUS - 1))}
mkdir -p "$OUT"
repo=$(mktemp -d)
cp -r models/simple models/mlp "$repo/"
ready() { node -e "fetch('$1/v2/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"; }
cpu_s() { awk '{ print ($14 + $15 + $16 + $17) / 100 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
for n in $WORKERS; do
  port=$((19000 + n * 10))
  taskset -c "$SERVER_CPUS" node src/cli/main.ts serve --model-repository "$repo" --http-port $port --grpc-port $((port + 1)) \
    --metrics-port 0 --log-level warn --workers "$n" > "$OUT/server-w$n.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 120); do ready "http://127.0.0.1:$port" && break; kill -0 $pid 2>/dev/null || break; sleep 0.5; done
  echo "workers=$n ready: $(cat /proc/loadavg)"
  for m in $MODELS; do
    start_cpu=$(cpu_s $pid)
    pids=()
    for i in $(seq 1 "$CLIENTS"); do
      taskset -c "$CLIENT_CPUS" node src/cli/main.ts bench -m "$m" -u "http://127.0.0.1:$port" --protocol http-binary --concurrency "$C" --duration "$DUR" --warmup 1 \
        --max-trials "$TRIALS" --stability-percentage 50 --no-progress -o "$OUT/w$n-$m-$i.json" > "$OUT/w$n-$m-$i.log" 2>&1 &
      pids+=($!)
    done
    wait "${pids[@]}"
    echo "{\"workers\": $n, \"model\": \"$m\", \"loadavg\": \"$(cut -d' ' -f1-3 /proc/loadavg)\", \"ownerCpuS\": $(awk -v a="$(cpu_s $pid)" -v b="$start_cpu" 'BEGIN { print a - b }')}" > "$OUT/w$n-$m-meta.json"
    echo "  $m done: $(cat /proc/loadavg)"
  done
  kill -TERM $pid
  wait $pid
done
rm -rf "$repo"
node bench/workers-scale-summary.ts "$OUT"
# One archive of every client's JSON and log (the device tool brings back a limited number of files).
tar czf "$OUT/workers-scale.tgz" -C "$OUT" --exclude=workers-scale.tgz . 2>/dev/null || true
