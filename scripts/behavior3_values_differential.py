#!/usr/bin/env python3
"""Runs random behavior3 trees, written as designers write them, in Canopy's CLI and in
behavior3-ts, and compares the load verdict, the status and every variable after every tick.

Usage:
    scripts/behavior3_values_differential.py --canopy build/debug/tools/canopy/canopy \
        --behavior3-ts CHECKOUT [--trees 300] [--ticks 10] [--dt 0.5] [--seed 1]
        [--out build/behavior3-values-diff] [--no-shrink] [--only N]

CHECKOUT is a checkout of behavior3-ts's repository: its `src/behavior3` is bundled for
Node.js with esbuild (installed with npm into OUT/node_modules unless there), once, into
OUT/behavior3-ts.mjs, which scripts/behavior3_ts_runner.mjs loads. The trees use every
deterministic built-in of behavior3-ts (all but RandomIndex, WaitForEvent, Math's random
operations and Wait's `random`) over variables that start undefined and are given numbers,
strings, booleans, arrays and objects by the tree itself, with no type annotations:
expressions mix kinds, quote strings both ways, read fields and elements, and `Let` copies
arrays and objects from one variable to another. Each tree runs --ticks ticks of --dt
seconds in both: `canopy run FILE --blackboard`, and behavior3-ts's own Context and Tree.

Prints "agree: N / total", and for each disagreeing tree the first tick that differs and
both sides' lines there; the trees go to --out, each with the smallest tree (children in
their parent's place, children dropped) that still disagrees. Skips, saying why, without
node and npm or when esbuild cannot be installed. Not part of CI.
"""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys

# The tree shrinker and type list of the differential over scripted leaves, beside this file.
from behavior3_differential import shrink, types_of

NUMBERS = ["a", "b"]
VARS = ["a", "b", "s", "l", "o", "f"]


def skip(reason):
    print(f"behavior3_values_differential: skipped: {reason}")
    sys.exit(0)


def bundle(checkout, out):
    target = os.path.join(out, "behavior3-ts.mjs")
    if os.path.exists(target):
        return target
    if shutil.which("node") is None or shutil.which("npm") is None:
        skip("node and npm are needed to run behavior3-ts")
    entry = os.path.join(checkout, "src", "behavior3", "index.ts")
    if not os.path.exists(entry):
        skip(f"{entry} is not there: give a checkout of behavior3-ts's repository")
    esbuild = os.path.join(out, "node_modules", ".bin", "esbuild")
    if not os.path.exists(esbuild):
        try:
            subprocess.run(["npm", "install", "--prefix", out, "--no-save", "--no-audit",
                            "--no-fund", "esbuild@0.24"], check=True, capture_output=True,
                           timeout=300)
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as e:
            skip(f"npm could not install esbuild (no network?): {e}")
    # es2022 lowers the node classes' decorators, which Node.js cannot parse yet.
    subprocess.run([esbuild, entry, "--bundle", "--format=esm", "--platform=node",
                    "--target=es2022", f"--outfile={target}", "--log-level=error"], check=True)
    return target


