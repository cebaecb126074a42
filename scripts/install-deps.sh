#!/usr/bin/env bash
# Installs the Debian 12 packages Canopy builds with, if any is missing. Needs root or sudo;
# without either it names what is missing and stops.
set -euo pipefail

packages=(cmake ninja-build g++ nlohmann-json3-dev libtinyxml2-dev doctest-dev libcli11-dev
          libbenchmark-dev graphviz python3-jsonschema chromium
          libzmq3-dev cppzmq-dev  # canopy::groot2 (optional) and its tests
          libcpp-httplib-dev  # canopy::live (optional) and its tests
          libsqlite3-dev  # canopy::btcpp_sqlite (optional) and its tests
          clang libclang-rt-14-dev  # the asan and fuzz presets: clang++ and libFuzzer
          lld)  # the sanitized presets' linker
if [[ "${1:-}" == "--lint" ]]; then
  packages+=(clang-tidy clang-format)
fi

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ $(id -u) -eq 0 ]]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1; then
  sudo=(sudo)
else
  echo "Canopy needs these Debian packages, and installing them needs root or sudo:" >&2
  echo "  apt-get install ${missing[*]}" >&2
  exit 1
fi
echo "Installing ${missing[*]}"
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
