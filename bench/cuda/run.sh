#!/usr/bin/env bash
# The CUDA engine's whole GPU-machine run in one command (carry .device/cuda, packed by scripts/device/pack-cuda.sh):
#   bench/cuda/run.sh [STEP ...]      default: every step, in priority order, within a time budget
# Steps: setup addon unit models engine50 engine18 correct torch50 torch18 served webgpu suite drift foundation detector summary jpeg
#   (detector: the YOLO-style 640x480 detector on the engine (FP16) and in PyTorch FP16 channels-last, eager and CUDA
#    graphs, same weights: bench/cuda/detector-bench.ts + detector_torch.py; not in the default list)
#   (jpeg: the GPU image path of issue #19 -- JPEG fixtures (jpeg_fixtures.py), its GPU tests, rtserve's nvJPEG decode +
#    preprocess beside torchvision's (jpeg-bench.ts, jpeg_torch_bench.py); jpegserved: ResNet-50 served JPEG frames over
#    REST binary (jpeg-served.ts); neither in the default list)
#   (frames: issue #30's served JPEG path to the engine's device, --workers 1 and auto, several client processes, and the
#    PyTorch peer decode_jpeg + ResNet-50 CUDA graph in the same run; not in the default list)
#   (camera: issue #30's camera streams -- the shapes detector's CUDA plan served with GPU decode, its mAP over WS, then
#    simulated 30 fps cameras over WS frame streams, REST and gRPC until p99 > 50 ms: bench/cuda/camera.sh; not in the
#    default list)
#   (drift: which layer makes a batch program drift, bench/cuda/localize-drift.ts; not in the default list)
#   (suite: the standard CPU-provider benchmark suite, bench/suite.ts, on this machine's cores; not in the default list)
#   (history, sanitize: whether batch programs depend on what earlier runs left in device memory, and compute-sanitizer
#    on the worst one; not in the default list)
#   (foundation: bench/foundation.ts with the server on two CPUs of different physical cores and the load generator on
#    four others (taskset), shipped configs unless FOUNDATION_SHIPPED=0, then FOUNDATION_VARIANT_ARGS if set; not in
#    the default list)
# The script fails (exit 1) when the addon does not build (it then stops) or when the GPU unit tests fail or skip
# (step unit; their summary with the commit is $OUT/gpu-tests.json: copy it into bench/results/ with the run's numbers).
# Logs and JSON go to a work folder that is tarred into $OUT/results.tgz after every step (a run cut short still
# returns what it finished); $OUT/summary.txt has the headline numbers. BUDGET_S (default 570) stops starting
# steps that would not finish in time.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/rtcuda-out}
W=${WORK:-/tmp/rtcuda-work}
mkdir -p "$OUT" "$W" "$W/models" "$W/dump"
BUDGET_S=${BUDGET_S:-570}
FAILED=""
T0=$(date +%s)
STEPS=${*:-setup addon models unit engine50 correct torch50 engine18 correct torch18 served webgpu summary}
el() { echo $(( $(date +%s) - T0 )); }
pack() { tar czf "$OUT/results.tgz" -C "$W" --exclude=dump --exclude=models . 2>/dev/null || true; }
step() {
  local name=$1 limit=$2
  shift 2
  local left=$(( BUDGET_S - $(el) ))
  if [ "$left" -lt 20 ]; then echo "[$(el)s] skip $name: budget spent" | tee -a "$W/steps.txt"; return; fi
  [ "$limit" -gt "$left" ] && limit=$left
  echo "[$(el)s] start $name (limit ${limit}s)"
  timeout --kill-after=5 "$limit" bash -c "$*" > "$W/$name.log" 2>&1
  local rc=$?
  echo "[$(el)s] $name rc=$rc" | tee -a "$W/steps.txt"
  tail -n "${TAIL:-12}" "$W/$name.log" | sed "s/^/  $name| /" | cut -c1-300
  pack
  return $rc
}

