#!/usr/bin/env python3
"""Keeps the CLI output shown in the docs what the CLI prints.

A code block marked by the line `<!-- cli-output -->` before its fence is a transcript: each
line that starts with `$ ` is a command, and the lines up to the next command are its output
(stdout and stderr as a terminal shows them). `<!-- cli-output: $ COMMAND -->` also runs a
command whose output opens the block, without the command shown, and a blank line after it.

    scripts/cli_docs.py --canopy build/release/tools/canopy/canopy           # rewrite the blocks
    scripts/cli_docs.py --canopy build/release/tools/canopy/canopy --check   # diff, exit 1

The commands run in bash, in a scratch folder that holds links to the repository's data/ and
tests/ and to the example node plugin (libcanopy_guards.so), with `canopy` on the PATH; files they write stay in the scratch folder. `echo $?`
prints the exit code of the command before it. Figures that change from run to run (times)
are compared masked, and a block whose output differs only in them is left as it is.
"""

import argparse
import difflib
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ["docs/cli.md", "README.md"]
MARKER = re.compile(r"^<!-- cli-output(?:: \$ (?P<hidden>.*?))? -->$")
# What varies from run to run: the time spent ticking, and how long a reload took.
VARYING = [
    (re.compile(r"time: [0-9.]+ ms ticking \([0-9.]+ ns per agent tick\)"),
     "time: T ms ticking (T ns per agent tick)"),
    (re.compile(r"\) in [0-9.]+ ms;"), ") in T ms;"),
]


def masked(text):
    for pattern, replacement in VARYING:
        text = pattern.sub(replacement, text)
    return text


class Runner:
    def __init__(self, canopy, scratch):
        self.scratch = scratch
        bin_dir = scratch / "bin"
        bin_dir.mkdir()
        (bin_dir / "canopy").symlink_to(Path(canopy).resolve())
        for name in ("data", "tests"):
            (scratch / name).symlink_to(ROOT / name)
        # The example node plugin the build makes beside the CLI (demo/guards), as
        # ./libcanopy_guards.so.
        build = Path(canopy).resolve().parent.parent.parent
        plugin = build / "demo" / "guards" / "libcanopy_guards.so"
        if plugin.exists():
            (scratch / plugin.name).symlink_to(plugin)
        self.env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
                        LC_ALL="C")
        self.last_exit_code = 0

    def run(self, command):
        # `(exit N)` first, so that `echo $?` sees the previous command's exit code.
        done = subprocess.run(["bash", "-c", f"(exit {self.last_exit_code}); {command}"],
                              cwd=self.scratch, env=self.env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
        self.last_exit_code = done.returncode
        return done.stdout.decode("utf-8")


def transcript(runner, hidden, old_lines):
    """The block's lines as the commands print them now."""
    lines = []
    if hidden:
        lines += runner.run(hidden).splitlines() + [""]  # a blank line before the commands
    for line in old_lines:
        if line.startswith("$ "):
            lines.append(line)
            lines += runner.run(line[2:]).splitlines()
    return lines


def regenerate(text, runner):
    lines = text.split("\n")
    out = []
    i = 0
    while i < len(lines):
        match = MARKER.match(lines[i])
        out.append(lines[i])
        i += 1
        if not match:
            continue
        if i >= len(lines) or not lines[i].startswith("```"):
            raise SystemExit(f"a cli-output marker must come right before a code fence: "
                             f"line {i}")
        out.append(lines[i])
        i += 1
        end = i
        while end < len(lines) and not lines[end].startswith("```"):
            end += 1
        old = lines[i:end]
        new = transcript(runner, match.group("hidden"), old)
        keep = masked("\n".join(new)) == masked("\n".join(old))
        out += old if keep else new
        i = end
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--canopy", required=True, help="the canopy program to run")
    parser.add_argument("--check", action="store_true",
                        help="change nothing: show how each doc differs, exit 1 if one does")
    parser.add_argument("docs", nargs="*", default=DOCS, help="Markdown files, from the root")
    args = parser.parse_args()
    differ = False
    with tempfile.TemporaryDirectory() as scratch:
        runner = Runner(args.canopy, Path(scratch))
        for doc in args.docs:
            path = ROOT / doc
            old = path.read_text(encoding="utf-8")
            new = regenerate(old, runner)
            if new == old:
                continue
            differ = True
            if args.check:
                sys.stdout.writelines(difflib.unified_diff(
                    old.splitlines(True), new.splitlines(True), f"{doc} (as written)",
                    f"{doc} (as the CLI prints it)"))
            else:
                path.write_text(new, encoding="utf-8")
                print(f"rewrote {doc}")
    if differ and args.check:
        print("\nThe docs show CLI output the CLI no longer prints; run "
              "scripts/cli_docs.py --canopy PATH-TO-canopy to rewrite them.", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
