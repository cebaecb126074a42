#!/usr/bin/env python3
"""Checks that a run saved with `canopy run --save-state` and resumed goes on as if unbroken.

Usage:
    scripts/snapshot_resume_check.py [--canopy build/snap/tools/canopy/canopy] [--trees 300]
        [--seed 1] [--out build/snapshot-resume] [--families btcpp,behavior3,flat]
        [--jobs N] [--only N] [--max-skipped PERCENT] [--memory-limit GIB]

For each family, --trees random trees (tree N from --seed, the family and N alone, so --only N
makes it again):

- btcpp: BehaviorTree.CPP 4 XML with scripts, from scripts/btcpp_differential.py's generator,
  now and then with its --mixed, --untyped-ports or --program-keys flavours (the program's
  keys given to every run as `--enum`/`--set`). Its first Script, which makes the keys, mostly
  runs once (under a RunOnce), so that values carry from tick to tick; a statement that could
  double a string at every tick adds a letter instead;
- behavior3: nested behavior3 JSON, from scripts/behavior3_differential.py's generator, now
  and then with its --between-ticks, --arrays or --typed-expressions flavours. Its `Scripted`
  leaf belongs to that script's runners: each becomes the built-in leaf nearest its first
  statuses. Its variables start at small numbers (`--set`), as its runners start them at 0;
- flat: Canopy's flat JSON (docs/formats.md) made of every built-in node type `canopy types`
  lists (the `behavior3.` family included), with timers, counts, loops over queues and
  arrays, scripts and condition attributes, blackboard nodes, events the run posts
  (`--event`), now and then a subtree or a demo pack's leaves (whose world is saved too).

Each tree runs for TOTAL ticks (20 to 30) of a --dt that timers meet both on and between
ticks, with --trace and --blackboard, in three processes: once whole, and split at a tick K
drawn from [0, TOTAL): `--ticks K --save-state S`, then `--ticks TOTAL-K --resume S`. The
per-tick lines of the two parts (stdout before the summary, and stderr's `tick N:` lines) must
be those of the whole run, and a run that stops on an error must stop at the same point with
the same error. `canopy run` refuses `--ticks 0`; while it does, K is drawn from [1, TOTAL).

A tree the CLI refuses to load, or whose values outgrow --memory-limit or 32 MB of output, is
skipped and counted; more than --max-skipped percent of a family skipped is a failure, as the
trees are meant to run. For each disagreement it prints the tree's file, the split, the
commands and the first line that differs, and keeps the runs' outputs and the snapshot beside
the tree in --out/FAMILY/. It runs a copy of --canopy made in --out at the start, so that a
rebuild meanwhile changes nothing. At the end, per family: `btcpp: 300/300 agree (0 skipped;
split while the root ran: 20)`, the last figure being the splits whose snapshot holds a
running tree. Exit 1 on any disagreement, any run that crashed, hung or ended otherwise than
the whole one, or too many skipped.
"""

import argparse
import concurrent.futures
import json
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import time
import types

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import behavior3_differential as behavior3  # noqa: E402
import btcpp_differential as btcpp  # noqa: E402

FAMILIES = ["btcpp", "behavior3", "flat"]
TIMEOUT = 60  # seconds for one run: no generated tree should take more than a fraction
MAX_OUTPUT = 32 << 20  # bytes of a run's output read back

# ---------------------------------------------------------------------------------------------
# What a run prints: per-tick lines, then the summary (run_command.cpp's print_summary).

SUMMARY = [re.compile(p) for p in (
    r"agents: \d+",
    r"ticks: \d+",
    r"node visits: \d+ by agent 0( \(the others are not observed\))?",
    r"time: [0-9.]+ ms ticking \((no ticks|[0-9.]+ ns per agent tick)\)",
    r"bytes per agent: \d+ \(agent \d+ \+ state block \d+\)( \+ host \d+ \(\w+ world\))?",
    r"agent 0's world: .*",
    r"  \S[^:]*:.*",  # a summary's indented lines (coverage's, when asked)
)]
TICK_ON_STDERR = re.compile(r": tick \d+: ")
FATAL = "canopy: error: "


def tick_lines(stdout):
    """stdout without the summary, which only a run that ends normally prints, last. It starts
    at a line `agents: N` followed by `ticks: N`; every line after them must be a summary's,
    else the lines are kept whole (and will show up as a difference)."""
    lines = stdout.splitlines()
    for i in range(len(lines) - 2, -1, -1):
        if SUMMARY[0].fullmatch(lines[i]) and SUMMARY[1].fullmatch(lines[i + 1]):
            if all(any(p.fullmatch(line) for p in SUMMARY) for line in lines[i:]):
                return lines[:i]
            break
    return lines


class run_result:
    """One process's exit code and output, sorted: per-tick lines (stdout's, then stderr's
    `tick N:` lines kept apart), the fatal error if any, and stderr's other lines."""

    def __init__(self, command, returncode, stdout, stderr, hung=False):
        self.command = command
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr
        self.hung = hung
        self.lines = tick_lines(stdout)
        err = stderr.splitlines()
        # What main() prints last, for an exception out of the run: its message may hold
        # several lines.
        fatal = next((i for i, line in enumerate(err) if line.startswith(FATAL)), len(err))
        self.fatal = err[fatal:]
        self.tick_errors = [line for line in err[:fatal] if TICK_ON_STDERR.search(line)]
        self.other_errors = [line for line in err[:fatal] if not TICK_ON_STDERR.search(line)]

    def crashed(self):
        return self.hung or self.returncode < 0 or self.returncode > 2

    def refused_to_load(self):
        """Exit 1 before any tick: a load diagnostic or a tree the CLI cannot run."""
        return (self.returncode == 1 and not self.fatal and not self.stdout.strip()
                and any(": error: " in line for line in self.other_errors))

    def describe(self):
        if self.hung:
            return f"hung (more than {TIMEOUT} s)"
        if self.returncode < 0:
            return f"killed by signal {-self.returncode}"
        if self.returncode == 0:
            return "exit 0"
        errors = [line for line in self.other_errors if ": error: " in line]
        first = (self.fatal or errors or self.other_errors or [""])[0]
        return f"exit {self.returncode}" + (f": {first}" if first else "")


