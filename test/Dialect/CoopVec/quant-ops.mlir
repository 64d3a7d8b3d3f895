// RUN: coopvec-opt %s | coopvec-opt | FileCheck %s

// The quantized form of coopvec.batch_matvec and coopvec.quantize_rows
// round-trip.

// CHECK-LABEL: func.func @rfc_case
// CHECK: coopvec.batch_matvec %{{[[:alnum:]_]+}} as I8, %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}] matrix<U8, 256x128, RowMajor> stride %{{[[:alnum:]_]+}}
// CHECK-SAME: weight_zero_points %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}] as U8 group 128 : memref<?xi8>
// CHECK-SAME: weight_scales %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}] as F16 group 128 : memref<?xi8>
// CHECK-SAME: input_scales %{{[[:alnum:]_]+}} as F16 group 32 : memref<?x4xf16>
// CHECK-SAME: reductions %{{[[:alnum:]_]+}} as I32 group 32 : memref<?x4xi32>
// CHECK-SAME: bias %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}] as F16 into %{{[[:alnum:]_]+}} : memref<?x128xi8>, memref<?xi8>, memref<?xi8> -> memref<?x256xf16>
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

// CHECK-LABEL: func.func @per_tensor_zero_points
// CHECK: weight_zero_points %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}] as I8 per_tensor : memref<?xi8>
// CHECK-SAME: input_zero_points %{{[[:alnum:]_]+}} as I32 per_tensor : memref<1x1xi32>
// CHECK-SAME: into %{{[[:alnum:]_]+}} : memref<?x64xi8>, memref<?xi8> -> memref<?x32xi32>
func.func @per_tensor_zero_points(%x: memref<?x64xi8>, %w: memref<?xi8>, %zw: memref<?xi8>,
                                  %zx: memref<1x1xi32>, %y: memref<?x32xi32>) {
  %c0 = arith.constant 0 : index
  coopvec.batch_matvec %x as U8, %w[%c0] matrix<I4, 32x64, InferencingOptimal>
      weight_zero_points %zw[%c0] as I8 per_tensor : memref<?xi8>
      input_zero_points %zx as I32 per_tensor : memref<1x1xi32>
      into %y : memref<?x64xi8>, memref<?xi8> -> memref<?x32xi32>
  return
}

// CHECK-LABEL: func.func @quantize
// CHECK: coopvec.quantize_rows %{{[[:alnum:]_]+}} : memref<?x128xf32> group 32 as U8 into %{{[[:alnum:]_]+}} : memref<?x128xi8> scales %{{[[:alnum:]_]+}} : memref<?x4xf32> zero_points %{{[[:alnum:]_]+}} : memref<?x4xi32> reductions %{{[[:alnum:]_]+}} : memref<?x4xi32>
// CHECK: coopvec.quantize_rows %{{[[:alnum:]_]+}} : memref<?x128xf16> group 128 as I8 into %{{[[:alnum:]_]+}} : memref<?x128xi8> scales %{{[[:alnum:]_]+}} : memref<?x1xbf16>{{$}}
func.func @quantize(%x: memref<?x128xf32>, %h: memref<?x128xf16>, %q: memref<?x128xi8>, %s: memref<?x4xf32>,
                    %z: memref<?x4xi32>, %r: memref<?x4xi32>, %s1: memref<?x1xbf16>) {
  coopvec.quantize_rows %x : memref<?x128xf32> group 32 as U8 into %q : memref<?x128xi8>
      scales %s : memref<?x4xf32> zero_points %z : memref<?x4xi32> reductions %r : memref<?x4xi32>
  coopvec.quantize_rows %h : memref<?x128xf16> group 128 as I8 into %q : memref<?x128xi8>
      scales %s1 : memref<?x1xbf16>
  return
}
