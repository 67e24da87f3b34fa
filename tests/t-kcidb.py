#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# t-kcidb.py - checks a KCIDB document (fsprobe -f kcidb) by the rules of
# the KCIDB I/O schema v5.3: kernelci/kcidb-io, kcidb_io/schema/v05_03.py
# (the newest schema the sources hold; test path pattern from v05_00.py,
# origin pattern [a-z0-9_]+ and ids ORIGIN:... from the v4 base). Written
# with json only (no jsonschema module): required fields, types, enums,
# patterns, no additional properties, no nulls, and the links between
# objects. Usage: t-kcidb.py FILE.json; prints the first violations and
# exits 1 if there is any.
import json
import re
import sys

ORIGIN = re.compile(r"^[a-z0-9_]+$")
ORIGIN_ID = re.compile(r"^[a-z0-9_]+:.*$")
PATH = re.compile(r"^([a-zA-Z0-9_-]+(\.[a-zA-Z0-9_-]+)*)?$")
ARCH = re.compile(r"^[a-z0-9_]*$")
STATUS = {"FAIL", "ERROR", "MISS", "PASS", "DONE", "SKIP"}
NUM = (int, float)

# object -> {field: (type, check or None)}, and its required fields: the
# fields all three objects have, then each one's own (the plain strings
# by name alone)
COMMON = {
    "id": (str, ORIGIN_ID), "origin": (str, ORIGIN), "comment": (str, None),
    "start_time": (str, None), "log_url": (str, None), "misc": (dict, None),
}


def fields(strings, **own):
    return {**COMMON, **{k: (str, None) for k in strings.split()}, **own}


CHECKOUT = fields("tree_name git_repository_url git_commit_hash "
                  "git_commit_name git_repository_branch patchset_hash",
                  valid=(bool, None))
BUILD = fields("command compiler config_name config_url",
               checkout_id=(str, ORIGIN_ID), duration=(NUM, None),
               architecture=(str, ARCH), status=(str, STATUS))
TEST = fields("log_excerpt", build_id=(str, ORIGIN_ID),
              environment=(dict, None), path=(str, PATH),
              status=(str, STATUS), number=(dict, None),
              duration=(NUM, None))
REQUIRED = {"checkouts": ("id", "origin"),
            "builds": ("checkout_id", "id", "origin"),
            "tests": ("build_id", "id", "origin")}
FIELDS = {"checkouts": CHECKOUT, "builds": BUILD, "tests": TEST}
errors = []


def err(where, msg):
    errors.append(f"{where}: {msg}")


def no_nulls(where, v):
    if v is None:
        err(where, "null (KCIDB: no properties can be null)")
    elif isinstance(v, dict):
        for k, x in v.items():
            no_nulls(f"{where}.{k}", x)
    elif isinstance(v, list):
        for i, x in enumerate(v):
            no_nulls(f"{where}[{i}]", x)


def typed(where, v, t):
    # bool is an int in Python; the schema keeps them apart
    if isinstance(v, bool) and t is not bool:
        return False
    return isinstance(v, t)


def check_obj(kind, i, o):
    where = f"{kind}[{i}]"
    if not isinstance(o, dict):
        return err(where, "not an object")
    for r in REQUIRED[kind]:
        if r not in o:
            err(where, f"required '{r}' missing")
    for k, v in o.items():
        if k.startswith("_"):
            continue
        if k not in FIELDS[kind]:
            err(where, f"'{k}' not allowed (additionalProperties false)")
            continue
        t, chk = FIELDS[kind][k]
        if not typed(where, v, t):
            err(where, f"'{k}' has the wrong type")
        elif isinstance(chk, set) and v not in chk:
            err(where, f"'{k}' {v!r} not one of {sorted(chk)}")
        elif hasattr(chk, "match") and not chk.match(v):
            err(where, f"'{k}' {v!r} does not match {chk.pattern}")
    if kind == "tests":
        check_test(where, o)


def check_test(where, t):
    env = t.get("environment", {})
    for k in env:
        if k not in ("compatible", "comment", "misc"):
            err(where, f"environment.{k} not allowed")
    n = t.get("number")
    if n is not None:
        if "value" not in n or not typed(where, n["value"], NUM):
            err(where, "number.value missing or not a number")
        for k in n:
            if k not in ("value", "unit", "prefix"):
                err(where, f"number.{k} not allowed")
        if "unit" in n and not isinstance(n["unit"], str):
            err(where, "number.unit not a string")
        if "prefix" in n and n["prefix"] not in ("metric", "binary"):
            err(where, "number.prefix not metric/binary")
    # the id's origin part is the object's origin
    for key in ("id", "build_id"):
        if isinstance(t.get(key), str) and isinstance(t.get("origin"), str):
            if not t[key].startswith(t["origin"] + ":"):
                err(where, f"{key} does not start with origin")


def check(d):
    if not isinstance(d, dict):
        return err("document", "not an object")
    v = d.get("version")
    if not isinstance(v, dict) or v.get("major") != 5:
        err("version", "required, major must be 5")
    elif not typed("version", v.get("minor", 0), int) or \
            not 0 <= v.get("minor", 0) <= 3:
        err("version", "minor must be an integer 0..3")
    for k in d:
        if k not in ("version", "checkouts", "builds", "tests", "issues",
                     "incidents"):
            err("document", f"'{k}' not allowed")
    no_nulls("document", d)
    for kind in ("checkouts", "builds", "tests"):
        objs = d.get(kind, [])
        if not isinstance(objs, list):
            err(kind, "not an array")
            continue
        for i, o in enumerate(objs):
            check_obj(kind, i, o)
        ids = [o.get("id") for o in objs if isinstance(o, dict)]
        if len(ids) != len(set(ids)):
            err(kind, "duplicate ids")
    # links: every build's checkout and every test's build is in the doc
    cids = {c.get("id") for c in d.get("checkouts", [])}
    bids = {b.get("id") for b in d.get("builds", [])}
    for i, b in enumerate(d.get("builds", [])):
        if b.get("checkout_id") not in cids:
            err(f"builds[{i}]", "checkout_id names no checkout")
    for i, t in enumerate(d.get("tests", [])):
        if t.get("build_id") not in bids:
            err(f"tests[{i}]", "build_id names no build")


if __name__ == "__main__":
    check(json.load(open(sys.argv[1])))
    for e in errors[:10]:
        print(e)
    sys.exit(1 if errors else 0)