def run(canopy, path, ticks, options, extra=()):
    """Runs canopy on the tree at path. Its stdout goes through a file and is read back only up
    to MAX_OUTPUT: a tree whose values grow at every tick may print gigabytes."""
    command = [canopy, "run", path, "--ticks", str(ticks), "--trace", "--blackboard"] \
        + options + list(extra)
    output = path + ".out"
    hung = False
    with open(output, "wb") as out:
        try:
            p = subprocess.run(command, stdout=out, stderr=subprocess.PIPE, timeout=TIMEOUT)
            returncode, err = p.returncode, p.stderr
        except subprocess.TimeoutExpired as e:
            returncode, err, hung = -1, e.stderr or b"", True
    size = os.path.getsize(output)
    with open(output, "rb") as f:
        text = f.read(MAX_OUTPUT).decode(errors="replace")
    os.remove(output)
    result = run_result(command, returncode, text, err[:MAX_OUTPUT].decode(errors="replace"),
                        hung)
    result.too_big = size > MAX_OUTPUT or any("bad_alloc" in line for line in result.fatal)
    return result


# ---------------------------------------------------------------------------------------------
# Trees. Each maker returns a case: the file's text and extension, the options every run of it
# takes (--dt, --seed, --set, --event ...) and the number of ticks.


class case:
    def __init__(self, text, extension, options, total):
        self.text = text
        self.extension = extension
        self.options = options
        self.total = total
        # btcpp --program-keys: key -> the value the program sets, for the keys the file names
        self.program = None
        self.used = set()  # the node types of a flat tree


def btcpp_case(seed, n):
    flavour = random.Random(f"{seed}:btcpp:{n}")
    mixed = flavour.random() < 0.2
    untyped = flavour.random() < 0.4
    program = flavour.random() < 0.3
    # The generator's own stream, as btcpp_differential.py seeds tree N.
    gen = btcpp.generator(random.Random(f"{seed}:{n}"), mixed, untyped, program)
    root = gen.root()
    with_linear_strings(root)
    first = root["children"][0] if root["children"] else None
    if first is not None and first["attrs"].get("init") and flavour.random() < 0.7:
        # The first Script makes the keys anew at every tick: run once, it lets the values
        # the tree writes carry from tick to tick, and so through the snapshot.
        root["children"][0] = btcpp.node("RunOnce", [first], then_skip="true")
    xml = btcpp.xml_of(root)
    made = case(xml, "xml", ["--dt", "0.1", "--seed", str(flavour.randint(0, 1000))],
                flavour.randint(20, 30))
    made.program = gen.program_sets
    return made


STATEMENT = re.compile(r"\s*(\w+)\s*(:=|\+=|-=|\*=|/=|=)\s*(.*)", re.DOTALL)


def linear_strings(text):
    """A script's statements, with those that could double a string key at every run (`s +=
    s`, `t = t .. s`: two string keys read, counting `+=`'s own) made to add one letter:
    doubling at every tick, a string outgrows memory within the run."""
    statements = []
    for statement in text.split(";"):
        m = STATEMENT.fullmatch(statement)
        if m and m.group(1) in btcpp.STR_KEYS:
            key, op, value = m.groups()
            names = [t for t in btcpp.TOKEN.findall(value) if t in btcpp.STR_KEYS]
            if len(names) + (op == "+=") >= 2:
                statement = f"{key} {':=' if op == ':=' else '='} {key} .. 'x'"
        statements.append(statement.strip())
    return "; ".join(statements)


def with_linear_strings(n):
    for k, v in n["attrs"].items():
        if isinstance(v, str) and (k in ("code", "if") or k in btcpp.PRE + btcpp.POST):
            n["attrs"][k] = linear_strings(v)
    for c in n["children"]:
        with_linear_strings(c)


def btcpp_program_options(made, path):
    # program_arguments names only the keys the tree at path uses (the CLI refuses a --set of
    # a key the tree lacks).
    if not made.program:
        return []
    return btcpp.program_arguments(types.SimpleNamespace(program_sets=made.program), path)


def scripted_stand_in(script, dt):
    """The built-in leaf nearest a `Scripted` leaf's statuses on its first run: the runners'
    leaf cycles through its letters, `canopy run` has no such leaf."""
    running = len(script) - len(script.lstrip("r"))
    rest = script[running:]
    if not rest:
        return {"name": "AlwaysRunning", "children": [{"name": "JustSuccess"}]}
    finish = {"name": "JustSuccess" if rest[0] == "s" else "JustFailure"}
    if running == 0:
        if len(set(rest)) > 1:
            # Changes from tick to tick, as the script does.
            variable = "abc"[len(rest) % 3]
            return {"name": "Check", "args": {"value": f"{variable} < {len(rest) - 1}"}}
        return finish
    # behavior3's Wait runs one tick even for time 0, then one per dt.
    wait = {"name": "Wait", "args": {"time": (running - 1) * dt}}
    if finish["name"] == "JustSuccess":
        return wait
    return {"name": "Invert", "children": [wait]}