class generator:
    """Random designers' trees; times are multiples of 0.5 so that they meet the ticks."""

    def __init__(self, seed):
        self.r = random.Random(seed)

    def pick(self, *choices):
        return self.r.choice(choices)

    def literal(self):
        r = self.r
        kind = r.randint(0, 9)
        if kind <= 3:
            return r.randint(0, 4) * 0.5 if r.random() < 0.5 else r.randint(-1, 3)
        if kind <= 5:
            return self.pick("x", "hello", "", "3", "ok")
        if kind == 6:
            return self.pick(True, False)
        if kind == 7:
            return [r.randint(0, 3) for _ in range(r.randint(0, 3))]
        if kind == 8:
            return {"x": r.randint(0, 3), "name": self.pick("x", "ok")}
        return [self.pick("x", "a"), r.randint(0, 2)]

    def quoted(self, text):
        q = self.pick("'", '"')
        return f"{q}{text}{q}"

    def operand(self):
        r = self.r
        k = r.random()
        if k < 0.45:
            return self.pick(*VARS) if r.random() < 0.5 else self.pick(*NUMBERS)
        if k < 0.7:
            return str(r.randint(0, 3))
        if k < 0.8:
            return self.quoted(self.pick("x", "hello", "ok", "3", ""))
        if k < 0.86:
            return self.pick("true", "false")
        if k < 0.93:
            return self.pick("o.x", "o.name", "l[0]", "l[1]")
        return f"({self.expression(2)})"

    def expression(self, depth=0):
        r = self.r
        if depth > 1 or r.random() < 0.3:
            return self.pick("", "", "!", "-") + self.operand()
        if r.random() < 0.08:
            return f"{self.operand()} ? {self.operand()} : {self.operand()}"
        op = self.pick("+", "-", "*", "/", "%", "<", ">", "<=", ">=", "==", "!=", "==",
                       "&&", "||")
        return f"{self.expression(depth + 1)} {op} {self.expression(depth + 1)}"

    def var(self):
        return self.pick(*VARS) if self.r.random() < 0.6 else self.pick(*NUMBERS)

    def source(self, node, arg, literal):
        """An argument as designers give it: the literal, or a variable in its input slot."""
        if self.r.random() < 0.3:
            node.setdefault("input", []).append(self.var())
        else:
            node.setdefault("input", []).append("")
            node.setdefault("args", {})[arg] = literal
        return node

    def leaf(self):
        r = self.r
        kind = self.pick("JustSuccess", "JustFailure", "Wait", "Wait", "Check", "Check",
                         "Calculate", "Calculate", "Let", "Let", "Let", "Log", "IsNull",
                         "NotNull", "Includes", "Push", "Concat", "Index", "GetField",
                         "SetField", "Math", "Now")
        if kind == "Wait":
            return self.source({"name": kind}, "time", r.randint(0, 3) * 0.5)
        if kind == "Check":
            return {"name": kind, "args": {"value": self.expression()}}
        if kind == "Calculate":
            return {"name": kind, "args": {"value": self.expression()}, "output": [self.var()]}
        if kind == "Let":
            node = {"name": kind, "output": [self.var()]}
            if r.random() < 0.3:
                node["input"] = [self.var()]
            else:
                node["args"] = {"value": self.literal()}
            return node
        if kind == "Log":
            node = {"name": kind, "args": {"message": "m"}}
            if r.random() < 0.4:
                node["input"] = [self.var()]
            return node
        if kind in ("IsNull", "NotNull"):
            return {"name": kind, "input": [self.var()]}
        if kind == "Includes":
            return {"name": kind, "input": ["l", self.var()]}
        if kind == "Push":
            return {"name": kind, "input": ["l", self.var()]}
        if kind == "Concat":
            return {"name": kind, "input": ["l", self.pick("l", "o", "a")],
                    "output": [self.pick("l", "b")]}
        if kind == "Index":
            return self.source({"name": kind, "input": ["l"], "output": [self.var()]}, "index",
                               r.randint(0, 2))
        if kind == "GetField":
            return self.source({"name": kind, "input": [self.pick("o", "o", "l")],
                                "output": [self.var()]}, "field", self.pick("x", "name", "y"))
        if kind == "SetField":
            node = {"name": kind, "input": [self.pick("o", "o", "l")],
                    "args": {"field": self.pick("x", "name", "y")}}
            if r.random() < 0.5:
                node["args"]["value"] = self.literal()
            else:
                node["input"] += ["", self.var()]
            return node
        if kind == "Math":
            op = self.pick("abs", "floor", "ceil", "round", "sign", "sqrt", "max", "min", "pow",
                           "sum", "average", "product")
            node = {"name": kind, "args": {"op": op}, "output": [self.var()]}
            if r.random() < 0.5:
                node["args"]["value1"] = r.randint(-2, 4)
                if op in ("max", "min", "pow"):
                    node["args"]["value2"] = r.randint(0, 3)
            else:
                node["input"] = [self.var() for _ in range(2 if op in ("max", "min", "pow")
                                                          else r.randint(1, 2))]
            return node
        if kind == "Now":
            return {"name": kind, "output": [self.pick(*NUMBERS)]}
        return {"name": kind}

    def node(self, depth):
        r = self.r
        if depth >= 3 or r.random() < 0.3 + 0.15 * depth:
            return self.leaf()
        kind = self.pick("Sequence", "Sequence", "Selector", "Selector", "Parallel", "Race",
                         "IfElse", "Switch", "Watchdog", "Invert", "AlwaysSuccess",
                         "AlwaysFailure", "AlwaysRunning", "Once", "Repeat",
                         "RetryUntilSuccess", "RetryUntilFailure", "Timeout", "ForEach",
                         "Filter")
        if kind in ("Sequence", "Selector", "Parallel", "Race"):
            return {"name": kind,
                    "children": [self.node(depth + 1) for _ in range(r.randint(0, 3))]}
        if kind == "IfElse":
            return {"name": kind, "children": [self.leaf()] + [self.node(depth + 1)
                                                                for _ in range(2)]}
        if kind == "Switch":
            return {"name": kind, "children": [
                {"name": "Case", "children": [self.leaf(), self.node(depth + 2)]}
                for _ in range(r.randint(1, 3))]}
        if kind == "Watchdog":
            return {"name": kind, "children": [self.leaf(), self.node(depth + 1),
                                               self.leaf()]}
        node = {"name": kind, "children": [self.node(depth + 1)]}
        if kind in ("Repeat", "RetryUntilSuccess", "RetryUntilFailure"):
            self.source(node, "count", r.randint(1, 3))
        elif kind == "Timeout":
            self.source(node, "time", r.randint(0, 4) * 0.5)
        elif kind == "ForEach":
            node["input"] = ["l"]
            node["output"] = [self.var(), self.pick(*NUMBERS)]
        elif kind == "Filter":
            node["input"] = ["l"]
            node["output"] = [self.var(), self.pick("l", "b")]
            node["children"] = [self.leaf()]
        return node

    def root(self):
        """First some variables given values (each maybe), then the tree."""
        start = [{"name": "Let", "args": {"value": self.literal()}, "output": [v]}
                 for v in VARS if self.r.random() < 0.6]
        start += [{"name": "Let", "args": {"value": [1, 2]}, "output": ["l"]},
                  {"name": "Let", "args": {"value": {"x": 1, "name": "ok"}}, "output": ["o"]}
                  ][: self.r.randint(0, 2)]
        self.r.shuffle(start)
        return {"name": "Sequence", "children": start + [self.node(1)]}


