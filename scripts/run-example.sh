#!/usr/bin/env bash
# Installs, builds and runs the main example: the neural shader of
# examples/neural_shading checked against the D3D12 profile and its buffer
# sizes folded by the dialect's layout math.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
bash scripts/install-deps.sh
bash scripts/build.sh coopvec-opt
"$BUILD_DIR/bin/coopvec-opt" examples/neural_shading/shade_pixel.mlir \
  --coopvec-check-support="profile=d3d12-tier1.1" --canonicalize
