// Where the spec leaves a call undefined, the driver touches no memory,
// reports the dx.op and the bound, counts the error and goes on (the result
// is zero); with COOPVEC_DXIL_ABORT_ON_ERROR=1 it aborts instead.
// RUN: coopvec-opt %s --coopvec-dxil-pipeline="emulate=true host-driver=true" 2>/dev/null \
// RUN:   | mlir-runner -e main -entry-point-result=void \
// RUN:       --shared-libs=%dxil_driver,%mlir_runner_utils 2>&1 | FileCheck %s
// RUN: coopvec-opt %s --coopvec-dxil-pipeline="emulate=true host-driver=true" 2>/dev/null \
// RUN:   | env COOPVEC_DXIL_ABORT_ON_ERROR=1 not --crash mlir-runner -e main \
// RUN:       -entry-point-result=void --shared-libs=%dxil_driver,%mlir_runner_utils 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ABORT

func.func @matvec(%x: vector<4xf32>, %buf: memref<256xi8>, %off: index, %stride: index) -> vector<4xf32> {
  %y = coopvec.matvec %x as F32, %buf[%off] matrix<F32, 4x4, RowMajor> stride %stride
         : vector<4xf32>, memref<256xi8> -> vector<4xf32>
  return %y : vector<4xf32>
}

func.func @matvec_bias(%x: vector<4xf16>, %buf: memref<256xi8>, %boff: index) -> vector<4xf16> {
  %c0 = arith.constant 0 : index
  %y = coopvec.matvec %x as F16, %buf[%c0] matrix<F16, 4x4, InferencingOptimal>
         bias %buf[%boff] as F16 : vector<4xf16>, memref<256xi8>, memref<256xi8> -> vector<4xf16>
  return %y : vector<4xf16>
}

func.func @accumulate(%v: vector<8xf16>, %buf: memref<256xi8>, %off: index) {
  coopvec.vector_accumulate %v, %buf[%off] : vector<8xf16>, memref<256xi8>
  return
}

func.func @outer(%a: vector<8xf16>, %buf: memref<256xi8>, %off: index) {
  coopvec.outer_product_accumulate %a, %a, %buf[%off] matrix<F16, 8x8, TrainingOptimal>
      : vector<8xf16>, vector<8xf16>, memref<256xi8>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c192 = arith.constant 192 : index
  %c256 = arith.constant 256 : index
  %buf = memref.alloc() {alignment = 128 : i64} : memref<256xi8>
  %x = arith.constant dense<1.0> : vector<4xf32>

  // CHECK: coopvec-dxil: error: dx.op.matVecMul.v4f32.v4f32: the 4x4 F32 RowMajor matrix at offset 256 needs bytes [256, 320), beyond the 256-byte buffer
  // ABORT: coopvec-dxil: error: dx.op.matVecMul.v4f32.v4f32: the 4x4 F32 RowMajor matrix at offset 256 needs bytes [256, 320), beyond the 256-byte buffer
  // ABORT-NOT: ( 0, 0, 0, 0 )
  %0 = func.call @matvec(%x, %buf, %c256, %c16) : (vector<4xf32>, memref<256xi8>, index, index) -> vector<4xf32>
  vector.print %0 : vector<4xf32>

  // CHECK-NEXT: coopvec-dxil: error: dx.op.matVecMul.v4f32.v4f32: the matrix offset 64 is not a multiple of 128 bytes
  %1 = func.call @matvec(%x, %buf, %c64, %c16) : (vector<4xf32>, memref<256xi8>, index, index) -> vector<4xf32>
  // CHECK-NEXT: coopvec-dxil: error: dx.op.matVecMul.v4f32.v4f32: the RowMajor matrix stride 8 is not a multiple of 16 bytes at least one row (16 bytes) long
  %c8 = arith.constant 8 : index
  %2 = func.call @matvec(%x, %buf, %c0, %c8) : (vector<4xf32>, memref<256xi8>, index, index) -> vector<4xf32>
  // CHECK-NEXT: coopvec-dxil: error: dx.op.matVecMul.v4f32.v4f32: the 4x4 F32 RowMajor matrix at offset 128 needs bytes [128, 336), beyond the 256-byte buffer
  %3 = func.call @matvec(%x, %buf, %c128, %c64) : (vector<4xf32>, memref<256xi8>, index, index) -> vector<4xf32>

  // CHECK-NEXT: coopvec-dxil: error: dx.op.matVecMulAdd.v4f16.v4f16: the bias vector offset 32 is not a multiple of 64 bytes
  %xh = arith.constant dense<1.0> : vector<4xf16>
  %4 = func.call @matvec_bias(%xh, %buf, %c32) : (vector<4xf16>, memref<256xi8>, index) -> vector<4xf16>
  // The 4x4 F16 row panels take 64 bytes, so a bias at 256 is outside.
  // CHECK-NEXT: coopvec-dxil: error: dx.op.matVecMulAdd.v4f16.v4f16: the 4-element bias vector at offset 256 needs bytes [256, 264), beyond the 256-byte buffer
  %5 = func.call @matvec_bias(%xh, %buf, %c256) : (vector<4xf16>, memref<256xi8>, index) -> vector<4xf16>

  // CHECK-NEXT: coopvec-dxil: error: dx.op.vectorAccumulate.v8f16: the output array offset 32 is not a multiple of 64 bytes
  %v = arith.constant dense<1.0> : vector<8xf16>
  func.call @accumulate(%v, %buf, %c32) : (vector<8xf16>, memref<256xi8>, index) -> ()
  // CHECK-NEXT: coopvec-dxil: error: dx.op.vectorAccumulate.v8f16: the 8-element output array at offset 256 needs bytes [256, 272), beyond the 256-byte buffer
  func.call @accumulate(%v, %buf, %c256) : (vector<8xf16>, memref<256xi8>, index) -> ()

  // An 8x8 F16 tile is 128 bytes: at 192 it ends at 320.
  // CHECK-NEXT: coopvec-dxil: error: dx.op.outerProductAccumulate.v8f16.v8f16: the matrix offset 192 is not a multiple of 128 bytes
  func.call @outer(%v, %buf, %c192) : (vector<8xf16>, memref<256xi8>, index) -> ()
  // CHECK-NEXT: coopvec-dxil: error: dx.op.outerProductAccumulate.v8f16.v8f16: the 8x8 F16 TrainingOptimal matrix at offset 256 needs bytes [256, 384), beyond the 256-byte buffer
  func.call @outer(%v, %buf, %c256) : (vector<8xf16>, memref<256xi8>, index) -> ()

  // stdout is buffered: the zero result of the first call comes last.
  // CHECK-NEXT: ( 0, 0, 0, 0 )
  // CHECK-NEXT: done
  vector.print str "done\n"
  memref.dealloc %buf : memref<256xi8>
  return
}