do_setup() {
  scripts/device/unpack-cuda.sh && nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv &&
    python3 -c 'import torch, onnxruntime; print("torch", torch.__version__, "cudnn", torch.backends.cudnn.version(), "ort", onnxruntime.__version__)'
}
# The GPU unit tests, recorded (bench/cuda/gpu-tests.ts): $W/gpu-tests.json with the commit; fails when a test failed
# or skipped (a missing onnxruntime or addon shows as skips) or none ran. Copy it into bench/results/ with the run.
do_unit() {
  [ -f node_modules/onnxruntime-node/bin/napi-v6/linux/x64/libonnxruntime.so.1 ] || echo "onnxruntime-node not carried: the GPU unit tests that need it as the reference will skip (and fail this step)"
  local rc=0
  python3 bench/cuda/jpeg_fixtures.py "$W/jpeg" > /dev/null || echo "JPEG fixtures not written: the image decoder's fixture tests will skip"
  RTSERVE_JPEG_FIXTURES=$W/jpeg RTSERVE_CUDA_TEST_RESNET50=$W/models/resnet50.onnx node bench/cuda/gpu-tests.ts --out "$W/gpu-tests.json" \
    ${UNIT_TESTS:-test/unit/engine/cuda/cuda-engine.test.ts test/unit/engine/cuda/served-order.test.ts test/unit/engine/cuda/detector.test.ts test/unit/engine/cuda/placement.test.ts test/unit/engine/cuda/image-decoder.test.ts test/unit/engine/cuda/compile-at-load-gpu.test.ts} || rc=$?
  cp "$W/gpu-tests.json" "$OUT/gpu-tests.json" 2>/dev/null  # comes back on its own: copy it to bench/results/
  return $rc
}
do_engine() { node bench/cuda/engine-bench.ts --model "$1" --models-dir "$W/models" --out-dir "$W" --dump-dir "$W/dump" --plan-dir /tmp/rtcuda-plans --budget-ms 1000 "${@:2}"; }
# Waits (up to 120 s) until the server on port $1 (process $2) has model $3 (default resnet50) ready; fails when it
# never does or exits.
model_ready() {
  for _ in $(seq 1 120); do
    python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$1/v2/models/${3:-resnet50}/ready', timeout=2)" 2>/dev/null && return 0
    kill -0 "$2" 2>/dev/null || return 1
    sleep 1
  done
  return 1
}

do_served() {
  local repo=/tmp/rtcuda-repo port=18000
  rm -rf "$repo" && mkdir -p "$repo/resnet50/1"
  cp /tmp/rtcuda-plans/resnet50.plan "$repo/resnet50/1/model.plan" || return 1
  cat > "$repo/resnet50/config.json" <<'EOC'
{"name": "resnet50", "max_batch_size": 256,
 "input": [{"name": "input", "data_type": "TYPE_FP32", "dims": [3, 224, 224]}],
 "output": [{"name": "logits", "data_type": "TYPE_FP32", "dims": [1000]}],
 "dynamic_batching": {"preferred_batch_size": [64, 128, 256], "max_queue_delay_microseconds": 1000},
 "instance_group": [{"count": 2, "kind": "KIND_GPU"}]}
EOC
  # One process unless SERVED_WORKERS says otherwise (docs/workers.md: auto would start 8 front-end workers on 16 cores).
  node src/cli/main.ts serve --model-repository "$repo" --http-port $port --grpc-port $((port + 1)) --metrics-port 0 --log-level warn --allow-client-shm=true --workers "${SERVED_WORKERS:-1}" > "$W/server.log" 2>&1 &
  local pid=$!
  local ok=0
  model_ready $port $pid && ok=1
  if [ $ok = 1 ]; then
    echo "server ready after $(el)s"
    local common=(-m resnet50 -u "http://127.0.0.1:$port" --grpc-url "127.0.0.1:$((port + 1))" -b 16 -d 3 --warmup 2 --max-trials 2 --stability-percentage 30 --no-progress)
    # Tensors in the request bodies, then in system shared memory (perf_analyzer --shared-memory system: inputs
    # written once, each request carries only region references; outputs come back through shared memory too).
    node src/cli/main.ts bench "${common[@]}" -p http-binary,grpc -c ${SERVED_C:-16} -o "$W/served-resnet50.json"
    df -h /dev/shm | tail -n 1
    node src/cli/main.ts bench "${common[@]}" -p http-binary,grpc -c ${SERVED_SHM_C:-16,48} --shared-memory system -o "$W/served-resnet50-shm.json"
  else
    echo "server not ready"; tail -n 30 "$W/server.log"
  fi
  kill $pid 2>/dev/null; wait $pid 2>/dev/null
  return $(( 1 - ok ))
}
do_webgpu() {
  if [ ! -f node_modules/onnxruntime-node/bin/napi-v6/linux/x64/libonnxruntime.so.1 ]; then echo "onnxruntime-node not carried"; return 0; fi
  node bench/cuda/ort-webgpu-bench.ts "$W/models/resnet50.onnx" "$W/webgpu-resnet50.json" 1,8,32 &&
    node bench/cuda/ort-webgpu-bench.ts "$W/models/resnet18.onnx" "$W/webgpu-resnet18.json" 1,32
}

