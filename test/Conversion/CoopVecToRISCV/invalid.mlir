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

func.func @f16_input(%x: memref<?x8xf16>, %w: memref<?xi8>, %y: memref<?x8xi32>) {
  %c0 = arith.constant 0 : index
  %s = arith.constant 16 : index
  // expected-error@+1 {{the RISC-V vqmacc lowering takes i32 or f32 inputs and signed i32, f32 or f16 results (bf16 too in the quantized form)}}
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<I8, 8x8, RowMajor> stride %s into %y
      : memref<?x8xf16>, memref<?xi8> -> memref<?x8xi32>
  return
}

// -----

// i16 results.
func.func @i16_result(%x: memref<?x8xi32>, %w: memref<?xi8>, %y: memref<?x8xi16>) {
  %c0 = arith.constant 0 : index
  %s = arith.constant 16 : index
  // expected-error@+1 {{the RISC-V vqmacc lowering takes i32 or f32 inputs and signed i32, f32 or f16 results (bf16 too in the quantized form)}}
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<I8, 8x8, RowMajor> stride %s into %y
      : memref<?x8xi32>, memref<?xi8> -> memref<?x8xi16>
  return
}

// -----

func.func @unsigned_result(%x: vector<8xi32>, %w: memref<?xi8>) -> vector<8xi32> {
  %c0 = arith.constant 0 : index
  %s = arith.constant 16 : index
  // expected-error@+1 {{the RISC-V vqmacc lowering takes i32 or f32 inputs and signed i32, f32 or f16 results (bf16 too in the quantized form)}}
  %y = coopvec.matvec %x as I8, %w[%c0] matrix<I8, 8x8, RowMajor> stride %s unsigned_result
      : vector<8xi32>, memref<?xi8> -> vector<8xi32>
  return %y : vector<8xi32>
}

// -----

func.func @matvec_float_bias(%x: vector<8xf32>, %w: memref<?xi8>, %b: memref<?xi8>) -> vector<8xf32> {
  %c0 = arith.constant 0 : index
  %s = arith.constant 16 : index
  // expected-error@+1 {{the RISC-V lowering takes an I32 bias (F32, F16 or BF16 for quantized float results) at a constant offset}}
  %y = coopvec.matvec %x as I8, %w[%c0] matrix<I8, 8x8, RowMajor> stride %s bias %b[%c0] as F32
      : vector<8xf32>, memref<?xi8>, memref<?xi8> -> vector<8xf32>
  return %y : vector<8xf32>
}

// -----

func.func @block_scaled(%x: vector<64xf32>, %w: memref<?xi8>, %sc: memref<?xi8>) -> vector<16xf32> {
  %c0 = arith.constant 0 : index
  %s = arith.constant 48 : index
  // expected-error@+1 {{block-scaled products are not lowered to RISC-V}}
  %y = coopvec.matvec %x as F32, %w[%c0] matrix<F4_E2M1, 16x64, RowMajor, scale f8E8M0FNU block 32>
         stride %s scales %sc[%c0] : memref<?xi8>
         : vector<64xf32>, memref<?xi8> -> vector<16xf32>
  return %y : vector<16xf32>
}

// -----

// expected-error@+1 {{the RISC-V C target takes vector results only, got 'i32'}}
func.func @scalar_result(%x: vector<8xi32>) -> i32 {
  %c0 = arith.constant 0 : i32
  return %c0 : i32
}

// -----

// expected-error@+1 {{the RISC-V C target takes memref and vector arguments only, got 'index'}}
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

func.func @quant_long_block(%x: memref<?x33026xi8>, %w: memref<?xi8>, %zw: memref<?xi8>, %y: memref<?x1xi32>) {
  %c0 = arith.constant 0 : index
  %s = arith.constant 33040 : index
  // expected-error@+1 {{blocks of 33026 columns (the gcd of K and the group sizes) can overflow the int32 accumulators (at most 33025 for these signs)}}
  coopvec.batch_matvec %x as U8, %w[%c0] matrix<U8, 1x33026, RowMajor> stride %s
      weight_zero_points %zw[%c0] as U8 group 33026 : memref<?xi8>
      into %y : memref<?x33026xi8>, memref<?xi8> -> memref<?x1xi32>
  return
}

// -----

// expected-error@+1 {{the RISC-V C target takes memref and vector arguments only, got 'index'}}
func.func @dynamic_offset(%x: memref<?x8xi32>, %w: memref<?xi8>, %y: memref<?x8xi32>, %o: index) {
  %s = arith.constant 16 : index
  // expected-error@+1 {{the RISC-V lowering needs a constant matrix offset and stride}}
  coopvec.batch_matvec %x as I8, %w[%o] matrix<I8, 8x8, RowMajor> stride %s into %y
      : memref<?x8xi32>, memref<?xi8> -> memref<?x8xi32>
  return
}

// -----

// expected-error@+1 {{the RISC-V C target takes memref and vector arguments only, got 'vector<2x4xi32>'}}
func.func @vector_arg(%v: vector<2x4xi32>) {
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

// -----

func.func @vector_constant(%w: memref<?xi8>) -> vector<4xi32> {
  %c0 = arith.constant 0 : index
  %s = arith.constant 16 : index
  // expected-error@+1 {{vector constants are not lowered by --convert-coopvec-to-riscv}}
  %x = arith.constant dense<1> : vector<4xi32>
  %y = coopvec.matvec %x as I8, %w[%c0] matrix<I8, 4x4, RowMajor> stride %s
      : vector<4xi32>, memref<?xi8> -> vector<4xi32>
  return %y : vector<4xi32>
}
