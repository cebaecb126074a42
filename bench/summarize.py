#!/usr/bin/env python3
"""Turns canopy_bench_load's JSON output (--benchmark_out) into the tables of bench/README.md.

usage: python3 bench/summarize.py results.json [more-results.json ...]

Uses the median aggregate of each benchmark when the run had repetitions, else its only run.
Given several runs, each time is the median of the runs' medians, each ratio the median of the
runs' ratios (both times of a ratio come from the same run), and every run's ratios are listed
as well, to show how far noise moves them.
"""
import json
import statistics
import sys
from collections import defaultdict

COLUMNS = [
    ("BM_read_file", "read file"),
    ("BM_json_parse_dom", "(a) DOM parse"),
    ("BM_json_parse_sax", "SAX parse"),
    ("BM_canopy_load_file", "(b) load_file"),
    ("BM_canopy_load_text", "load_text"),
]


def medians(results, time_key):
    """{(benchmark, records): milliseconds}, medians where there are aggregates."""
    unit = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
    singles = defaultdict(list)
    found = {}
    for b in results["benchmarks"]:
        parts = b["run_name"].split("/")
        key = (parts[0], int(parts[1]))
        ms = b[time_key] * unit[b["time_unit"]]
        if b.get("run_type") == "aggregate":
            if b["aggregate_name"] == "median":
                found[key] = ms
        else:
            singles[key].append(ms)
    for key, runs in singles.items():
        if key not in found:
            runs.sort()
            found[key] = runs[len(runs) // 2]
    return found


def file_sizes(results):
    sizes = {}
    for key, value in results["context"].items():
        if key.startswith("tree/"):
            sizes[int(key[5:])] = int(value.split()[0])
    return sizes


def combined(runs, time_key):
    """{(benchmark, records): milliseconds}: the median over runs of each run's median."""
    per_run = [medians(r, time_key) for r in runs]
    keys = set().union(*per_run)
    return {k: statistics.median(m[k] for m in per_run if k in m) for k in keys}


def ratio(runs, time_key, name, n):
    """The median over runs of name's time / the DOM parse's time, each pair from one run."""
    values = []
    for m in (medians(r, time_key) for r in runs):
        if (name, n) in m and ("BM_json_parse_dom", n) in m:
            values.append(m[(name, n)] / m[("BM_json_parse_dom", n)])
    return f"{statistics.median(values):.2f}" if values else "-"


def table(runs, time_key):
    ms = combined(runs, time_key)
    sizes = file_sizes(runs[0])
    records = sorted({n for _, n in ms})
    head = ["records", "file MB"] + [label for _, label in COLUMNS]
    head += ["(b)/(a)", "load_text/(a)", "ns/rec (a)", "ns/rec (b)", "ns/rec SAX"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---:|" * len(head)]
    for n in records:
        row = [f"{n:,}", f"{sizes.get(n, 0) / 1e6:.1f}"]
        row += [f"{ms[(name, n)]:.1f}" if (name, n) in ms else "-" for name, _ in COLUMNS]

        def get(name):
            return ms.get((name, n))

        dom, load, sax = (get("BM_json_parse_dom"), get("BM_canopy_load_file"),
                          get("BM_json_parse_sax"))
        row.append(ratio(runs, time_key, "BM_canopy_load_file", n))
        row.append(ratio(runs, time_key, "BM_canopy_load_text", n))
        for t in (dom, load, sax):
            row.append(f"{t * 1e6 / n:.0f}" if t else "-")
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def ratios_per_run(runs, time_key):
    lines = ["| records | (b)/(a) in each run | load_text/(a) in each run |", "|---:|---|---|"]
    per_run = [medians(r, time_key) for r in runs]
    for n in sorted({n for m in per_run for _, n in m}):
        def ratios(name):
            return ", ".join(f"{m[(name, n)] / m[('BM_json_parse_dom', n)]:.2f}"
                             for m in per_run
                             if (name, n) in m and ("BM_json_parse_dom", n) in m)
        lines.append(f"| {n:,} | {ratios('BM_canopy_load_file')} | "
                     f"{ratios('BM_canopy_load_text')} |")
    return "\n".join(lines)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    runs = []
    for path in sys.argv[1:]:
        with open(path) as f:
            runs.append(json.load(f))
    what = "medians" if len(runs) == 1 else f"median of {len(runs)} runs' medians"
    print(f"Wall time, milliseconds ({what}):\n")
    print(table(runs, "real_time"))
    print(f"\nCPU time, milliseconds ({what}):\n")
    print(table(runs, "cpu_time"))
    if len(runs) > 1:
        print("\nWall-time ratios, run by run:\n")
        print(ratios_per_run(runs, "real_time"))


if __name__ == "__main__":
    main()