def numbered(root):
    next_id = [1]

    def walk(node):
        out = {"id": str(next_id[0]), "name": node["name"]}
        next_id[0] += 1
        for field in ("args", "input", "output"):
            if field in node:
                out[field] = node[field]
        out["children"] = [walk(c) for c in node.get("children", [])]
        return out

    return {"name": "diff", "desc": "", "root": walk(root)}


def canopy_lines(args, path):
    p = subprocess.run([args.canopy, "run", path, "--ticks", str(args.ticks), "--dt",
                        str(args.dt), "--blackboard"], capture_output=True, text=True, timeout=60)
    if "tick 1: " not in p.stdout:
        return ["load error: " + (p.stderr.strip().splitlines() or ["?"])[0]]
    lines, status, values = [], None, {}
    letters = {"success": "s", "failure": "f", "running": "r", "interrupted": "i"}
    for line in p.stdout.splitlines():
        if line.startswith("tick "):
            if status is not None:
                lines.append(f"{status} {json.dumps(values, sort_keys=True)}")
            status, values = letters.get(line.split(": ", 1)[1].split()[0], "?"), {}
        elif line.startswith("  bb ") and status is not None:
            name, text = line[5:].split("=", 1)
            if text.startswith("'") and text.endswith("'"):
                values[name] = text[1:-1]
            else:
                try:
                    values[name] = json.loads(text)
                except ValueError:
                    values[name] = text
        elif line.startswith("agents: ") and status is not None:
            lines.append(f"{status} {json.dumps(values, sort_keys=True)}")
            status = None
    if status is not None:
        lines.append(f"{status} {json.dumps(values, sort_keys=True)}")
    return lines


def b3_lines(args, path):
    try:
        p = subprocess.run(["node", args.js_runner, args.bundle, path, str(args.ticks),
                            str(args.dt)], capture_output=True, text=True, timeout=20)
    except subprocess.TimeoutExpired:
        return ["hang"]
    if p.stdout.startswith("load error"):
        return ["load error: " + p.stdout.splitlines()[0][12:]]
    if p.returncode != 0:
        return ["crash: " + (p.stderr.strip().splitlines() or ["?"])[-1]]
    return p.stdout.splitlines()


def same(a, b):
    if a.startswith("load error") or b.startswith("load error"):
        return a.startswith("load error") == b.startswith("load error")
    sa, _, ja = a.partition(" ")
    sb, _, jb = b.partition(" ")
    if sa != sb:
        return False
    return close(json.loads(ja or "{}"), json.loads(jb or "{}"))


