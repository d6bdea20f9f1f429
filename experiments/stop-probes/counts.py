#!/usr/bin/env python3
"""Successes whose answer is a count under 100, with the page it was read on, to judge by reading:
whether that page shows the task's quoted subject (a post's title), where the task quotes one.

Usage: experiments/stop-probes/counts.py EVAL_RUN_DIR...   (the --out-dir of `tti-run eval`)
"""
import json
import os
import re
import sys

COUNT = re.compile(r'(?<![\w.,])\d+(?:[.,]\d+)*(?![\w])')

for run in sys.argv[1:]:
    rows = []
    for episode in sorted(os.listdir(f'{run}/episodes')):
        with open(f'{run}/episodes/{episode}/record.json') as f:
            record = json.load(f)
        if not record['verdict']['success']:
            continue
        answer = record.get('answer') or ''
        numbers = COUNT.findall(answer)
        if numbers and all(re.fullmatch(r'\d{1,2}', n) for n in numbers):
            last = record['steps'][-1]
            page = last['url'].split('/', 3)[-1][:90]
            quoted = re.search(r'"([^"]+)"', record['task']['intent'])
            shown = '?' if not quoted else ('subject shown' if quoted[1] in last['observation'] else 'subject NOT shown')
            rows.append((record['task']['template'], repr(answer), page, shown))
    print(run, len(rows))
    for row in rows:
        print('  ', *row)
