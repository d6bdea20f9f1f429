#!/usr/bin/env python3
"""Collection successes of a run by template (the trajectories replay kept), from its episode records.

Usage: experiments/stop-probes/kept.py RUN_DIR...
"""
import collections
import json
import os
import sys

for run in sys.argv[1:]:
    kept = collections.Counter()
    for episode in os.listdir(f'{run}/episodes'):
        if '-c' not in episode.rsplit('-i', 1)[-1]:  # collection episodes end -iN-cK; evals -iN-eK
            continue
        try:
            with open(f'{run}/episodes/{episode}/record.json') as f:
                record = json.load(f)
        except FileNotFoundError:
            continue
        if record['verdict']['success']:
            kept[record['task']['template']] += 1
    print(run, sum(kept.values()), ', '.join(f'{t} {n}' for t, n in sorted(kept.items())))
