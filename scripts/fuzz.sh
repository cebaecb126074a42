#!/usr/bin/env bash
# Builds the libFuzzer harnesses (preset fuzz) and runs them, a few at a time:
#   scripts/fuzz.sh --minutes N [--jobs J] [--preset P] [harness...]   (or --seconds N)
# --preset names another build with the harnesses: CI's (asan) builds them with its tests.
# Each harness runs in one process for the time given; --jobs says how many harnesses run at
# once (default 1). No harness named: all of them (read_*, load_*, tick_*, one per format, and
# script_fuzzer, the script language's, substitution_fuzzer and scenario_fuzzer, the
# substitution rules' and the scenarios' readers, snapshot_fuzzer, snapshots', and
# groot2_fuzzer, the Groot2 request decoder's).
# Corpora are kept in build/fuzz-corpus/<harness>/ between runs; seeds (data/, tests/data/,
# tests/cli/, ../shared/corpus/ if present, and generated trees) are made afresh in
# build/fuzz-seeds/.
# Crashes, leaks and timeouts land in build/fuzz-artifacts/<harness>/; a summary of every run
# (exec/s, cov, ft, corpus size) in build/fuzz-logs/summary.txt. Exits 1 if any harness
# found something.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
jobs=1
preset=fuzz
harnesses=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --minutes) seconds=$(( $2 * 60 )); shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --preset) preset=$2; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) harnesses+=("$1"); shift ;;
  esac
done

cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"
bin=build/$preset/fuzz
if [[ ${#harnesses[@]} -eq 0 ]]; then
  for kind in read load tick convert; do
    for f in "$bin/${kind}"_*; do harnesses+=("$(basename "$f")"); done
  done
  harnesses+=(script_fuzzer)
  harnesses+=(substitution_fuzzer scenario_fuzzer snapshot_fuzzer)
  [[ -x $bin/groot2_fuzzer ]] && harnesses+=(groot2_fuzzer)
fi

seeds=build/fuzz-seeds
rm -rf "$seeds"
sources=(data tests/data tests/cli)
[[ -d ../shared/corpus ]] && sources+=(../shared/corpus)
"$bin/canopy_fuzz_seeds" "$seeds" --generated 200 "${sources[@]}"
mkdir -p build/fuzz-logs
summary=build/fuzz-logs/summary.txt
: >"$summary"

# One harness: its format is the part of its name after the first '_'.
run_one() {
  local harness=$1 format=${1#*_}
  [[ $harness == script_fuzzer ]] && format=script  # scripts, in no file format
  [[ $harness == snapshot_fuzzer ]] && format=snapshot  # seeds written by canopy_fuzz_seeds
  if [[ $harness == groot2_fuzzer || $harness == substitution_fuzzer ||
        $harness == scenario_fuzzer ]]; then
    format=${harness%_fuzzer}  # seeded from fuzz/FORMAT_seeds/
    mkdir -p "$seeds/$format" && cp "fuzz/${format}_seeds/"* "$seeds/$format/"
  fi
  local corpus=build/fuzz-corpus/$harness artifacts=build/fuzz-artifacts/$harness/
  local log=build/fuzz-logs/$harness.log dict=$seeds/$format.dict
  mkdir -p "$corpus" "$artifacts"
  cat "fuzz/$format.dict" "$seeds/types.dict" >"$dict"
  local status=0 start=$SECONDS
  local command=("$bin/$harness" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048
    -max_len=65536 -dict="$dict" -artifact_prefix="$artifacts" -print_final_stats=1
    "$corpus" "$seeds/$format")
  echo "${command[*]}" >"$log"
  ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "${command[@]}" >>"$log" 2>&1 || status=$?
  local elapsed=$((SECONDS - start))
  local last execs
  last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
  execs=$(grep -oE 'stat::average_exec_per_sec: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo '?')
  local cov ft corp
  cov=$(grep -oE 'cov: [0-9]+' <<<"$last" | grep -oE '[0-9]+' || echo '?')
  ft=$(grep -oE 'ft: [0-9]+' <<<"$last" | grep -oE '[0-9]+' || echo '?')
  corp=$(grep -oE 'corp: [0-9]+/[0-9A-Za-z]+' <<<"$last" | cut -d' ' -f2 || echo '?')
  local result=ok
  [[ $status -ne 0 ]] && result="FOUND (exit $status; see $log and $artifacts)"
  printf '%-16s %5ss  exec/s %-6s cov %-6s ft %-7s corpus %-12s %s\n' \
    "$harness" "$elapsed" "$execs" "$cov" "$ft" "$corp" "$result" | tee -a "$summary"
  # In CI the log is gone with the machine: show what the sanitizer or libFuzzer said.
  [[ $status -ne 0 ]] && tail -n 40 "$log" >&2
  [[ $status -eq 0 ]]
}

failed=0
running=0
for harness in "${harnesses[@]}"; do
  if [[ $running -ge $jobs ]]; then
    wait -n || failed=1
    running=$((running - 1))
  fi
  run_one "$harness" &
  running=$((running + 1))
done
while [[ $running -gt 0 ]]; do
  wait -n || failed=1
  running=$((running - 1))
done
echo "fuzz: summary in $summary"
exit $failed
