// coopvec-run on the DXIL software driver: an invalid call is reported and
// execution goes on (as on a GPU); the same error line is printed 10 times
// and then only counted, and the run exits with status 1 because the
// driver's sticky error flag is set at the end. coopvec-run's runtime
// library holds the driver already: naming libcoopvec_dxil_driver.so in
// --shared-libs too would load a second copy of the runtime (the sanitized
// build's ASan reports it as an ODR violation).
// RUN: not coopvec-run %s -e main -a 150 \
// RUN:   --pass-pipeline='builtin.module(coopvec-dxil-pipeline{emulate=true host-driver=true})' \
// RUN:   --shared-libs=%mlir_runner_utils 2>&1 | FileCheck %s

// CHECK-COUNT-10: coopvec-dxil: error: dx.op.matVecMul.v4f32.v4f32: the 4x4 F32 RowMajor matrix at offset 0 needs bytes [0, 64), beyond the 16-byte buffer
// CHECK-NEXT:     coopvec-dxil: error: the error above was reported 10 times; further identical ones are counted (coopvecDxGetError) but not printed
// CHECK-NEXT:     [0, 0, 0, 0]
// CHECK-NOT:      coopvec-dxil

func.func @main(%n: index) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %w = memref.alloc() {alignment = 128 : i64} : memref<16xi8>
  %x = arith.constant dense<1.0> : vector<4xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%v = %x) -> vector<4xf32> {
    %y = coopvec.matvec %v as F32, %w[%c0] matrix<F32, 4x4, RowMajor> stride %c16
           : vector<4xf32>, memref<16xi8> -> vector<4xf32>
    scf.yield %y : vector<4xf32>
  }
  memref.dealloc %w : memref<16xi8>
  return %r : vector<4xf32>
}

// A dynamic offset beyond DXIL's i32 operand reaches the driver as
// 0xFFFFFFFF and is reported; it used to wrap around to offset 0 and run.
// RUN: not coopvec-run %s -e wrapped_offset -a 4294967296 \
// RUN:   --pass-pipeline='builtin.module(coopvec-dxil-pipeline{emulate=true host-driver=true})' \
// RUN:   --shared-libs=%mlir_runner_utils 2>&1 | FileCheck %s --check-prefix=WRAP
// WRAP: coopvec-dxil: error: dx.op.matVecMul.v4f32.v4f32: the matrix offset 4294967295 is not a multiple of 128 bytes
// WRAP-NEXT: [0, 0, 0, 0]
func.func @wrapped_offset(%off: index) -> vector<4xf32> {
  %c16 = arith.constant 16 : index
  %w = memref.alloc() {alignment = 128 : i64} : memref<256xi8>
  %x = arith.constant dense<1.0> : vector<4xf32>
  %y = coopvec.matvec %x as F32, %w[%off] matrix<F32, 4x4, RowMajor> stride %c16
         : vector<4xf32>, memref<256xi8> -> vector<4xf32>
  memref.dealloc %w : memref<256xi8>
  return %y : vector<4xf32>
}
