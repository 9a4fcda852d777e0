#!/bin/bash
# The device run, started from the repository root on a machine lent by the device tool
# (after the command line has unpacked .gl/, see README.md). It unpacks the carried Deno and
# npm cache from .device/ into /tmp, generates the real-shaped models there (not in the tree),
# and runs tools/device/bench.ts within a time budget. Files under $OUT: scoring.md,
# scoring.json, run.log, env.txt, gpu.csv (nvidia-smi every 0.5 s, when there is one).
#
#   OUT=/tmp/out bash tools/device/run.sh [--small] [--budget=SECONDS]
#
# --small: the rehearsal sizes (a CPU adapter such as lavapipe). --budget: seconds after which
# the benchmark starts nothing new (default 380; the whole script then ends within 8 minutes).
set -uo pipefail
: "${OUT:?set OUT to the folder whose files come back}"
small=""
budget=380
for a in "$@"; do
  case $a in
  --small) small=--small ;;
  --budget=*) budget=${a#--budget=} ;;
  *) echo "run.sh: unknown argument $a" >&2; exit 2 ;;
  esac
done
[ -f .device/deno.xz ] && [ -f .device/deno_dir.tar.xz ] ||
  { echo "run.sh: .device/ is missing: run tools/device/prepare.sh and carry .device" >&2; exit 2; }
mkdir -p "$OUT"
exec > >(tee -a "$OUT/run.log") 2>&1
t0=$(date +%s)
work=$(mktemp -d /tmp/qa-kit-device.XXXXXX)
cleanup() {
  [ -n "${smi:-}" ] && kill "$smi" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
unxz_to() { # xz when the machine has it, else Python's lzma
  if command -v xz >/dev/null; then xz -dc "$1" >"$2"; else
    python3 -c 'import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],"wb"))' "$1" "$2"
  fi
}
unxz_to .device/deno.xz "$work/deno" && chmod +x "$work/deno" || exit 1
mkdir -p "$work/deno_dir" "$work/xdg" && chmod 700 "$work/xdg"
unxz_to .device/deno_dir.tar.xz "$work/deno_dir.tar" && tar -xf "$work/deno_dir.tar" -C "$work/deno_dir" &&
  rm "$work/deno_dir.tar" || exit 1
echo "run.sh: unpacked Deno and its npm cache in $(($(date +%s) - t0)) s"
# no network there: --cached-only below makes a missing package fail at once (the cache is
# kept per registry host, so NPM_CONFIG_REGISTRY must stay the default)
export DENO_DIR=$work/deno_dir QA_KIT_DATA_DIR=$work/cache XDG_RUNTIME_DIR=$work/xdg \
  DENO_NO_UPDATE_CHECK=1 NO_COLOR=1
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -f $icd ] && [ -z "${VK_DRIVER_FILES:-}" ] && export VK_DRIVER_FILES=$icd
{
  uname -a
  "$work/deno" --version
  command -v nvidia-smi >/dev/null && nvidia-smi
  ldconfig -p | grep -i vulkan
  echo "VK_DRIVER_FILES=${VK_DRIVER_FILES:-}"
} >"$OUT/env.txt" 2>&1
if command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=timestamp,memory.used,utilization.gpu --format=csv -lms 500 \
    >"$OUT/gpu.csv" 2>&1 &
  smi=$!
fi
timeout -k 5 $((budget + 60)) "$work/deno" run -A --cached-only --config deno.json \
  tools/device/bench.ts --out "$OUT" --budget "$budget" $small
rc=$?
if [ -n "${smi:-}" ]; then
  kill "$smi" 2>/dev/null
  peak=$(awk -F', ' 'NR > 1 && $2 + 0 > m { m = $2 + 0 } END { print m + 0 }' "$OUT/gpu.csv")
  echo "- peak GPU memory used (nvidia-smi, every 0.5 s): $peak MiB" >>"$OUT/scoring.md"
fi
echo "run.sh: bench exit $rc; whole run $(($(date +%s) - t0)) s"
exit $rc
