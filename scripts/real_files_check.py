#!/usr/bin/env python3
"""Holds Canopy to the real runtimes on real projects' tree files: each file loads where its
runtime loads it and survives conversion to every format and back, or is refused, located,
where its runtime refuses it.

Usage:
    scripts/real_files_check.py --canopy PATH --set DIR --verdicts FILE [--out DIR] [--only TEXT]

DIR is the set of files (projects' folders as they keep them); FILE the runtimes' verdicts,
as scripts/real_files_verdicts.py writes them (BehaviorTree.CPP 4.10's through
scripts/btcpp_load_verdict.cpp, behavior3-ts's through scripts/behavior3_load_verdict.mjs).
For every file of FILE:

  (a) `canopy validate --lenient FILE` (the program's node types are not the CLI's: lenient
      loading learns them from the file's models or its shape) must agree with the verdict; a
      refusal must be located (`path:line[:col]: error:`), and where the runtime's message names
      a line, one of Canopy's errors must be on it;
  (b) a file that loads is converted (`canopy convert --lenient --to F`) to each other format
      and back to its own; each converted file, and each round trip, must mean what the
      original means (`canopy print --meaning --lenient`, every tree: Canopy's types, shape,
      describes, every parameter with its default, keys; what `canopy convert` compares);
  (c) its own format written twice (the file converted to its own format, and that again) must
      give the same bytes.

Prints one line per file (ok, or FAIL with each failure's reason and first differing line),
then a table per format: files, loads as its runtime does, refuses as its runtime does,
verdicts that differ, and round trips passed per target format, and the count of failures
by kind. Exits 1 if anything fails. Work files go to --out (default: a temporary folder).
Runs two files at a time. Python 3 standard library only; not part of CI.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict

FORMATS = {  # name for --to: extension written
    "BehaviorTree.CPP XML": ".xml",
    "behavior3": ".json",
    "flat JSON": ".json",
    "flat XML": ".xml",
}
SHORT = {"BehaviorTree.CPP XML": "btcpp", "behavior3": "b3", "flat JSON": "flat-json",
         "flat XML": "flat-xml"}
LOCATED = re.compile(r"^(?P<path>.+?):(?P<line>\d+)(?::(?P<col>\d+))?: error: ", re.M)
RUNTIME_LINE = re.compile(r"\bline (\d+)\b")


def run(command, timeout=120):
    try:
        p = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return 124, "", f"timed out after {timeout} s"
    return p.returncode, p.stdout, p.stderr


def reprinted_lines(path, lines):
    """The lines that BehaviorTree.CPP 4.10 gives the elements on `lines` of the file at path.

    4.10 checks a file's tree IDs and node names in a copy that tinyxml2 prints of it (one
    element, comment or declaration per line; xml_parsing.cpp, before VerifyXML), so those
    errors count the copy's lines, not the file's: an element whose start tag spans lines
    moves every later one. Canopy locates at the file's own lines; this maps them to the
    copy's, so that both are accepted."""
    import xml.parsers.expat
    printed = []  # the file's line of each node the copy prints on a line of its own
    parser = xml.parsers.expat.ParserCreate()
    parser.XmlDeclHandler = lambda *_: printed.append(parser.CurrentLineNumber)
    parser.StartElementHandler = lambda *_: printed.append(parser.CurrentLineNumber)
    parser.CommentHandler = lambda *_: printed.append(parser.CurrentLineNumber)
    try:
        with open(path, "rb") as f:
            parser.ParseFile(f)
    except (xml.parsers.expat.ExpatError, OSError):
        return set()
    return {i + 1 for i, line in enumerate(printed) if line in lines}


def first_error(text):
    for line in text.splitlines():
        if ": error:" in line or line.startswith("canopy: error"):
            return line.strip()
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return lines[0] if lines else "(no message)"


def first_difference(a, b):
    la, lb = a.splitlines(), b.splitlines()
    for i in range(max(len(la), len(lb))):
        x = la[i] if i < len(la) else "<end>"
        y = lb[i] if i < len(lb) else "<end>"
        if x != y:
            return f"line {i + 1}: {x.strip()!r} became {y.strip()!r}"
    return "same lines, different bytes"


def means_the_same(what, original, fail, got, error):
    """Whether `got` (a `print --meaning`, or None and the error) is the original's; else
    the failure is added to `fail`."""
    if got is None:
        fail.append((f"{what}: does not print", error))
        return False
    if got != original:
        fail.append((f"{what}: another tree or other parameters",
                     first_difference(original, got)))
        return False
    return True