do_suite() {
  mkdir -p "$W/suite"
  node bench/suite.ts --out-dir "$W/suite" --duration ${SUITE_DURATION:-1} --max-trials ${SUITE_TRIALS:-5} --warmup 1
}

# Issue #20: which batch programs depend on what earlier runs left in device memory, and why (bench/cuda/history-check.ts;
# RTCUDA_DEBUG diagnostics in native/src/engine.cu). history: one plan with every program kept, checked with the
# engine as served and with each diagnostic mode; sanitize: compute-sanitizer initcheck and memcheck on one run of the
# program the default mode found most history-dependent (HISTORY_SANITIZE_BATCH overrides), each slot in its own allocation.
HPLAN=/tmp/rtcuda-history.payload
do_history() {
  local m=$W/models/resnet50.onnx H=$W/history
  mkdir -p "$H"
  node bench/cuda/history-check.ts build --model "$m" --plan $HPLAN --batches "${HISTORY_BATCHES:-8,16,32,64}" --tune-budget-s "${HISTORY_TUNE_S:-35}" || return 1
  local mode label dbg
  for mode in ${HISTORY_MODES:-default: eager:no-graphs eager-sync:no-graphs,layer-sync split:split-arena,no-graphs fence:fence}; do
    label=${mode%%:*}; dbg=${mode#*:}
    if [ "$label" = default ]; then export CUDNN_LOGLEVEL_DBG=2 CUDNN_LOGDEST_DBG=$H/cudnn-warnings.log; else unset CUDNN_LOGLEVEL_DBG CUDNN_LOGDEST_DBG; fi
    RTCUDA_DEBUG=$dbg timeout 120 node bench/cuda/history-check.ts history --plan $HPLAN --model "$m" --label "$label" --out "$H/history-$label.json" > "$H/history-$label.log" 2>&1
    echo "$label (RTCUDA_DEBUG=$dbg) rc=$?"; grep -v rtcuda-trace "$H/history-$label.log" | cut -c1-240
  done
  unset CUDNN_LOGLEVEL_DBG CUDNN_LOGDEST_DBG
}
do_sanitize() {
  local H=$W/history cs b
  cs=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer /usr/local/cuda/compute-sanitizer/compute-sanitizer 2>/dev/null | head -1)
  [ -n "$cs" ] || { echo "compute-sanitizer not found"; return 1; }
  "$cs" --version | tail -1
  b=${HISTORY_SANITIZE_BATCH:-$(node -e 'const r=require(process.argv[1]); const w=r.programs.sort((a,b)=>b.historyDependence-a.historyDependence)[0]; console.log(w ? w.batch : 16)' "$H/history-default.json" 2>/dev/null || echo 16)}
  echo "sanitizing program $b"
  local tool
  for tool in ${SANITIZE_TOOLS:-initcheck memcheck}; do
    RTCUDA_DEBUG=split-arena,no-warmup,no-graphs,no-memory-check,layer-sync,trace,only-batch=$b timeout "${SANITIZE_LIMIT_S:-150}" \
      "$cs" --tool "$tool" --print-limit 200 node bench/cuda/history-check.ts once --plan $HPLAN --batch "$b" > "$H/$tool-b$b.log" 2>&1
    echo "$tool rc=$?: $(grep -c '^========= ' "$H/$tool-b$b.log") sanitizer lines"; grep -E 'ERROR SUMMARY|^========= [A-Z]' "$H/$tool-b$b.log" | sort | uniq -c | sort -rn | head -8 | cut -c1-240
  done
}

