#!/usr/bin/env bash
# Installs, builds and runs the main example: the neural shader of
# examples/neural_shading evaluated for every pixel of a 1920x1080 frame by
# the JIT (coopvec-run, default CPU pipeline: the per-pixel loop is batched
# and fused into one network kernel), written as a PNG next to the analytic
# reference, with their PSNR. Output: build/neural_shading/*.png.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
W=${W:-1920} H=${H:-1080}
bash scripts/install-deps.sh
bash scripts/build.sh coopvec-opt coopvec-run coopvec_runtime neural-shading

B=$BUILD_DIR/bin D=examples/neural_shading OUT=$BUILD_DIR/neural_shading
mkdir -p "$OUT"
"$B/neural-shading" reference --width "$W" --height "$H" -o "$OUT/reference.png"
"$B/neural-shading" features --width "$W" --height "$H" \
  -o "$OUT/features.npy" --rgb-buffer "$OUT/rgb.npy"
"$B/coopvec-run" "$D/shade_frame.mlir" -e shade_frame_f32 --no-print --time \
  --arg "$OUT/features.npy" \
  --arg "$D/weights/w0.npy" --arg "$D/weights/b0.npy" \
  --arg "$D/weights/w1.npy" --arg "$D/weights/b1.npy" \
  --arg "$D/weights/w2.npy" --arg "$D/weights/b2.npy" \
  --arg "$OUT/rgb.npy" --out-arg "7=$OUT/network.npy"
"$B/neural-shading" compare --width "$W" --height "$H" \
  --rgb "$OUT/network.npy" --reference "$OUT/reference.png" \
  -o "$OUT/neural.png"
echo "images: $OUT/reference.png (analytic), $OUT/neural.png (network)"
