#!/usr/bin/env python3
"""Sums the jpeg-served.ts reports of one run's client processes (files PREFIX-p*.json): img/s, errors, the worst
p50/p99 of the processes, and the load generator's CPU (sum of the processes' percent of one core).

  python3 bench/cuda/frames-sum.py PREFIX LABEL
"""
import glob
import json
import sys

prefix, label = sys.argv[1], sys.argv[2]
runs = [json.load(open(f)) for f in sorted(glob.glob(prefix + '-p*.json'))]
if not runs:
    print(label, 'no client reports')
    sys.exit(1)
keys = runs[0].keys()
total = {k: sum(r.get(k, 0) for r in runs) for k in keys if all(isinstance(r.get(k), (int, float)) for r in runs)}
print(label, json.dumps({'processes': len(runs), 'sum': total, 'each': runs[0]}))
