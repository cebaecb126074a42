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
cmake --preset ci >/dev/null
# Largest files first, so that the two processes finish together rather than one waiting for a
# long file started last.
# The database is GCC's: Clang does not know its code-alignment flags (CMakeLists.txt, the
# script interpreter), which clang-tidy would report as errors.
git ls-files 'src/*.cpp' 'btcpp/src/*.cpp' 'tools/*.cpp' 'demo/*.cpp' | xargs ls -S |
  xargs -P "$(nproc)" -n 2 clang-tidy -p build/ci --quiet --extra-arg=-std=c++17 \
    --extra-arg=-Wno-ignored-optimization-argument 2>&1 |
  { grep -v "warnings generated" || true; }  # clang-tidy's counts of suppressed warnings
echo "lint: clean"
