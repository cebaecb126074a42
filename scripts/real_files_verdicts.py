#!/usr/bin/env python3
"""Asks the real runtimes whether each tree file of a set of real projects' files loads, and
writes their verdicts as the JSON file scripts/real_files_check.py reads.

Usage:
    scripts/real_files_verdicts.py --set DIR --btcpp-verdict PROGRAM \
        --behavior3-bundle BUNDLE.mjs [--behavior3-ts-commit SHA] [-o DIR/verdicts.json]

DIR holds projects' files in their own folder layouts (includes and subtree paths are relative).
The tree files are every .xml and .btproj that declares a tree or includes a file (a file of
node models alone is no tree file), and every behavior3 tree: .json and .b3 files with a `root`
or `trees` (a workspace's .b3-workspace and .b3-setting files are not trees).

- BehaviorTree.CPP XML: PROGRAM is scripts/btcpp_load_verdict.cpp built against BehaviorTree.CPP
  4.10 (its header says how). A file in a folder named `objectives` (a MoveIt Pro objectives
  folder, whose program registers every objective of it) is loaded with the folder's other
  files registered too (`--project`); any other file alone, with the files it includes.
- behavior3: BUNDLE is behavior3-ts's src/behavior3 bundled with esbuild (as
  scripts/behavior3_values_differential.py makes it), run through
  scripts/behavior3_load_verdict.mjs. behavior3-ts reads the nested form (behavior3editor and
  its VS Code successor); a classic behavior3js tree or project (`nodes` keyed by id, `root`
  naming one) has no runtime here: its verdict is LOADS, with "runtime": null.

Each entry: {"format", "runtime", "verdict": "LOADS"|"REFUSED", "message", "project"}, keyed by
the file's path relative to DIR. Runs two files at a time.
"""

import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT_FOLDERS = {"objectives"}


def tree_files(root):
    out = []
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, root)
            ext = os.path.splitext(name)[1].lower()
            if ext in (".xml", ".btproj"):
                try:
                    top = ET.parse(path).getroot()
                except ET.ParseError:
                    out.append((rel, "BehaviorTree.CPP XML"))  # the runtime says why
                    continue
                if top.tag == "root" and (top.find("BehaviorTree") is not None
                                          or top.find("include") is not None):
                    out.append((rel, "BehaviorTree.CPP XML"))
            elif ext in (".json", ".b3"):
                try:
                    with open(path, encoding="utf-8") as f:
                        data = json.load(f)
                except (ValueError, OSError):
                    out.append((rel, "behavior3"))
                    continue
                if isinstance(data, dict) and ("root" in data or "trees" in data):
                    out.append((rel, "behavior3"))
    return out


def version_4(path):
    try:
        return ET.parse(path).getroot().get("BTCPP_format") == "4"
    except ET.ParseError:
        return False


def last_verdict_line(text):
    for line in reversed(text.splitlines()):
        if line.startswith("LOADS") or line.startswith("REFUSED"):
            return line
    return "REFUSED: no verdict (" + (text.strip().splitlines() or ["no output"])[-1] + ")"


def btcpp_verdict(args, root, rel):
    path = os.path.join(root, rel)
    folder = os.path.dirname(path)
    project = []
    if os.path.basename(folder) in PROJECT_FOLDERS:
        project = sorted(os.path.join(folder, n) for n in os.listdir(folder)
                         if n.endswith(".xml") and os.path.join(folder, n) != path)
    command = [args.btcpp_verdict, path]
    for other in project:
        command += ["--project", other]
    p = subprocess.run(command, capture_output=True, text=True, timeout=120)
    line = last_verdict_line(p.stdout + p.stderr)
    return {"runtime": "BehaviorTree.CPP 4.10.0", "line": line,
            "project": [os.path.relpath(o, root) for o in project]}


def behavior3_verdict(args, root, rel):
    path = os.path.join(root, rel)
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if isinstance(data, dict) and not isinstance(data.get("root"), dict):
        return {"runtime": None, "line": "LOADS", "project": [],
                "note": "a classic behavior3js project: no runtime here, expected to load"}
    p = subprocess.run(["node", os.path.join(HERE, "behavior3_load_verdict.mjs"),
                        args.behavior3_bundle, path], capture_output=True, text=True,
                       timeout=120)
    line = last_verdict_line(p.stdout + p.stderr)
    runtime = "behavior3-ts" + (f" {args.behavior3_ts_commit}" if args.behavior3_ts_commit
                                else "")
    return {"runtime": runtime, "line": line, "project": []}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", required=True)
    parser.add_argument("--btcpp-verdict", required=True)
    parser.add_argument("--behavior3-bundle", required=True)
    parser.add_argument("--behavior3-ts-commit")
    parser.add_argument("-o", "--out")
    args = parser.parse_args()
    root = os.path.abspath(args.set)
    args.btcpp_verdict = os.path.abspath(args.btcpp_verdict)
    args.behavior3_bundle = os.path.abspath(args.behavior3_bundle)
    files = tree_files(root)

    def one(item):
        rel, fmt = item
        if fmt == "behavior3":
            v = behavior3_verdict(args, root, rel)
        else:
            v = btcpp_verdict(args, root, rel)
        line = v.pop("line")
        verdict, _, message = line.partition(":")
        entry = {"format": fmt, "verdict": verdict.split(" ")[0],
                 "message": message.strip() if verdict.startswith("REFUSED") else line}
        entry.update(v)
        if fmt != "behavior3" and not version_4(os.path.join(root, rel)):
            entry["note"] = "a BehaviorTree.CPP 3 file (no BTCPP_format=\"4\"), judged by 4.10"
        return rel, entry

    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = dict(pool.map(one, files))
    for rel, entry in results.items():
        print(f"{entry['verdict']:8} {rel}" + (f": {entry['message']}"
                                              if entry["verdict"] == "REFUSED" else ""))
    out = args.out or os.path.join(root, "verdicts.json")
    with open(out, "w", encoding="utf-8") as f:
        json.dump({"files": results}, f, indent=1, sort_keys=True, ensure_ascii=False)
        f.write("\n")
    print(f"{len(results)} files; verdicts written to {out}")


if __name__ == "__main__":
    sys.exit(main())
