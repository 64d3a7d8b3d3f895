// An integer path whose exact sum leaves the 64-bit range: U32 inputs times
// a U32 matrix (each product up to (2^32 - 1)^2, about 2^64). The sum is
// exact and rounded once (RTNE) to an f32 result, or saturated to an i32
// one, on the CPU and through the DXIL driver alike (both run the runtime's
// reference semantics for U32 matrices). Found by test/Differential/gen.py:
// the f32 result was the sum clamped to 2^63 first.

// The input is four 0xFFFFFFFF read as U32; the U32 RowMajor 3x4 matrix
// (stride 16) holds 0xFFFFFFFF four times in row 0, twice in row 1 (then
// zeros) and the value 1 four times in row 2.
// DEFINE: %{matrix} = '[-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]'
// RUN: coopvec-run %s -e to_f32 --arg '[-1, -1, -1, -1]' --arg %{matrix} | FileCheck %s --check-prefix=F32
// RUN: coopvec-run %s -e to_f32 --arg '[-1, -1, -1, -1]' --arg %{matrix} \
// RUN:   --pass-pipeline='builtin.module(coopvec-dxil-pipeline{emulate=true host-driver=true})' \
// RUN:   2>/dev/null | FileCheck %s --check-prefix=F32
// RUN: coopvec-run %s -e to_i32 --arg '[-1, -1, -1, -1]' --arg %{matrix} | FileCheck %s --check-prefix=I32
// RUN: coopvec-run %s -e to_i32 --arg '[-1, -1, -1, -1]' --arg %{matrix} \
// RUN:   --pass-pipeline='builtin.module(coopvec-dxil-pipeline{emulate=true host-driver=true})' \
// RUN:   2>/dev/null | FileCheck %s --check-prefix=I32

// Row 0: 4 (2^32 - 1)^2 = 2^66 - 2^35 + 4 -> 2^66;
// row 1: 2 (2^32 - 1)^2 = 2^65 - 2^34 + 2 -> 2^65;
// row 2: 4 (2^32 - 1) = 2^34 - 4 -> 2^34; the bits are (e + 127) << 23.
// F32: [7.378698e+19, 3.689349e+19, 17179869184]
// F32-NEXT: [1619001344, 1610612736, 1350565888]
func.func @to_f32(%x: vector<4xi32>, %w: memref<?xi8>) -> (vector<3xf32>, vector<3xi32>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %y = coopvec.matvec %x unsigned as U32, %w[%c0] matrix<U32, 3x4, RowMajor> stride %c16
         : vector<4xi32>, memref<?xi8> -> vector<3xf32>
  %bits = arith.bitcast %y : vector<3xf32> to vector<3xi32>
  return %y, %bits : vector<3xf32>, vector<3xi32>
}

// The same sums saturate to INT32_MAX.
// I32: [2147483647, 2147483647, 2147483647]
func.func @to_i32(%x: vector<4xi32>, %w: memref<?xi8>) -> vector<3xi32> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %y = coopvec.matvec %x unsigned as U32, %w[%c0] matrix<U32, 3x4, RowMajor> stride %c16
         : vector<4xi32>, memref<?xi8> -> vector<3xi32>
  return %y : vector<3xi32>
}
