#!/usr/bin/env bash
# Runs bench/btcpp_api_benchmark.cpp built two ways in one go: against canopy::btcpp (with the
# native Canopy tree beside it) and against BehaviorTree.CPP 4 at BTCPP_PREFIX (its headers in
# include/, libbehaviortree_cpp in lib/ or beside them), alternately, REPS times each.
#   scripts/btcpp_api_bench.sh BTCPP_SOURCE_DIR BTCPP_BUILD_DIR [REPS]
# BehaviorTree.CPP is not a Debian package: build it yourself (its README), outside this
# repository. Output: Google Benchmark's, per run, then bench/summarize.py's medians.
set -euo pipefail
cd "$(dirname "$0")/.."
src=${1:?BehaviorTree.CPP source dir}
lib=${2:?BehaviorTree.CPP build dir holding libbehaviortree_cpp}
reps=${3:-3}
out=build/btcpp-api-bench
mkdir -p "$out"
cmake --preset bench >/dev/null
cmake --build build/bench --target canopy_bench_btcpp_api >/dev/null
g++ -std=c++17 -O2 -DNDEBUG bench/btcpp_api_benchmark.cpp -o "$out/btcpp_bench" \
    -I "$src/include" -L "$lib" -lbehaviortree_cpp -Wl,-rpath,"$lib" -lbenchmark -pthread
for i in $(seq "$reps"); do
    build/bench/bench/canopy_bench_btcpp_api --benchmark_format=json >"$out/canopy-$i.json"
    "$out/btcpp_bench" --benchmark_format=json >"$out/btcpp-$i.json"
done
python3 - "$out" "$reps" <<'PY'
import json, statistics, sys
out, reps = sys.argv[1], int(sys.argv[2])
rows = {}
for side in ("canopy", "btcpp"):
    for i in range(1, reps + 1):
        for b in json.load(open(f"{out}/{side}-{i}.json"))["benchmarks"]:
            name = ("canopy::btcpp " if side == "canopy" and b["name"].startswith("BM_api")
                    else "BehaviorTree.CPP " if side == "btcpp" else "native ") + b["name"]
            rows.setdefault(name, []).append(b.get("bytes/tree", b["real_time"]))
for name, values in sorted(rows.items()):
    unit = "bytes/tree" if "memory" in name else "ns"
    print(f"{name:45} median {statistics.median(values):12.1f} {unit}  runs {values}")
PY
