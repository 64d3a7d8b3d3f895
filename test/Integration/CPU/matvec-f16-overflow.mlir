// f32 -> f16 conversions follow the DXIL rule of Numerics.h on every path:
// round to nearest even, a finite value beyond the range gives +-65504, an
// infinity stays one. The reference semantics (I16/BF16 matrices, the DXIL
// driver) always did; the kernels' F16C/AVX-512 stores, their f32-read-as-F16
// input rounding and the tile level's arith.truncf overflowed to inf instead
// (found by test/Differential/gen.py: the same program gave 65504 or inf
// depending on the matrix type).

// RUN: %numpy_python -c "import numpy as np; w = np.zeros((32, 4), np.float32); w[:, 0] = [2, -2, 1, 0.5, np.inf, -np.inf, 2, -2] * 4; np.save('%t.w32.npy', w.view(np.uint8).reshape(-1)); h = np.zeros((16, 8), np.float16); h[0::2, 0] = 1; h[1::2, 1] = 1; np.save('%t.w16.npy', h.view(np.uint8).reshape(-1))"
// RUN: coopvec-run %s -e out_f16 --arg '[40000]' --arg %t.w32.npy | FileCheck %s --check-prefix=OUT
// RUN: env COOPVEC_KERNELS_ISA=avx2 coopvec-run %s -e out_f16 --arg '[40000]' --arg %t.w32.npy | FileCheck %s --check-prefix=OUT
// RUN: env COOPVEC_KERNELS_ISA=portable coopvec-run %s -e out_f16 --arg '[40000]' --arg %t.w32.npy | FileCheck %s --check-prefix=OUT
// RUN: coopvec-run %s -e out_f16 --arg '[40000]' --arg %t.w32.npy \
// RUN:   --pass-pipeline='builtin.module(coopvec-dxil-pipeline{emulate=true host-driver=true})' 2>/dev/null \
// RUN:   | FileCheck %s --check-prefix=OUT
// RUN: coopvec-run %s -e in_f16 --arg '[70000, -70000, 0, 0, 0, 0, 0, 0]' --arg %t.w16.npy | FileCheck %s --check-prefix=IN
// RUN: env COOPVEC_KERNELS_ISA=portable coopvec-run %s -e in_f16 --arg '[70000, -70000, 0, 0, 0, 0, 0, 0]' --arg %t.w16.npy | FileCheck %s --check-prefix=IN

// 40000 times [2, -2, 1, 0.5, inf, -inf, 2, -2] (repeated): 80000 and -80000
// saturate, 40000 and 20000 are exact, the infinities stay.
// OUT: [65504, -65504, 40000, 20000, inf, -inf, 65504, -65504, 65504, -65504, 40000, 20000, inf, -inf, 65504, -65504, 65504, -65504, 40000, 20000, inf, -inf, 65504, -65504, 65504, -65504, 40000, 20000, inf, -inf, 65504, -65504]
func.func @out_f16(%x: vector<1xf32>, %w: memref<?xi8>) -> vector<32xf16> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %y = coopvec.matvec %x as F32, %w[%c0] matrix<F32, 32x1, RowMajor> stride %c16
         : vector<1xf32>, memref<?xi8> -> vector<32xf16>
  return %y : vector<32xf16>
}

// f32 inputs read as F16: 70000 and -70000 become +-65504 (the F16 matrix's
// even rows pick the first input, its odd rows the second).
// IN: [65504, -65504, 65504, -65504, 65504, -65504, 65504, -65504, 65504, -65504, 65504, -65504, 65504, -65504, 65504, -65504]
func.func @in_f16(%x: vector<8xf32>, %w: memref<?xi8>) -> vector<16xf32> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %y = coopvec.matvec %x as F16, %w[%c0] matrix<F16, 16x8, RowMajor> stride %c16
         : vector<8xf32>, memref<?xi8> -> vector<16xf32>
  return %y : vector<16xf32>
}
