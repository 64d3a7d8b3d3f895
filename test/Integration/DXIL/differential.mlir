// The same coopvec program through the DXIL lowering + software driver and
// through the CPU lowering prints the same numbers (one set of CHECK lines
// for both), and those are the hand-computed products.
// RUN: coopvec-opt %s --coopvec-dxil-pipeline="emulate=true host-driver=true" 2>/dev/null \
// RUN:   | mlir-runner -e main -entry-point-result=void \
// RUN:       --shared-libs=%dxil_driver,%mlir_runner_utils | FileCheck %s
// RUN: %if coopvec-cpu-pipeline %{ coopvec-opt %s --convert-vector-to-scf --coopvec-cpu-pipeline \
// RUN:   | mlir-runner -e main -entry-point-result=void \
// RUN:       --shared-libs=%coopvec_runtime,%mlir_runner_utils | FileCheck %s %}

// W = [[1, 2, 3, 4], [5, 6, 7, 8], [-1, 0.5, 0.25, 2], [0, 0, 1, 0]]
memref.global "private" constant @w_rows : memref<4x4xf32> = dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [-1.0, 0.5, 0.25, 2.0], [0.0, 0.0, 1.0, 0.0]]>
// W in InferencingOptimal f32 row panels: element (r, c) at c * 32 + r * 4,
// i.e. W^T with rows padded to 8.
memref.global "private" constant @w_panels : memref<4x8xf32> = dense<[[1.0, 5.0, -1.0, 0.0, 0.0, 0.0, 0.0, 0.0], [2.0, 6.0, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0], [3.0, 7.0, 0.25, 1.0, 0.0, 0.0, 0.0, 0.0], [4.0, 8.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0]]>
// F16 rows padded to the 16-byte stride.
memref.global "private" constant @w_f16 : memref<4x8xf16> = dense<[[1.0, 2.0, 3.0, 4.0, 0.0, 0.0, 0.0, 0.0], [5.0, 6.0, 7.0, 8.0, 0.0, 0.0, 0.0, 0.0], [-1.0, 0.5, 0.25, 2.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0]]>
memref.global "private" constant @bias_f32 : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
// 2x8 I8 matrix, rows 16 bytes apart.
memref.global "private" constant @w_i8 : memref<2x16xi8> = dense<[[1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0, 0, 0, 0, 0], [-1, -1, -1, -1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0]]>
memref.global "private" constant @bias_i32 : memref<2xi32> = dense<[100, -100]>

