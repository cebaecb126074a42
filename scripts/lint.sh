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
# Each line: the size of the text it brings (a batch's, what it includes), then its path.
batches=$(/usr/bin/python3 - "$sources" <<'PY'
import json, os, re, sys
tidied = {os.path.abspath(f) for f in sys.argv[1].split()}
covered = set()
for entry in json.load(open("build/ci-unity/compile_commands.json")):
    path = entry["file"]
    if "/Unity/unity_" in path:
        included = re.findall(r'#include "([^"]+)"', open(path).read())
        if included and all(f in tidied for f in included):
            print(sum(os.path.getsize(f) for f in included), path)
            covered.update(included)
    elif path in tidied:
        print(os.path.getsize(path), path)
        covered.add(path)
missing = sorted(tidied - covered)
if missing:
    sys.exit("lint: in no batch of build/ci-unity: " + " ".join(missing))
PY
)
# One queue for both passes, longest first, so that the two processes finish together rather
# than one waiting for a long job started last. A job's length is guessed from its text: a
# batch's is what it includes, and the analyzer takes about three times as long as the other
# checks over the same text.
# - The analyzer's pass, file by file: .clang-tidy's analyzer checkers (its other families, and
#   the compiler's warnings, are the batches'). Parsing each file alone is also what catches a
#   missing include, which the builds' batches hide; so it stays file by file: 1517 CPU-s,
#   where each target's files written one after the other into one file (behind `#line`
#   directives) took 1089, and parsing each file alone besides (g++ -fsyntax-only) 431.
# - The other checks over the batches. A batch includes .cpp files on purpose: the sources' own
#   includes are checked file by file.
analyzer='-clang-diagnostic-*,-bugprone-*,-performance-*,-modernize-*,-readability-*,bugprone-suspicious-include'
{
  for source in $sources; do
    echo "$(($(wc -c <"$source") * 3)) -p build/ci --checks=$analyzer $source"
  done
  while read -r size batch; do
    echo "$size -p build/ci-unity --checks=-clang-analyzer-*,-bugprone-suspicious-include $batch"
  done <<<"$batches"
} | sort -rn | cut -d' ' -f2- |
  xargs -P "$(nproc)" -L 1 "${tidy[@]}" 2>&1 |
  { grep -v "warnings generated" || true; }  # clang-tidy's counts of suppressed warnings
echo "lint: clean"