def without_scripted(node, dt):
    if node["name"] == "Scripted":
        return scripted_stand_in(node["args"]["script"], dt)
    if "children" not in node:
        return node
    return dict(node, children=[without_scripted(c, dt) for c in node["children"]])


def behavior3_variables(node):
    """The generator's variables the tree names, which its runners start at 0."""
    found = set()
    value = node.get("args", {}).get("value")
    if isinstance(value, str):
        found |= set(re.findall(r"[A-Za-z_]\w*", value))
    for field in ("input", "output"):
        found |= set(node.get(field, []))
    for c in node.get("children", []):
        found |= behavior3_variables(c)
    return found & set(behavior3.VARS)


def behavior3_case(seed, n):
    flavour = random.Random(f"{seed}:behavior3:{n}")
    typed = flavour.random() < 0.5
    between = flavour.random() < 0.4
    arrays = flavour.random() < 0.4
    dt = flavour.choice([0.25, 0.5, 0.5])  # the generator's times are multiples of 0.5
    gen = behavior3.generator(f"{seed}:{n}", typed, between, arrays)
    root = without_scripted(gen.root(), dt)
    document = behavior3.numbered(root)
    options = ["--dt", str(dt), "--seed", str(flavour.randint(0, 1000))]
    for variable in sorted(behavior3_variables(root)):
        # Its runners start them at 0; other small numbers make more of the tree's tests
        # and sums tell ticks apart.
        options += ["--set", f"{variable}={flavour.choice([0, 0, 1, 2, 0.5])}"]
    return case(json.dumps(document, indent=1) + "\n", "json", options,
                flavour.randint(20, 30))


# Canopy's flat JSON. Keys every tree declares: each node's parameters pick among them by type.
FLAT_KEYS = {
    "n": {"type": "integer", "default": 0},
    "m": {"type": "integer", "default": 2},
    "x": {"type": "number", "default": 0.5},
    "flag": {"type": "boolean", "default": False},
    "s": {"type": "string", "default": "a"},
    "qi": {"type": "queue<integer>", "default": "1;2;3"},
    "qd": {"type": "queue<number>", "default": "0.5;1.5"},
    "qs": {"type": "queue<string>", "default": "a;b;c"},
    "qb": {"type": "queue<boolean>", "default": "true;false"},
    "j": {"type": "json", "default": "[1,2]"},
    "o": {"type": "json", "default": "{\"k\":1}"},
    "v": {"type": "json"},
    "u": {"type": "json"},
    "w": {"type": "number"},
}
EVENTS = ["ping", "pong"]
TREE_EVENTS = ["treeBeforeTicked", "treeAfterTicked", "treeTickedSuccess", "treeTickedFailure"]
STATUSES = ["SUCCESS", "FAILURE", "RUNNING", "SKIPPED"]
PRE = ["_failureIf", "_successIf", "_skipIf", "_while"]
POST = ["_onSuccess", "_onFailure", "_onHalted", "_post"]
DEMO_PACKS = [
    ["CoinNearby", "PickUpCoin", "LongTimeNoCoin", "LongAwayFromOwner", "GoToOwner", "Wander"],
    ["Evade", "AssassinDash", "QuickMove", "RangedAttack", "AggressiveAttack"],
    ["ChangeColour"],
]


