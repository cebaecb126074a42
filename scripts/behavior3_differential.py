#!/usr/bin/env python3
"""Runs random behavior3 trees in Canopy and in behavior3-ts and compares them tick by tick.

Usage:
    scripts/behavior3_differential.py \
        --runner build/debug/tools/behavior3_runner/canopy_behavior3_runner
        [--trees 300] [--ticks 12] [--dt 0.5] [--seed 1] [--out build/behavior3-diff]
        [--modules DIR] [--no-shrink] [--typed-expressions] [--between-ticks] [--arrays]

Generates --trees random nested-flavour behavior3 trees (reproducible from --seed) from the
built-ins both runtimes have (Sequence, Selector, Parallel, Race, Switch/Case, Watchdog, the
decorators Invert, AlwaysSuccess, AlwaysFailure, Repeat, RetryUntilSuccess, RetryUntilFailure,
Once, Timeout, AlwaysRunning, and the leaves JustSuccess, JustFailure, Wait, Check, Calculate,
Let; with --between-ticks also Delay and Listen on the tree's own events; with --arrays an
array `l` made first and Push, Concat, Index, Includes, ForEach and Filter over it), plus
`Scripted`, a leaf whose `script` argument ("sfr") gives its status on each of its
ticks, round and round. Each tree runs for --ticks ticks of --dt seconds in Canopy (the
canopy_behavior3_runner program, built with the project) and in behavior3-ts (the npm package
`behavior3`, through scripts/behavior3_runner.mjs); the root's status and the variables
written by Calculate and Let (and the array, as compact JSON) are compared after every tick.

Prints "agree: N / total", and for each disagreeing tree the first tick that differs, both
sides' status strings and the node types it uses; the trees are written to --out, each with
the smallest tree (found by replacing nodes with their children and dropping children) that
still disagrees. behavior3-ts and TypeScript (to transpile the package's decorators) are
installed with npm into --modules (default: <out>/node_modules) unless already there; the
script skips, saying why, when node or npm is missing or the install fails (no network).
Not part of CI.
"""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys

VARS = ["a", "b", "c"]
ARRAY = "l"  # with --arrays: the array the nodes over arrays share
PACKAGES = ["behavior3@1.3.0", "typescript@5"]


def skip(reason):
    print(f"behavior3_differential: skipped: {reason}")
    sys.exit(0)


def ensure_modules(modules):
    if shutil.which("node") is None or shutil.which("npm") is None:
        skip("node and npm are needed to run behavior3-ts")
    if os.path.isdir(os.path.join(modules, "behavior3")) and os.path.isdir(
        os.path.join(modules, "typescript")
    ):
        return
    prefix = os.path.dirname(os.path.abspath(modules))
    os.makedirs(prefix, exist_ok=True)
    try:
        subprocess.run(
            ["npm", "install", "--prefix", prefix, "--no-save", "--no-audit", "--no-fund",
             "--fetch-retries", "0", "--fetch-timeout", "30000"] + PACKAGES,
            check=True,
            capture_output=True,
            timeout=300,
        )
    except subprocess.CalledProcessError as e:
        last = (e.stderr or b"").decode(errors="replace").strip().splitlines()
        skip(f"npm could not install {' '.join(PACKAGES)} (no network?): "
             f"{last[0] if last else e}")
    except subprocess.TimeoutExpired:
        skip(f"npm took too long to install {' '.join(PACKAGES)} (no network?)")