# Issue #19: the GPU image path. Fixtures and bench frames by PIL (sharp is not carried), its GPU tests, then rtserve's
# decode beside torchvision's on the same frames.
do_jpeg() {
  python3 bench/cuda/jpeg_fixtures.py "$W/jpeg" || return 1
  RTSERVE_JPEG_FIXTURES=$W/jpeg node bench/cuda/gpu-tests.ts --out "$W/jpeg-gpu-tests.json" test/unit/engine/cuda/image-decoder.test.ts
  local rc=$?
  cp "$W/jpeg-gpu-tests.json" "$OUT/" 2>/dev/null
  node bench/cuda/jpeg-bench.ts "$W/jpeg" "$W/jpeg-rtserve.json" || rc=1
  python3 bench/cuda/jpeg_torch_bench.py "$W/jpeg" "$W/jpeg-torchvision.json" || rc=1
  return $rc
}

# The JPEG fixtures, the ResNet-50 plan (built with a short tuning budget unless step engine50 left one) and a model
# repository $1 serving it with a preprocess section and a top-5 classification (jpegserved, frames).
jpeg_repo() {
  [ -f "$W/jpeg/index.json" ] || python3 bench/cuda/jpeg_fixtures.py "$W/jpeg" > /dev/null || return 1
  if [ ! -f /tmp/rtcuda-plans/resnet50.plan ]; then
    [ -f "$W/models/resnet50.onnx" ] || python3 bench/cuda/make_resnets.py "$W/models" || return 1
    node bench/cuda/engine-bench.ts --model resnet50 --models-dir "$W/models" --out-dir "$W" --plan-dir /tmp/rtcuda-plans \
      --batches 1,32,64,128,256 --tune-budget-s ${JPEG_TUNE_S:-25} --budget-ms 300 || return 1
  fi
  rm -rf "$1" && mkdir -p "$1/resnet50/1" && cp /tmp/rtcuda-plans/resnet50.plan "$1/resnet50/1/model.plan" || return 1
  cat > "$1/resnet50/config.json" <<'EOC'
{"name": "resnet50", "max_batch_size": 256,
 "input": [{"name": "input", "data_type": "TYPE_FP32", "dims": [3, 224, 224]}],
 "output": [{"name": "logits", "data_type": "TYPE_FP32", "dims": [1000]}],
 "dynamic_batching": {"preferred_batch_size": [64, 128, 256], "max_queue_delay_microseconds": 1000},
 "instance_group": [{"count": 2, "kind": "KIND_GPU"}],
 "preprocess": {"resize": {"mode": "fill"}, "mean": [0.485, 0.456, 0.406], "std": [0.229, 0.224, 0.225], "formats": ["jpeg"]},
 "postprocess": {"type": "classification", "top_k": 5}}
EOC
}

