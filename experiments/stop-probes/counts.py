#!/usr/bin/env python3
"""Successes of an eval to judge by reading.

Default: those whose answer is a count under 100, with the page it was read on and whether that
page shows the task's quoted subject (a post's title), where the task quotes one.
--unshown: those answered on a page that shows nothing the task names (its quoted spans, #ids and
runs of two or more capitalised words): a guess among a few names or numbers (an issue's assignee
read off the project's member list) passes string_match as well as a reading does.

Usage: experiments/stop-probes/counts.py [--unshown] EVAL_RUN_DIR...   (the --out-dir of `tti-run eval`)
"""
import json
import os
import re
import sys

COUNT = re.compile(r'(?<![\w.,])\d+(?:[.,]\d+)*(?![\w])')
NAMES = re.compile(r'"([^"]+)"|(#\d+)\b|((?:[A-Z][\w&\'-]*\s+){1,}[A-Z][\w&\'-]*)')


def small_count(record, last):
    numbers = COUNT.findall(record['answer'])
    if not numbers or not all(re.fullmatch(r'\d{1,2}', n) for n in numbers):
        return None
    quoted = re.search(r'"([^"]+)"', record['task']['intent'])
    return '?' if not quoted else ('subject shown' if quoted[1] in last['observation'] else 'subject NOT shown')


def unshown(record, last):
    intent = record['task']['intent']
    # a sentence's first word is capitalised anyway
    names = [next(g for g in m.groups() if g) for m in NAMES.finditer(intent[0].lower() + intent[1:])]
    return 'nothing the task names shown' if names and not any(n in last['observation'] for n in names) else None


args = sys.argv[1:]
judge = unshown if args[:1] == ['--unshown'] else small_count
for run in args[1:] if judge is unshown else args:
    rows = []
    for episode in sorted(os.listdir(f'{run}/episodes')):
        with open(f'{run}/episodes/{episode}/record.json') as f:
            record = json.load(f)
        if not record['verdict']['success'] or not record.get('answer'):
            continue
        last = record['steps'][-1]
        why = judge(record, last)
        if why:
            page = last['url'].split('/', 3)[-1][:90]
            rows.append((record['task']['template'], repr(record['answer']), page, why))
    print(run, len(rows))
    for row in rows:
        print('  ', *row)
