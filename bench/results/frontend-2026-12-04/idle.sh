#!/bin/bash
# The owner's CPU while idle (no requests) with --workers 2: the mirror poll's cost. $1 = checkout
cd "$1"
node --import tsx src/cli/main.ts serve --workers 2 --http-port 0 --grpc-port 0 --metrics-port 0 --log-level error > /tmp/fe/idle-$$.log 2>&1 &
pid=$!
sleep 12
t0=$(awk '{print $14+$15}' /proc/$pid/stat)
sleep 20
t1=$(awk '{print $14+$15}' /proc/$pid/stat)
echo "$1: owner CPU while idle over 20 s: $(( (t1-t0)*10 )) ms ($(getconf CLK_TCK) ticks/s)"
kill $pid; wait $pid 2>/dev/null
