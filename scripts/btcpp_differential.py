#!/usr/bin/env python3
"""Runs random scripted BehaviorTree.CPP 4 XML trees in BT.CPP 4.10 and Canopy's CLI, tick by tick.

Usage:
    scripts/btcpp_differential.py \
        (--btcpp-runner PATH | --btcpp-prefix DIR [--btcpp-src DIR]) \
        [--canopy build/debug/tools/canopy/canopy] [--trees 300] [--ticks 12] [--seed 1] \
        [--out build/btcpp-diff] [--no-shrink] [--mixed] [--untyped-ports] [--program-keys] \
        [--substitute] [--coverage] [--only N]

Generates --trees random BehaviorTree.CPP 4 trees (`<root BTCPP_format="4"
main_tree_to_execute="MainTree">`, reproducible from --seed; tree N from the seed and N alone,
so --only N runs it again) from built-ins both sides have: Sequence, Fallback,
ReactiveSequence, ReactiveFallback, SequenceWithMemory, Parallel, IfThenElse, WhileDoElse,
Inverter, ForceSuccess, ForceFailure, Repeat, RetryUntilSuccessful, KeepRunningUntilFailure,
RunOnce, Precondition, AlwaysSuccess, AlwaysFailure, Script and ScriptCondition, with the
pre- and post-condition attributes any node may carry (_failureIf, _successIf, _skipIf,
_while, _onSuccess, _onFailure, _onHalted, _post). Running comes from KeepRunningUntilFailure
over a counting ScriptCondition, Repeat, RetryUntilSuccessful and Precondition else="RUNNING"
(Canopy's CLI has no scripted test leaf, and Sleep runs on the wall clock). The scripts use
number keys a, b, c and string keys s, t, made by a first Script (`:=`) and changed with `=`,
`+=`, `-=`, `*=`, `/=`; integer and real literals, strings in single quotes, `..`, + - * /,
comparisons, && || !, bitwise & | ^ ~ (parenthesised), `?:`.

--mixed adds what trees get wrong or what the two libraries read differently: arithmetic
mixed with bitwise without parentheses (`a + b & c`), `'n=' .. 1 + 2`, operators on the wrong
types (`s - 1`, `1 .. 2`, `!s`, `s = 5`, `a = 'abc'`), often in a `?:` branch that may or may
not run, comparisons of strings with numbers, keys created from comparisons (`x := 1 < 2`),
and reads of keys before any script made them (a missing or later first Script, key `d`
that only a later node creates). --untyped-ports adds SetBlackboard nodes that carry text into
keys (`value="3"`, `"2.5"`, `"abc"`, `"{b}"`), which scripts then use as numbers or strings.

--program-keys has the program write keys before the first tick, as a BehaviorTree.CPP program
sets its root blackboard once the tree is made: about half the number keys as integers or
doubles and half the string keys as strings (a number's text among them), which the first
Script then leaves alone, and always a boolean `f` and an enum `m` (a name of IDLE, PATROL,
CHASE, which the program registers as scripting enums, or an integer). Scripts test and write
them (`!f`, `m == CHASE`, `f = a > 2`, `m = PATROL`, `m += 1`). Canopy gets them as `canopy run
--enum NAME=VALUE --set KEY=VALUE`, the runner as the same options.

--substitute runs each tree under BehaviorTree.CPP 4.10's substitution rules. It gives some
nodes a `name` (shared names, now and then another type's name), asks the runner for the
tree's nodes (`--paths`: UID, full path, name, registration ID), and draws 1 to 4 rules that
no node matches twice (matched as BehaviorTree.CPP does: the pattern equals the node's name or
its registration ID, or matches its full path with the wildcards `*` and `?`; BehaviorTree.CPP
picks any one of several matching rules, Canopy the first): an instance name, a type
(`Script`, `AlwaysFailure`), an exact path (`Fallback::7`) or a wildcard one (`Sequence::*`,
`*/Script::*`, `ForceF?ilure::5`), rarely one that matches the root or the first Script. Each rule
names a TestNodeConfig or, now and then, AlwaysSuccess or AlwaysFailure. The configs are
synchronous (no async_delay: BehaviorTree.CPP runs it on the wall clock): a return_status
(SUCCESS, FAILURE, RUNNING, SKIPPED) or a return_status_script of statuses and numbers
(`a > 2 ? SUCCESS : FAILURE`), sometimes success_script, failure_script and post_script that
change the number keys (`a += 1`). The trees are those of the same seed without
--substitute, with the names added. The rules go next to the tree (tree-NNNN.rules.json), to
`canopy run --substitute` and the runner's --substitute.

Each tree runs for --ticks ticks in BehaviorTree.CPP (scripts/btcpp_runner.cpp; built by this
script with --btcpp-prefix, or given built with --btcpp-runner) and in Canopy (`CANOPY run FILE
--ticks N --blackboard`); after each tick the root status and every line of the main blackboard
are compared, and so are the load verdicts (both load, or both refuse). Keys that Canopy's CLI
registry itself declares (the demo packs' keys, printed for every tree) are left out of the
comparison. The canopy program is copied into --out first (unless --no-snapshot), so that one
Canopy answers for the whole run while its build is redone. A tick that throws ends the run on
both sides (`canopy run` exits 1); both throwing at the same tick agree, whatever the messages
say.

For each disagreeing tree it prints the first differing tick, both sides' lines there and a
category: "canopy refuses at load, btcpp runs: ..." or "..., btcpp throws later: ..." (Canopy
checks at load what BT.CPP finds when a script runs; "later" says BT.CPP's run reaches such
an error), "btcpp refuses at load: ...", "error only in btcpp: ...", "error only in canopy:
...", "blackboard differs: keys only in canopy", "value differs: boolean vs integer" (x=true
vs x=1), "status differs: ...". Messages are generalised (no file, line, quoted names or
numbers) so that one cause is one category. Then the smallest tree that still disagrees in the
same category (nodes replaced by a child or a constant leaf, children, names, condition
attributes and script statements dropped, conditions made constants, an operator and an
operand dropped from a script; with --substitute, under the same rules, then rules and
optional config fields dropped; a smaller tree where a node matches two rules is passed over),
with both outputs. Trees go to --out (tree-NNNN.xml, tree-NNNN.small.xml, tree-NNNN.json, and
with --substitute tree-NNNN.rules.json, tree-NNNN.small.rules.json). At the end: "agree: N /
total" and a table of the categories with their counts and one tree of each.

--coverage also runs each tree both run alike to the last tick with `canopy run --coverage
OUT.json` and the runner's --coverage (BehaviorTree.CPP's TreeObserver), under the rules with
--substitute, and compares every node's success and failure counts (Canopy's node i in
preorder is BehaviorTree.CPP's UID i + 1). The children a substituted node leaves dangling are
not observed in BehaviorTree.CPP and never ticked in Canopy: they compare as never ticked. A
tree with two observed nodes of one path (two of one name) is left out: the TreeObserver
refuses it.

Building the runner (what --btcpp-prefix does; BUILD a BehaviorTree.CPP 4.10 build directory
or install prefix, SRC its sources, for the headers when BUILD is a build directory):

    g++ -std=c++17 -O2 scripts/btcpp_runner.cpp -o OUT/btcpp_runner -I SRC/include \
        -I BUILD/include -L BUILD -L BUILD/lib -lbehaviortree_cpp \
        -Wl,-rpath,BUILD -Wl,-rpath,BUILD/lib -pthread

e.g. with BehaviorTree.CPP 4.10.0's sources in SRC, outside this repository, built in BUILD
(cmake -S SRC -B BUILD -DBTCPP_SHARED_LIBS=ON -DBUILD_TESTING=OFF -DBTCPP_EXAMPLES=OFF
-DBTCPP_GROOT_INTERFACE=OFF -DBTCPP_SQLITE_LOGGING=OFF -DBTCPP_BUILD_TOOLS=OFF):

    scripts/btcpp_differential.py --btcpp-prefix BUILD --btcpp-src SRC \
        --out build/btcpp-diff/default

Not part of CI: BehaviorTree.CPP is not a dependency of the project.
"""

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
from collections import Counter
from xml.sax.saxutils import quoteattr