func.func @main() {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %c384 = arith.constant 384 : index
  %c512 = arith.constant 512 : index
  %buf = memref.alloc() {alignment = 128 : i64} : memref<1024xi8>

  %g0 = memref.get_global @w_rows : memref<4x4xf32>
  %v0 = memref.view %buf[%c0][] : memref<1024xi8> to memref<4x4xf32>
  memref.copy %g0, %v0 : memref<4x4xf32> to memref<4x4xf32>
  %g1 = memref.get_global @w_panels : memref<4x8xf32>
  %v1 = memref.view %buf[%c128][] : memref<1024xi8> to memref<4x8xf32>
  memref.copy %g1, %v1 : memref<4x8xf32> to memref<4x8xf32>
  %g2 = memref.get_global @w_f16 : memref<4x8xf16>
  %v2 = memref.view %buf[%c256][] : memref<1024xi8> to memref<4x8xf16>
  memref.copy %g2, %v2 : memref<4x8xf16> to memref<4x8xf16>
  %g3 = memref.get_global @bias_f32 : memref<4xf32>
  %v3 = memref.view %buf[%c384][] : memref<1024xi8> to memref<4xf32>
  memref.copy %g3, %v3 : memref<4xf32> to memref<4xf32>
  %g4 = memref.get_global @w_i8 : memref<2x16xi8>
  %v4 = memref.view %buf[%c512][] : memref<1024xi8> to memref<2x16xi8>
  memref.copy %g4, %v4 : memref<2x16xi8> to memref<2x16xi8>
  %c640 = arith.constant 640 : index
  %g5 = memref.get_global @bias_i32 : memref<2xi32>
  %v5 = memref.view %buf[%c640][] : memref<1024xi8> to memref<2xi32>
  memref.copy %g5, %v5 : memref<2xi32> to memref<2xi32>

  %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : vector<4xf32>

  // W x + b, RowMajor.
  // CHECK: ( 31, 72, 11.75, 7 )
  %y0 = coopvec.matvec %x as F32, %buf[%c0] matrix<F32, 4x4, RowMajor> stride %c16
          bias %buf[%c384] as F32 : vector<4xf32>, memref<1024xi8>, memref<1024xi8> -> vector<4xf32>
  vector.print %y0 : vector<4xf32>

  // The same bytes read ColumnMajor are W^T.
  // CHECK-NEXT: ( 8, 15.5, 21.75, 26 )
  %y1 = coopvec.matvec %x as F32, %buf[%c0] matrix<F32, 4x4, ColumnMajor> stride %c16
          : vector<4xf32>, memref<1024xi8> -> vector<4xf32>
  vector.print %y1 : vector<4xf32>

  // InferencingOptimal, plain and transposed.
  // CHECK-NEXT: ( 30, 70, 8.75, 3 )
  // CHECK-NEXT: ( 8, 15.5, 21.75, 26 )
  %y2 = coopvec.matvec %x as F32, %buf[%c128] matrix<F32, 4x4, InferencingOptimal>
          : vector<4xf32>, memref<1024xi8> -> vector<4xf32>
  vector.print %y2 : vector<4xf32>
  %y3 = coopvec.matvec %x as F32, %buf[%c128] matrix<F32, 4x4, InferencingOptimal, transpose>
          : vector<4xf32>, memref<1024xi8> -> vector<4xf32>
  vector.print %y3 : vector<4xf32>

  // F16 input and matrix, F16 result (the D3D12 minimum set).
  // CHECK-NEXT: ( 30, 70, 8.75, 3 )
  %xh = arith.truncf %x : vector<4xf32> to vector<4xf16>
  %y4 = coopvec.matvec %xh as F16, %buf[%c256] matrix<F16, 4x4, RowMajor> stride %c16
          : vector<4xf16>, memref<1024xi8> -> vector<4xf16>
  vector.print %y4 : vector<4xf16>

  // Packed signed bytes [1, -2, 3, -4, 5, -6, 7, -8] times the I8 matrix
  // plus the I32 bias.
  // CHECK-NEXT: ( 64, -100 )
  %p = arith.constant dense<[-66847231, -133694971]> : vector<2xi32>
  %y5 = coopvec.matvec %p as PackedS8x32, %buf[%c512] matrix<I8, 2x8, RowMajor> stride %c16
          bias %buf[%c640] as I32 : vector<2xi32>, memref<1024xi8>, memref<1024xi8> -> vector<2xi32>
  vector.print %y5 : vector<2xi32>

  // f32 values converted to I8 (RTNE, saturating: 2.5 -> 2, 300 -> 127,
  // -3.5 -> -4): 2 + 254 - 12 + 26 + 100 and -2 - 127 + 4 + 4 - 100.
  // CHECK-NEXT: ( 370, -221 )
  %xf = arith.constant dense<[2.5, 300.0, -3.5, 0.0, 1.0, 1.0, 1.0, 1.0]> : vector<8xf32>
  %y6 = coopvec.matvec %xf as I8, %buf[%c512] matrix<I8, 2x8, RowMajor> stride %c16
          bias %buf[%c640] as I32 : vector<8xf32>, memref<1024xi8>, memref<1024xi8> -> vector<2xi32>
  vector.print %y6 : vector<2xi32>

  memref.dealloc %buf : memref<1024xi8>
  return
}