class checker:
    def __init__(self, canopy, root, out):
        self.canopy = canopy
        self.root = root
        self.out = out

    def canopy_run(self, *args):
        return run([self.canopy, *args])

    def trees(self, path):
        """The tree names `validate` reports, or [None] for a file of one tree."""
        code, out, err = self.canopy_run("validate", "--lenient", path)
        if code != 0:
            return None, err
        m = re.search(r": ok \((.*)\)\s*$", out.strip().splitlines()[-1])
        body = m.group(1) if m else ""
        if not re.match(r"^\d+ trees: ", body):
            return [None], ""
        names = []
        for part in body.split(": ", 1)[1].split(", "):
            t = re.match(r"^(.*) \d+ nodes?$", part)
            if t:
                names.append(t.group(1))
        return names, ""

    def prints(self, path, trees, mode, beside=False, written_with=None):
        """Every tree's print, joined; or None and the error. With `beside`, a tree the file
        does not hold is looked for in the file named after it beside it, where a format of
        one tree per file (behavior3) writes it, or beside `written_with`, the file it was
        converted from (whose further trees stay where that conversion wrote them)."""
        texts = []
        for tree in trees:
            args = ["print", "--lenient"] + ([f"--{mode}"] if mode else [])
            code, out, err = self.canopy_run(
                *args, *(["--tree", tree] if tree is not None else []), path)
            if code != 0 and beside and tree is not None:
                other = os.path.join(os.path.dirname(path),
                                     tree + os.path.splitext(path)[1])
                if not os.path.exists(other) and written_with is not None:
                    other = os.path.join(os.path.dirname(written_with),
                                         tree + os.path.splitext(written_with)[1])
                if os.path.exists(other):
                    code, out, err = self.canopy_run(*args, other)
            if code != 0:
                return None, first_error(err)
            texts.append(f"== {tree}\n{out}" if tree is not None else out)
        return "".join(texts), ""

    def convert(self, source, folder, name, fmt):
        os.makedirs(folder, exist_ok=True)
        target = os.path.join(folder, name + FORMATS[fmt])
        code, _, err = self.canopy_run("convert", "--lenient", source, target, "--to", fmt)
        if code != 0:
            return None, first_error(err)
        return target, ""

    def check(self, rel, verdict):
        path = os.path.join(self.root, rel)
        own = verdict["format"]
        work = os.path.join(self.out, rel.replace(os.sep, "__"))
        shutil.rmtree(work, ignore_errors=True)
        result = {"file": rel, "format": own, "runtime_verdict": verdict["verdict"],
                  "failures": [], "round_trips": {}, "note": verdict.get("note")}
        fail = result["failures"]

        code, out, err = self.canopy_run("validate", "--lenient", path)
        loads = code == 0
        result["canopy_verdict"] = "LOADS" if loads else "REFUSED"
        if verdict["verdict"] == "LOADS" and not loads:
            fail.append(("refused where the runtime loads", first_error(err)))
            return result
        if verdict["verdict"] == "REFUSED" and loads:
            fail.append(("loaded where the runtime refuses", verdict.get("message", "")))
            return result
        if not loads:
            located = list(LOCATED.finditer(err))
            if not located:
                fail.append(("refusal not located", first_error(err)))
            else:
                lines = {int(m.group("line")) for m in located
                         if os.path.abspath(m.group("path")) == os.path.abspath(path)}
                runtime_line = RUNTIME_LINE.search(verdict.get("message", ""))
                if verdict.get("format") == "BehaviorTree.CPP XML":
                    lines |= reprinted_lines(path, lines)
                if runtime_line and int(runtime_line.group(1)) not in lines:
                    fail.append(("refused, but not on the line the runtime names",
                                 f"runtime: {verdict.get('message')} | canopy: "
                                 f"{first_error(err)}"))
            result["canopy_message"] = first_error(err)
            return result

        trees, _ = self.trees(path)
        # What a conversion keeps, compared in Canopy's words (`print --meaning`, what
        # `canopy convert` itself compares): types, shape, describes, every parameter with its
        # default, keys; not ids, nor the words a format names things by.
        original, error = self.prints(path, trees, "meaning")
        if original is None:
            fail.append(("validates but does not print", error))
            return result
        name = os.path.splitext(os.path.basename(rel))[0]
        for fmt in FORMATS:
            if fmt == own:
                continue
            step, error = self.convert(path, os.path.join(work, SHORT[fmt]), name, fmt)
            if step is None:
                fail.append((f"convert to {fmt} fails", error))
                result["round_trips"][fmt] = False
                continue
            step_trees, error = self.trees(step)
            if step_trees is None:
                fail.append((f"the {fmt} file does not load", first_error(error)))
                result["round_trips"][fmt] = False
                continue
            ok = means_the_same(f"the {fmt} file", original, fail, *self.prints(
                step, trees if len(trees) > 1 else step_trees, "meaning", beside=True))
            back, error = self.convert(step, os.path.join(work, SHORT[fmt] + "-back"), name,
                                       own)
            if back is None:
                fail.append((f"convert back from {fmt} fails", error))
                result["round_trips"][fmt] = False
                continue
            ok = means_the_same(f"back from {fmt}", original, fail, *self.prints(
                back, trees, "meaning", beside=True, written_with=step)) and ok
            result["round_trips"][fmt] = ok

        first, error = self.convert(path, os.path.join(work, "own1"), name, own)
        stable = False
        if first is None:
            fail.append((f"convert to its own format ({own}) fails", error))
        else:
            second, error = self.convert(first, os.path.join(work, "own2"), name, own)
            if second is None:
                fail.append(("its own format written once does not convert again", error))
            else:
                stable = True
                for entry in sorted(os.listdir(os.path.join(work, "own1"))):
                    a = os.path.join(work, "own1", entry)
                    b = os.path.join(work, "own2", entry)
                    if not os.path.exists(b):
                        fail.append(("own format written twice differs",
                                     f"{entry} not written the second time"))
                        stable = False
                        continue
                    with open(a, "rb") as fa, open(b, "rb") as fb:
                        x, y = fa.read(), fb.read()
                    if x != y:
                        fail.append(("own format written twice differs",
                                     f"{entry}: " + first_difference(
                                         x.decode("utf-8", "replace"),
                                         y.decode("utf-8", "replace"))))
                        stable = False
        result["round_trips"]["own twice"] = stable
        return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--canopy", required=True)
    parser.add_argument("--set", required=True)
    parser.add_argument("--verdicts", required=True)
    parser.add_argument("--out")
    parser.add_argument("--only", help="check only the files whose path contains TEXT")
    args = parser.parse_args()
    with open(args.verdicts, encoding="utf-8") as f:
        verdicts = json.load(f)["files"]
    out = os.path.abspath(args.out) if args.out else tempfile.mkdtemp(prefix="real-files-")
    c = checker(os.path.abspath(args.canopy), os.path.abspath(args.set), out)
    items = sorted((k, v) for k, v in verdicts.items() if not args.only or args.only in k)

    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda kv: c.check(*kv), items))

    kinds = Counter()
    examples = {}
    for r in results:
        tag = f"{r['runtime_verdict'].lower()}/{r['canopy_verdict'].lower()}"
        if not r["failures"]:
            print(f"ok    {r['file']} ({tag})")
            continue
        print(f"FAIL  {r['file']} ({tag})" + (f" [{r['note']}]" if r["note"] else ""))
        for kind, reason in r["failures"]:
            print(f"      {kind}: {reason}")
            kinds[kind] += 1
            examples.setdefault(kind, (r["file"], reason))

    targets = list(FORMATS) + ["own twice"]
    table = defaultdict(lambda: Counter())
    for r in results:
        t = table[r["format"]]
        t["files"] += 1
        same = r["runtime_verdict"] == r["canopy_verdict"]
        t["loads as runtime"] += same and r["canopy_verdict"] == "LOADS"
        t["refuses as runtime"] += same and r["canopy_verdict"] == "REFUSED"
        t["verdicts differ"] += not same
        for target in targets:
            if r["round_trips"].get(target):
                t[target] += 1
    head = ["format", "files", "loads as runtime", "refuses as runtime", "verdicts differ"]
    head += [f"→{SHORT.get(x, x)}" for x in targets]
    rows = [head]
    for fmt in sorted(table):
        t = table[fmt]
        loaded = t["loads as runtime"]
        row = [fmt, str(t["files"]), str(t["loads as runtime"]), str(t["refuses as runtime"]),
               str(t["verdicts differ"])]
        row += ["-" if target == fmt else f"{t[target]}/{loaded}" for target in targets]
        rows.append(row)
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    print()
    for r in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip())
    print("(round trips: files that load as their runtime loads them and pass that target)")
    if kinds:
        print("\nfailures by kind:")
        for kind, n in kinds.most_common():
            print(f"  {n:4}  {kind}  (e.g. {examples[kind][0]})")
    failed = sum(1 for r in results if r["failures"])
    print(f"\n{len(results) - failed} passed, {failed} failed")
    if not args.out:
        shutil.rmtree(out, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
