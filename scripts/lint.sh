#!/usr/bin/env bash
# Checks formatting (clang-format) and runs clang-tidy over the library, CLI and demo sources.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh --lint
files=$(git ls-files '*.cpp' '*.hpp')
echo "== clang-format"
clang-format --dry-run -Werror $files
echo "== clang-tidy"
# Over src/, btcpp/src/, tools/ and demo/ only: fuzz/ (and tests/) are formatted but not tidied. The fuzz
# harnesses are not in build/ci's compile database (they need Clang's -fsanitize=fuzzer; the ci
# preset builds with GCC), and what they share is compiled into the unit tests with -Werror.
# The database is GCC's: Clang does not know its code-alignment flags (CMakeLists.txt, the
# script interpreter), which clang-tidy would report as errors.
tidy=(clang-tidy --quiet --extra-arg=-std=c++17 --extra-arg=-Wno-ignored-optimization-argument)
sources=$(git ls-files 'src/*.cpp' 'btcpp/src/*.cpp' 'tools/*.cpp' 'demo/*.cpp')
# In two passes, each check once over every line. Matching the checks against all a file
# includes (the standard library's headers too) costs most of their time, once per
# translation unit: so they run over one unity batch per target (CMake's batch size 0), 17
# translation units, in 393 CPU-s where batches of eight files took 628. The analyzer looks
# only at the functions of the file it was given (a batch's files are included, not given),
# so it runs file by file.
cmake --preset ci >/dev/null
cmake --preset ci -B build/ci-unity -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=0 >/dev/null
# The batches of the tidied sources, and the sources kept out of batches (listed as
# themselves), from the unity build's compile database; every tidied source must be in one.
batches=$(/usr/bin/python3 - "$sources" <<'PY'
import json, os, re, sys
tidied = {os.path.abspath(f) for f in sys.argv[1].split()}
covered = set()
for entry in json.load(open("build/ci-unity/compile_commands.json")):
    path = entry["file"]
    if "/Unity/unity_" in path:
        included = re.findall(r'#include "([^"]+)"', open(path).read())
        if included and all(f in tidied for f in included):
            print(path)
            covered.update(included)
    elif path in tidied:
        print(path)
        covered.add(path)
missing = sorted(tidied - covered)
if missing:
    sys.exit("lint: in no batch of build/ci-unity: " + " ".join(missing))
PY
)
# The analyzer's pass: .clang-tidy's analyzer checkers (its other families, and the compiler's
# warnings, are the batches'). Largest files first, so that the two processes finish together
# rather than one waiting for a long file started last.
echo "$sources" | xargs ls -S |
  xargs -P "$(nproc)" -n 2 "${tidy[@]}" -p build/ci \
    --checks='-clang-diagnostic-*,-bugprone-*,-performance-*,-modernize-*,-readability-*,bugprone-suspicious-include' 2>&1 |
  { grep -v "warnings generated" || true; }  # clang-tidy's counts of suppressed warnings
# A batch includes .cpp files on purpose: the sources' own includes are checked file by file,
# above.
echo "$batches" | xargs -P "$(nproc)" -n 1 "${tidy[@]}" -p build/ci-unity \
  --checks='-clang-analyzer-*,-bugprone-suspicious-include' 2>&1 |
  { grep -v "warnings generated" || true; }
echo "lint: clean"
