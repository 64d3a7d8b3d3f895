// RUN: coopvec-opt %s --convert-coopvec-to-cpu | FileCheck %s

// The quantized form of coopvec.batch_matvec becomes one
// coopvecCpuQuantizedMatMul call after the bounds checks of the matrix, the
// bias and the weight-side values (256 F16 bias bytes, 256 U8 zero points of
// 256 rows x 1 group, 512 F16 scale bytes); coopvec.quantize_rows one
// coopvecCpuQuantizeRows call.

// CHECK-DAG: func.func private @coopvecCpuQuantizedMatMul(!llvm.ptr) -> i32
// CHECK-DAG: func.func private @coopvecCpuQuantizeRows(!llvm.ptr) -> i32
// CHECK-LABEL: func.func @rfc_case
// CHECK: call @coopvecCpuCheckMatrix(%{{.*}}, %{{.*}}, %c0_i32, %c256_i32, %c128_i32, %c1_i32, %{{.*}})
// CHECK: call @coopvecCpuCheckRange(%{{.*}}, %{{.*}}, %c512_i64)
// CHECK: call @coopvecCpuCheckRange(%{{.*}}, %{{.*}}, %c256_i64)
// CHECK: call @coopvecCpuCheckRange(%{{.*}}, %{{.*}}, %c512_i64)
// CHECK: call @coopvecCpuQuantizedMatMul(%{{.*}}) : (!llvm.ptr) -> i32
// CHECK-NOT: coopvec.
func.func @rfc_case(%x: memref<?x128xi8>, %w: memref<?xi8>, %zw: memref<?xi8>, %sw: memref<?xi8>,
                    %sx: memref<?x4xf16>, %r: memref<?x4xi32>, %b: memref<?xi8>, %y: memref<?x256xf16>) {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<U8, 256x128, RowMajor> stride %c128
      weight_zero_points %zw[%c0] as U8 group 128 : memref<?xi8>
      weight_scales %sw[%c0] as F16 group 128 : memref<?xi8>
      input_scales %sx as F16 group 32 : memref<?x4xf16>
      reductions %r as I32 group 32 : memref<?x4xi32>
      bias %b[%c0] as F16 into %y : memref<?x128xi8>, memref<?xi8>, memref<?xi8> -> memref<?x256xf16>
  return
}

// CHECK-LABEL: func.func @quantize
// CHECK: call @coopvecCpuQuantizeRows(%{{.*}}) : (!llvm.ptr) -> i32
// CHECK-NOT: coopvec.
func.func @quantize(%x: memref<?x128xf32>, %q: memref<?x128xi8>, %s: memref<?x4xf32>,
                    %z: memref<?x4xi32>, %r: memref<?x4xi32>) {
  coopvec.quantize_rows %x : memref<?x128xf32> group 32 as U8 into %q : memref<?x128xi8>
      scales %s : memref<?x4xf32> zero_points %z : memref<?x4xi32> reductions %r : memref<?x4xi32>
  return
}
