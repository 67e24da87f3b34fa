#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# gen-compare-docs.py - two result documents of N profiles each for
# t-compare-scale.sh: OLD with every name in a shuffled order, NEW in
# another order with some profiles removed, some added, some verdicts
# changed and a few probes changed; prints what compare must report.
# Usage: gen-compare-docs.py N OLD NEW
import json
import random
import sys

n = int(sys.argv[1])
rng = random.Random(30)
HEAD = ('{"fsprobe": "0.1.0", "kernel": "6.18.0", "arch": "x86_64", '
        '"page_size": 4096, "pmd_order": 9, "thp": {"enabled": "madvise", '
        '"shmem_enabled": "never", "defrag": "madvise", '
        '"read_only_thp_for_fs": false}, "profiles": [\n')
VERDICTS = ["pmd", "large", "base"]


def prof(name, verdict, probe=None):
    probes = '' if probe is None else \
        '{"name": "fault-pmd", "result": "%s", "reason": null}' % probe
    return '{"name":"%s","fs":"x","verdict":"%s","probes":[%s]}' % (
        name, verdict, probes)


def write(path, profs):
    with open(path, "w") as f:
        f.write(HEAD)
        f.write(",\n".join(profs))
        f.write("]}\n")


names = ["p%x" % i for i in range(n)]
verdict = {x: VERDICTS[i % 3] for i, x in enumerate(names)}
old = names[:]
rng.shuffle(old)
gone = set(rng.sample(names, 5))
worse = set(rng.sample([x for x in names if x not in gone and
                        verdict[x] == "pmd"], 3))
probed = rng.sample([x for x in names if x not in gone | worse], 2)
new = [x for x in names if x not in gone]
rng.shuffle(new)
added = ["q%x" % i for i in range(4)]
new[10:10] = added
write(sys.argv[2], [prof(x, verdict[x], "pass" if x in probed else None)
                    for x in old])
write(sys.argv[3], [prof(x, "base" if x in worse else
                         verdict.get(x, "pmd"),
                         "fail" if x in probed else None) for x in new])
for x in sorted(worse):
    print("worse %s" % x)
for x in sorted(gone):
    print("gone %s" % x)
for x in added:
    print("added %s" % x)
for x in probed:
    print("probe %s" % x)
