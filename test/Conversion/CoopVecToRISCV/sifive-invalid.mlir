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

// The quantized form takes the C path's rules (MatVecPlan).
func.func @quant_dynamic_offset(%x: memref<?x64xi8>, %w: memref<?xi8>, %zw: memref<?xi8>, %y: memref<?x8xi32>, %o: index) {
  %c0 = arith.constant 0 : index
  %s = arith.constant 64 : index
  // expected-error@+1 {{the RISC-V lowering needs constant weight zero point and scale offsets}}
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<I8, 8x64, RowMajor> stride %s
      weight_zero_points %zw[%o] as I8 per_tensor : memref<?xi8>
      into %y : memref<?x64xi8>, memref<?xi8> -> memref<?x8xi32>
  return
}

// -----

func.func @quant_strided_zero_points(%x: memref<?x64xi8>, %w: memref<?xi8>, %zx: memref<?x2xi8, strided<[4, 1]>>, %y: memref<?x8xi32>) {
  %c0 = arith.constant 0 : index
  %s = arith.constant 64 : index
  // expected-error@+1 {{the RISC-V lowering takes contiguous input zero points, scales and reductions}}
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<I8, 8x64, RowMajor> stride %s
      input_zero_points %zx as I8 group 32 : memref<?x2xi8, strided<[4, 1]>>
      into %y : memref<?x64xi8>, memref<?xi8> -> memref<?x8xi32>
  return
}

// -----

func.func @matvec(%v: vector<8xf32>, %w: memref<?xi8>) -> vector<8xf32> {
  %c0 = arith.constant 0 : index
  %s = arith.constant 16 : index
  // expected-error@+1 {{the RISC-V vqmacc lowering takes I8 and U8 matrices}}
  %r = coopvec.matvec %v as F16, %w[%c0] matrix<F16, 8x8, RowMajor> stride %s
      : vector<8xf32>, memref<?xi8> -> vector<8xf32>
  return %r : vector<8xf32>
}

// -----

func.func @accumulate(%v: vector<8xi32>, %w: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'coopvec.vector_accumulate' is not lowered by the SiFive isas of --convert-coopvec-to-riscv}}
  coopvec.vector_accumulate %v, %w[%c0] : vector<8xi32>, memref<?xi8>
  return
}

// -----

// expected-error@+1 {{the SiFive isas take one-dimensional vectors of integers or floats as arguments and results}}
func.func @rank2(%v: vector<2x8xi32>) {
  return
}

// -----

// expected-error@+1 {{a function with vector arguments or results is not called in the SiFive isas' code (they become memrefs)}}
func.func @callee(%v: vector<8xi32>) -> vector<8xi32> {
  return %v : vector<8xi32>
}

func.func @caller(%v: vector<8xi32>, %y: memref<8xi32>) {
  %c0 = arith.constant 0 : index
  %r = func.call @callee(%v) : (vector<8xi32>) -> vector<8xi32>
  vector.store %r, %y[%c0] : memref<8xi32>, vector<8xi32>
  return
}

// -----

// expected-error@+1 {{a function with vector arguments or results returns vectors only in the SiFive isas' code (they become memref arguments)}}
func.func @scalar_result(%v: vector<8xi32>) -> i32 {
  %r = vector.extract %v[0] : i32 from vector<8xi32>
  return %r : i32
}

// -----

// Functions without vectors keep their signatures, results included.
func.func @no_vectors(%x: memref<?xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %v = memref.load %x[%c0] : memref<?xi32>
  return %v : i32
}

// -----

gpu.module @kernels {
  gpu.func @k(%v: vector<8xi32>, %w: memref<?xi8>) kernel {
    %c0 = arith.constant 0 : index
    %s = arith.constant 16 : index
    // expected-error@+1 {{the SiFive isas take coopvec.matvec inside func.func}}
    %r = coopvec.matvec %v as I8, %w[%c0] matrix<I8, 8x8, RowMajor> stride %s
        : vector<8xi32>, memref<?xi8> -> vector<8xi32>
    gpu.return
  }
}

// -----

func.func @i16_result(%x: memref<?x8xi32>, %w: memref<?xi8>, %y: memref<?x8xi16>) {
  %c0 = arith.constant 0 : index
  %s = arith.constant 16 : index
  // expected-error@+1 {{the RISC-V vqmacc lowering takes i32 or f32 inputs and signed i32, f32 or f16 results (bf16 too in the quantized form)}}
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<I8, 8x8, RowMajor> stride %s into %y
      : memref<?x8xi32>, memref<?xi8> -> memref<?x8xi16>
  return
}