def close(x, y):
    if isinstance(x, bool) or isinstance(y, bool):
        return x is y
    if isinstance(x, (int, float)) and isinstance(y, (int, float)):
        return x == y or abs(x - y) <= 1e-9 * max(1.0, abs(x), abs(y))
    if isinstance(x, list) and isinstance(y, list):
        return len(x) == len(y) and all(close(a, b) for a, b in zip(x, y))
    if isinstance(x, dict) and isinstance(y, dict):
        return x.keys() == y.keys() and all(close(x[k], y[k]) for k in x)
    return x == y


def first_difference(canopy, b3):
    for i in range(max(len(canopy), len(b3))):
        a = canopy[i] if i < len(canopy) else "-"
        b = b3[i] if i < len(b3) else "-"
        if not same(a, b):
            return i + 1
    return None


def run_both(root, args, path):
    with open(path, "w") as f:
        json.dump(numbered(root), f, indent=1)
    return canopy_lines(args, path), b3_lines(args, path)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--canopy", required=True, help="the canopy program")
    parser.add_argument("--behavior3-ts", required=True, help="a checkout of behavior3-ts")
    parser.add_argument("--trees", type=int, default=300)
    parser.add_argument("--ticks", type=int, default=10)
    parser.add_argument("--dt", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="build/behavior3-values-diff")
    parser.add_argument("--no-shrink", action="store_true")
    parser.add_argument("--only", type=int, help="run only tree N of the seed")
    args = parser.parse_args()
    if not os.access(args.canopy, os.X_OK):
        skip(f"no canopy program at {args.canopy}")
    os.makedirs(args.out, exist_ok=True)
    args.bundle = bundle(args.behavior3_ts, os.path.abspath(args.out))
    args.js_runner = os.path.join(here, "behavior3_ts_runner.mjs")
    work = os.path.join(args.out, "current.json")
    gen = generator(args.seed)
    agree = total = hangs = 0
    loads = {"both": 0, "canopy only": 0, "behavior3-ts only": 0, "neither": 0}
    for n in range(args.trees):
        root = gen.root()
        if args.only is not None and n != args.only:
            continue
        canopy, b3 = run_both(root, args, work)
        if b3 == ["hang"]:
            # A loop behavior3-ts never leaves within a tick (Repeat without a count over a
            # child that finishes at once), which Canopy spreads over ticks: not compared.
            hangs += 1
            continue
        total += 1
        c_loads = not canopy[0].startswith("load error")
        b_loads = not b3[0].startswith("load error")
        loads[{(True, True): "both", (True, False): "canopy only",
               (False, True): "behavior3-ts only", (False, False): "neither"}[
                   (c_loads, b_loads)]] += 1
        tick = first_difference(canopy, b3)
        if tick is None:
            agree += 1
            continue
        at = tick - 1
        print(f"tree {n}: differs at tick {tick}: canopy "
              f"{canopy[at] if at < len(canopy) else '-'} | behavior3-ts "
              f"{b3[at] if at < len(b3) else '-'}; types {', '.join(sorted(types_of(root)))}")
        report = {"tree": numbered(root), "first_tick": tick, "canopy": canopy,
                  "behavior3_ts": b3}
        if not args.no_shrink:
            # Childless composites are among the trees here: shrink down to none.
            def differs(tree):
                canopy_side, b3_side = run_both(tree, args, work)
                return b3_side != ["hang"] and first_difference(canopy_side, b3_side) is not None

            small = shrink(root, differs, keep=0)
            canopy, b3 = run_both(small, args, work)
            tick = first_difference(canopy, b3)
            report["smallest"] = {"tree": numbered(small), "first_tick": tick,
                                  "canopy": canopy, "behavior3_ts": b3}
            at = (tick or 1) - 1
            print(f"  smallest: {json.dumps(small)}\n    canopy "
                  f"{canopy[at] if at < len(canopy) else '-'}\n    b3-ts  "
                  f"{b3[at] if at < len(b3) else '-'}")
        with open(os.path.join(args.out, f"tree-{n:04d}.json"), "w") as f:
            json.dump(report, f, indent=1)
    if os.path.exists(work):
        os.remove(work)
    print(f"behavior3-ts hangs (not compared): {hangs}")
    print("loads: " + ", ".join(f"{k} {v}" for k, v in loads.items()))
    print(f"agree: {agree} / {total} (seed {args.seed}, {args.ticks} ticks of {args.dt} s)")


if __name__ == "__main__":
    main()