class flat_generator:
    """A random tree of Canopy's built-ins, as nested {"type", "params", "children"}."""

    def __init__(self, rng):
        self.rng = rng
        self.demo = rng.choice(DEMO_PACKS) if rng.random() < 0.25 else None
        self.events = rng.random() < 0.5
        self.used = set()
        self.in_loop = False  # under a ForEach over j

    def chance(self, p):
        return self.rng.random() < p

    # -- scripts (BehaviorTree.CPP's language) and behavior3 expressions ----------------------

    def statement(self):
        return self.rng.choice([
            "n += 1", "n += 1", "n = n + m", "m -= 1", "m = (n & 3)", "n = 0",
            "x += 0.25", "x = x * 1.5", "x = n > 2 ? x : 0.5", "flag = !flag",
            "flag = n > m", "s = s .. 'b'", "s = n > 2 ? 'big' : 'small'", "s = 'a'",
        ])

    def script(self):
        return "; ".join(self.statement() for _ in range(self.rng.randint(1, 2)))

    def condition(self):
        return self.rng.choice([
            "n > 2", "n < 3", "(n & 1) == 0", "n == m", "flag", "!flag", "x < 2.0",
            "x >= 1.0", "s == 'a'", "s != 'big'", "n > 1 && !flag", "m < 0 || n > 4",
        ])

    def expression(self):
        return self.rng.choice([
            "x > 1", "n > 2", "x + n > 3", "j.length > 3", "n % 2 == 0", "x * 2 < n",
            "w > 1", "n - m", "x", "!flag",
        ])

    def seconds(self, top=1.0):
        # Multiples of 0.1 against a dt of 0.1, 0.25 or 0.3: on and between ticks.
        return round(self.rng.randint(0, int(top * 10)) * 0.1, 1)

    # -- nodes -------------------------------------------------------------------------------

    def node(self, type_, children=(), **params):
        self.used.add(type_)
        return {"type": type_, "params": params, "children": list(children)}

    def conditions(self, n):
        if not self.chance(0.15):
            return
        name = self.rng.choice(PRE + POST)
        n["params"][name] = self.condition() if name in PRE else self.script()

    def subtrees(self, depth, count):
        return [self.tree(depth + 1) for _ in range(count)]

    def leaf(self):
        r = self.rng
        if self.demo and self.chance(0.3):
            kind = r.choice(self.demo)
            if kind == "AggressiveAttack" and self.chance(0.5):
                return self.node(kind, strikes=r.randint(1, 3))
            return self.node(kind)
        kind = r.choice([
            "AlwaysSuccess", "AlwaysFailure", "AlwaysRunning", "Wait", "Wait", "WaitTicks",
            "WaitTicks", "Log", "CheckBlackboard", "SetBlackboard", "Script", "Script",
            "ScriptCondition", "ScriptCondition", "UnsetBlackboard", "WasEntryUpdated",
            "behavior3.Wait", "behavior3.Wait", "behavior3.WaitForEvent", "behavior3.Check",
            "behavior3.Calculate", "behavior3.Let", "behavior3.Now", "behavior3.Math",
            "behavior3.IsNull", "behavior3.NotNull", "behavior3.Clear", "behavior3.Push",
            "behavior3.Index", "behavior3.GetField", "behavior3.SetField", "behavior3.Concat",
            "behavior3.RandomIndex", "behavior3.Includes",
        ])
        if kind == "AlwaysRunning" and self.chance(0.7):
            kind = "WaitTicks"  # running for ever ends most trees' story at once
        if kind == "Wait":
            return self.node(kind, seconds=self.seconds() if self.chance(0.9) else "{x}")
        if kind == "WaitTicks":
            return self.node(kind, ticks=r.randint(0, 4))
        if kind == "Log":
            params = {"message": r.choice(["hello", "{s}", ""])}
            if self.chance(0.5):
                params["input1"] = r.choice(["{n}", "{x}", "{j}"])
            return self.node(kind, **params)
        if kind == "CheckBlackboard":
            key, op, value = r.choice([
                ("n", r.choice(["==", "!=", "<", "<=", ">", ">="]), r.randint(0, 4)),
                ("x", r.choice(["<", ">="]), r.choice([0.5, 1.0, 2.0])),
                ("s", r.choice(["==", "!="]), r.choice(["a", "big", "ab"])),
                ("flag", "==", r.choice([True, False])),
                ("n", "<", "{m}"),
            ])
            return self.node(kind, key=key, op=op, value=value)
        if kind == "SetBlackboard":
            key, value = r.choice([("n", r.randint(0, 4)), ("x", 1.5), ("s", "big"),
                                   ("flag", True), ("m", "{n}"), ("qi", "4;5")])
            return self.node(kind, key=key, value=value)
        if kind == "Script":
            return self.node(kind, code=self.script())
        if kind == "ScriptCondition":
            return self.node(kind, code=self.condition())
        if kind == "UnsetBlackboard":
            return self.node(kind, key=r.choice(["n", "x", "s", "flag", "v", "w"]))
        if kind == "WasEntryUpdated":
            return self.node(kind, entry=r.choice(["n", "x", "s", "flag"]))
        if kind == "behavior3.Wait":
            params = {"time": self.seconds()}
            if self.chance(0.3):
                params["random"] = self.seconds(0.5)  # drawn from the agent's generator
            return self.node(kind, **params)
        if kind == "behavior3.WaitForEvent":
            return self.node(kind, event=r.choice(EVENTS))
        if kind == "behavior3.Check":
            return self.node(kind, value=self.expression())
        if kind == "behavior3.Calculate":
            return self.node(kind, value=r.choice(["x + 1", "n * 2 + x", "w + 0.5", "x - n"]),
                             output1=r.choice(["{x}", "{w}", "{v}"]))
        if kind == "behavior3.Let":
            return self.node(kind, value=r.choice([1.5, 3, "{x}", "{j}"]),
                             output1=r.choice(["{w}", "{v}"]))
        if kind == "behavior3.Now":
            return self.node(kind, output1=r.choice(["{w}", "{v}"]))
        if kind == "behavior3.Math":
            op, params = r.choice([
                ("max", {"value1": "{x}", "value2": 1}), ("floor", {"value1": "{x}"}),
                ("randInt", {"value1": 0, "value2": 5}), ("random", {}),
                ("sum", {"input1": "{x}", "input2": "{n}", "input3": "{w}"}),
                ("pow", {"value1": 2, "value2": "{m}"}),
            ])
            return self.node(kind, op=op, output1=r.choice(["{w}", "{v}"]), **params)
        if kind in ("behavior3.IsNull", "behavior3.NotNull"):
            return self.node(kind, input1=r.choice(["{v}", "{w}", "{x}"]))
        if kind == "behavior3.Clear":
            return self.node(kind, output1=r.choice(["{v}", "{w}"]))
        if kind == "behavior3.Push" and self.in_loop:
            # A ForEach goes on over the elements a Push adds: j would double at every tick.
            kind = "behavior3.Includes"
        if kind == "behavior3.Push":
            return self.node(kind, input1="{j}", input2=r.choice(["{x}", "{n}", "{s}"]))
        if kind == "behavior3.Index":
            return self.node(kind, input1="{j}", index=r.randint(0, 3), output1="{v}")
        if kind == "behavior3.GetField":
            return self.node(kind, input1="{o}", field=r.choice(["k", "z"]), output1="{v}")
        if kind == "behavior3.SetField":
            return self.node(kind, input1="{o}", field=r.choice(["k", "z"]),
                             value=r.choice([2, "{x}", "{n}"]))
        if kind == "behavior3.Concat":
            # Into v, not j: j + j into j, each tick, would double it every tick.
            return self.node(kind, input1="{j}", input2="{j}", output1="{v}")
        if kind == "behavior3.RandomIndex":
            return self.node(kind, input1="{j}", output1="{v}")
        if kind == "behavior3.Includes":
            return self.node(kind, input1="{j}", input2=r.choice(["{x}", "{n}"]))
        return self.node(kind)

    def composite(self, depth):
        r = self.rng
        kind = r.choice([
            "Sequence", "Selector", "ReactiveSequence", "ReactiveSelector", "Parallel",
            "RandomSelector", "SequenceWithMemory", "ParallelAll", "AsyncSequence",
            "AsyncFallback", "IfThenElse", "WhileDoElse", "Switch2", "Switch3", "Switch4",
            "Switch5", "Switch6", "Switch", "PipelineSequence", "RoundRobin", "RecoveryNode",
            "TryCatch", "behavior3.Parallel", "behavior3.Switch", "behavior3.Watchdog",
        ])
        if kind in ("IfThenElse", "WhileDoElse"):
            return self.node(kind, [self.condition_node()] + self.subtrees(depth, r.randint(1, 2)))
        if kind.startswith("Switch"):
            cases = int(kind[6:]) if kind != "Switch" else r.randint(1, 3)
            if self.chance(0.6):
                variable, values = "n", [str(v) for v in range(6)]
            else:
                variable, values = "s", ["a", "ab", "big", "small", "abb", "x"]
            chosen = r.sample(values, cases)
            params = {"variable": variable if self.chance(0.5) else "{" + variable + "}"}
            if kind == "Switch":
                params["cases"] = ";".join(chosen)
            else:
                for i, value in enumerate(chosen):
                    params[f"case_{i + 1}"] = value
            return self.node(kind, self.subtrees(depth, cases + 1), **params)
        if kind == "RecoveryNode":
            return self.node(kind, self.subtrees(depth, 2), number_of_retries=r.randint(0, 2))
        if kind == "TryCatch":
            params = {"catch_on_halt": r.choice([True, False])} if self.chance(0.6) else {}
            return self.node(kind, self.subtrees(depth, r.randint(2, 3)), **params)
        if kind == "behavior3.Switch":
            cases = [self.node("behavior3.Case", [self.condition_node(), self.tree(depth + 2)])
                     for _ in range(r.randint(1, 3))]
            return self.node(kind, cases)
        if kind == "behavior3.Watchdog":
            return self.node(kind, [self.condition_node(), self.tree(depth + 1), self.leaf()])
        children = self.subtrees(depth, r.randint(1, 3))
        count = len(children)
        params = {}
        if kind == "Parallel":
            if self.chance(0.6):
                params["success_threshold"] = r.choice([-1, 1, count, -count])
            if self.chance(0.6):
                params["failure_threshold"] = r.choice([-1, 1, count])
        elif kind == "ParallelAll" and self.chance(0.6):
            params["max_failures"] = r.choice([-1, 1, count])
        elif kind == "RoundRobin" and self.chance(0.6):
            params["wrap_around"] = r.choice([True, False])
        return self.node(kind, children, **params)

    def decorator(self, depth):
        r = self.rng
        kind = r.choice([
            "Not", "Repeat", "Repeat", "RepeatUntilSuccess", "RepeatUntilFailure", "Retry",
            "ForceSuccess", "ForceFailure", "Timeout", "Cooldown", "RunOnce", "Delay",
            "Precondition", "RateController", "Limiter", "MaxTime", "BlackboardCheckInt",
            "BlackboardCheckDouble", "BlackboardCheckString", "SkipUnlessUpdated",
            "WaitValueUpdate", "LoopInt", "LoopDouble", "LoopString", "LoopBool",
            "behavior3.Repeat", "behavior3.RetryUntilSuccess", "behavior3.RetryUntilFailure",
            "behavior3.RepeatUntilSuccess", "behavior3.RepeatUntilFailure", "behavior3.Timeout",
            "behavior3.AlwaysRunning", "behavior3.Once", "behavior3.Listen", "behavior3.Delay",
            "behavior3.Assert", "behavior3.ForEach", "behavior3.Filter",
        ])
        if kind == "behavior3.Filter":
            # A child that finishes at once (behavior3.md: Filter resumed over a running child).
            return self.node(kind, [self.node("behavior3.Check", value=r.choice(
                ["v > 1", "v == 2", "v != 1"]))], input1="{j}", output1="{v}", output2="{v}")
        outer, self.in_loop = self.in_loop, self.in_loop or kind == "behavior3.ForEach"
        child = [self.tree(depth + 1)]
        self.in_loop = outer
        params = {}
        if kind == "Repeat":
            params["count"] = r.choice([-1, 0, 1, 2, 3, "{m}"])
        elif kind == "Retry":
            params["attempts"] = r.choice([-1, 0, 1, 2, 3, "{m}"])
        elif kind in ("Timeout", "MaxTime"):
            params["seconds"] = max(self.seconds(), 0.1) if self.chance(0.9) else "{x}"
        elif kind in ("Cooldown", "Delay"):
            params["seconds"] = self.seconds(0.6)
        elif kind == "RunOnce" and self.chance(0.6):
            params["then_skip"] = r.choice([True, False])
        elif kind == "Precondition":
            params["if"] = self.condition()
            if self.chance(0.7):
                params["else"] = r.choice(STATUSES)
        elif kind == "RateController" and self.chance(0.8):
            params["hz"] = r.choice([0, 1, 2, 4, 5])
        elif kind == "Limiter":
            params["max_loop"] = r.randint(1, 3)
        elif kind == "BlackboardCheckInt":
            params.update(value_A="{n}", value_B=r.randint(0, 3))
        elif kind == "BlackboardCheckDouble":
            params.update(value_A="{x}", value_B=r.choice([0.5, 0.75, 1.0]))
        elif kind == "BlackboardCheckString":
            params.update(value_A="{s}", value_B=r.choice(["a", "big", "small"]))
        if kind.startswith("BlackboardCheck") and self.chance(0.6):
            params["return_on_mismatch"] = r.choice(STATUSES)
        elif kind in ("SkipUnlessUpdated", "WaitValueUpdate"):
            params["entry"] = r.choice(["n", "x", "s", "flag", "{n}"])
        elif kind.startswith("Loop"):
            queue, literal, value = {
                "LoopInt": ("qi", "1;2", "n"), "LoopDouble": ("qd", "0.25;0.5", "x"),
                "LoopString": ("qs", "x;y", "s"), "LoopBool": ("qb", "true;true", "flag"),
            }[kind]
            params["queue"] = "{" + queue + "}" if self.chance(0.7) else literal
            params["value"] = "{" + value + "}"
            if self.chance(0.5):
                params["if_empty"] = r.choice(["SUCCESS", "FAILURE", "SKIPPED"])
        elif kind in ("behavior3.Repeat", "behavior3.RetryUntilSuccess",
                      "behavior3.RetryUntilFailure"):
            params["count"] = r.randint(0, 3)
        elif kind in ("behavior3.RepeatUntilSuccess", "behavior3.RepeatUntilFailure"):
            params["maxLoop"] = r.randint(1, 3)
        elif kind == "behavior3.Timeout":
            params["time"] = self.seconds()
        elif kind == "behavior3.Listen":
            params["event"] = r.choice(EVENTS + TREE_EVENTS)
            if self.chance(0.5):
                params["output1"] = "{v}"
            if self.chance(0.3):
                params["output2"] = "{u}"  # an argument may be any value, or none
        elif kind == "behavior3.Delay":
            params["delay"] = self.seconds(0.6)
            if self.chance(0.4):
                params["cacheVars1"] = r.choice(["{x}", "{n}"])
        elif kind == "behavior3.Assert":
            params["message"] = "held"
            child = [self.node(r.choice(["ForceSuccess", "Not"]), child)]
        elif kind == "behavior3.ForEach":
            params.update(input1="{j}", output1="{v}", output2="{w}")
        return self.node(kind, child, **params)

    def condition_node(self):
        kind = self.rng.choice(["ScriptCondition", "CheckBlackboard", "behavior3.Check", "tree"])
        if kind == "ScriptCondition":
            return self.node(kind, code=self.condition())
        if kind == "behavior3.Check":
            return self.node(kind, value=self.expression())
        if kind == "CheckBlackboard":
            return self.node(kind, key="n", op=self.rng.choice(["<", ">="]),
                             value=self.rng.randint(0, 4))
        return self.tree(3)

    def tree(self, depth=0):
        if depth >= 5 or self.chance(0.05 + 0.2 * depth):
            n = self.leaf()
        elif self.chance(0.5):
            n = self.composite(depth)
        else:
            n = self.decorator(depth)
        self.conditions(n)
        return n

    def root(self):
        # Mostly one that counts its rounds first, so that the blackboard moves on, over one
        # body or, with ParallelAll, several that go on side by side.
        k = self.rng.random()
        if k < 0.5:
            return self.node("Sequence", [self.node("Script", code="n += 1"), self.tree(1)])
        if k < 0.8:
            bodies = [self.tree(1) for _ in range(self.rng.randint(2, 3))]
            return self.node("ParallelAll", [self.node("Script", code="n += 1")] + bodies,
                             max_failures=-1)
        return self.tree(1)


