// What only the software driver's reference implements (the CPU kernels do
// not take these combinations): FP8 interpretations with DXIL's conversion
// rules, and atomic accumulation, numbers computed by hand.
// RUN: coopvec-opt %s --coopvec-dxil-pipeline="emulate=true host-driver=true" 2>/dev/null \
// RUN:   | mlir-runner -e main -entry-point-result=void \
// RUN:       --shared-libs=%dxil_driver,%mlir_runner_utils | FileCheck %s

memref.global "private" constant @zeros : memref<1024xi8> = dense<0>
// W = [[1, 2, 0, 0], [0, 0.5, 0, 0], [0, 0, -1, 0], [0, 0, 0, 1]] as F8_E4M3
// (1.0 = 0x38, 2.0 = 0x40, 0.5 = 0x30, -1.0 = 0xB8) in TrainingOptimal
// 8x8 tiles: element (r, c) at byte c * 8 + r.
memref.global "private" constant @w_e4m3 : memref<8x8xi8> = dense<[[56, 0, 0, 0, 0, 0, 0, 0], [64, 48, 0, 0, 0, 0, 0, 0], [0, 0, -72, 0, 0, 0, 0, 0], [0, 0, 0, 56, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0]]>

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c256 = arith.constant 256 : index
  %c512 = arith.constant 512 : index
  %c576 = arith.constant 576 : index
  %buf = memref.alloc() {alignment = 128 : i64} : memref<1024xi8>
  %z = memref.get_global @zeros : memref<1024xi8>
  memref.copy %z, %buf : memref<1024xi8> to memref<1024xi8>
  %g = memref.get_global @w_e4m3 : memref<8x8xi8>
  %wv = memref.view %buf[%c0][] : memref<1024xi8> to memref<8x8xi8>
  memref.copy %g, %wv : memref<8x8xi8> to memref<8x8xi8>

  // The f16 input read as F8_E4M3: 300 rounds to 288, 1000 saturates to
  // 448; then W x.
  // CHECK: ( 5, 1, -288, 448 )
  %x = arith.constant dense<[1.0, 2.0, 300.0, 1000.0]> : vector<4xf16>
  %y = coopvec.matvec %x as F8_E4M3, %buf[%c0] matrix<F8_E4M3, 4x4, TrainingOptimal>
         : vector<4xf16>, memref<1024xi8> -> vector<4xf16>
  vector.print %y : vector<4xf16>

  // Transposed: W^T x.
  // CHECK-NEXT: ( 1, 3, -288, 448 )
  %yt = coopvec.matvec %x as F8_E4M3, %buf[%c0] matrix<F8_E4M3, 4x4, TrainingOptimal, transpose>
          : vector<4xf16>, memref<1024xi8> -> vector<4xf16>
  vector.print %yt : vector<4xf16>

  // Two outer products a b^T of f16 vectors into a 2x3 F32 TrainingOptimal
  // matrix: element (r, c) at (c * 8 + r) * 4, so each tile column holds
  // (M[0][c], M[1][c]) = 2 * a * b[c].
  // CHECK-NEXT: ( 6, 12 )
  // CHECK-NEXT: ( 8, 16 )
  // CHECK-NEXT: ( 10, 20 )
  %a = arith.constant dense<[1.0, 2.0]> : vector<2xf16>
  %b = arith.constant dense<[3.0, 4.0, 5.0]> : vector<3xf16>
  coopvec.outer_product_accumulate %a, %b, %buf[%c256] matrix<F32, 2x3, TrainingOptimal>
      : vector<2xf16>, vector<3xf16>, memref<1024xi8>
  coopvec.outer_product_accumulate %a, %b, %buf[%c256] matrix<F32, 2x3, TrainingOptimal>
      : vector<2xf16>, vector<3xf16>, memref<1024xi8>
  %acc = memref.view %buf[%c256][] : memref<1024xi8> to memref<8x8xf32>
  %col0 = vector.load %acc[%c0, %c0] : memref<8x8xf32>, vector<2xf32>
  %col1 = vector.load %acc[%c1, %c0] : memref<8x8xf32>, vector<2xf32>
  %col2 = vector.load %acc[%c2, %c0] : memref<8x8xf32>, vector<2xf32>
  vector.print %col0 : vector<2xf32>
  vector.print %col1 : vector<2xf32>
  vector.print %col2 : vector<2xf32>

  // Vector accumulation, twice: f16 adds, i32 wraps as atomics do.
  // CHECK-NEXT: ( 2, 4, 6, 8 )
  // CHECK-NEXT: ( -2, -10 )
  %v = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : vector<4xf16>
  coopvec.vector_accumulate %v, %buf[%c512] : vector<4xf16>, memref<1024xi8>
  coopvec.vector_accumulate %v, %buf[%c512] : vector<4xf16>, memref<1024xi8>
  %vi = arith.constant dense<[2147483647, -5]> : vector<2xi32>
  coopvec.vector_accumulate %vi, %buf[%c576] : vector<2xi32>, memref<1024xi8>
  coopvec.vector_accumulate %vi, %buf[%c576] : vector<2xi32>, memref<1024xi8>
  %hv = memref.view %buf[%c512][] : memref<1024xi8> to memref<4xf16>
  %h = vector.load %hv[%c0] : memref<4xf16>, vector<4xf16>
  vector.print %h : vector<4xf16>
  %iv = memref.view %buf[%c576][] : memref<1024xi8> to memref<2xi32>
  %i = vector.load %iv[%c0] : memref<2xi32>, vector<2xi32>
  vector.print %i : vector<2xi32>

  memref.dealloc %buf : memref<1024xi8>
  return
}
