#!/bin/bash
# Prepares, on this machine, the folders a device run carries (both ignored by git):
#   .gl/      the Vulkan loader and GL/EGL libraries as Debian packages for amd64, the
#             recipe of the device README (the device has no libvulkan of its own);
#   .device/  deno.xz (this machine's Deno 2.9.6, xz-compressed) and deno_dir.tar.xz (a
#             DENO_DIR holding only the npm packages tools/device/bench.ts imports, with
#             onnxruntime-web's unused bundles, source maps and wasm variants removed, and
#             onnxruntime-node's binaries for platforms other than linux/x64 removed).
# Prints their sizes and the size of what travels with the tree. Run from anywhere.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
deno=$(command -v deno)
"$deno" --version | head -1
mkdir -p .device .gl
# --- Vulkan loader (the device README's recipe)
if ! ls .gl/libvulkan1_*.deb >/dev/null 2>&1; then
  mkdir -p /tmp/amd64/partial
  o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
  apt-get $o update -qq
  (cd .gl && apt-get $o download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
fi
# --- Deno, compressed
if [ ! -f .device/deno.xz ] || [ "$deno" -nt .device/deno.xz ]; then
  xz -T2 -9 -c "$deno" >.device/deno.xz.tmp && mv .device/deno.xz.tmp .device/deno.xz
fi
# --- the npm packages the device benchmark imports, in a fresh DENO_DIR
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
DENO_DIR=$tmp/deno_dir "$deno" cache --quiet --config deno.json tools/device/bench.ts
ort=$(echo "$tmp"/deno_dir/npm/registry.npmjs.org/onnxruntime-web/*/dist)
# keep the two entry points Deno resolves (the "node" condition of "onnxruntime-web", the
# default of "onnxruntime-web/webgpu") and the wasm builds they load: plain (cpu) and asyncify
# (webgpu); the rehearsal (README.md) fails if one is missing
find "$ort" -type f ! \( -name 'ort.node.min.mjs' -o -name 'ort.webgpu.bundle.min.mjs' \
  -o -name 'ort-wasm-simd-threaded.mjs' -o -name 'ort-wasm-simd-threaded.wasm' \
  -o -name 'ort-wasm-simd-threaded.asyncify.mjs' -o -name 'ort-wasm-simd-threaded.asyncify.wasm' \) \
  -delete
rm -rf "$ort/../lib" "$tmp"/deno_dir/gen "$tmp"/deno_dir/*cache_v2*
# onnxruntime-node ships its Node-API addon for five platforms; the device is linux/x64
node_bin=$(echo "$tmp"/deno_dir/npm/registry.npmjs.org/onnxruntime-node/*/bin/napi-v6)
[ -f "$node_bin/linux/x64/onnxruntime_binding.node" ] ||
  { echo "prepare.sh: no onnxruntime-node linux/x64 binary in $node_bin" >&2; exit 1; }
find "$node_bin" -mindepth 2 -maxdepth 2 -type d ! -path "$node_bin/linux/x64" -exec rm -rf {} +
rm -rf "$node_bin"/../../script "$node_bin"/../../lib
tar -C "$tmp/deno_dir" -cf - npm | xz -T2 -9 >.device/deno_dir.tar.xz.tmp
mv .device/deno_dir.tar.xz.tmp .device/deno_dir.tar.xz
du -b .gl/*.deb .device/* | awk '{ printf "%10.1f MiB  %s\n", $1 / 2^20, $2 }'
tree=$(git ls-files -z | xargs -0 du -cb 2>/dev/null | tail -1 | cut -f1)
untracked=$(git ls-files -z --others --exclude-standard | xargs -0 -r du -cb 2>/dev/null | tail -1 | cut -f1)
carried=$(du -cb .gl .device | tail -1 | cut -f1)
total=$((tree + ${untracked:-0} + carried))
printf 'travels: tree %.1f MiB + untracked %.1f MiB + carried %.1f MiB = %.1f MiB (limit 64 MiB)\n' \
  "$(echo "$tree / 1048576" | bc -l)" "$(echo "${untracked:-0} / 1048576" | bc -l)" \
  "$(echo "$carried / 1048576" | bc -l)" "$(echo "$total / 1048576" | bc -l)"
[ "$total" -lt $((64 * 1048576)) ] || { echo "prepare.sh: over 64 MiB" >&2; exit 1; }