def flat_records(root, first_id=1):
    """The nested tree as flat JSON records, in preorder."""
    records = []

    def walk(n, parent):
        record = {"id": first_id + len(records), "parentId": parent, "type": n["type"]}
        if n["params"]:
            record["params"] = n["params"]
        records.append(record)
        for c in n["children"]:
            walk(c, record["id"])

    walk(root, 0)
    return records


def flat_subtree(gen, root):
    """Now and then, a node of the tree moved into a second tree of the file that a SubTree
    uses in its place, sharing the main tree's keys."""
    candidates = []

    def walk(n):
        for i, c in enumerate(n["children"]):
            candidates.append((n, i))
            walk(c)

    walk(root)
    if not candidates or not gen.chance(0.2):
        return None
    parent, i = gen.rng.choice(candidates)
    moved = parent["children"][i]
    parent["children"][i] = {"type": "SubTree", "params": {"tree": "Sub", "_autoremap": True},
                             "children": []}
    return moved


def flat_case(seed, n):
    rng = random.Random(f"{seed}:flat:{n}")
    dt = rng.choice([0.1, 0.25, 0.3])
    gen = flat_generator(rng)
    root = gen.root()
    moved = flat_subtree(gen, root)
    total = rng.randint(20, 30)
    if moved is None:
        document = {"name": "Main", "blackboard": FLAT_KEYS, "nodes": flat_records(root)}
    else:
        document = {"main_tree": "Main", "trees": [
            {"name": "Main", "blackboard": FLAT_KEYS, "nodes": flat_records(root)},
            {"name": "Sub", "blackboard": FLAT_KEYS, "nodes": flat_records(moved, 1000)}]}
    options = ["--dt", str(dt), "--seed", str(rng.randint(0, 1000))]
    if gen.events:
        for _ in range(rng.randint(1, 4)):
            event = f"{rng.randint(1, total)}:{rng.choice(EVENTS)}"
            if rng.random() < 0.4:
                argument = rng.choice(["1.5", '"x"', "[1]"])
                event += f":[{rng.randint(0, 3)}, {argument}]"
            options += ["--event", event]
    made = case(json.dumps(document, indent=1) + "\n", "json", options, total)
    made.used = gen.used
    return made


