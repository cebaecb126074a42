#!/usr/bin/env bash
# Installs what is missing, then builds everything twice, with warnings as errors each time:
# - with Clang under AddressSanitizer + UndefinedBehaviorSanitizer, running every test (the
#   consumer projects included), then every fuzz harness briefly: the harnesses are built in
#   the same tree, whose code carries libFuzzer's coverage, so the library compiles once for
#   both;
# - with GCC under ThreadSanitizer, running the threaded tests.
# Each sanitized build serves for its compiler's warnings too (at -O1: a warning only -O2's
# optimiser finds is not caught here); unsanitized builds for them took a quarter of CI's time.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
jobs=$(nproc)

echo "== build with Clang and warnings as errors under ASan + UBSan, and test"
cmake --preset asan >/dev/null
cmake --build --preset asan -j "$jobs"
ctest --preset asan -j "$jobs"

echo "== fuzz every harness briefly (scripts/fuzz.sh runs them longer)"
scripts/fuzz.sh --preset asan --seconds "${CANOPY_FUZZ_SECONDS:-30}" --jobs "$jobs"

echo "== build with GCC and warnings as errors under TSan, and run the threaded tests"
cmake --preset tsan >/dev/null
cmake --build --preset tsan -j "$jobs"
ctest --preset tsan