NUM_KEYS = ["a", "b", "c"]
STR_KEYS = ["s", "t"]
LATE_KEY = "d"  # --mixed: a key that only a later node creates, if any does
# --program-keys: a boolean and an enum the program sets, and the enum's registered names.
FLAG_KEY = "f"
ENUM_KEY = "m"
ENUMS = {"IDLE": 0, "PATROL": 1, "CHASE": 2}

COMPOSITES = ["Sequence", "Fallback", "ReactiveSequence", "ReactiveFallback",
              "SequenceWithMemory", "Parallel", "IfThenElse", "WhileDoElse"]
DECORATORS = ["Inverter", "ForceSuccess", "ForceFailure", "Repeat", "RetryUntilSuccessful",
              "KeepRunningUntilFailure", "RunOnce", "Precondition"]
PRE = ["_failureIf", "_successIf", "_skipIf", "_while"]
POST = ["_onSuccess", "_onFailure", "_onHalted", "_post"]


def skip(reason):
    print(f"btcpp_differential: skipped: {reason}")
    sys.exit(0)


# ---------------------------------------------------------------------------------------------
# The runner


def build_runner(prefix, src, out):
    """Compiles scripts/btcpp_runner.cpp against BehaviorTree.CPP at prefix; returns its path."""
    here = os.path.dirname(os.path.abspath(__file__))
    source = os.path.join(here, "btcpp_runner.cpp")
    runner = os.path.join(os.path.abspath(out), "btcpp_runner")
    if shutil.which("g++") is None:
        skip("g++ is needed to build the BehaviorTree.CPP runner")
    prefix = os.path.abspath(prefix)
    if src is None:
        # A build directory names its sources in its CMakeCache.txt.
        try:
            with open(os.path.join(prefix, "CMakeCache.txt")) as f:
                for line in f:
                    if line.startswith("CMAKE_HOME_DIRECTORY:"):
                        src = line.split("=", 1)[1].strip()
        except OSError:
            pass
    includes = [d for d in ([os.path.join(src, "include")] if src else [])
                + [os.path.join(prefix, "include")] if os.path.isdir(d)]
    libs = [d for d in (prefix, os.path.join(prefix, "lib")) if os.path.isdir(d)
            and any(n.startswith("libbehaviortree_cpp") for n in os.listdir(d))]
    if not includes or not libs:
        skip(f"no BehaviorTree.CPP headers and libbehaviortree_cpp in {prefix} (give "
             "--btcpp-src for the headers of a build directory)")
    if os.path.exists(runner) and os.path.getmtime(runner) >= os.path.getmtime(source):
        return runner
    os.makedirs(os.path.dirname(runner), exist_ok=True)
    command = ["g++", "-std=c++17", "-O2", source, "-o", runner]
    command += [f"-I{d}" for d in includes] + [f"-L{d}" for d in libs]
    command += ["-lbehaviortree_cpp"] + [f"-Wl,-rpath,{d}" for d in libs] + ["-pthread"]
    print("building the runner: " + " ".join(command), flush=True)
    p = subprocess.run(command, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("btcpp_differential: the runner does not build:\n" + p.stderr[-3000:])
    return runner


# ---------------------------------------------------------------------------------------------
# Trees: {"type", "attrs": {...}, "children": [...], "init": bool}


def node(type_, children=None, **attrs):
    return {"type": type_, "attrs": dict(attrs), "children": children or []}


class generator:
    def __init__(self, rng, mixed, untyped, program=False):
        self.rng = rng
        self.mixed = mixed
        self.untyped = untyped
        self.program = program
        self.program_sets = {}  # --program-keys: key -> the --set VALUE the program writes

    # -- expressions -------------------------------------------------------------------------

    def chance(self, p):
        return self.rng.random() < p

    def num_literal(self):
        r = self.rng
        if self.chance(0.7):
            return str(r.randint(0, 5))
        return r.choice(["0.5", "1.5", "2.25", "0.1", "3.0", "-1", "-0.5"])

    def num_operand(self):
        r = self.rng
        if self.mixed and self.chance(0.08):
            return r.choice(["true", "false", LATE_KEY])
        return r.choice(NUM_KEYS) if self.chance(0.6) else self.num_literal()

    def num_expr(self, depth=0):
        """A number: keys, literals, + - * /, parentheses, unary minus, ?:, bitwise in ()."""
        r = self.rng
        if depth >= 2 or self.chance(0.35):
            return self.num_operand()
        k = r.random()
        if k < 0.55:
            op = r.choice(["+", "-", "*", "+", "-", "/"])
            return f"{self.num_expr(depth + 1)} {op} {self.num_expr(depth + 1)}"
        if k < 0.65:
            return f"({self.num_expr(depth + 1)})"
        if k < 0.72:
            return f"-{self.num_operand()}"
        if k < 0.85:
            return self.bitwise(depth)
        if self.mixed and self.chance(0.5):
            return self.wrong(depth)
        return f"({self.bool_expr(depth + 1)} ? {self.num_expr(depth + 1)} : " \
               f"{self.num_expr(depth + 1)})"

    def bitwise(self, depth):
        r = self.rng
        op = r.choice(["&", "|", "^"])
        left = r.choice(NUM_KEYS) if self.chance(0.7) else str(r.randint(0, 7))
        right = str(r.randint(0, 7)) if self.chance(0.6) else r.choice(NUM_KEYS)
        if self.chance(0.2):
            left = f"~{left}"
        if self.mixed and self.chance(0.5):
            # Arithmetic and bitwise mixed without parentheses: (a + b) & c in BehaviorTree.CPP
            # 4.10, which binds + tighter than & | ^; refused by Canopy's grammar.
            arith = f"{r.choice(NUM_KEYS)} {r.choice(['+', '-', '*'])} {r.choice(NUM_KEYS)}"
            return r.choice([f"{arith} {op} {right}", f"{left} {op} {arith}"])
        return f"({left} {op} {right})"

    def str_operand(self):
        r = self.rng
        if self.chance(0.5):
            return r.choice(STR_KEYS)
        return "'" + r.choice(["x", "abc", "hi", "", "3", "1.5", "true", "n="]) + "'"

    def str_expr(self, depth=0):
        r = self.rng
        if depth >= 2 or self.chance(0.4):
            return self.str_operand()
        k = r.random()
        if k < 0.5:
            return f"{self.str_operand()} .. {self.str_operand()}"
        if k < 0.8:
            # A number into text: an integer key's digits, a double's %f text in BT.CPP.
            num = self.num_operand() if self.chance(0.7) else f"({self.num_expr(depth + 1)})"
            return f"{self.str_operand()} .. {num}" if self.chance(0.7) \
                else f"{num} .. {self.str_operand()}"
        if self.mixed and self.chance(0.5):
            # `..` and `+` are one level in BT.CPP 4.10: ('n=' .. 1) + 2, an error there.
            return f"{self.str_operand()} .. {self.num_operand()} + {self.num_operand()}"
        return f"({self.bool_expr(depth + 1)} ? {self.str_operand()} : {self.str_operand()})"

    def comparison(self, depth=0):
        r = self.rng
        op = r.choice(["<", ">", "<=", ">=", "==", "!="])
        k = r.random()
        if k < 0.7:
            return f"{self.num_expr(depth + 1)} {op} {self.num_expr(depth + 1)}"
        if k < 0.85 or not self.mixed:
            return f"{self.str_operand()} {r.choice(['==', '!=', '<', '>'])} {self.str_operand()}"
        # A string with a number: the string read as a number (or an error).
        return r.choice([f"{self.str_operand()} {op} {self.num_operand()}",
                         f"{self.num_operand()} {op} {self.str_operand()}"])

    def bool_expr(self, depth=0):
        """A condition: comparisons joined by && and || (mixed without parentheses too), !."""
        r = self.rng
        if depth >= 2 or self.chance(0.45):
            if self.program and self.chance(0.3):
                return self.program_condition()
            if self.chance(0.15):
                return r.choice(["true", "false", r.choice(NUM_KEYS)])
            return self.comparison(depth)
        k = r.random()
        if k < 0.6:
            parts = [self.comparison(depth + 1) for _ in range(r.randint(2, 3))]
            out = parts[0]
            for p in parts[1:]:
                out += f" {r.choice(['&&', '||'])} {p}"
            return out
        if k < 0.8:
            return f"!({self.comparison(depth + 1)})"
        return f"({self.bool_expr(depth + 1)})"

    def program_condition(self):
        """--program-keys: a test of the boolean or the enum the program set."""
        r = self.rng
        return r.choice([
            FLAG_KEY, f"!{FLAG_KEY}", f"{FLAG_KEY} == true", f"{FLAG_KEY} != false",
            f"{ENUM_KEY} == {r.choice(list(ENUMS))}", f"{ENUM_KEY} != {r.choice(list(ENUMS))}",
            f"{ENUM_KEY} == {r.randint(0, 2)}", f"{ENUM_KEY} > IDLE",
            f"{FLAG_KEY} && {ENUM_KEY} == CHASE"])

    def program_assignment(self):
        """--program-keys: a script's write into the boolean or the enum."""
        r = self.rng
        return r.choice([
            f"{FLAG_KEY} = !{FLAG_KEY}", f"{FLAG_KEY} = {r.choice(NUM_KEYS)} > 2",
            f"{FLAG_KEY} = {r.choice(['true', 'false'])}",
            f"{ENUM_KEY} = {r.choice(list(ENUMS))}", f"{ENUM_KEY} = {r.randint(0, 2)}",
            f"{ENUM_KEY} += 1"])

    def program_values(self):
        """--program-keys: what the program writes before the first tick, as --set VALUEs:
        some number keys as integers or doubles, some string keys (a number's text among
        them), always the boolean and the enum (by its name, or as an integer). The keys it
        sets leave the first Script."""
        r = self.rng
        sets = {}
        for key in NUM_KEYS:
            if self.chance(0.5):
                sets[key] = r.choice([str(r.randint(0, 5)), "0.5", "2.5", "-1", "3.0"])
        for key in STR_KEYS:
            if self.chance(0.5):
                sets[key] = r.choice(['"abc"', "x", '"3"', '""', "hi", '"2.5"'])
        sets[FLAG_KEY] = r.choice(["true", "false"])
        sets[ENUM_KEY] = r.choice(list(ENUMS) + ["1", "2"])
        self.program_sets = sets

    def wrong(self, depth=0):
        """--mixed: an operator on types it does not take, for the number slot it sits in."""
        r = self.rng
        s = r.choice(STR_KEYS)
        bad = r.choice([f"{s} - 1", f"{s} * 2", "1 .. 2", f"!{s}", f"{s} && true",
                        "~2.5", f"{r.choice(NUM_KEYS)} & 1.5", f"{s} + 1", f"-{s}"])
        # Often in a branch that may or may not run.
        if self.chance(0.6):
            cond = self.comparison(depth + 1)
            return f"({cond} ? {bad} : {self.num_operand()})" if self.chance(0.5) \
                else f"({cond} ? {self.num_operand()} : {bad})"
        return bad

    # -- statements --------------------------------------------------------------------------

    def assignment(self):
        r = self.rng
        if self.program and self.chance(0.2):
            return self.program_assignment()
        if self.mixed and self.chance(0.15):
            return r.choice([
                f"{r.choice(STR_KEYS)} = {self.num_operand()}",          # s = 5
                f"{r.choice(NUM_KEYS)} = {self.str_operand()}",          # a = 'abc'
                f"{r.choice(NUM_KEYS + ['x'])} := {self.comparison()}",  # x := 1 < 2
                f"{LATE_KEY} := {self.num_expr()}",
                f"{r.choice(STR_KEYS)} -= 1",
            ])
        if self.chance(0.3):
            key = r.choice(STR_KEYS)
            op = r.choice([":=", "=", "=", "+="])
            return f"{key} {op} {self.str_expr()}"
        key = r.choice(NUM_KEYS)
        op = r.choice([":=", "=", "=", "+=", "+=", "-=", "*=", "/="])
        value = self.num_expr() if op in (":=", "=") or self.chance(0.3) else self.num_literal()
        if op in (":=", "=") and self.chance(0.15):
            value = self.bool_expr()
        return f"{key} {op} {value}"

    def statements(self, lo=1, hi=2):
        return [self.assignment() for _ in range(self.rng.randint(lo, hi))]

    def init_script(self):
        """The first Script: makes the keys, as real trees do."""
        r = self.rng
        parts = []
        for i, key in enumerate(NUM_KEYS):
            value = self.num_literal()
            if i > 0 and self.chance(0.2):  # from a key made before it
                value = f"{r.choice(NUM_KEYS[:i])} {r.choice(['+', '-', '*'])} {value}"
            if key not in self.program_sets:
                parts.append(f"{key} := {value}")
        for key in STR_KEYS:
            value = f"{key} := '{r.choice(['', 'x', 'abc', 'hi', '3'])}'"
            if key not in self.program_sets:
                parts.append(value)
        if not parts:
            parts.append(f"{FLAG_KEY} = {FLAG_KEY}")
        if self.mixed and self.chance(0.3):
            r.shuffle(parts)
            parts = parts[: r.randint(1, len(parts))]
        return node("Script", code="; ".join(parts), init=True)

    # -- nodes -------------------------------------------------------------------------------

    def conditions(self, n):
        r = self.rng
        if not self.chance(0.25):
            return
        for _ in range(r.randint(1, 2)):
            name = r.choice(PRE + POST)
            n["attrs"][name] = self.bool_expr() if name in PRE else \
                "; ".join(self.statements(1, 2))

    def leaf(self):
        r = self.rng
        kinds = ["AlwaysSuccess", "AlwaysFailure", "Script", "Script", "ScriptCondition",
                 "ScriptCondition", "Counter"]
        if self.untyped:
            kinds += ["SetBlackboard", "SetBlackboard"]
        kind = r.choice(kinds)
        if kind == "Script":
            n = node("Script", code="; ".join(self.statements()))
        elif kind == "ScriptCondition":
            code = self.bool_expr()
            if self.chance(0.3):
                code = self.assignment() + "; " + code
            n = node("ScriptCondition", code=code)
        elif kind == "Counter":
            # Running for a few ticks: a counter and a test of it, under KeepRunningUntilFailure.
            key = r.choice(NUM_KEYS)
            n = node("KeepRunningUntilFailure", [
                node("ScriptCondition", code=f"{key} += 1; {key} < {r.randint(1, 6)}")])
        elif kind == "SetBlackboard":
            value = r.choice(["3", "2.5", "abc", "0", "{" + r.choice(NUM_KEYS + STR_KEYS) + "}"])
            n = node("SetBlackboard", output_key=r.choice(NUM_KEYS + STR_KEYS + ["u"]),
                     value=value)
        else:
            n = node(kind)
        self.conditions(n)
        return n

    def tree(self, depth=0):
        r = self.rng
        if depth >= 3 or self.chance(0.25 + 0.15 * depth):
            return self.leaf()
        if self.chance(0.55):
            kind = r.choice(COMPOSITES)
            if kind in ("IfThenElse", "WhileDoElse"):
                children = [self.condition_child()] + \
                    [self.tree(depth + 1) for _ in range(r.randint(1, 2))]
            else:
                children = [self.tree(depth + 1) for _ in range(r.randint(1, 3))]
            n = node(kind, children)
            if kind == "Parallel":
                count = len(children)
                if self.chance(0.5):
                    n["attrs"]["success_count"] = str(r.choice([-1, 1, count]))
                if self.chance(0.5):
                    n["attrs"]["failure_count"] = str(r.choice([-1, 1, count]))
        else:
            kind = r.choice(DECORATORS)
            n = node(kind, [self.tree(depth + 1)])
            if kind == "Repeat":
                n["attrs"]["num_cycles"] = self.count_port()
            elif kind == "RetryUntilSuccessful":
                n["attrs"]["num_attempts"] = self.count_port()
            elif kind == "RunOnce" and self.chance(0.5):
                n["attrs"]["then_skip"] = r.choice(["true", "false"])
            elif kind == "Precondition":
                n["attrs"]["if"] = self.bool_expr()
                if self.chance(0.6):
                    n["attrs"]["else"] = r.choice(["FAILURE", "SUCCESS", "SKIPPED", "RUNNING"])
        self.conditions(n)
        return n

    def count_port(self):
        if self.untyped and self.chance(0.3):
            return "{" + self.rng.choice(NUM_KEYS) + "}"
        return str(self.rng.randint(1, 3))

    def condition_child(self):
        if self.chance(0.7):
            return node("ScriptCondition", code=self.bool_expr())
        return self.tree(2)

    def root(self):
        if self.program:
            self.program_values()
        body = self.tree(1)
        if self.mixed and self.chance(0.25):
            # No first Script, or one that comes after the body.
            if self.chance(0.5):
                return body
            return node("Sequence", [body, self.init_script()])
        return node("Sequence", [self.init_script(), body])


def clamped(n):
    """A Parallel's attributes with thresholds its (maybe fewer, after shrinking) children reach."""
    attrs = dict(n["attrs"])
    count = len(n["children"])
    for port in ("success_count", "failure_count"):
        if port in attrs:
            v = int(attrs[port])
            if v > count:
                attrs[port] = str(count)
            elif v < -count - 1:
                attrs[port] = "-1"
    return attrs


def xml_of(root):
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<root BTCPP_format="4" main_tree_to_execute="MainTree">',
             '  <BehaviorTree ID="MainTree">']

    def walk(n, indent):
        given = clamped(n) if n["type"] == "Parallel" else n["attrs"]
        attrs = "".join(f" {k}={quoteattr(v)}" for k, v in given.items() if k != "init")
        pad = "  " * indent
        if n["children"]:
            lines.append(f"{pad}<{n['type']}{attrs}>")
            for c in n["children"]:
                walk(c, indent + 1)
            lines.append(f"{pad}</{n['type']}>")
        else:
            lines.append(f"{pad}<{n['type']}{attrs}/>")

    walk(root, 2)
    lines += ["  </BehaviorTree>", "</root>", ""]
    return "\n".join(lines)


