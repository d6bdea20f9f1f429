#!/usr/bin/env python3
"""Every eval success of the given templates, with the lines of its last page that hold the
answer: how a guessed constant (a "1" the page does not show) is told from a reading. A count the
policy made by counting rows (candidates.ts, 'count': the rows of a list that mention the task's
words) is not on the page either: those are read by hand from the page printed with --page.

Usage: experiments/cut-detours/answers.py RUN_DIR TEMPLATE[,TEMPLATE...]
"""
import glob
import json
import re
import sys

run, templates = sys.argv[1], sys.argv[2].split(',')
whole_page = '--page' in sys.argv[3:]
for f in sorted(glob.glob(f'{run}/evals/*/episodes/*/record.json')):
    with open(f) as fh:
        d = json.load(fh)
    if d['task']['template'] not in templates or not d['verdict']['success']:
        continue
    last = d['steps'][-1]
    answer = re.search(r'stop \[(.*)\]', last['actionText']).group(1)
    print(d['task']['template'], '|', d['task'].get('intent', ''))
    print('    path:', ' > '.join(s['actionText'][:40] for s in d['steps']))
    print('    last page:', last['url'], ' answer:', answer)
    # the answer as a whole word: "1" in a URL or an id is not the page showing it
    lines = last['observation'].split('\n')
    shown = [
        l.strip()
        for l in lines
        if 'ListMarker' not in l and re.search(rf"'[^']*\b{re.escape(answer)}\b[^']*'", l)
    ]
    for line in shown[:5]:
        print('      >>', line[:160])
    if not shown:
        print('      (not on the page: a guess, or a count of rows: read the page)')
    if whole_page:
        print('\n'.join(lines))
