#!/usr/bin/env bash
# Installs what is missing, builds the canopy CLI in release mode, prints the pet tree and
# runs the Hornet boss.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release --target canopy-cli
canopy=build/release/tools/canopy/canopy
echo
echo "$ canopy print data/pet.json"
"$canopy" print data/pet.json
echo
echo "$ canopy run data/hornet.json --ticks 12"
"$canopy" run data/hornet.json --ticks 12