def body_of(xml):
    """The <BehaviorTree>'s content, for printing."""
    return "\n".join(line[2:] for line in xml.splitlines()[3:-2])


# ---------------------------------------------------------------------------------------------
# Substitution rules: {"configs": {NAME: {TestNodeConfig fields}}, "rules": [(PATTERN, NAME or
# a registered ID)]}, matched against the nodes the runner's --paths lists:
# [(uid, full path, name, registration name)].

NODE_NAMES = ["alpha", "beta", "gamma", "probe"]
STATUSES = ["SUCCESS", "FAILURE", "RUNNING", "SKIPPED"]


def name_nodes(root, rng):
    """Gives some nodes a name attribute: a few shared names, now and then another type's
    name (a rule with that pattern then matches this node by name and the others by type)."""
    types = COMPOSITES + DECORATORS + ["AlwaysSuccess", "AlwaysFailure", "Script"]

    def walk(n):
        if rng.random() < 0.2:
            name = rng.choice(NODE_NAMES) if rng.random() < 0.85 else rng.choice(types)
            n["attrs"] = {"name": name, **n["attrs"]}
        for c in n["children"]:
            walk(c)

    walk(root)


def wildcard_match(text, pattern):
    """BehaviorTree.CPP's wildcards_match: `*` any text, `?` one character, all else literal,
    case-sensitive, the whole text."""
    regex = "".join(".*" if ch == "*" else "." if ch == "?" else re.escape(ch) for ch in pattern)
    return re.fullmatch(regex, text, re.DOTALL) is not None


