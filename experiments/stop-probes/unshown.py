#!/usr/bin/env python3
"""Successes answered on a page that shows nothing the task names, to judge by reading: a guess
among a few names or numbers (an issue's assignee read off the project's member list) passes
string_match as well as a reading does. The task's names are its quoted spans, its #ids and its
runs of two or more capitalised words; a success whose last page shows none of them is listed.

Usage: experiments/stop-probes/unshown.py EVAL_RUN_DIR...   (the --out-dir of `tti-run eval`)
"""
import json
import os
import re
import sys

NAMES = re.compile(r'"([^"]+)"|(#\d+)\b|((?:[A-Z][\w&\'-]*\s+){1,}[A-Z][\w&\'-]*)')

for run in sys.argv[1:]:
    rows = []
    for episode in sorted(os.listdir(f'{run}/episodes')):
        with open(f'{run}/episodes/{episode}/record.json') as f:
            record = json.load(f)
        if not record['verdict']['success'] or not record.get('answer'):
            continue
        intent = record['task']['intent']
        # a sentence's first word is capitalised anyway
        names = [next(g for g in m.groups() if g) for m in NAMES.finditer(intent[0].lower() + intent[1:])]
        last = record['steps'][-1]
        if names and not any(n in last['observation'] for n in names):
            rows.append((record['task']['template'], repr(record['answer']), last['url'].split('/', 3)[-1][:80]))
    print(run, len(rows))
    for row in rows:
        print('  ', *row)
