#!/usr/bin/env python3
"""Sums the jpeg-served.ts reports of one run's client processes (files PREFIX-p*.json) into one line: img/s (sum),
the worst p50/p99 of the processes, answers by status with the first error sample, and the load generator's CPU
(sum of the processes' percent of one core). Appends the line as JSON to SUMMARY when given.

  python3 bench/cuda/frames-sum.py PREFIX LABEL [SUMMARY]
"""
import glob
import json
import sys

prefix, label = sys.argv[1], sys.argv[2]
runs = [json.load(open(f)) for f in sorted(glob.glob(prefix + '-p*.json'))]
if not runs:
    print(label, 'no client reports')
    sys.exit(1)
statuses = {}
for r in runs:
    for k, v in r.get('statuses', {}).items():
        statuses[k] = statuses.get(k, 0) + v
errors = {}
for r in runs:
    for k, v in r.get('errors', {}).items():
        errors.setdefault(k, v)
line = {
    'label': label,
    'processes': len(runs),
    'concurrencyEach': runs[0].get('concurrency'),
    'imgPerS': round(sum(r.get('imgPerS', 0) for r in runs)),
    'p50Us': max(r['latencyUs']['p50'] for r in runs),
    'p99Us': max(r['latencyUs']['p99'] for r in runs),
    'statuses': statuses,
    'errors': errors,
    'loadGeneratorCpuPercent': round(sum(r.get('loadGeneratorCpuPercent', 0) for r in runs), 1),
}
print(json.dumps(line))
if len(sys.argv) > 3:
    with open(sys.argv[3], 'a') as f:
        f.write(json.dumps(line) + '\n')