def matched_by(pattern, nodes):
    """The UIDs of the nodes a rule's pattern matches: their name, their registration ID, or a
    wildcard pattern on their full path."""
    return frozenset(uid for uid, path, name, id_ in nodes
                     if pattern == name or pattern == id_ or wildcard_match(path, pattern))


def overlapping(rules, nodes):
    """Whether some node is matched by two rules (BehaviorTree.CPP picks either then)."""
    seen = set()
    for pattern, _ in rules["rules"]:
        uids = matched_by(pattern, nodes)
        if seen & uids:
            return True
        seen |= uids
    return False


def random_pattern(rng, nodes):
    """A pattern for a node of the tree: its name, its type, its path, or a wildcard on it."""
    # Rather not the first Script, which makes the keys every later script reads.
    uid, path, name, id_ = rng.choice([n for n in nodes if n[0] != 2] or nodes)
    k = rng.random()
    if k < 0.25:
        named = [n for n in nodes if n[2] != n[3]]
        return rng.choice(named)[2] if named else name
    if k < 0.5:
        return id_
    forms = [path, f"{id_}::*", f"*/{id_}::*", re.sub(r"\d+$", "*", path), path[:3] + "*",
             "*" + path[-2:], f"*::{uid}", f"{id_[:2]}*::?", f"*{id_[2:4]}*"]
    if path:
        i = rng.randrange(len(path))
        forms.append(path[:i] + "?" + path[i + 1:])
    return rng.choice(forms)


def status_script(rng):
    """A return_status_script: a status by name or number, often chosen by a test of a key."""
    key = rng.choice(NUM_KEYS)
    one, other = rng.sample(STATUSES[:2] * 2 + STATUSES[2:], 2) if rng.random() < 0.3 \
        else rng.sample(STATUSES[:2], 2)
    k = rng.random()
    if k < 0.15:
        return rng.choice(["SUCCESS", "FAILURE", "2", "3"])
    if k < 0.3:
        return f"{key} > {rng.randint(0, 4)} ? {rng.choice(['2', '3'])} : {rng.choice(['2', '3'])}"
    test = f"{key} {rng.choice(['<', '>', '<=', '>=', '==', '!='])} {rng.randint(0, 4)}"
    if rng.random() < 0.2:
        test += f" && {rng.choice(NUM_KEYS)} < {rng.randint(1, 5)}"
    return f"{test} ? {one} : {other}"


def key_script(rng):
    """A success, failure or post script: changes to the number keys the tree's scripts use."""
    parts = []
    for _ in range(rng.randint(1, 2)):
        key = rng.choice(NUM_KEYS)
        parts.append(rng.choice([f"{key} += 1", f"{key} -= 1", f"{key} = {key} * 2",
                                 f"{key} := {rng.randint(0, 5)}",
                                 f"{key} = {rng.choice(NUM_KEYS)} + {rng.randint(1, 3)}"]))
    return "; ".join(parts)


def test_config(rng):
    """A synchronous TestNodeConfig (async_delay would run on BehaviorTree.CPP's wall clock)."""
    config = {}
    if rng.random() < 0.3:
        config["return_status_script"] = status_script(rng)
        if rng.random() < 0.3:  # ignored beside the script
            config["return_status"] = rng.choice(STATUSES[:2])
    else:
        config["return_status"] = rng.choice(STATUSES[:2] * 3 + STATUSES[2:])
    for field in ("success_script", "failure_script", "post_script"):
        if rng.random() < 0.3:
            config[field] = key_script(rng)
    return config


