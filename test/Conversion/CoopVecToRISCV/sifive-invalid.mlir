// RUN: coopvec-opt %s -split-input-file --convert-coopvec-to-riscv=isa=xsfvqmacc-4x8x4 -verify-diagnostics
// RUN: coopvec-opt %s -split-input-file --convert-coopvec-to-riscv=isa=xsfvqmacc-2x8x2 -verify-diagnostics
// RUN: not coopvec-opt %s --convert-coopvec-to-riscv=isa=xsfvqmacc-8x8x8 2>&1 | FileCheck %s --check-prefix=ISA
// ISA: error: isa must be xxlvqmacc, rvv, xsfvqmacc-4x8x4 or xsfvqmacc-2x8x2, got 'xsfvqmacc-8x8x8'

// The SiFive path takes what the Nuclei path takes (the same rules, the
// same messages) and rejects every other coopvec op.

func.func @f16(%x: memref<?x8xf32>, %w: memref<?xi8>, %y: memref<?x8xf32>) {
  %c0 = arith.constant 0 : index
  %s = arith.constant 16 : index
  // expected-error@+1 {{the RISC-V vqmacc lowering takes I8 and U8 matrices}}
  coopvec.batch_matvec %x as F16, %w[%c0] matrix<F16, 8x8, RowMajor> stride %s into %y
      : memref<?x8xf32>, memref<?xi8> -> memref<?x8xf32>
  return
}

// -----

func.func @optimal(%x: memref<?x8xi32>, %w: memref<?xi8>, %y: memref<?x8xi32>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{the RISC-V vqmacc lowering takes RowMajor and ColumnMajor matrices, not transposed}}
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<I8, 8x8, InferencingOptimal> into %y
      : memref<?x8xi32>, memref<?xi8> -> memref<?x8xi32>
  return
}

// -----

func.func @dynamic_offset(%x: memref<?x8xi32>, %w: memref<?xi8>, %y: memref<?x8xi32>, %o: index) {
  %s = arith.constant 16 : index
  // expected-error@+1 {{the RISC-V lowering needs a constant matrix offset and stride}}
  coopvec.batch_matvec %x as I8, %w[%o] matrix<I8, 8x8, RowMajor> stride %s into %y
      : memref<?x8xi32>, memref<?xi8> -> memref<?x8xi32>
  return
}

// -----

func.func @long_k(%x: memref<?x33026xi32>, %w: memref<?xi8>, %y: memref<?x1xi32>) {
  %c0 = arith.constant 0 : index
  %s = arith.constant 33040 : index
  // expected-error@+1 {{K = 33026 can overflow the int32 accumulators (at most 33025 for these signs)}}
  coopvec.batch_matvec %x as U8, %w[%c0] matrix<U8, 1x33026, RowMajor> stride %s into %y
      : memref<?x33026xi32>, memref<?xi8> -> memref<?x1xi32>
  return
}

// -----

func.func @quantized(%x: memref<?x128xi8>, %w: memref<?xi8>, %zw: memref<?xi8>, %y: memref<?x16xi32>) {
  %c0 = arith.constant 0 : index
  %s = arith.constant 128 : index
  // expected-error@+1 {{quantized and block-scaled products are not lowered to SiFive vqmacc}}
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<U8, 16x128, RowMajor> stride %s
      weight_zero_points %zw[%c0] as U8 per_tensor : memref<?xi8>
      into %y : memref<?x128xi8>, memref<?xi8> -> memref<?x16xi32>
  return
}

// -----

func.func @matvec(%v: vector<8xf32>, %w: memref<?xi8>) -> vector<8xf32> {
  %c0 = arith.constant 0 : index
  %s = arith.constant 16 : index
  // expected-error@+1 {{'coopvec.matvec' is not lowered by the SiFive isas of --convert-coopvec-to-riscv}}
  %r = coopvec.matvec %v as F16, %w[%c0] matrix<F16, 8x8, RowMajor> stride %s
      : vector<8xf32>, memref<?xi8> -> vector<8xf32>
  return %r : vector<8xf32>
}

// -----

func.func @float_input(%x: memref<?x8xf32>, %w: memref<?xi8>, %y: memref<?x8xi32>) {
  %c0 = arith.constant 0 : index
  %s = arith.constant 16 : index
  // expected-error@+1 {{the SiFive vqmacc lowering takes i32 inputs and i32 results}}
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<I8, 8x8, RowMajor> stride %s into %y
      : memref<?x8xf32>, memref<?xi8> -> memref<?x8xi32>
  return
}

// -----

func.func @float_result(%x: memref<?x8xi32>, %w: memref<?xi8>, %y: memref<?x8xf32>) {
  %c0 = arith.constant 0 : index
  %s = arith.constant 16 : index
  // expected-error@+1 {{the SiFive vqmacc lowering takes i32 inputs and i32 results}}
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<I8, 8x8, RowMajor> stride %s into %y
      : memref<?x8xi32>, memref<?xi8> -> memref<?x8xf32>
  return
}