class generator:
    """Random trees; every number is a multiple of 0.5 so that times meet the ticks exactly."""

    def __init__(self, seed, typed, between_ticks=False, arrays=False):
        self.between_ticks = between_ticks
        self.arrays = arrays
        self.rng = random.Random(seed)
        self.typed = typed

    def script(self, letters="sfr"):
        return "".join(self.rng.choice(letters) for _ in range(self.rng.randint(1, 4)))

    def operand(self):
        return self.rng.choice(VARS) if self.rng.random() < 0.6 else str(self.rng.randint(0, 3))

    def expression(self, depth=0):
        r = self.rng
        if depth > 1 or r.random() < 0.4:
            return self.operand()
        op = r.choice(["+", "-", "*", "<", ">", "<=", ">=", "==", "!=", "&&", "||"])
        return f"{self.expression(depth + 1)} {op} {self.expression(depth + 1)}"

    def arithmetic(self):
        """A number from numbers: what --typed-expressions gives Calculate."""
        r = self.rng
        return " ".join([self.operand()] + [f"{r.choice('+-*')} {self.operand()}"
                                            for _ in range(r.randint(1, 2))])

    def test(self):
        """A comparison, or two joined by && or ||: what --typed-expressions gives Check."""
        r = self.rng

        def compare():
            op = r.choice(["<", ">", "<=", ">=", "==", "!="])
            return f"{self.operand()} {op} {self.operand()}"

        if r.random() < 0.6:
            return compare()
        return f"{compare()} {r.choice(['&&', '||'])} {compare()}"

    def check_value(self):
        return self.test() if self.typed else self.expression()

    def calculate_value(self):
        return self.arithmetic() if self.typed else self.expression()

    def condition(self):
        """A node that finishes at once (Watchdog's and Case's first child)."""
        if self.rng.random() < 0.5:
            return {"name": "Check", "args": {"value": self.check_value()}}
        return {"name": "Scripted", "args": {"script": self.script("sf")}}

    def leaf(self, in_loop=False):
        r = self.rng
        kinds = ["Scripted", "Scripted", "Scripted", "JustSuccess", "JustFailure",
                 "Wait", "Check", "Calculate", "Let"]
        if self.arrays:
            # Inside a loop over the array, nothing lengthens it: behavior3-ts would loop for
            # ever where Canopy spreads the loop over ticks (docs/behavior3.md).
            kinds += ["Index", "Includes"] + ([] if in_loop else ["Push", "Push", "Concat"])
        kind = r.choice(kinds)
        if kind == "Push":
            return {"name": kind, "input": [ARRAY, r.choice(VARS)]}
        if kind == "Concat":
            return {"name": kind, "input": [ARRAY, ARRAY], "output": [ARRAY]}
        if kind == "Index":
            return {"name": kind, "args": {"index": r.randint(0, 3)}, "input": [ARRAY],
                    "output": [r.choice(VARS)]}
        if kind == "Includes":
            return {"name": kind, "input": [ARRAY, r.choice(VARS)]}
        if kind == "Scripted":
            return {"name": kind, "args": {"script": self.script()}}
        if kind == "Wait":
            return {"name": kind, "args": {"time": r.randint(0, 4) * 0.5}}
        if kind == "Check":
            return {"name": kind, "args": {"value": self.check_value()}}
        if kind == "Calculate":
            return {"name": kind, "args": {"value": self.calculate_value()},
                    "output": [r.choice(VARS)]}
        if kind == "Let":
            return {"name": kind, "args": {"value": r.randint(0, 3) * 0.5},
                    "output": [r.choice(VARS)]}
        return {"name": kind}

    def root(self):
        """A random tree; with arrays, first a Let that makes the array, then the tree."""
        if not self.arrays:
            return self.node(0)
        start = {"name": "Let", "args": {"value": [self.rng.randint(0, 3) * 0.5
                                                   for _ in range(self.rng.randint(0, 3))]},
                 "output": [ARRAY]}
        return {"name": "Sequence", "children": [start, self.node(1)]}

    def node(self, depth, in_loop=False):
        r = self.rng
        if depth >= 3 or r.random() < 0.3 + 0.15 * depth:
            return self.leaf(in_loop)
        kinds = ["Sequence", "Selector", "Parallel", "Race", "Switch", "Watchdog", "Invert",
                 "AlwaysSuccess", "AlwaysFailure", "Repeat", "RetryUntilSuccess",
                 "RetryUntilFailure", "Once", "Timeout", "AlwaysRunning"]
        if self.between_ticks:
            kinds += ["Delay", "Listen"]
        if self.arrays:
            kinds += ["ForEach", "Filter"]
        kind = r.choice(kinds)
        if kind in ("Sequence", "Selector", "Parallel", "Race"):
            return {"name": kind,
                    "children": [self.node(depth + 1, in_loop) for _ in range(r.randint(1, 3))]}
        if kind == "Switch":
            cases = [{"name": "Case",
                      "children": [self.condition(), self.node(depth + 2, in_loop)]}
                     for _ in range(r.randint(1, 3))]
            return {"name": kind, "children": cases}
        if kind == "Watchdog":
            return {"name": kind, "children": [self.condition(), self.node(depth + 1, in_loop),
                                               self.leaf(in_loop)]}
        if kind == "ForEach":
            return {"name": kind, "input": [ARRAY], "output": [r.choice(VARS), r.choice(VARS)],
                    "children": [self.node(depth + 1, True)]}
        if kind == "Filter":
            # A child that finishes at once: resumed over a running child, behavior3-ts's
            # Filter starts its loop over (a known difference, docs/behavior3.md).
            return {"name": kind, "input": [ARRAY], "output": [r.choice(VARS), ARRAY],
                    "children": [self.condition()]}
        node = {"name": kind, "children": [self.node(depth + 1, in_loop)]}
        if kind in ("Repeat", "RetryUntilSuccess", "RetryUntilFailure"):
            node["args"] = {"count": r.randint(1, 3)}
        elif kind == "Timeout":
            node["args"] = {"time": r.randint(0, 4) * 0.5}
        elif kind == "Delay":
            node["args"] = {"delay": r.randint(0, 4) * 0.5}
        elif kind == "Listen":
            node["args"] = {"event": r.choice(["treeBeforeTicked", "treeAfterTicked",
                                               "treeTickedSuccess", "treeTickedFailure"])}
        return node