MAKERS = {"btcpp": btcpp_case, "behavior3": behavior3_case, "flat": flat_case}


def builtin_types(canopy):
    """The built-in node types `canopy types` lists: ids below 100 (100 up are the demo packs')
    and the behavior3 family, which has none."""
    p = subprocess.run([canopy, "types"], capture_output=True, text=True, timeout=TIMEOUT)
    found = set()
    for line in p.stdout.splitlines():
        m = re.match(r"\s+(\d+|-)\s+(\S+)\s+(leaf|decorator|composite)\b", line)
        if m and (m.group(1) == "-" or int(m.group(1)) < 100):
            found.add(m.group(2))
    return found


# ---------------------------------------------------------------------------------------------
# One tree: whole, then split and resumed.


class outcome:
    def __init__(self, family, n, path, verdict, detail="", total=0, split=0):
        self.family = family
        self.n = n
        self.path = path
        self.verdict = verdict  # "agree", "skipped", "differs", "failed"
        self.detail = detail
        self.total = total
        self.split = split
        self.used = set()  # the node types of a flat tree
        self.running_at_split = False


def quoted(command):
    return " ".join(c if re.fullmatch(r"[\w./:=,+-]+", c) else "'" + c.replace("'", "'\\''")
                    + "'" for c in command)


