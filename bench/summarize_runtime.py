#!/usr/bin/env python3
"""Turns canopy_bench_runtime's JSON output (--benchmark_out) into the tables of the "Runtime"
section of bench/README.md.

usage: python3 bench/summarize_runtime.py results.json [more-results.json ...]

Uses the median aggregate of each benchmark when the run had repetitions, else its only run.
Given several runs, each figure is the median of the runs' medians and each ratio the median
of the runs' ratios (both sides of a ratio come from the same run); every run's ratios are
listed as well, to show how far noise moves them.
"""
import json
import statistics
import sys
from collections import defaultdict


def medians(results):
    """{benchmark name without '/real_time': {field: value}} from the median aggregates."""
    found = {}
    singles = defaultdict(list)
    for b in results["benchmarks"]:
        name = b["run_name"].replace("/real_time", "")
        if b.get("run_type") == "aggregate":
            if b["aggregate_name"] == "median":
                found[name] = b
        else:
            singles[name].append(b)
    for name, runs in singles.items():
        if name not in found:
            runs.sort(key=lambda b: b["real_time"])
            found[name] = runs[len(runs) // 2]
    return found


def field(b, key):
    """A counter or time, in seconds for times and seconds-per-unit counters."""
    if key in ("real_time", "cpu_time"):
        unit = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[b["time_unit"]]
        return b[key] * unit
    return b[key]


def combined(runs, name, key):
    values = [field(m[name], key) for m in runs if name in m]
    return statistics.median(values) if values else None


def ratio(runs, top, bottom, key):
    """Median over runs of top's key / bottom's key, each pair from one run."""
    values = [field(m[top], key) / field(m[bottom], key)
              for m in runs if top in m and bottom in m]
    return (statistics.median(values) if values else None), values


def fmt(value, scale=1.0, digits=1):
    return "-" if value is None else f"{value * scale:,.{digits}f}"


def ms(seconds):
    return "-" if seconds is None else f"{seconds * 1e3:.4g}"


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    raw = []
    for path in sys.argv[1:]:
        with open(path) as f:
            raw.append(json.load(f))
    runs = [medians(r) for r in raw]
    what = "median" if len(runs) == 1 else f"median of {len(runs)} runs' medians"
    for key, value in raw[0]["context"].items():
        if key in ("tree", "visits/tick", "agent bytes", "100 ticks of 1000 agents"):
            print(f"- {key}: {value}")

    visits = float(raw[0]["context"]["visits/tick"].split()[0])
    for key, label in (("real_time", "wall time"), ("cpu_time", "CPU time")):
        print(f"\nTicking, {label} ({what}); ratio = copy-per-agent time / Canopy time "
              "(above 1: Canopy is faster):\n")
        print("| agents | Canopy ns/agent tick | Canopy ns/visit | Canopy ms per tick of all "
              "| copy-per-agent ns/agent tick | copy-per-agent ns/visit | **ratio** "
              "| ratio in each run |")
        print("|---:|---:|---:|---:|---:|---:|---:|---|")
        for n in (1, 1000, 100000, 1000000):
            c, b = f"BM_canopy_tick/{n}", f"BM_copy_per_agent_tick/{n}"
            r, each = ratio(runs, b, c, key)
            tc, tb = combined(runs, c, key), combined(runs, b, key)
            per = (lambda t: None if t is None else t / n)
            print(f"| {n:,} | {fmt(per(tc), 1e9)} | {fmt(per(tc), 1e9 / visits, 2)} | {ms(tc)} "
                  f"| {fmt(per(tb), 1e9)} | {fmt(per(tb), 1e9 / visits, 2)} "
                  f"| **{fmt(r, 1, 2)}** | {', '.join(f'{v:.2f}' for v in each)} |")

    print(f"\nMaking agents, wall time ({what}); ratio = copy-per-agent / Canopy:\n")
    print("| agents | Canopy ns/agent | copy-per-agent ns/agent | **ratio** "
          "| allocations/agent C / c-p-a | bytes asked/agent C / c-p-a "
          "| heap bytes/agent C / c-p-a |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for n in (1000, 100000):
        c, b = f"BM_canopy_create/{n}", f"BM_copy_per_agent_create/{n}"
        r, _ = ratio(runs, b, c, "time/agent")
        print(f"| {n:,} | {fmt(combined(runs, c, 'time/agent'), 1e9)} "
              f"| {fmt(combined(runs, b, 'time/agent'), 1e9)} | **{fmt(r, 1, 0)}** "
              f"| {fmt(combined(runs, c, 'allocs/agent'), 1, 3)} / "
              f"{fmt(combined(runs, b, 'allocs/agent'), 1, 0)} "
              f"| {fmt(combined(runs, c, 'bytes/agent'), 1, 0)} / "
              f"{fmt(combined(runs, b, 'bytes/agent'), 1, 0)} "
              f"| {fmt(combined(runs, c, 'heap/agent'), 1, 0)} / "
              f"{fmt(combined(runs, b, 'heap/agent'), 1, 0)} |")

    print(f"\nTicking 1,000,000 Canopy agents on T threads ({what}):\n")
    print("| threads | ms per tick of all | speedup vs 1 | speedup in each run "
          "| cores obtained | CPU ns per agent tick |")
    print("|---:|---:|---:|---|---:|---:|")
    one = "BM_canopy_tick_threads/1000000/threads:1"
    for t in (1, 2):
        name = f"BM_canopy_tick_threads/1000000/threads:{t}"
        r, each = ratio(runs, one, name, "real_time")
        print(f"| {t} | {fmt(combined(runs, name, 'real_time'), 1e3)} | {fmt(r, 1, 2)} "
              f"| {', '.join(f'{v:.2f}' for v in each)} "
              f"| {fmt(combined(runs, name, 'cores'), 1, 2)} "
              f"| {fmt(combined(runs, name, 'cpu/agent'), 1e9)} |")


if __name__ == "__main__":
    main()
