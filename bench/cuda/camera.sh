# Issue #30's camera streams, sourced by bench/cuda/run.sh (step `camera`; uses its $W, $OUT, model_ready, frames_cpu).
#
# The bundled `shapes` detector compiled to a CUDA FP16 plan (batch 1..256) and served with --image-decode auto on
# CPUs 0-11 (CAMERA_WORKERS front ends, default auto), fed 640x480 JPEG scenes (camera_frames.py: held-out seeds
# 1..150, PIL quality 85). First the mAP@0.5 of the served detections over WS (the GPU decode + resize + plan path)
# beside the CI figure of the CPU path; then one camera (batch-1 frame -> boxes latency); then camera-sweep.ts with
# 4 client processes on CPUs 12-15: WS frame streams at CAMERA_LEVELS streams, REST and gRPC at CAMERA_REQ_LEVELS,
# each level CAMERA_S seconds, until p99 > 50 ms. Summaries: $OUT/camera-summary.jsonl.

# The shapes plan (built once per machine under /tmp/rtcuda-plans) and a repository $1 serving it.
camera_repo() {
  mkdir -p /tmp/rtcuda-plans
  if [ ! -f /tmp/rtcuda-plans/shapes.plan ]; then
    node src/cli/main.ts build models/shapes/1/model.onnx --target cuda --precision fp16 \
      --profile image:1x3x120x160,64x3x120x160,256x3x120x160 -o /tmp/rtcuda-plans/shapes.plan --report "$W/shapes-build.json" || return 1
  fi
  rm -rf "$1" && mkdir -p "$1/shapes/1" && cp /tmp/rtcuda-plans/shapes.plan "$1/shapes/1/model.plan" && cp models/shapes/labels.txt "$1/shapes/" || return 1
  cat > "$1/shapes/config.json" <<'EOC'
{"name": "shapes", "max_batch_size": 256,
 "input": [{"name": "image", "data_type": "TYPE_FP32", "dims": [3, 120, 160], "format": "FORMAT_NCHW"}],
 "output": [
   {"name": "boxes", "data_type": "TYPE_FP32", "dims": [50, 4]},
   {"name": "scores", "data_type": "TYPE_FP32", "dims": [50]},
   {"name": "classes", "data_type": "TYPE_INT32", "dims": [50], "label_filename": "labels.txt"}],
 "dynamic_batching": {"preferred_batch_size": [32, 64, 128], "max_queue_delay_microseconds": 2000},
 "instance_group": [{"count": 2, "kind": "KIND_GPU"}],
 "preprocess": {"color": "rgb", "resize": {"mode": "fill", "kernel": "linear"}, "scale": 0.00392156862745098},
 "postprocess": {"type": "detection", "boxes_output": "boxes", "scores_output": "scores", "classes_output": "classes",
   "box_format": "xyxy", "score_threshold": 0.3, "iou_threshold": 0.5, "max_detections": 50}}
EOC
}

do_camera() {
  local repo=/tmp/rtcuda-camera-repo port=18300 frames=$W/camera
  [ -f "$frames/truths.json" ] || python3 bench/cuda/camera_frames.py "$frames" 150 | tee -a "$OUT/camera-summary.jsonl" || return 1
  camera_repo "$repo" || return 1
  taskset -c 0-11 node src/cli/main.ts serve --model-repository "$repo" --http-port $port --grpc-port $((port + 1)) --metrics-port 0 \
    --log-level info --image-decode auto --workers "${CAMERA_WORKERS:-auto}" > "$W/camera-server.log" 2>&1 &
  local pid=$! ok=0
  model_ready $port $pid shapes && ok=1
  if [ $ok = 1 ]; then
    local common=(--url "http://127.0.0.1:$port" --grpc "127.0.0.1:$((port + 1))" --model shapes --input image --frames "$frames")
    taskset -c 12-15 node bench/cuda/camera-streams.ts "${common[@]}" --protocol ws --map --out "$W/camera-map.json" | tee -a "$OUT/camera-summary.jsonl"
    taskset -c 12 node bench/cuda/camera-streams.ts "${common[@]}" --protocol ws --streams 1 --connections 1 --seconds 3 --out "$W/camera-one.json" |
      tee -a "$OUT/camera-summary.jsonl"
    local proto levels cpu0
    for proto in ${CAMERA_PROTOCOLS:-ws http grpc}; do
      levels=${CAMERA_LEVELS:-150,300,450,600,750,900,1200}
      [ "$proto" != ws ] && levels=${CAMERA_REQ_LEVELS:-150,300,450,600}
      cpu0=$(frames_cpu $pid)
      node bench/cuda/camera-sweep.ts --levels "$levels" --processes 4 --cpus 12,13,14,15 --out "$W/camera-$proto.json" -- \
        "${common[@]}" --protocol "$proto" --connections ${CAMERA_CONNECTIONS:-4} --seconds ${CAMERA_S:-4} --warmup 1 |
        sed "s/^/$proto /" | tee -a "$OUT/camera-summary.jsonl"
      echo "$proto: server CPU seconds over the sweep (owner, then each worker): $(frames_cpu_delta "$cpu0" "$(frames_cpu $pid)")" | tee -a "$OUT/camera-summary.jsonl"
    done
    python3 -c "import urllib.request; print(urllib.request.urlopen('http://127.0.0.1:$port/v2/models/shapes/stats').read().decode())" > "$W/camera-stats.json"
    python3 -c "import json,sys; s=json.load(open(sys.argv[1]))['model_stats'][0]; i=s['inference_stats']; n=max(1,i['success']['count']); e=max(1,s['execution_count']); print(json.dumps({'inferences':s['inference_count'],'executions':s['execution_count'],'meanBatch':round(s['inference_count']/e,1),'fail':i['fail']['count'],'queueUsPerReq':round(i['queue']['ns']/n/1e3,1),'computeInferUsPerReq':round(i['compute_infer']['ns']/n/1e3,1)}))" "$W/camera-stats.json" | tee -a "$OUT/camera-summary.jsonl"
  else
    echo "server not ready"; tail -n 20 "$W/camera-server.log"
  fi
  grep -E 'workers|decoded on|GPU image|error' "$W/camera-server.log" | head -5 | cut -c1-300
  kill $pid 2>/dev/null; wait $pid 2>/dev/null
  return $(( 1 - ok ))
}