def first_difference(whole, split):
    """(index, whole's line, split's line) of the first line that differs, or None."""
    for i in range(max(len(whole), len(split))):
        a = whole[i] if i < len(whole) else "(no more lines)"
        b = split[i] if i < len(split) else "(no more lines)"
        if a != b:
            return i, a, b
    return None


def check_tree(args, family, n, zero_ticks):
    made = MAKERS[family](args.seed, n)
    folder = os.path.join(args.out, family)
    path = os.path.join(folder, f"tree-{n:04d}.{made.extension}")
    with open(path, "w") as f:
        f.write(made.text)
    options = made.options + (btcpp_program_options(made, path) if family == "btcpp" else [])
    rng = random.Random(f"{args.seed}:{family}:{n}:split")
    split = rng.randrange(0 if zero_ticks else 1, made.total)
    state = os.path.join(folder, f"tree-{n:04d}.state.json")
    if os.path.exists(state):
        os.remove(state)
    result = outcome(family, n, path, "agree", total=made.total, split=split)
    result.used = made.used

    whole = run(args.canopy, path, made.total, options)
    if whole.refused_to_load():
        result.verdict = "skipped"
        result.detail = whole.describe()
        return result
    # A split where the root runs is one whose snapshot holds running nodes' state.
    result.running_at_split = f"tick {split}: running" in whole.lines
    first = run(args.canopy, path, split, options, ["--save-state", state])
    runs = {"whole": whole, "part1": first}
    wrote = os.path.exists(state)
    if first.returncode == 0 and wrote:
        runs["part2"] = run(args.canopy, path, made.total - split, options, ["--resume", state])
    if any(r.too_big for r in runs.values()):
        result.verdict = "skipped"
        result.detail = f"too big: a value outgrows memory, or the output passes " \
            f"{MAX_OUTPUT >> 20} MB"
        return result
    found = compare(whole, first, runs.get("part2"), wrote)
    if found is None:
        if wrote:
            os.remove(state)  # kept only beside a tree that disagrees
        return result
    result.verdict, problem = found
    shown = {name: quoted([args.shown_canopy] + r.command[1:]) for name, r in runs.items()}
    result.detail = problem + "".join("\n    " + command for command in shown.values())
    for name, r in runs.items():
        with open(os.path.join(folder, f"tree-{n:04d}.{name}.txt"), "w") as f:
            f.write(f"$ {shown[name]}\n# exit {r.returncode}\n{r.stdout}# stderr\n{r.stderr}")
    return result


def compare(whole, first, second, wrote_snapshot):
    """None when the split run printed what the whole one did; else ("failed", why) when a run
    crashed or the two ended apart, ("differs", why) for the first line that differs."""
    runs = [("whole", whole), ("part 1", first)] + ([("part 2", second)] if second else [])
    crashed = [f"{name} {r.describe()}" for name, r in runs if r.crashed()]
    if crashed:
        return "failed", "; ".join(crashed)
    if first.returncode == 0 and not wrote_snapshot:
        return "failed", "part 1 wrote no snapshot"
    if second is not None and second.returncode != 0 and not second.fatal:
        return "failed", f"the resumed run failed: {second.describe()}"
    parts = [first] + ([second] if second else [])
    for stream, where in (("lines", "stdout"), ("tick_errors", "stderr")):
        joined = [line for p in parts for line in getattr(p, stream)]
        difference = first_difference(getattr(whole, stream), joined)
        if difference is not None:
            i, a, b = difference
            return "differs", f"{where} line {i + 1} differs:\n      whole: {a}\n      split: {b}"
    # A first part that stops on an error stops where the whole run did, with its error.
    last = parts[-1]
    if last.returncode != whole.returncode or last.fatal != whole.fatal:
        return "failed", (f"the whole run ends with {whole.describe()}, the split one with "
                          f"{last.describe()}")
    for name, p in runs[1:]:
        # Each process reads the file: its warnings, once each.
        if p.other_errors != whole.other_errors:
            difference = first_difference(whole.other_errors, p.other_errors)
            return "differs", (f"stderr of {name} differs:\n      whole: {difference[1]}\n"
                               f"      {name}: {difference[2]}")
    return None


