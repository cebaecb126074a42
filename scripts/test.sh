#!/usr/bin/env bash
# Installs what is missing, then builds everything with warnings as errors under
# AddressSanitizer + UndefinedBehaviorSanitizer and runs every test (the consumer projects
# included), then runs the threaded tests under ThreadSanitizer, then runs every fuzz harness
# briefly. One sanitized build serves for the warnings too (at -O1: a warning only -O2's
# optimiser finds is not caught here); the unsanitized build it replaces took a quarter of
# CI's time.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
jobs=$(nproc)

echo "== build with warnings as errors under ASan + UBSan, and test"
cmake --preset asan >/dev/null
cmake --build --preset asan -j "$jobs"
ctest --preset asan -j "$jobs"

echo "== build and test the threaded tests under TSan"
cmake --preset tsan >/dev/null
cmake --build --preset tsan -j "$jobs"
ctest --preset tsan

echo "== fuzz every harness briefly (scripts/fuzz.sh runs them longer)"
scripts/fuzz.sh --seconds "${CANOPY_FUZZ_SECONDS:-30}" --jobs "$jobs"
