#!/usr/bin/env python3
"""Sums the --stats JSON files of gen.py runs and prints the counts per
target: programs run, passed, failed and skipped; per op; per matrix and
input interpretation, layout, bias and block scale of the matvecs; invalid
programs by kind."""
import collections
import json
import sys

total = collections.Counter()
for path in sys.argv[1:]:
    with open(path) as f:
        total.update(json.load(f))

rows = collections.defaultdict(lambda: collections.Counter())
for key, n in total.items():
    parts = key.split("|")
    if parts[0] == "invalid":
        rows[("invalid programs", parts[1])]["n"] += n
    elif parts[-1] in ("ok", "fail"):
        rows[(parts[0], "|".join(parts[1:-1]))][parts[-1]] += n
    elif parts[-1] == "skipped":
        rows[(parts[0], "runs")]["skipped"] += n
for (target, what), c in sorted(rows.items()):
    if target == "invalid programs":
        print(f"{target:18} {what:40} {c['n']:6}")
    else:
        extra = f" skipped {c['skipped']}" if c["skipped"] else ""
        print(f"{target:18} {what:40} ok {c['ok']:6} fail {c['fail']:4}{extra}")
