#!/usr/bin/env bash
# Installs what is missing, builds the canopy CLI in release mode and prints the pet tree.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release --target canopy-cli
echo
echo "$ canopy print data/pet.json"
build/release/tools/canopy/canopy print data/pet.json
