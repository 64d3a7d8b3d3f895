#!/usr/bin/env bash
# Runs every coopvec fuzzer (or those named) for SECONDS_EACH seconds, one
# after the other on one core, and prints per fuzzer the executions, the
# final coverage (cov: edges, ft: features), the corpus size and any crash,
# leak or timeout file.
#
#   fuzz/run-all.sh SECONDS_EACH [FUZZER...]
#
# BUILD_DIR (default build-san, the sanitized build of scripts/build.sh)
# holds the fuzzers (bin/); WORK_DIR (default $BUILD_DIR/fuzz-work) keeps the growing corpora and the artifacts between
# runs. Seeds come from fuzz/make-corpus.py, the regression inputs from
# test/Fuzz/Inputs/<fuzzer>/, dictionaries from fuzz/*.dict.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $# -lt 1 ]]; then
  echo "usage: $0 SECONDS_EACH [FUZZER...]" >&2
  exit 2
fi
SECONDS_EACH=$1
shift
FUZZERS=("$@")
if ((${#FUZZERS[@]} == 0)); then
  FUZZERS=(coopvec-parse-fuzzer coopvec-pass-fuzzer coopvec-npy-fuzzer
           coopvec-dxil-fuzzer coopvec-numerics-fuzzer)
fi
BUILD_DIR=${BUILD_DIR:-build-san}
WORK_DIR=${WORK_DIR:-$BUILD_DIR/fuzz-work}
# Debian's libMLIR.so is not instrumented: LLVM's inlined allocators poison
# memory that ASan would then report as use-after-poison.
export ASAN_OPTIONS=${ASAN_OPTIONS:-allow_user_poisoning=0}

python3 fuzz/make-corpus.py "$WORK_DIR/seeds" >/dev/null
status=0
for fuzzer in "${FUZZERS[@]}"; do
  binary=$BUILD_DIR/bin/$fuzzer
  if [[ ! -x $binary ]]; then
    echo "$fuzzer: not built ($binary)"
    status=1
    continue
  fi
  corpus=$WORK_DIR/corpus/$fuzzer
  artifacts=$WORK_DIR/artifacts/$fuzzer
  mkdir -p "$corpus" "$artifacts"
  args=(-max_total_time="$SECONDS_EACH" -print_final_stats=1
        -artifact_prefix="$artifacts/" -close_fd_mask=2 -timeout=25
        -rss_limit_mb=4096)
  case $fuzzer in
    coopvec-parse-fuzzer|coopvec-pass-fuzzer) args+=(-dict=fuzz/mlir.dict) ;;
    coopvec-npy-fuzzer) args+=(-dict=fuzz/npy.dict) ;;
  esac
  log=$WORK_DIR/$fuzzer.log
  start=$SECONDS
  # -close_fd_mask=2 keeps the tools' diagnostics out of the log; libFuzzer
  # and the sanitizers still report on a duplicate of stderr.
  if nice "$binary" "${args[@]}" "$corpus" "$WORK_DIR/seeds/$fuzzer" \
      test/Fuzz/Inputs/"$fuzzer" >"$log" 2>&1; then
    result=ok
  else
    result="FAILED (see $log)"
    status=1
  fi
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  crashes=$(ls "$artifacts" 2>/dev/null | tr '\n' ' ')
  printf '%s: %ss execs=%s exec/s=%s cov=%s ft=%s corpus=%s %s%s\n' \
    "$fuzzer" "$((SECONDS - start))" "${execs:-?}" "${speed:-?}" "${cov:-?}" \
    "${ft:-?}" "$(ls "$corpus" | wc -l)" "$result" \
    "${crashes:+ artifacts: $crashes}"
done
exit $status