def make_rules(rng, nodes):
    """1 to 4 rules that no node matches twice, each to a new TestNodeConfig or, now and then,
    to AlwaysSuccess or AlwaysFailure. No nodes (the tree does not load): no rules."""
    rules = {"configs": {}, "rules": []}
    if not nodes:
        return rules
    wanted = rng.randint(1, 4)
    taken = set()
    for _ in range(40):
        if len(rules["rules"]) == wanted:
            break
        pattern = random_pattern(rng, nodes)
        uids = matched_by(pattern, nodes)
        if taken & uids or any(pattern == p for p, _ in rules["rules"]):
            continue
        if uids & {1, 2} and rng.random() < 0.9:
            continue  # the root or the first Script replaced leaves little to compare
        taken |= uids
        if rng.random() < 0.2:
            replacement = rng.choice(["AlwaysSuccess", "AlwaysFailure"])
        else:
            replacement = f"T{len(rules['configs']) + 1}"
            rules["configs"][replacement] = test_config(rng)
        rules["rules"].append((pattern, replacement))
    return rules


def rules_json(rules):
    """The rules as BehaviorTree.CPP's loadSubstitutionRuleFromJSON reads them (only the
    configs some rule uses)."""
    used = {replacement for _, replacement in rules["rules"]}
    return json.dumps({
        "TestNodeConfigs": {k: v for k, v in rules["configs"].items() if k in used},
        "SubstitutionRules": dict(rules["rules"]),
    }, indent=1) + "\n"


def rule_keys(rules):
    """The blackboard keys the rules' scripts use."""
    used = {replacement for _, replacement in rules["rules"]}
    found = set()
    for name, config in rules["configs"].items():
        if name in used:
            for field, text in config.items():
                if field.endswith("script"):
                    found |= set(re.findall(r"[a-z_]\w*", text))
    return found


def smaller_rules(rules):
    """The rules with one rule, or one optional field of a config, gone."""
    for i in range(len(rules["rules"])):
        yield dict(rules, rules=rules["rules"][:i] + rules["rules"][i + 1:])
    used = {replacement for _, replacement in rules["rules"]}
    for name, config in rules["configs"].items():
        if name not in used:
            continue
        for field in config:
            rest = {k: v for k, v in config.items() if k != field}
            if "return_status" not in rest and "return_status_script" not in rest:
                continue
            yield dict(rules, configs={**rules["configs"], name: rest})


def runner_paths(args, path):
    """The nodes of the tree at path as the runner lists them with no rules, or None."""
    empty = {"configs": {}, "rules": []}
    rules_path = rules_path_of(path)
    with open(rules_path, "w") as f:
        f.write(rules_json(empty))
    return run_btcpp(args, path, rules_path, ticks=1)["paths"]


# ---------------------------------------------------------------------------------------------
# Running both sides: {"load": None or message, "ticks": [(status, [bb lines], error or None)]}


def parse_ticks(lines, ignored):
    ticks = []
    for line in lines:
        if line.startswith("tick "):
            head, _, rest = line.partition(": ")
            if rest.startswith("error: "):
                ticks.append(("error", [], rest[len("error: "):]))
            else:
                ticks.append((rest.strip(), [], None))
        elif line.startswith("  bb ") and ticks:
            name = line[5:].split("=", 1)[0]
            if name not in ignored:
                ticks[-1][1].append(line.strip())
        else:
            break  # canopy's summary
    return ticks


def read_paths(path):
    """The runner's --paths file: [(uid, full path, name, registration name)], or None."""
    try:
        with open(path) as f:
            rows = [line.rstrip("\n").split("\t") for line in f]
    except OSError:
        return None
    return [(int(uid), full, name, id_) for uid, full, name, id_ in rows]


