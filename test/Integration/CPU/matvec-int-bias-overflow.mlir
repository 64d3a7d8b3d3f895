// An I32 bias near the ends of the i32 range: the exact sum plus bias
// saturates to an i32 result and rounds once to an f32 one, on every path.
// The integer kernels sum in i32 (wrapping): they take a call only when
// K * max|w| * max|x| plus every bias stays inside i32 and leave the others
// to the reference; the tile level adds the bias in i64. Found by
// test/Differential/gen.py (the kernels and the tiles wrapped).

// Rows of an I8 8x4 matrix: [1, 0, 0, 0]; input 100 read as I8; bias
// 2147483597 per row: the exact sum 2147483697 saturates to 2147483647 (i32)
// and rounds to 2147483648 (f32).
// DEFINE: %{w} = '[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]'
// DEFINE: %{b} = '[205, 255, 255, 127, 205, 255, 255, 127, 205, 255, 255, 127, 205, 255, 255, 127, 205, 255, 255, 127, 205, 255, 255, 127, 205, 255, 255, 127, 205, 255, 255, 127]'
// RUN: coopvec-run %s -e main --arg '[100, 0, 0, 0]' --arg %{w} --arg %{b} | FileCheck %s
// RUN: env COOPVEC_KERNELS_ISA=avx2 coopvec-run %s -e main --arg '[100, 0, 0, 0]' --arg %{w} --arg %{b} | FileCheck %s
// RUN: env COOPVEC_KERNELS_ISA=portable coopvec-run %s -e main --arg '[100, 0, 0, 0]' --arg %{w} --arg %{b} | FileCheck %s
// RUN: coopvec-run %s -e main --arg '[100, 0, 0, 0]' --arg %{w} --arg %{b} \
// RUN:   --pass-pipeline='builtin.module(coopvec-dxil-pipeline{emulate=true host-driver=true})' | FileCheck %s
// CHECK: [2147483647, 2147483647, 2147483647, 2147483647, 2147483647, 2147483647, 2147483647, 2147483647]
// CHECK-NEXT: [2147483648, 2147483648, 2147483648, 2147483648, 2147483648, 2147483648, 2147483648, 2147483648]

func.func @main(%x: vector<4xf32>, %w: memref<?xi8>, %b: memref<?xi8>) -> (vector<8xi32>, vector<8xf32>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %y = coopvec.matvec %x as I8, %w[%c0] matrix<I8, 8x4, RowMajor> stride %c16 bias %b[%c0] as I32
         : vector<4xf32>, memref<?xi8>, memref<?xi8> -> vector<8xi32>
  %z = coopvec.matvec %x as I8, %w[%c0] matrix<I8, 8x4, RowMajor> stride %c16 bias %b[%c0] as I32
         : vector<4xf32>, memref<?xi8>, memref<?xi8> -> vector<8xf32>
  return %y, %z : vector<8xi32>, vector<8xf32>
}