def zero_ticks_allowed(canopy, out):
    """Whether `canopy run --ticks 0 --save-state` saves a fresh agent (else: usage error)."""
    path = os.path.join(out, "probe.json")
    state = os.path.join(out, "probe.state.json")
    with open(path, "w") as f:
        f.write('[{"id": 1, "type": "AlwaysSuccess"}]\n')
    p = subprocess.run([canopy, "run", path, "--ticks", "0", "--save-state", state],
                       capture_output=True, text=True, timeout=TIMEOUT)
    if "--save-state" in p.stderr:
        sys.exit(f"snapshot_resume_check: {canopy} takes no --save-state: "
                 + p.stderr.strip().splitlines()[0])
    allowed = p.returncode == 0 and os.path.exists(state)
    for leftover in (path, state):
        if os.path.exists(leftover):
            os.remove(leftover)
    return allowed


def limit_memory(canopy, gib):
    """Limits the address space of this process, and so of every run, to gib GiB: a tree whose
    values grow without end then fails alone instead of starving the machine. Lifted again for
    a canopy that cannot start under it (AddressSanitizer reserves terabytes up front)."""
    before = resource.getrlimit(resource.RLIMIT_AS)
    limit = int(gib * (1 << 30))
    if before[1] != resource.RLIM_INFINITY:
        limit = min(limit, before[1])
    resource.setrlimit(resource.RLIMIT_AS, (limit, before[1]))
    p = subprocess.run([canopy, "--version"], capture_output=True, text=True, timeout=TIMEOUT)
    if p.returncode != 0:
        resource.setrlimit(resource.RLIMIT_AS, before)
        print(f"note: {canopy} does not start within {gib:g} GiB of address space (an "
              "AddressSanitizer build?): runs without a memory limit")


def private_copy(canopy, out):
    """A copy of the canopy program in out that answers --version: one program for the whole
    run, even while its build directory's is relinked. Waits a while for one being linked."""
    copy = os.path.join(out, "canopy")
    for attempt in range(20):
        try:
            shutil.copy2(canopy, copy)
            p = subprocess.run([copy, "--version"], capture_output=True, timeout=TIMEOUT)
            if p.returncode == 0:
                return copy
        except (OSError, subprocess.SubprocessError):
            pass
        if attempt == 0:
            print(f"waiting for a canopy program at {canopy} that runs...", flush=True)
        time.sleep(15)
    sys.exit(f"snapshot_resume_check: no canopy program that runs at {canopy}")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--canopy", default=os.path.join(root, "build/snap/tools/canopy/canopy"))
    parser.add_argument("--trees", type=int, default=300, help="trees per family")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=os.path.join(root, "build/snapshot-resume"))
    parser.add_argument("--families", default=",".join(FAMILIES))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--only", type=int, help="check tree N of each family alone")
    parser.add_argument("--max-skipped", type=float, default=15.0,
                        help="percent of a family's trees the CLI may refuse to load")
    parser.add_argument("--memory-limit", type=float, default=4.0,
                        help="GiB of address space each run may take (0: no limit; an "
                        "AddressSanitizer build needs 0)")
    args = parser.parse_args()
    if not os.access(args.canopy, os.X_OK):
        sys.exit(f"snapshot_resume_check: no canopy program at {args.canopy}")
    families = [f.strip() for f in args.families.split(",") if f.strip()]
    unknown = [f for f in families if f not in FAMILIES]
    if unknown:
        parser.error(f"unknown families {', '.join(unknown)}; choose among {', '.join(FAMILIES)}")
    os.makedirs(args.out, exist_ok=True)
    args.shown_canopy = os.path.abspath(args.canopy)  # in the commands it prints
    args.canopy = private_copy(args.shown_canopy, os.path.abspath(args.out))
    if args.memory_limit > 0:
        limit_memory(args.canopy, args.memory_limit)
    for family in families:
        folder = os.path.join(args.out, family)
        if args.only is None and os.path.isdir(folder):
            shutil.rmtree(folder)  # an earlier run's trees and outputs
        os.makedirs(folder, exist_ok=True)
    zero_ticks = zero_ticks_allowed(args.canopy, args.out)
    if not zero_ticks:
        print("note: canopy run refuses --ticks 0, so no snapshot of an agent before its first "
              "tick can be made: splits are drawn from [1, ticks)")

    indices = [args.only] if args.only is not None else range(args.trees)
    jobs = [(family, n) for family in families for n in indices]
    results = {family: [] for family in families}
    failed = False
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(check_tree, args, family, n, zero_ticks) for family, n in jobs]
        for future in futures:
            r = future.result()
            results[r.family].append(r)
            if r.verdict in ("differs", "failed"):
                print(f"{r.family} tree {r.n} ({r.path}, split {r.split} + "
                      f"{r.total - r.split} ticks): {r.detail}", flush=True)

    print()
    for family in families:
        done = results[family]
        skipped = [r for r in done if r.verdict == "skipped"]
        agree = sum(r.verdict == "agree" for r in done)
        ran = len(done) - len(skipped)
        failures = sum(r.verdict == "failed" for r in done)
        running = sum(r.running_at_split for r in done)
        line = f"{family}: {agree}/{ran} agree ({len(skipped)} skipped"
        line += f", {failures} failed to run alike" if failures else ""
        print(line + f"; split while the root ran: {running})")
        if ran != agree:
            failed = True
        if skipped:
            print(f"  skipped, the first: {skipped[0].path}: {skipped[0].detail}")
        if done and 100.0 * len(skipped) / len(done) > args.max_skipped:
            failed = True
            print(f"  too many skipped: more than {args.max_skipped}% of the trees")
        if family == "flat" and args.only is None:
            builtins = builtin_types(args.canopy)
            used = set().union(*(r.used for r in done)) if done else set()
            missing = sorted(builtins - used)
            print(f"  built-in types used: {len(builtins & used)} of {len(builtins)}"
                  + (f"; never: {', '.join(missing)}" if missing else ""))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
