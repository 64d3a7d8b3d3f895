// RUN: coopvec-opt %s -split-input-file --convert-coopvec-to-riscv -verify-diagnostics
// RUN: not coopvec-opt %s --convert-coopvec-to-riscv=lmul=3 2>&1 | FileCheck %s --check-prefix=LMUL
// RUN: not coopvec-opt %s --convert-coopvec-to-riscv=min-vlen=96 2>&1 | FileCheck %s --check-prefix=VLEN
// RUN: not coopvec-opt %s --convert-coopvec-to-riscv=isa=sve 2>&1 | FileCheck %s --check-prefix=ISA
// RUN: not coopvec-opt %s --convert-coopvec-to-riscv=emulate-sifive=true 2>&1 | FileCheck %s --check-prefix=EMU
// ISA: error: isa must be xxlvqmacc, rvv, xsfvqmacc-4x8x4 or xsfvqmacc-2x8x2, got 'sve'
// EMU: error: emulate-sifive applies to the xsfvqmacc isas only
// LMUL: error: lmul must be 0, 1, 2, 4 or 8, got 3
// VLEN: error: min-vlen must be a power of two in [128, 65536], got 96

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

func.func @float_input(%x: memref<?x8xf32>, %w: memref<?xi8>, %y: memref<?x8xi32>) {
  %c0 = arith.constant 0 : index
  %s = arith.constant 16 : index
  // expected-error@+1 {{the RISC-V vqmacc lowering takes i32 inputs and signed i32 results}}
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<I8, 8x8, RowMajor> stride %s into %y
      : memref<?x8xf32>, memref<?xi8> -> memref<?x8xi32>
  return
}

// -----

// expected-error@+1 {{the RISC-V C target takes memref arguments only, got 'index'}}
func.func @dynamic_offset(%x: memref<?x8xi32>, %w: memref<?xi8>, %y: memref<?x8xi32>, %o: index) {
  %s = arith.constant 16 : index
  // expected-error@+1 {{the RISC-V lowering needs a constant matrix offset and stride}}
  coopvec.batch_matvec %x as I8, %w[%o] matrix<I8, 8x8, RowMajor> stride %s into %y
      : memref<?x8xi32>, memref<?xi8> -> memref<?x8xi32>
  return
}

// -----

// expected-error@+1 {{the RISC-V C target takes memref arguments only, got 'vector<8xi32>'}}
func.func @vector_arg(%v: vector<8xi32>) {
  return
}

// -----

func.func @other_op(%a: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'memref.load' is not lowered by --convert-coopvec-to-riscv}}
  %v = memref.load %a[%c0] : memref<?xi32>
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