def numbered(root):
    """The tree file for a root: ids 1..n in preorder, as behavior3editor numbers them."""
    next_id = [1]

    def walk(node):
        out = {"id": next_id[0], "name": node["name"]}
        next_id[0] += 1
        for field in ("args", "input", "output"):
            if field in node:
                out[field] = node[field]
        if "children" in node:
            out["children"] = [walk(c) for c in node["children"]]
        return out

    return {"name": "diff", "desc": "", "root": walk(root)}


def types_of(node):
    found = {node["name"]}
    for c in node.get("children", []):
        found |= types_of(c)
    return found


def run_both(root, args, path):
    with open(path, "w") as f:
        json.dump(numbered(root), f, indent=1)
    common = [path, str(args.ticks), str(args.dt)] + VARS + ([ARRAY] if args.arrays else [])
    sides = []
    for command in ([args.runner] + common,
                    ["node", args.js_runner, args.modules] + common):
        p = subprocess.run(command, capture_output=True, text=True, timeout=60)
        if p.returncode != 0:
            sides.append(["load error: " + (p.stderr.strip().splitlines() or ["?"])[0]])
        else:
            sides.append(p.stdout.split("\n")[: args.ticks])
    return sides


def first_difference(canopy, b3):
    """The first tick (1-based) where the status or a variable differs, or None."""
    for i in range(max(len(canopy), len(b3))):
        a = canopy[i].split() if i < len(canopy) else []
        b = b3[i].split() if i < len(b3) else []
        if len(a) != len(b) or a[:1] != b[:1]:
            return i + 1
        for x, y in zip(a[1:], b[1:]):
            try:
                if float(x) != float(y):
                    return i + 1
            except ValueError:
                if x != y:
                    return i + 1
    return None


def statuses(lines):
    return "".join(line.split()[0] if line and not line.startswith("load") else "?"
                   for line in lines)


