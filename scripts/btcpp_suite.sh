#!/usr/bin/env bash
# Builds BehaviorTree.CPP's own unit tests, unchanged, one program per test file, against an
# installed runtime (canopy::btcpp, or BehaviorTree.CPP itself for the baseline), runs each and
# prints per-file counts: whether it compiles (else its first error) and how many tests pass.
#
#   scripts/btcpp_suite.sh --source BTCPP_SRC --against canopy --out DIR \
#                          [--compare BASELINE.json] [--only REGEX]
#   scripts/btcpp_suite.sh --source BTCPP_SRC --against btcpp --prefix INSTALL_PREFIX --out DIR
#
# BTCPP_SRC is BehaviorTree.CPP's source (`git archive 4.10.0`). Against canopy, this checkout
# is built in DIR (add_subdirectory, so an edit rebuilds only what it touches); against btcpp,
# INSTALL_PREFIX is where BehaviorTree.CPP was installed. The results go to DIR/results.json; with
# --compare, the tests that pass in the baseline and fail here are listed per file.
# Neither BehaviorTree.CPP nor its tests are part of this repository: this script only builds
# them where you point it, outside the checkout.
set -euo pipefail

source_dir="" prefix="" against="" out="" compare="" only=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --source) source_dir=$(realpath "$2"); shift 2 ;;
    --prefix) prefix=$(realpath "$2"); shift 2 ;;
    --against) against="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --compare) compare=$(realpath "$2"); shift 2 ;;
    --only) only="$2"; shift 2 ;;
    *) echo "btcpp_suite.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
if [[ -z "$source_dir" || -z "$out" ]] || [[ "$against" != canopy && "$against" != btcpp ]] ||
   [[ "$against" == btcpp && -z "$prefix" ]]; then
  sed -n '2,16p' "$0" >&2
  exit 2
fi
[[ -f "$source_dir/tests/gtest_any.cpp" ]] ||
  { echo "btcpp_suite.sh: no tests/gtest_any.cpp under $source_dir" >&2; exit 2; }
mkdir -p "$out"
out=$(realpath "$out")
tests="$source_dir/tests"

mapfile -t files < <(cd "$tests" && ls gtest_*.cpp navigation_test.cpp script_parser_test.cpp |
                     grep -E "${only:-.}")

if [[ "$against" == canopy ]]; then
  checkout=$(realpath "$(dirname "$0")/..")
  find_runtime="set(CANOPY_BUILD_TESTS OFF CACHE BOOL \"\")
set(CANOPY_BUILD_TOOLS OFF CACHE BOOL \"\")
set(CANOPY_INSTALL OFF CACHE BOOL \"\")
add_subdirectory($checkout canopy)
set(runtime canopy::btcpp canopy::btcpp_groot2)
if(TARGET canopy::btcpp_sqlite)
  list(APPEND runtime canopy::btcpp_sqlite)
endif()"
else
  find_runtime='find_package(behaviortree_cpp REQUIRED)
set(runtime BT::behaviortree_cpp)'
fi

{
  cat <<EOF
cmake_minimum_required(VERSION 3.16)
project(btcpp_suite CXX)
set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
$find_runtime
find_package(GTest REQUIRED)
find_package(Threads REQUIRED)
add_library(suite_support STATIC
  $tests/src/action_test_node.cpp $tests/src/condition_test_node.cpp
  $source_dir/sample_nodes/dummy_nodes.cpp $source_dir/sample_nodes/crossdoor_nodes.cpp
  $source_dir/sample_nodes/movebase_node.cpp)
target_include_directories(suite_support PUBLIC $tests/include $tests $source_dir/sample_nodes)
target_link_libraries(suite_support PUBLIC \${runtime} GTest::gtest GTest::gmock GTest::gtest_main
                      Threads::Threads)
add_library(plugin_issue953 SHARED $tests/plugin_issue953/plugin_issue953.cpp)
target_compile_definitions(plugin_issue953 PRIVATE BT_PLUGIN_EXPORT)
set_target_properties(plugin_issue953 PROPERTIES PREFIX "")
target_link_libraries(plugin_issue953 \${runtime})
EOF
  for f in "${files[@]}"; do
    name=${f%.cpp}
    cat <<EOF
add_executable($name $tests/$f)
target_link_libraries($name suite_support)
target_compile_definitions($name PRIVATE BT_TEST_FOLDER="$tests"
  BT_PLUGIN_ISSUE953_PATH="\$<TARGET_FILE:plugin_issue953>")
EOF
  done
} > "$out/CMakeLists.txt"

cmake -S "$out" -B "$out/build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O0 -g1" \
  ${prefix:+-DCMAKE_PREFIX_PATH="$prefix"} > "$out/configure.log"
# -k 0: a file that does not compile must not stop the others.
cmake --build "$out/build" -- -k 0 > "$out/build.log" 2>&1 || true

for f in "${files[@]}"; do
  name=${f%.cpp}
  rm -f "$out/$name.json"
  if [[ -x "$out/build/$name" ]]; then
    (cd "$tests" && timeout 300 "$out/build/$name" --gtest_output="json:$out/$name.json" \
       > "$out/$name.log" 2>&1) || true
  fi
done

/usr/bin/python3 - "$out" "$compare" "${files[@]}" <<'EOF'
import json, os, re, sys
out, compare, files = sys.argv[1], sys.argv[2], sys.argv[3:]
build_log = open(os.path.join(out, "build.log"), errors="replace").read()

def first_error(name):
    for line in build_log.splitlines():
        if name + ".cpp" in line and "error:" in line:
            return re.sub(r"^.*?tests/", "", line)[:160]
    return "does not build (see build.log)"

results = {}
for f in files:
    name = f[:-4]
    path = os.path.join(out, name + ".json")
    entry = {"compiles": os.path.exists(os.path.join(out, "build", name)), "tests": {}}
    if not entry["compiles"]:
        entry["error"] = first_error(name)
    elif os.path.exists(path):
        for suite in json.load(open(path))["testsuites"]:
            for t in suite["testsuite"]:
                passed = t.get("result") == "COMPLETED" and not t.get("failures")
                entry["tests"][suite["name"] + "." + t["name"]] = passed
    else:
        entry["error"] = "crashed or timed out (see %s.log)" % name
    results[name] = entry
json.dump(results, open(os.path.join(out, "results.json"), "w"), indent=1, sort_keys=True)

baseline = json.load(open(compare)) if compare else None
total = passed = compiled = 0
for name, entry in sorted(results.items()):
    ok = sum(entry["tests"].values())
    base = baseline.get(name, {}).get("tests", {}) if baseline else {}
    goal = sum(base.values()) if baseline else len(entry["tests"])
    total += goal
    compiled += entry["compiles"]
    if baseline:
        ok = sum(1 for t, p in base.items() if p and entry["tests"].get(t))
    passed += ok
    note = "" if "error" not in entry else "  " + entry["error"]
    print("%-44s %4d / %-4d%s" % (name, ok, goal, note))
    if baseline:
        for t, p in sorted(base.items()):
            if p and not entry["tests"].get(t):
                print("    fails: " + t)
print("files that compile: %d / %d; tests passing: %d / %d" % (compiled, len(results), passed, total))
EOF
