#!/usr/bin/env bash
# Regenerates the viewer's screenshots in docs/images/ with headless Chromium:
#   pet-viewer.png     canopy html data/pet.json
#   hornet-viewer.png  canopy html data/hornet.json --ticks 40 --seed 8, shown at tick 31 (where
#                      evading at low health halts the dash)
# Uses the canopy program of build/ci (or $CANOPY); builds it first if it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

canopy=${CANOPY:-build/ci/tools/canopy/canopy}
if [[ ! -x $canopy ]]; then
  cmake --preset ci >/dev/null
  cmake --build --preset ci --target canopy-cli
fi
chromium=$(command -v chromium || command -v chromium-browser || true)
if [[ -z $chromium ]]; then
  echo "screenshots.sh needs Chromium (scripts/install-deps.sh installs it)" >&2
  exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
shoot() {  # shoot PAGE_URL OUTPUT WIDTH HEIGHT
  timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
    --no-first-run --disable-extensions --disable-background-networking --hide-scrollbars \
    --user-data-dir="$work/profile" --force-device-scale-factor=1 --window-size="$3,$4" \
    --virtual-time-budget=3000 --screenshot="$2" "$1" 2>/dev/null
  echo "$2: $(stat -c %s "$2") bytes"
}

"$canopy" html data/pet.json -o "$work/pet.html"
"$canopy" html data/hornet.json --ticks 40 --seed 8 -o "$work/hornet.html"
mkdir -p docs/images
shoot "file://$work/pet.html#select=2" docs/images/pet-viewer.png 1100 300
shoot "file://$work/hornet.html#tick=31&select=4" docs/images/hornet-viewer.png 1280 510