# Issue #19, served: ResNet-50 (CUDA plan: /tmp/rtcuda-plans/resnet50.plan from step engine50, or built here with a short
# tuning budget) with a preprocess section, fed one JPEG per KServe REST binary request (BYTES input) by
# bench/cuda/jpeg-served.ts on the same machine; the server decodes on the GPU (--image-decode auto).
do_jpegserved() {
  local repo=/tmp/rtcuda-jpeg-repo port=18100
  jpeg_repo "$repo" || return 1
  node src/cli/main.ts serve --model-repository "$repo" --http-port $port --grpc-port $((port + 1)) --metrics-port 0 --log-level info --image-decode auto > "$W/jpeg-server.log" 2>&1 &
  local pid=$! ok=0
  model_ready $port $pid && ok=1
  if [ $ok = 1 ]; then
    lscpu | grep -E 'Model name|^CPU\(s\)'
    local c
    for c in ${JPEG_SERVED_C:-64 256}; do
      node bench/cuda/jpeg-served.ts --url "http://127.0.0.1:$port" --model resnet50 --input input --frames "$W/jpeg/bench-224" \
        --concurrency "$c" --seconds ${JPEG_SERVED_S:-8} --out "$W/jpeg-served-c$c.json"
    done
    python3 -c "import urllib.request; print(urllib.request.urlopen('http://127.0.0.1:$port/v2/models/resnet50/stats').read().decode()[:3000])" > "$W/jpeg-served-stats.json"
    head -c 1500 "$W/jpeg-served-stats.json"; echo
  else
    echo "server not ready"
  fi
  grep -E 'decoded on|GPU image|error' "$W/jpeg-server.log" | head -5 | cut -c1-400
  kill $pid 2>/dev/null; wait $pid 2>/dev/null
  return $(( 1 - ok ))
}