def run_btcpp(args, path, rules_path=None, ticks=None):
    """BehaviorTree.CPP's run; with rules_path, under those rules, and "paths" holds its nodes
    as the runner's --paths lists them (None when the tree does not load)."""
    command = [args.btcpp_runner, path, "--ticks", str(ticks or args.ticks)] \
        + program_arguments(args, path)
    paths_out = path + ".paths.txt"
    if rules_path is not None:
        if os.path.exists(paths_out):
            os.remove(paths_out)
        command += ["--substitute", rules_path, "--paths", paths_out]
    try:
        p = subprocess.run(command, capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return {"load": None, "ticks": [("error", [], "timed out")], "raw": "", "paths": None}
    paths = read_paths(paths_out) if rules_path is not None else None
    out = p.stdout.splitlines()
    if out and out[0].startswith("load error: "):
        return {"load": out[0][len("load error: "):], "ticks": [], "raw": p.stdout,
                "paths": None}
    if p.returncode not in (0, 1):
        return {"load": None, "ticks": parse_ticks(out, ()) + [
            ("error", [], f"runner died ({p.returncode}): {p.stderr.strip()[:200]}")],
            "raw": p.stdout + p.stderr, "paths": paths}
    return {"load": None, "ticks": parse_ticks(out, ()), "raw": p.stdout, "paths": paths}


def run_canopy(args, path, ignored=(), rules_path=None):
    command = [args.canopy, "run", path, "--ticks", str(args.ticks), "--blackboard"] \
        + program_arguments(args, path)
    if rules_path is not None:
        command += ["--substitute", rules_path]
    try:
        p = subprocess.run(command, capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return {"load": None, "ticks": [("error", [], "timed out")], "raw": ""}
    if p.returncode == 2:
        sys.exit(f"btcpp_differential: canopy refused its command line: {p.stderr.strip()}")
    errors = [line for line in p.stderr.splitlines() if ": error: " in line]
    ticks = parse_ticks(p.stdout.splitlines(), ignored)
    if p.returncode == 0:
        return {"load": None, "ticks": ticks, "raw": p.stdout + p.stderr}
    tick_error = [line for line in errors if line.startswith("canopy: error: ")]
    if tick_error:  # a tick threw: the run stops there, as the runner's does
        message = tick_error[0][len("canopy: error: "):]
        return {"load": None, "ticks": ticks + [("error", [], message)],
                "raw": p.stdout + p.stderr}
    if p.returncode < 0:
        return {"load": None, "ticks": ticks + [("error", [], f"canopy died ({p.returncode})")],
                "raw": p.stdout + p.stderr}
    first = errors[0] if errors else (p.stderr.strip().splitlines() or ["?"])[0]
    return {"load": first, "ticks": [], "raw": p.stdout + p.stderr}


# BehaviorTree.CPP's TreeObserver keys nodes by path and refuses a tree where two nodes it
# observes have one (two nodes of one name): such a tree's coverage is not compared.
SAME_PATH = "two nodes with one path"


def compare_coverage(args, path, rules_path=None):
    """Runs the tree at path again in both with coverage (under the rules at rules_path, if
    any); None when every node's success and failure counts agree (node i of canopy's preorder
    is BehaviorTree.CPP's UID i + 1), else the first difference. Under rules, the children a
    substituted node leaves dangling are absent from BehaviorTree.CPP's observer: they count
    as never ticked."""
    canopy_out = path + ".coverage.json"
    btcpp_out = path + ".coverage.txt"
    for f in (canopy_out, btcpp_out):
        if os.path.exists(f):
            os.remove(f)
    substitute = ["--substitute", rules_path] if rules_path is not None else []
    subprocess.run([args.canopy, "run", path, "--ticks", str(args.ticks), "--coverage",
                    canopy_out] + substitute + program_arguments(args, path),
                   capture_output=True, text=True, timeout=60)
    theirs_run = subprocess.run([args.btcpp_runner, path, "--ticks", str(args.ticks),
                                 "--coverage", btcpp_out] + substitute
                                + program_arguments(args, path),
                                capture_output=True, text=True, timeout=60)
    if "TreeObserver not built correctly" in theirs_run.stderr:
        return SAME_PATH
    if not os.path.exists(canopy_out) or not os.path.exists(btcpp_out):
        return "a run wrote no coverage"
    with open(canopy_out) as f:
        nodes = json.load(f)["nodes"]
    theirs = {}
    with open(btcpp_out) as f:
        for line in f:
            uid, success, failure, _skip, _transitions = (int(x) for x in line.split())
            theirs[uid] = (success, failure)
    if rules_path is None:
        counted_apart = len(theirs) != len(nodes)
    else:
        counted_apart = max(theirs, default=0) > len(nodes)
    if counted_apart:
        return f"{len(nodes)} nodes in canopy, {len(theirs)} in BehaviorTree.CPP"
    unobserved = (0, 0) if rules_path is not None else None  # a dangling child
    for i, node_counts in enumerate(nodes):
        ours = (node_counts["success"], node_counts["failure"])
        if theirs.get(i + 1, unobserved) != ours:
            return (f"node {i} ({node_counts['type']}): canopy success/failure {ours}, "
                    f"BehaviorTree.CPP {theirs.get(i + 1, unobserved)}")
    return None


def rules_path_of(path):
    """Where the rules of the tree at path go: next to it (tree.xml, tree.rules.json)."""
    return os.path.splitext(path)[0] + ".rules.json"


def program_arguments(args, path):
    """The --enum and --set arguments both sides take for the program's values: the keys
    the tree at path names (a program sets the keys its tree uses; Canopy refuses a --set of
    a key the tree lacks, and a smaller tree may lose one)."""
    if not args.program_sets:
        return []
    with open(path) as f:
        named = set(re.findall(r"[A-Za-z_]\w*", re.sub(r"'[^']*'", "", f.read())))
    out = []
    for name, value in ENUMS.items():
        out += ["--enum", f"{name}={value}"]
    for key, value in sorted(args.program_sets.items()):
        if key in named:
            out += ["--set", f"{key}={value}"]
    return out


def run_both(args, xml, path, rules=None):
    """Writes the tree (and its rules, if any) beside path and runs both sides on it."""
    with open(path, "w") as f:
        f.write(xml)
    rules_path = None
    if rules is not None:
        rules_path = rules_path_of(path)
        with open(rules_path, "w") as f:
            f.write(rules_json(rules))
    return (run_canopy(args, path, args.ignored, rules_path),
            run_btcpp(args, path, rules_path))


def tick_lines(t, k):
    status, bb, error = t
    head = f"tick {k}: error: {error}" if status == "error" else f"tick {k}: {status}"
    return [head] + ["  " + line for line in bb]


# ---------------------------------------------------------------------------------------------
# Comparing and classifying


def first_difference(canopy, btcpp):
    """None when they agree, else (tick or 0 for the load verdict)."""
    if (canopy["load"] is None) != (btcpp["load"] is None):
        return 0
    if canopy["load"] is not None:
        return None  # both refuse
    for i in range(max(len(canopy["ticks"]), len(btcpp["ticks"]))):
        c = canopy["ticks"][i] if i < len(canopy["ticks"]) else None
        b = btcpp["ticks"][i] if i < len(btcpp["ticks"]) else None
        if c is None or b is None:
            return i + 1
        if c[0] == "error" and b[0] == "error":
            return None  # both threw in this tick: both runs end here
        if c[0] != b[0] or c[1] != b[1]:
            return i + 1
    return None


def generalise(message, width=80):
    """A message's gist: no file and line, no quoted or bracketed specifics, no numbers."""
    m = re.sub(r"^\S+?:\d+(:\d+)?: (error|warning): ", "", message)
    m = re.sub(r"^Exception in node '[^']*' \[\w+\]: ", "", m)
    if m.startswith("Error in script [") and "] | " in m:
        m = m.split("] | ", 1)[1]  # the script's text, then the message
    condition = re.match(r"^node \d+ \('\w+'\), (\w+): ", m)  # Canopy's, at run time
    if condition:
        m = m[condition.end():]
    m = re.sub(r"^script of '\w+': ", "script: ", m)
    if m.startswith("script '"):
        # Canopy's run-time "script 'TEXT': message": TEXT ends where its quotes pair up.
        end = m.find("': ", 8)
        while end != -1 and m[8:end].count("'") % 2:
            end = m.find("': ", end + 1)
        if end != -1:
            m = "script: " + m[end + 3:]
    if condition:
        m = f"{condition.group(1)}: {m}"
    m = re.sub(r"'[^']*'", "'…'", m)
    m = re.sub(r"\[[^\]]*\]", "[…]", m)
    m = re.sub(r"\(at column \d+ of the script\)", "", m)
    m = re.sub(r"-?\d+(\.\d+)?", "N", m)
    m = re.sub(r"\b(an integer|a number|a string|a boolean)\b", "a TYPE", m).strip()
    return m if len(m) <= width else m[: width - 1] + "…"


def shape(value):
    if value in ("true", "false"):
        return "boolean"
    if re.fullmatch(r"-?\d+", value):
        return "integer"
    if re.fullmatch(r"-?(\d+\.?\d*(e[-+]?\d+)?|inf|nan)", value):
        return "real"
    if value.startswith("'"):
        return "string with %f" if re.search(r"\d\.\d{6}", value) else "string"
    return "other"


def classify(canopy, btcpp, tick):
    """A category, and the detail of this instance."""
    if tick == 0:
        if canopy["load"] is not None:
            # Canopy checks at load what BT.CPP finds when a script runs: does it run one?
            throws = [i + 1 for i, t in enumerate(btcpp["ticks"]) if t[0] == "error"]
            then = f"btcpp throws at tick {throws[0]}" if throws else "btcpp runs"
            return (f"canopy refuses at load, {'btcpp throws later' if throws else then}: "
                    f"{generalise(canopy['load'])}", f"{canopy['load']} ({then})")
        return f"btcpp refuses at load: {generalise(btcpp['load'])}", btcpp["load"]
    i = tick - 1
    c = canopy["ticks"][i] if i < len(canopy["ticks"]) else ("missing", [], None)
    b = btcpp["ticks"][i] if i < len(btcpp["ticks"]) else ("missing", [], None)
    if c[0] == "error":
        return f"error only in canopy: {generalise(c[2])}", c[2]
    if b[0] == "error":
        return f"error only in btcpp: {generalise(b[2])}", b[2]
    cv = dict(line[3:].split("=", 1) for line in c[1])
    bv = dict(line[3:].split("=", 1) for line in b[1])
    only_c = sorted(set(cv) - set(bv))
    only_b = sorted(set(bv) - set(cv))
    if only_c:
        return "blackboard differs: keys only in canopy", \
            ", ".join(f"{k}={cv[k]}" for k in only_c)
    if only_b:
        return "blackboard differs: keys only in btcpp", \
            ", ".join(f"{k}={bv[k]}" for k in only_b)
    for key in sorted(cv):
        if cv[key] != bv[key]:
            sc, sb = shape(cv[key]), shape(bv[key])
            what = f"{sc} vs {sb}" if sc != sb else f"other {sc}"
            return f"value differs: {what}", f"{key}={cv[key]} vs {key}={bv[key]}"
    return f"status differs: canopy {c[0]} vs btcpp {b[0]}", f"{c[0]} vs {b[0]}"


# ---------------------------------------------------------------------------------------------
# Shrinking


def names_in(n, skip_init=True):
    found = set()
    if not (skip_init and n["attrs"].get("init")):
        for k, v in n["attrs"].items():
            if k not in ("init", "name") and isinstance(v, str):
                found |= set(re.findall(r"[A-Za-z_]\w*", re.sub(r"'[^']*'", "", v)))
    for c in n["children"]:
        found |= names_in(c, skip_init)
    return found


def has_init(n):
    return bool(n["attrs"].get("init")) or any(has_init(c) for c in n["children"])


TOKEN = re.compile(r"\s*('[^']*'|\d+\.\d+|\d+|[A-Za-z_@]\w*|:=|\+=|-=|\*=|/=|==|!=|<=|>=|"
                   r"&&|\|\||\.\.|\S)")
BINARY = {"+", "-", "*", "/", "..", "&", "|", "^", "&&", "||", "<", ">", "<=", ">=", "==", "!="}


def is_atom(token):
    return token[0] in "'_@" or token[0].isalnum()


def simpler_scripts(text):
    """The script with one binary operator and an atom beside it gone, or () round an atom."""
    tokens = TOKEN.findall(text)
    seen = set()
    for i, t in enumerate(tokens):
        cut = None
        if t in BINARY and 0 < i < len(tokens) - 1:
            if is_atom(tokens[i + 1]):
                cut = tokens[:i] + tokens[i + 2:]
                if cut and " ".join(cut) not in seen:
                    seen.add(" ".join(cut))
                    yield " ".join(cut)
            if is_atom(tokens[i - 1]) and (i < 2 or tokens[i - 2] not in ("-", "!", "~")):
                cut = tokens[:i - 1] + tokens[i + 1:]
        elif t == "(" and i + 2 < len(tokens) and tokens[i + 2] == ")" and is_atom(tokens[i + 1]):
            cut = tokens[:i] + [tokens[i + 1]] + tokens[i + 3:]
        if cut and " ".join(cut) not in seen:
            seen.add(" ".join(cut))
            yield " ".join(cut)


def min_children(n):
    return 2 if n["type"] in ("IfThenElse", "WhileDoElse") else 1


def smaller(n, used):
    """Trees one step smaller than n (used: the names the whole tree's other scripts use)."""
    children = n["children"]
    if not n["attrs"].get("init"):
        for c in children:
            yield c
        if children or n["attrs"]:
            for leaf in ("AlwaysSuccess", "AlwaysFailure"):
                if n["type"] != leaf:
                    yield node(leaf)
    if len(children) > min_children(n):
        for i in range(len(children)):
            yield dict(n, children=children[:i] + children[i + 1:])
    for k in list(n["attrs"]):
        if k in PRE + POST or k in ("else", "then_skip", "success_count", "failure_count",
                                    "name"):
            attrs = dict(n["attrs"])
            del attrs[k]
            yield dict(n, attrs=attrs)
    for k in ("if", "code") + tuple(PRE):
        # A condition made a constant (a ScriptCondition's last statement).
        v = n["attrs"].get(k)
        if not v or (k == "code" and n["type"] != "ScriptCondition"):
            continue
        head, _, last = v.rpartition(";")
        for constant in ("true", "false"):
            if last.strip() != constant:
                attrs = dict(n["attrs"])
                attrs[k] = (head + "; " if head else "") + constant
                yield dict(n, attrs=attrs)
    for k in ("code", "if") + tuple(PRE + POST):
        v = n["attrs"].get(k)
        if not v or ";" not in v:
            continue
        parts = [p.strip() for p in v.split(";")]
        for i in range(len(parts)):
            if n["type"] == "ScriptCondition" and i == len(parts) - 1:
                continue
            if n["attrs"].get("init"):
                made = re.match(r"\s*(\w+)", parts[i]).group(1)
                if made in used:
                    continue  # keep making a key the tree reads
            attrs = dict(n["attrs"])
            attrs[k] = "; ".join(parts[:i] + parts[i + 1:])
            yield dict(n, attrs=attrs)
    for k in ("if", "code") + tuple(PRE + POST):
        v = n["attrs"].get(k)
        if not v or n["attrs"].get("init"):
            continue
        for text in simpler_scripts(v):
            attrs = dict(n["attrs"])
            attrs[k] = text
            yield dict(n, attrs=attrs)
    for i, c in enumerate(children):
        for s in smaller(c, used):
            yield dict(n, children=children[:i] + [s] + children[i + 1:])


def shrink(root, args, path, category, rules=None):
    """The smallest tree (and, with rules, the fewest rules) found that still disagrees in the
    same category. A smaller tree keeps the rules, which may then match other nodes or none;
    one where a node matches two of them is passed over."""
    init = has_init(root)
    changed = True
    runs = 0

    def candidates():
        used = names_in(root) | (rule_keys(rules) if rules else set())
        for tree in smaller(root, used):
            if not init or has_init(tree):
                yield tree, rules
        if rules:
            for fewer in smaller_rules(rules):
                yield root, fewer

    while changed and runs < args.shrink_runs:
        changed = False
        for tree, tree_rules in candidates():
            runs += 1
            canopy, btcpp = run_both(args, xml_of(tree), path, tree_rules)
            tick = first_difference(canopy, btcpp)
            ambiguous = tree_rules is not None and btcpp["paths"] is not None \
                and overlapping(tree_rules, btcpp["paths"])
            if not ambiguous and tick is not None \
                    and classify(canopy, btcpp, tick)[0] == category:
                root, rules, changed = tree, tree_rules, True
                break
            if runs >= args.shrink_runs:
                break
    return root, rules


# ---------------------------------------------------------------------------------------------


def show_outputs(canopy, btcpp, upto):
    out = []
    for name, side in (("canopy", canopy), ("btcpp", btcpp)):
        if side["load"] is not None:
            out.append(f"    {name}: load error: {side['load']}")
            continue
        lines = []
        for i, t in enumerate(side["ticks"][:upto]):
            lines += tick_lines(t, i + 1)
        out.append(f"    {name}:" + "".join("\n      " + line for line in lines))
    return "\n".join(out)


def save_tree(out, n, suffix, xml, rules):
    """tree-NNNN{suffix}.xml in out, and its rules beside it (tree-NNNN{suffix}.rules.json)."""
    path = os.path.join(out, f"tree-{n:04d}{suffix}.xml")
    with open(path, "w") as f:
        f.write(xml)
    if rules is not None:
        with open(rules_path_of(path), "w") as f:
            f.write(rules_json(rules))


def registry_keys(args, out):
    """The keys Canopy's CLI prints for a tree that makes none: its registry's own."""
    path = os.path.join(out, "empty.xml")
    with open(path, "w") as f:
        f.write(xml_of(node("AlwaysSuccess")))
    result = run_canopy(args, path)
    os.remove(path)
    if result["load"] is not None or not result["ticks"]:
        sys.exit(f"btcpp_differential: canopy cannot run a lone AlwaysSuccess: {result}")
    return {line[3:].split("=", 1)[0] for line in result["ticks"][0][1]}


def snapshot_canopy(canopy, out):
    """A copy of the canopy program that answers --version: one Canopy for the whole run, even
    while the build directory's is being rebuilt. Waits a while for one that is being linked."""
    copy = os.path.join(os.path.abspath(out), "canopy-snapshot")
    for attempt in range(20):
        try:
            shutil.copy2(canopy, copy)
            p = subprocess.run([copy, "--version"], capture_output=True, text=True, timeout=30)
            if p.returncode == 0:
                return copy, p.stdout.strip()
        except (OSError, subprocess.SubprocessError):
            pass
        if attempt == 0:
            print(f"waiting for a canopy program at {canopy} that runs...", flush=True)
        time.sleep(15)
    skip(f"no canopy program that runs at {canopy}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--canopy", default="build/debug/tools/canopy/canopy")
    parser.add_argument("--btcpp-runner", help="the built scripts/btcpp_runner.cpp")
    parser.add_argument("--btcpp-prefix",
                        help="a BehaviorTree.CPP 4.10 build directory or install prefix: builds "
                        "the runner into --out")
    parser.add_argument("--btcpp-src", help="BehaviorTree.CPP's sources, for the headers of a "
                        "build directory (default: read from its CMakeCache.txt)")
    parser.add_argument("--trees", type=int, default=300)
    parser.add_argument("--ticks", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="build/btcpp-diff")
    parser.add_argument("--no-shrink", action="store_true")
    parser.add_argument("--shrink-runs", type=int, default=400,
                        help="at most this many runs of both sides to shrink one tree")
    parser.add_argument("--mixed", action="store_true",
                        help="mixed and wrongly typed operators, reads of keys not yet made")
    parser.add_argument("--untyped-ports", action="store_true",
                        help="SetBlackboard nodes carrying text into keys, counts from keys")
    parser.add_argument("--only", type=int, help="run tree N of the seed alone")
    parser.add_argument("--no-snapshot", action="store_true",
                        help="run --canopy itself, not a copy made at the start (a copy keeps "
                        "one Canopy for the whole run while its build directory is rebuilt)")
    parser.add_argument("--quiet", action="store_true",
                        help="one line per disagreeing tree, no shrunk trees printed")
    parser.add_argument("--coverage", action="store_true",
                        help="also compare, on each tree both run alike, every node's success "
                             "and failure counts: canopy run --coverage against "
                             "BehaviorTree.CPP's TreeObserver (the runner's --coverage)")
    parser.add_argument("--program-keys", action="store_true",
                        help="the program sets keys before the first tick (integers, doubles, "
                        "strings, a boolean, an enum whose names it registers): canopy run "
                        "--set/--enum, the runner's --set/--enum")
    parser.add_argument("--substitute", action="store_true",
                        help="run each tree under 1 to 4 random substitution rules (canopy run "
                        "--substitute, loadSubstitutionRuleFromJSON in BehaviorTree.CPP)")
    args = parser.parse_args()
    args.program_sets = {}  # --program-keys: the tree's key -> --set VALUE

    os.makedirs(args.out, exist_ok=True)
    for name in os.listdir(args.out):  # the trees of an earlier run
        if re.fullmatch(r"tree-\d+(\.small)?(\.rules)?\.(xml|json)", name):
            os.remove(os.path.join(args.out, name))
    if args.btcpp_runner is None:
        if args.btcpp_prefix is None:
            parser.error("give --btcpp-runner PATH or --btcpp-prefix DIR")
        args.btcpp_runner = build_runner(args.btcpp_prefix, args.btcpp_src, args.out)
    if not os.access(args.btcpp_runner, os.X_OK):
        skip(f"no runner program at {args.btcpp_runner}")
    if not os.path.exists(args.canopy):
        skip(f"no canopy program at {args.canopy}")
    if not args.no_snapshot:
        args.canopy, version = snapshot_canopy(args.canopy, args.out)
        print(f"canopy: {version}, copied to {args.canopy}")
    args.ignored = registry_keys(args, args.out)
    if args.ignored:
        print(f"keys of canopy's CLI registry, left out: {', '.join(sorted(args.ignored))}")
    work = os.path.join(args.out, "current.xml")

    flavour = (", mixed" if args.mixed else "") \
        + (", untyped ports" if args.untyped_ports else "") \
        + (", substitution rules" if args.substitute else "") \
        + (", keys the program sets" if args.program_keys else "")
    indices = [args.only] if args.only is not None else range(args.trees)
    agree = 0
    covered = 0
    same_path = 0
    coverage_differs = []
    categories = Counter()
    examples = {}
    for n in indices:
        gen = generator(random.Random(f"{args.seed}:{n}"), args.mixed, args.untyped_ports,
                        args.program_keys)
        root = gen.root()
        args.program_sets = gen.program_sets
        rules = None
        if args.substitute:
            # Its own generator: the same trees as without --substitute, with names added.
            substitution = random.Random(f"{args.seed}:{n}:substitute")
            name_nodes(root, substitution)
            with open(work, "w") as f:
                f.write(xml_of(root))
            plain_paths = runner_paths(args, work)
            rules = make_rules(substitution, plain_paths)
        xml = xml_of(root)
        canopy, btcpp = run_both(args, xml, work, rules)
        if rules is not None and btcpp["paths"] not in (None, plain_paths):
            print(f"tree {n}: the rules change BehaviorTree.CPP's paths; the rules may overlap")
        tick = first_difference(canopy, btcpp)
        if tick is None:
            agree += 1
            # A run that ends in an error writes no coverage: only runs of every tick compare.
            ran_through = all(t[0] != "error" for t in canopy["ticks"])
            if args.coverage and canopy["load"] is None and ran_through:
                covered += 1
                mismatch = compare_coverage(
                    args, work, rules_path_of(work) if rules is not None else None)
                if mismatch == SAME_PATH:
                    covered -= 1
                    same_path += 1
                elif mismatch:
                    coverage_differs.append((n, mismatch))
                    print(f"tree {n}: coverage differs: {mismatch}")
                    save_tree(args.out, n, "", xml, rules)
            continue
        category, detail = classify(canopy, btcpp, tick)
        categories[category] += 1
        examples.setdefault(category, n)
        where = "load" if tick == 0 else f"tick {tick}"
        print(f"tree {n}: differs at {where}: {category}\n  ({detail})")
        report = {"tree": xml, "first_tick": tick, "category": category, "detail": detail,
                  "canopy": canopy["raw"], "btcpp": btcpp["raw"]}
        if args.program_sets:
            report["program"] = program_arguments(args, work)
            if not args.quiet:
                print("  program: " + " ".join(report["program"]))
        if rules is not None:
            report["rules"] = json.loads(rules_json(rules))
        save_tree(args.out, n, "", xml, rules)
        if not args.quiet and rules is not None:
            print("  rules: " + json.dumps(json.loads(rules_json(rules))))
        if not args.quiet and tick > 0:
            c = canopy["ticks"][tick - 1] if tick - 1 < len(canopy["ticks"]) else None
            b = btcpp["ticks"][tick - 1] if tick - 1 < len(btcpp["ticks"]) else None
            for name, t in (("canopy", c), ("btcpp", b)):
                lines = tick_lines(t, tick) if t else ["(no tick)"]
                print(f"  {name}: " + "".join("\n    " + line for line in lines))
        if not args.no_shrink:
            small, small_rules = shrink(root, args, work, category, rules)
            small_xml = xml_of(small)
            canopy, btcpp = run_both(args, small_xml, work, small_rules)
            small_tick = first_difference(canopy, btcpp)
            report["smallest"] = {"tree": small_xml, "first_tick": small_tick,
                                  "canopy": canopy["raw"], "btcpp": btcpp["raw"]}
            if small_rules is not None:
                report["smallest"]["rules"] = json.loads(rules_json(small_rules))
            save_tree(args.out, n, ".small", small_xml, small_rules)
            if not args.quiet:
                print("  smallest:\n" + "\n".join("    " + line
                                                  for line in body_of(small_xml).splitlines()))
                if small_rules is not None:
                    print("  with rules: " + json.dumps(json.loads(rules_json(small_rules))))
                if small_tick == 0:  # the load verdicts: BT.CPP's first ticks are enough
                    errors = [i + 1 for i, t in enumerate(btcpp["ticks"]) if t[0] == "error"]
                    small_tick = errors[0] if errors else 2
                print(show_outputs(canopy, btcpp, small_tick or args.ticks))
        with open(os.path.join(args.out, f"tree-{n:04d}.json"), "w") as f:
            json.dump(report, f, indent=1)
        sys.stdout.flush()
    for leftover in (work, rules_path_of(work), work + ".paths.txt"):
        if os.path.exists(leftover):
            os.remove(leftover)
    total = len(indices)
    print(f"agree: {agree} / {total} (seed {args.seed}, {args.ticks} ticks{flavour})")
    if args.coverage:
        print(f"coverage: {covered - len(coverage_differs)} / {covered} trees that run alike "
              "to the last tick agree on every node's success and failure counts")
        if same_path:
            print(f"  ({same_path} more left out: two nodes of one name, which "
                  "BehaviorTree.CPP's TreeObserver refuses)")
    if categories:
        width = max(len(c) for c in categories)
        print(f"\n{'category':<{width}}  count  first tree")
        for category, count in categories.most_common():
            print(f"{category:<{width}}  {count:>5}  {examples[category]}")


if __name__ == "__main__":
    main()
