#!/bin/bash
# Interleaved A/B: before = /work/wt-s7-grpc-base (10355f7), after = /work/wt-s7-grpc.
out=${OUT:-/tmp/grpc-ab}
for round in 1 2 3; do
  for cfg in "1 16" "16 4" "1 4"; do
    set -- $cfg; b=$1; c=$2
    for side in before after; do
      [ $((round % 2)) = 0 ] && { [ $side = before ] && side=after || side=before; }
      d=/work/wt-s7-grpc; [ $side = before ] && d=/work/wt-s7-grpc-base
      f=$out/$side-b$b-c$c-r$round.json
      echo "$(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) start $side b=$b c=$c round $round" >> $out/log
      (cd $d && timeout 240 nice -n 10 node --import tsx bench/bigtensor.ts --protocols http-binary,grpc --duration 3 --batch $b --concurrency $c --label $side --out $f 2>&1 | grep "req/s" | sed "s/^/$side r$round /" >> $out/log)
      echo "$(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) end" >> $out/log
    done
  done
done
echo ALLDONE >> $out/log