def smaller(node, keep=1):
    """Trees one step smaller: a child in the node's place, or a composite without a child
    (down to `keep` children)."""
    children = node.get("children", [])
    name = node["name"]
    if name != "Case":
        for c in children:
            # A Switch may give way to a Case's body; a Case stays under a Switch.
            yield c["children"][1] if c["name"] == "Case" else c
    if name in ("Sequence", "Selector", "Parallel", "Race", "Switch") and len(children) > keep:
        for i in range(len(children)):
            yield dict(node, children=children[:i] + children[i + 1:])
    for i, c in enumerate(children):
        for s in smaller(c, keep):
            yield dict(node, children=children[:i] + [s] + children[i + 1:])


def shrink(root, differs, keep=1):
    """The smallest tree, one step at a time, for which `differs(tree)` still holds."""
    changed = True
    while changed:
        changed = False
        for candidate in smaller(root, keep):
            if differs(candidate):
                root, changed = candidate, True
                break
    return root


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runner", required=True, help="the canopy_behavior3_runner program")
    parser.add_argument("--trees", type=int, default=300)
    parser.add_argument("--ticks", type=int, default=12)
    parser.add_argument("--dt", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="build/behavior3-diff")
    parser.add_argument("--modules",
                        help="a node_modules folder where behavior3 and typescript are (or go)")
    parser.add_argument("--no-shrink", action="store_true")
    parser.add_argument("--between-ticks", action="store_true",
                        help="Delay and Listen too: nodes that run their child between ticks")
    parser.add_argument("--arrays", action="store_true",
                        help="an array too, and the nodes over it: Push, Concat, Index, Includes, "
                        "ForEach, Filter")
    parser.add_argument("--typed-expressions", action="store_true",
                        help="Check gets comparisons and Calculate arithmetic: no lone variable, "
                        "no boolean stored (the known differences, docs/behavior3.md)")
    args = parser.parse_args()
    args.modules = args.modules or os.path.join(args.out, "node_modules")
    args.js_runner = os.path.join(here, "behavior3_runner.mjs")
    if not os.access(args.runner, os.X_OK):
        skip(f"no runner program at {args.runner} (build target canopy_behavior3_runner)")
    ensure_modules(args.modules)
    os.makedirs(args.out, exist_ok=True)
    work = os.path.join(args.out, "current.json")

    gen = generator(args.seed, args.typed_expressions, args.between_ticks, args.arrays)
    agree = 0
    for n in range(args.trees):
        root = gen.root()
        canopy, b3 = run_both(root, args, work)
        tick = first_difference(canopy, b3)
        if tick is None:
            agree += 1
            continue
        print(f"tree {n}: differs at tick {tick}: canopy {statuses(canopy)}, "
              f"behavior3-ts {statuses(b3)}; types {', '.join(sorted(types_of(root)))}")
        report = {"tree": numbered(root), "first_tick": tick, "canopy": canopy, "behavior3_ts": b3}
        if not args.no_shrink:
            small = shrink(root,
                           lambda tree: first_difference(*run_both(tree, args, work)) is not None)
            canopy, b3 = run_both(small, args, work)
            report["smallest"] = {"tree": numbered(small),
                                  "first_tick": first_difference(canopy, b3),
                                  "canopy": canopy, "behavior3_ts": b3}
            print(f"  smallest: {json.dumps(numbered(small)['root'])}\n"
                  f"    canopy {statuses(canopy)}, behavior3-ts {statuses(b3)}")
        with open(os.path.join(args.out, f"tree-{n:04d}.json"), "w") as f:
            json.dump(report, f, indent=1)
    if os.path.exists(work):
        os.remove(work)
    flavour = (", typed expressions" if args.typed_expressions else "") + (
        ", between ticks" if args.between_ticks else "") + (", arrays" if args.arrays else "")
    print(f"agree: {agree} / {args.trees} (seed {args.seed}, {args.ticks} ticks of {args.dt} s"
          f"{flavour})")


if __name__ == "__main__":
    main()
