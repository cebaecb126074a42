#!/usr/bin/env bash
# Installs what is missing, then builds with warnings as errors and runs every test, then
# builds again under AddressSanitizer + UndefinedBehaviorSanitizer and runs them all again,
# then runs the threaded tests under ThreadSanitizer, then runs every fuzz harness briefly.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
jobs=$(nproc)

echo "== build (warnings as errors) and test"
cmake --preset ci >/dev/null
cmake --build --preset ci -j "$jobs"
ctest --preset ci -j "$jobs"

echo "== build and test under ASan + UBSan"
cmake --preset asan >/dev/null
cmake --build --preset asan -j "$jobs"
ctest --preset asan -j "$jobs"

echo "== build and test the threaded tests under TSan"
cmake --preset tsan >/dev/null
cmake --build --preset tsan -j "$jobs"
ctest --preset tsan

echo "== fuzz every harness briefly (scripts/fuzz.sh runs them longer)"
scripts/fuzz.sh --seconds "${CANOPY_FUZZ_SECONDS:-30}" --jobs "$jobs"