# Issue #30: JPEG frames to the engine, served. The ResNet-50 plan with a preprocess section (as jpegserved), the server
# on CPUs 0-11 with --image-decode auto and FRAMES_WORKERS front-end settings (default "1 auto"), for each of
# FRAMES_PROTOCOLS (http grpc ws; default http) FRAMES_CLIENTS jpeg-served.ts processes on CPUs 12-15 at FRAMES_C
# concurrency each (c=1: one process, the batch-1 latency), summed (bench/cuda/frames-sum.py); before that the
# PyTorch peer (decode_jpeg on the GPU + ResNet-50 FP16 with a CUDA graph, batch 256) in the same run.
do_frames() {
  local repo=/tmp/rtcuda-jpeg-repo port=18200
  jpeg_repo "$repo" || return 1
  python3 bench/cuda/jpeg_model_torch.py "$W/jpeg/bench-224" "$W/frames-torch.json" || echo "torch peer failed"
  lscpu | grep -E 'Model name|^CPU\(s\)'
  local workers c k pid ok
  for workers in ${FRAMES_WORKERS:-1 auto}; do
    local prof=()
    if [ -n "${FRAMES_PROF:-}" ]; then rm -rf "$W/prof-$workers"; mkdir -p "$W/prof-$workers"; prof=(--cpu-prof --cpu-prof-dir="$W/prof-$workers"); fi
    taskset -c 0-11 node "${prof[@]}" src/cli/main.ts serve --model-repository "$repo" --http-port $port --grpc-port $((port + 1)) --metrics-port 0 \
      --log-level info --image-decode auto --workers "$workers" > "$W/frames-server-$workers.log" 2>&1 &
    pid=$! ok=0
    model_ready $port $pid && ok=1
    if [ $ok = 1 ]; then
      local proto clients
      for proto in ${FRAMES_PROTOCOLS:-http}; do
        for c in ${FRAMES_C:-16 64}; do
          # Concurrency 1 is the batch-1 latency probe: one client process.
          clients=${FRAMES_CLIENTS:-4}; [ "$c" = 1 ] && clients=1
          for k in $(seq 1 $clients); do
            taskset -c $((11 + k)) node bench/cuda/jpeg-served.ts --url "http://127.0.0.1:$port" --grpc "127.0.0.1:$((port + 1))" --protocol "$proto" --connections ${FRAMES_CONNECTIONS:-1} \
              --model resnet50 --input input --frames "$W/jpeg/bench-224" --concurrency "$c" --seconds ${FRAMES_S:-6} --out "$W/frames-w$workers-$proto-c$c-p$k.json" > /dev/null &
          done
          local cpu0; cpu0=$(frames_cpu $pid)
          wait $(jobs -p | grep -v "^$pid\$") 2>/dev/null
          echo "server CPU seconds during the load (owner, then each worker): $(frames_cpu_delta "$cpu0" "$(frames_cpu $pid)")" | tee -a "$OUT/frames-summary.jsonl"
          python3 bench/cuda/frames-sum.py "$W/frames-w$workers-$proto-c$c" "workers=$workers $proto c=$c x $clients processes" "$OUT/frames-summary.jsonl"
        done
      done
      python3 -c "import urllib.request; print(urllib.request.urlopen('http://127.0.0.1:$port/v2/models/resnet50/stats').read().decode())" > "$W/frames-stats-$workers.json"
      python3 -c "import json,sys; s=json.load(open(sys.argv[1]))['model_stats'][0]; i=s['inference_stats']; n=max(1,i['success']['count']); e=max(1,s['execution_count']); print(json.dumps({'workers':sys.argv[2],'inferences':s['inference_count'],'executions':s['execution_count'],'meanBatch':round(s['inference_count']/e,1),'fail':i['fail']['count'],'queueUsPerReq':round(i['queue']['ns']/n/1e3,1),'computeInferUsPerReq':round(i['compute_infer']['ns']/n/1e3,1)}))" "$W/frames-stats-$workers.json" "$workers" | tee -a "$OUT/frames-summary.jsonl"
    else
      echo "server not ready (workers=$workers)"; tail -n 20 "$W/frames-server-$workers.log"
    fi
    grep -E 'workers|decoded on|GPU image|error' "$W/frames-server-$workers.log" | head -5 | cut -c1-300
    kill $pid 2>/dev/null; wait $pid 2>/dev/null
    if [ -n "${FRAMES_PROF:-}" ]; then
      local f
      # The owner's profile (its pid in the name), then the largest worker's.
      for f in $(ls "$W/prof-$workers"/*".$pid."*.cpuprofile 2>/dev/null) $(ls -S "$W/prof-$workers"/*.cpuprofile 2>/dev/null | grep -v "\.$pid\." | head -1); do
        echo "== profile $(basename "$f") ($(stat -c %s "$f") bytes)" >> "$OUT/frames-profile.txt"
        node bench/cpu-profile-summary.ts "$f" --top ${FRAMES_PROF_TOP:-30} >> "$OUT/frames-profile.txt" 2>&1
      done
    fi
  done
  cat "$W/frames-torch.json" 2>/dev/null
}
# CPU seconds (utime + stime) of a process and of each of its children, one "pid:seconds" each.
frames_cpu() {
  local p
  for p in $1 $(pgrep -P "$1"); do awk -v p="$p" '{ printf "%s:%.2f ", p, ($14 + $15) / 100 }' "/proc/$p/stat" 2>/dev/null; done
}
frames_cpu_delta() {
  python3 -c "import sys; a=dict(x.split(':') for x in sys.argv[1].split()); b=dict(x.split(':') for x in sys.argv[2].split()); print(' '.join('%.2f' % (float(b[k]) - float(a.get(k, 0))) for k in b))" "$1" "$2"
}

# Issue #30's camera streams (bench/cuda/camera.sh): the shapes detector's CUDA plan fed simulated cameras.
source bench/cuda/camera.sh
export -f do_camera camera_repo

export W OUT T0 HPLAN
# The server's CPUs: the first logical CPU of each of the first two physical cores; the client's: of the next four.
do_foundation() {
  local cpus; cpus=$(lscpu -p=CPU,CORE | grep -v '^#' | sort -t, -k2,2n -k1,1n | awk -F, '!seen[$2]++ {print $1}')
  local server client
  server=$(echo "$cpus" | sed -n 1,2p | paste -sd,)
  client=$(echo "$cpus" | sed -n 3,6p | paste -sd,)
  lscpu | grep -E 'Model name|^CPU\(s\)|Thread|Core|Socket|MHz' ; echo "server CPUs $server, client CPUs $client"
  mkdir -p "$W/foundation"
  local common=(--server-cpus "$server" --client-cpus "$client" --out-dir "$W/foundation" --duration ${FOUNDATION_DURATION:-1.5} --max-trials ${FOUNDATION_TRIALS:-6})
  if [ "${FOUNDATION_SHIPPED:-1}" = 1 ]; then node bench/foundation.ts "${common[@]}" || return 1; fi
  if [ -n "${FOUNDATION_VARIANT_ARGS:-}" ]; then node bench/foundation.ts "${common[@]}" $FOUNDATION_VARIANT_ARGS; fi
}

export -f jpeg_repo do_jpeg do_jpegserved do_frames frames_cpu frames_cpu_delta
export -f model_ready el do_setup do_unit do_engine do_served do_webgpu do_suite do_foundation do_history do_sanitize

for s in $STEPS; do
  case $s in
    setup) step setup 90 do_setup; [ -f .device/cuda/env.sh ] && source .device/cuda/env.sh ;;
    # Without the addon nothing below means anything: stop, and fail the script.
    addon) step addon 240 native/build.sh || { FAILED="$FAILED addon"; break; } ;;
    unit) step unit 240 do_unit || FAILED="$FAILED unit" ;;
    models) step models 150 python3 bench/cuda/make_resnets.py $W/models ;;
    engine50) step engine50 240 do_engine resnet50 --tune-budget-s 70 ;;
    engine18) step engine18 150 do_engine resnet18 --tune-budget-s 35 ;;
    drift) step drift ${DRIFT_LIMIT_S:-150} node bench/cuda/localize-drift.ts --model $W/models/resnet50.onnx --out $W/drift-resnet50.json --rounds ${DRIFT_ROUNDS:-1} ${DRIFT_ARGS:-} ;;
    correct) step correct 90 python3 bench/cuda/correctness.py $W/dump $W/correctness.json ;;
    torch50) step torch50 120 python3 bench/cuda/torch_bench.py $W/torch-resnet50.json --models resnet50 --budget-s 0.8 ;;
    torch18) step torch18 120 python3 bench/cuda/torch_bench.py $W/torch-resnet18.json --models resnet18 --budget-s 0.8 ;;
    served) step served ${SERVED_LIMIT_S:-240} do_served ;;
    webgpu) step webgpu 120 do_webgpu ;;
    suite) step suite ${SUITE_LIMIT_S:-480} do_suite ;;
    foundation) step foundation ${FOUNDATION_LIMIT_S:-480} do_foundation ;;
    history) TAIL=40 step history ${HISTORY_LIMIT_S:-420} do_history ;;
    sanitize) TAIL=40 step sanitize ${SANITIZE_STEP_LIMIT_S:-330} do_sanitize ;;
    detector) step detector ${DETECTOR_LIMIT_S:-240} "RTCUDA_PROFILE=${RTCUDA_PROFILE:-1} node bench/cuda/detector-bench.ts --out $W/detector ${DETECTOR_ARGS:-} && python3 bench/cuda/detector_torch.py $W/detector" ;;
    summary) TAIL=80 step summary 30 node bench/cuda/summarize.ts $W $OUT/summary.txt ;;
    jpeg) TAIL=${TAIL:-40} step jpeg ${JPEG_LIMIT_S:-240} do_jpeg || FAILED="$FAILED jpeg" ;;
    jpegserved) TAIL=${TAIL:-40} step jpegserved ${JPEG_SERVED_LIMIT_S:-300} do_jpegserved || FAILED="$FAILED jpegserved" ;;
    frames) TAIL=${TAIL:-60} step frames ${FRAMES_LIMIT_S:-420} do_frames || FAILED="$FAILED frames" ;;
    camera) TAIL=${TAIL:-60} step camera ${CAMERA_LIMIT_S:-420} do_camera || FAILED="$FAILED camera" ;;
    *) echo "unknown step $s" ;;
  esac
done
pack
echo "[$(el)s] done; steps:"; cat "$W/steps.txt"
if [ -n "${FAILED:-}" ]; then echo "FAILED:$FAILED"; exit 1; fi
