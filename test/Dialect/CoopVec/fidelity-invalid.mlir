// RUN: coopvec-opt %s -split-input-file -verify-diagnostics

// Every rule of #coopvec.math_fidelity and of the fidelity forms of
// coopvec.matvec, coopvec.batch_matvec, coopvec.tile_mma and
// coopvec.eltwise_mul.

// expected-error@+1 {{unknown math fidelity 'hifi5'; expected lofi, hifi2, hifi3 or hifi4}}
func.func @f() attributes {test.a = #coopvec.math_fidelity<hifi5, dst = f32>} { return }

// -----

// expected-error@+1 {{math fidelity Dst format must be f32 or bf16, got 'f16'}}
func.func @f() attributes {test.a = #coopvec.math_fidelity<lofi, dst = f16>} { return }

// -----

// expected-error@+1 {{math fidelity packer format must be f32 or bf16, got 'f8E4M3FN'}}
func.func @f() attributes {test.a = #coopvec.math_fidelity<lofi, dst = f32, pack = f8E4M3FN>} { return }

// -----

// expected-error@+1 {{math fidelity k_block must be a positive multiple of 32, got 48}}
func.func @f() attributes {test.a = #coopvec.math_fidelity<lofi, dst = f32, l1_acc, k_block = 48>} { return }

// -----

// expected-error@+1 {{math fidelity k_block must be a positive multiple of 32, got 0}}
func.func @f() attributes {test.a = #coopvec.math_fidelity<lofi, dst = f32, l1_acc, k_block = 0>} { return }

// -----

// expected-error@+1 {{math fidelity k_block needs l1_acc: blocks of K are summed by packer L1 accumulation}}
func.func @f() attributes {test.a = #coopvec.math_fidelity<hifi2, dst = f32, k_block = 32>} { return }

// -----

// expected-error@+1 {{expected 'pack = <type>', 'l1_acc' or 'k_block = <n>', in this order}}
func.func @f() attributes {test.a = #coopvec.math_fidelity<hifi2, dst = f32, l1_acc, pack = bf16>} { return }

// -----

func.func @input_interp(%x: vector<64xf16>, %w: memref<?xi8>) -> vector<32xf32> {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'coopvec.matvec' op math fidelity needs a BF16, F32, BFP8 or BFP4 input interpretation (the unpacker's BF16 or TF32 Src format), not F16}}
  %y = coopvec.matvec %x as F16, %w[%c0] matrix<F16, 32x64, InferencingOptimal>
         fidelity<lofi, dst = f32> : vector<64xf16>, memref<?xi8> -> vector<32xf32>
  return %y : vector<32xf32>
}

// -----

// Block-scaled and low-precision matrices fail the same rule.
func.func @matrix_interp(%x: vector<64xf32>, %w: memref<?xi8>) -> vector<32xf32> {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'coopvec.matvec' op math fidelity needs the matrix interpretation to equal the input's (BF16: one Src format), not F8_E4M3}}
  %y = coopvec.matvec %x as BF16, %w[%c0] matrix<F8_E4M3, 32x64, InferencingOptimal>
         fidelity<lofi, dst = f32> : vector<64xf32>, memref<?xi8> -> vector<32xf32>
  return %y : vector<32xf32>
}

// -----

func.func @integer_input(%x: vector<64xi32>, %w: memref<?xi8>) -> vector<32xf32> {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'coopvec.matvec' op math fidelity needs float input elements (f16 or f32), not 'i32'}}
  %y = coopvec.matvec %x as BF16, %w[%c0] matrix<BF16, 32x64, InferencingOptimal>
         fidelity<lofi, dst = f32> : vector<64xi32>, memref<?xi8> -> vector<32xf32>
  return %y : vector<32xf32>
}

// -----

func.func @f16_result(%x: vector<64xf32>, %w: memref<?xi8>) -> vector<32xf16> {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'coopvec.matvec' op math fidelity needs f32 result elements (they hold the packer's f32 or bf16 values exactly), not 'f16'}}
  %y = coopvec.matvec %x as BF16, %w[%c0] matrix<BF16, 32x64, InferencingOptimal>
         fidelity<lofi, dst = f32> : vector<64xf32>, memref<?xi8> -> vector<32xf16>
  return %y : vector<32xf16>
}

// -----

func.func @bias_without_l1_acc(%x: vector<64xf32>, %w: memref<?xi8>, %b: memref<?xi8>) -> vector<32xf32> {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'coopvec.matvec' op math fidelity takes a bias only with l1_acc: the bias is the L1 accumulator's initial value}}
  %y = coopvec.matvec %x as BF16, %w[%c0] matrix<BF16, 32x64, InferencingOptimal>
         bias %b[%c0] as BF16 fidelity<hifi2, dst = f32, pack = bf16>
         : vector<64xf32>, memref<?xi8>, memref<?xi8> -> vector<32xf32>
  return %y : vector<32xf32>
}

// -----

// Without `pack`, the L1 format is the Dst format (f32 here).
func.func @bias_not_pack_format(%x: vector<64xf32>, %w: memref<?xi8>, %b: memref<?xi8>) -> vector<32xf32> {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'coopvec.matvec' op math fidelity needs the bias interpretation to be the packer format 'f32', not BF16}}
  %y = coopvec.matvec %x as BF16, %w[%c0] matrix<BF16, 32x64, InferencingOptimal>
         bias %b[%c0] as BF16 fidelity<hifi2, dst = f32, l1_acc>
         : vector<64xf32>, memref<?xi8>, memref<?xi8> -> vector<32xf32>
  return %y : vector<32xf32>
}

// -----

func.func @quantized(%x: memref<?x64xi8>, %w: memref<?xi8>, %zw: memref<?xi8>, %y: memref<?x32xi32>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'coopvec.batch_matvec' op math fidelity does not apply to the quantized form (integer products have no fidelity phases)}}
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<I8, 32x64, InferencingOptimal>
      weight_zero_points %zw[%c0] as I8 per_tensor : memref<?xi8>
      fidelity<lofi, dst = f32> into %y : memref<?x64xi8>, memref<?xi8> -> memref<?x32xi32>
  return
}

// -----

// The batch applies the matvec rules to its rows.
func.func @batch_f16_rows(%x: memref<?x64xf32>, %w: memref<?xi8>, %y: memref<?x32xf16>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'coopvec.batch_matvec' op math fidelity needs f32 result elements (they hold the packer's f32 or bf16 values exactly), not 'f16'}}
  coopvec.batch_matvec %x as BF16, %w[%c0] matrix<BF16, 32x64, InferencingOptimal>
      fidelity<lofi, dst = f32> into %y : memref<?x64xf32>, memref<?xi8> -> memref<?x32xf16>
  return
}

// -----

func.func @tile_types(%a: vector<16x32xf16>, %b: vector<32x8xf16>, %acc: vector<16x8xf32>) -> vector<16x8xf32> {
  // expected-error@+1 {{'coopvec.tile_mma' op math fidelity needs both tiles bf16 or both f32 (one Src format), not 'f16' and 'f16'}}
  %r = coopvec.tile_mma %a, %b, %acc fidelity<lofi, dst = f32>
         : vector<16x32xf16>, vector<32x8xf16> -> vector<16x8xf32>
  return %r : vector<16x8xf32>
}

// -----

func.func @tile_k(%a: vector<16x16xbf16>, %b: vector<16x8xbf16>, %acc: vector<16x8xf32>) -> vector<16x8xf32> {
  // expected-error@+1 {{'coopvec.tile_mma' op math fidelity needs K to be a multiple of 32 (the matrix unit's tile), not 16}}
  %r = coopvec.tile_mma %a, %b, %acc fidelity<lofi, dst = f32>
         : vector<16x16xbf16>, vector<16x8xbf16> -> vector<16x8xf32>
  return %r : vector<16x8xf32>
}

// -----

func.func @tile_packer(%a: vector<16x32xbf16>, %b: vector<32x8xbf16>, %acc: vector<16x8xf32>) -> vector<16x8xf32> {
  // expected-error@+1 {{'coopvec.tile_mma' op math fidelity of a tile takes no packer settings (pack, l1_acc, k_block): the tile ends in Dst}}
  %r = coopvec.tile_mma %a, %b, %acc fidelity<lofi, dst = f32, l1_acc>
         : vector<16x32xbf16>, vector<32x8xbf16> -> vector<16x8xf32>
  return %r : vector<16x8xf32>
}

// -----

// coopvec.eltwise_mul: bf16 or f32 operands only.
func.func @eltwise_f16(%a: vector<8xf16>) -> vector<8xf32> {
  // expected-error@+1 {{'coopvec.eltwise_mul' op operand #0 must be fixed-length vector of bfloat16 type or 32-bit float values of ranks 1, but got 'vector<8xf16>'}}
  %r = coopvec.eltwise_mul %a, %a fidelity<lofi, dst = f32> : vector<8xf16> -> vector<8xf32>
  return %r : vector<8xf32>
}

// -----

// Both operands have one type (one Src format).
func.func @eltwise_mixed(%a: vector<8xbf16>, %b: vector<8xf32>) -> vector<8xf32> {
  // expected-error@+1 {{'coopvec.eltwise_mul' op failed to verify that all of {lhs, rhs} have same type}}
  %r = "coopvec.eltwise_mul"(%a, %b) {fidelity = #coopvec.math_fidelity<lofi, dst = f32>} : (vector<8xbf16>, vector<8xf32>) -> vector<8xf32>
  return %r : vector<8xf32>
}

// -----

func.func @eltwise_shape(%a: vector<8xbf16>) -> vector<4xf32> {
  // expected-error@+1 {{'coopvec.eltwise_mul' op result 'vector<4xf32>' must have the operands' shape, 8}}
  %r = coopvec.eltwise_mul %a, %a fidelity<lofi, dst = f32> : vector<8xbf16> -> vector<4xf32>
  return %r : vector<4xf32>
}

// -----

func.func @eltwise_k_block(%a: vector<8xbf16>, %c: vector<8xf32>) -> vector<8xf32> {
  // expected-error@+1 {{'coopvec.eltwise_mul' op takes no k_block: an element-wise multiply has no K}}
  %r = coopvec.eltwise_mul %a, %a acc %c fidelity<lofi, dst = f32, l1_acc, k_block = 32> : vector<8xbf16> -> vector<8xf32>
  return %r : vector<8xf32>
}

// -----

func.func @eltwise_l1_no_acc(%a: vector<8xbf16>) -> vector<8xf32> {
  // expected-error@+1 {{'coopvec.eltwise_mul' op with l1_acc needs the L1 values to accumulate onto (acc %values)}}
  %r = coopvec.eltwise_mul %a, %a fidelity<lofi, dst = f32, l1_acc> : vector<8xbf16> -> vector<8xf32>
  return %r : vector<8xf32>
}

// -----

func.func @eltwise_acc_no_l1(%a: vector<8xbf16>, %c: vector<8xf32>) -> vector<8xf32> {
  // expected-error@+1 {{'coopvec.eltwise_mul' op takes acc values only with l1_acc (without it the packer overwrites L1)}}
  %r = coopvec.eltwise_mul %a, %a acc %c fidelity<lofi, dst = f32> : vector<8xbf16> -> vector<8xf32>
  return %r : vector<8xf32>
}

// -----

func.func @eltwise_acc_type(%a: vector<8xbf16>, %c: vector<4xf32>) -> vector<8xf32> {
  // expected-error@+1 {{'coopvec.eltwise_mul' op failed to verify that acc has the result's type}}
  %r = "coopvec.eltwise_mul"(%a, %a, %c) {fidelity = #coopvec.math_fidelity<lofi, dst = f32, l1_acc>} : (vector<8xbf16>, vector<8xbf16>, vector<4xf32>) -> vector<8xf32>
  return %r : vector<8xf32>
}

// -----

func.func @pack_dst_k_block(%d: vector<2x4xf32>) -> vector<2x4xf32> {
  // expected-error@+1 {{'coopvec.tile_pack_dst' op takes no k_block: the K blocks of a tile are the ops around it}}
  %r = coopvec.tile_pack_dst %d acc %d fidelity<lofi, dst = f32, l1_acc, k_block = 32> : vector<2x4xf32>
  return %r : vector<2x4xf32>
}

// -----

func.func @pack_dst_l1_no_acc(%d: vector<2x4xf32>) -> vector<2x4xf32> {
  // expected-error@+1 {{'coopvec.tile_pack_dst' op with l1_acc needs the L1 values to accumulate onto (acc %values)}}
  %r = coopvec.tile_pack_dst %d fidelity<lofi, dst = f32, pack = bf16, l1_acc> : vector<2x4xf32>
  return %r : vector<2x4xf32>
}

// -----

func.func @pack_dst_acc_no_l1(%d: vector<2x4xf32>) -> vector<2x4xf32> {
  // expected-error@+1 {{'coopvec.tile_pack_dst' op takes acc values only with l1_acc (without it the packer overwrites L1)}}
  %r = coopvec.tile_pack_dst %d acc %d fidelity<lofi, dst = f32, pack = bf16> : vector<2x4xf32>
  return %r : vector<2x4xf32>
}

// -----

func.func @pack_dst_acc_type(%d: vector<2x4xf32>, %c: vector<4x2xf32>) -> vector<2x4xf32> {
  // expected-error@+1 {{'coopvec.tile_pack_dst' op failed to verify that acc has the result's type}}
  %r = "coopvec.tile_pack_dst"(%d, %c) {fidelity = #coopvec.math_fidelity<lofi, dst = f32, l1_acc>} : (vector<2x4xf32>, vector<4x2xf32>) -> vector<2x4xf32>
  return %r : vector<2x4xf32>
}

// -----

func.func @pack_dst_result_type(%d: vector<2x4xf32>) -> vector<4x2xf32> {
  // expected-error@+1 {{'coopvec.tile_pack_dst' op failed to verify that all of {dst, result} have same type}}
  %r = "coopvec.tile_pack_dst"(%d) {fidelity = #coopvec.math_fidelity<lofi, dst = f32, pack = bf16>} : (vector<2x4xf32>) -> vector<4x2xf32>
  return %r : vector<4x2xf32>
}

// -----

func.func @pack_dst_element(%d: vector<2x4xbf16>) -> vector<2x4xbf16> {
  // expected-error@+1 {{'coopvec.tile_pack_dst' op operand #0 must be fixed-length vector of 32-bit float values of ranks 2, but got 'vector<2x4xbf16>'}}
  %r = "coopvec.tile_pack_dst"(%d) {fidelity = #coopvec.math_fidelity<lofi, dst = f32, pack = bf16>} : (vector<2x4xbf16>) -> vector<2x4xbf16>
  return %r : vector<2x4xbf16>
}

// -----

// Block-float (BFP8, BFP4) matrices: the shared exponents are the block
// scales, UE8M0 in blocks of 16, and nothing else.
func.func @bfp_no_exponents(%x: vector<32xf32>, %w: memref<?xi8>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  // expected-error@+1 {{BFP8 elements need their shared exponents: 'scale f8E8M0FNU block 16'}}
  %y = coopvec.matvec %x as BF16, %w[%c0] matrix<BFP8, 4x32, RowMajor> stride %c32 fidelity<lofi, dst = f32> : vector<32xf32>, memref<?xi8> -> vector<4xf32>
  return %y : vector<4xf32>
}

// -----

func.func @bfp_block_32(%x: vector<32xf32>, %w: memref<?xi8>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  // expected-error@+1 {{BFP8 elements with 'f8E8M0FNU' scales in blocks of 32 are not a block-scale scheme; expected f8E8M0FNU x 32 over F8_E4M3, F8_E5M2, F6_E2M3, F6_E3M2 or F4_E2M1, f8E8M0FNU x 16 or f8E4M3FN x 16 over F4_E2M1, or f8E8M0FNU x 16 over BFP8 or BFP4}}
  %y = coopvec.matvec %x as BF16, %w[%c0] matrix<BFP8, 4x32, RowMajor, scale f8E8M0FNU block 32> stride %c32 scales %w[%c0] : memref<?xi8> fidelity<lofi, dst = f32> : vector<32xf32>, memref<?xi8> -> vector<4xf32>
  return %y : vector<4xf32>
}

// -----

func.func @bfp_ue4m3(%x: vector<32xf32>, %w: memref<?xi8>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  // expected-error@+1 {{BFP4 elements with 'f8E4M3FN' scales in blocks of 16 are not a block-scale scheme}}
  %y = coopvec.matvec %x as BF16, %w[%c0] matrix<BFP4, 4x32, RowMajor, scale f8E4M3FN block 16> stride %c16 scales %w[%c0] : memref<?xi8> fidelity<lofi, dst = f32> : vector<32xf32>, memref<?xi8> -> vector<4xf32>
  return %y : vector<4xf32>
}

// -----

func.func @bfp_no_fidelity(%x: vector<32xf32>, %w: memref<?xi8>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  // expected-error@+1 {{'coopvec.matvec' op a BFP8 matrix is read by the Wormhole unpacker: it needs a math-fidelity clause}}
  %y = coopvec.matvec %x as BF16, %w[%c0] matrix<BFP8, 4x32, RowMajor, scale f8E8M0FNU block 16> stride %c32 scales %w[%c0] : memref<?xi8> : vector<32xf32>, memref<?xi8> -> vector<4xf32>
  return %y : vector<4xf32>
}

// -----

func.func @bfp_f32_inputs(%x: memref<?x32xf32>, %w: memref<?xi8>, %y: memref<?x4xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'coopvec.batch_matvec' op math fidelity with a BFP4 matrix needs a BF16 input interpretation (the unpacker decodes block floats to BF16), not F32}}
  coopvec.batch_matvec %x as F32, %w[%c0] matrix<BFP4, 4x32, InferencingOptimal, scale f8E8M0FNU block 16> scales %w[%c0] : memref<?xi8> fidelity<hifi4, dst = f32> into %y : memref<?x32xf32>, memref<?xi8> -> memref<?x4xf32>
  return
}

// -----

// Block-float inputs (BFP8, BFP4 with an exponents clause): one case per
// rule.
func.func @bfpin_no_exponents(%x: vector<32xi8>, %w: memref<?xi8>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error@+1 {{'coopvec.matvec' op a BFP8 input needs an exponents clause (one shared exponent per 16 elements)}}
  %y = coopvec.matvec %x as BFP8, %w[%c0] matrix<BF16, 4x32, RowMajor> stride %c64 fidelity<lofi, dst = f32> : vector<32xi8>, memref<?xi8> -> vector<4xf32>
  return %y : vector<4xf32>
}

// -----

func.func @bfpin_no_fidelity(%x: vector<32xi8>, %e: vector<2xi8>, %w: memref<?xi8>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error@+1 {{'coopvec.matvec' op a BFP8 input is read by the Wormhole unpacker: it needs a math-fidelity clause}}
  %y = coopvec.matvec %x as BFP8 exponents %e : vector<2xi8>, %w[%c0] matrix<BF16, 4x32, RowMajor> stride %c64 : vector<32xi8>, memref<?xi8> -> vector<4xf32>
  return %y : vector<4xf32>
}

// -----

func.func @bfpin_exponents_not_bfp(%x: vector<32xf32>, %e: vector<2xi8>, %w: memref<?xi8>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error@+1 {{'coopvec.matvec' op exponents are the shared exponents of a block-float (BFP8, BFP4) input, not of BF16}}
  %y = coopvec.matvec %x as BF16 exponents %e : vector<2xi8>, %w[%c0] matrix<BF16, 4x32, RowMajor> stride %c64 fidelity<lofi, dst = f32> : vector<32xf32>, memref<?xi8> -> vector<4xf32>
  return %y : vector<4xf32>
}

// -----

func.func @bfpin_unsigned(%x: vector<32xi8>, %e: vector<2xi8>, %w: memref<?xi8>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error@+1 {{'coopvec.matvec' op a BFP8 input is sign-magnitude: the unsigned flag does not apply}}
  %y = coopvec.matvec %x unsigned as BFP8 exponents %e : vector<2xi8>, %w[%c0] matrix<BF16, 4x32, RowMajor> stride %c64 fidelity<lofi, dst = f32> : vector<32xi8>, memref<?xi8> -> vector<4xf32>
  return %y : vector<4xf32>
}

// -----

func.func @bfpin_element_type(%x: vector<32xf32>, %e: vector<2xi8>, %w: memref<?xi8>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error@+1 {{'coopvec.matvec' op a BFP8 input holds its stored bytes: i8 elements, not 'f32'}}
  %y = coopvec.matvec %x as BFP8 exponents %e : vector<2xi8>, %w[%c0] matrix<BF16, 4x32, RowMajor> stride %c64 fidelity<lofi, dst = f32> : vector<32xf32>, memref<?xi8> -> vector<4xf32>
  return %y : vector<4xf32>
}

// -----

func.func @bfpin_bfp8_length(%x: vector<16xi8>, %e: vector<2xi8>, %w: memref<?xi8>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error@+1 {{'coopvec.matvec' op a BFP8 input has 16 bytes, but K = 32 needs 32}}
  %y = coopvec.matvec %x as BFP8 exponents %e : vector<2xi8>, %w[%c0] matrix<BF16, 4x32, RowMajor> stride %c64 fidelity<lofi, dst = f32> : vector<16xi8>, memref<?xi8> -> vector<4xf32>
  return %y : vector<4xf32>
}

// -----

func.func @bfpin_bfp4_length(%x: vector<33xi8>, %e: vector<3xi8>, %w: memref<?xi8>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c80 = arith.constant 80 : index
  // expected-error@+1 {{'coopvec.matvec' op a BFP4 input has 33 bytes, but K = 33 needs 17 (ceil(K/2))}}
  %y = coopvec.matvec %x as BFP4 exponents %e : vector<3xi8>, %w[%c0] matrix<BF16, 4x33, RowMajor> stride %c80 fidelity<lofi, dst = f32> : vector<33xi8>, memref<?xi8> -> vector<4xf32>
  return %y : vector<4xf32>
}

// -----

func.func @bfpin_exponent_type(%x: vector<32xi8>, %e: vector<2xf32>, %w: memref<?xi8>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error@+1 {{'coopvec.matvec' op exponents are bytes (i8), not 'f32'}}
  %y = coopvec.matvec %x as BFP8 exponents %e : vector<2xf32>, %w[%c0] matrix<BF16, 4x32, RowMajor> stride %c64 fidelity<lofi, dst = f32> : vector<32xi8>, memref<?xi8> -> vector<4xf32>
  return %y : vector<4xf32>
}

// -----

func.func @bfpin_exponent_count(%x: vector<33xi8>, %e: vector<2xi8>, %w: memref<?xi8>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c80 = arith.constant 80 : index
  // expected-error@+1 {{'coopvec.matvec' op exponents have 2 elements, but K = 33 needs 3 (ceil(K/16))}}
  %y = coopvec.matvec %x as BFP8 exponents %e : vector<2xi8>, %w[%c0] matrix<BF16, 4x33, RowMajor> stride %c80 fidelity<lofi, dst = f32> : vector<33xi8>, memref<?xi8> -> vector<4xf32>
  return %y : vector<4xf32>
}

// -----

func.func @bfpin_f32_matrix(%x: vector<32xi8>, %e: vector<4xi8>, %w: memref<?xi8>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  // expected-error@+1 {{'coopvec.matvec' op math fidelity with a BFP4 input needs a BF16, BFP8 or BFP4 matrix (the unpacker decodes block floats to BF16), not F32}}
  %y = coopvec.matvec %x as BFP4 exponents %e : vector<4xi8>, %w[%c0] matrix<F32, 4x64, RowMajor> stride %c256 fidelity<lofi, dst = f32> : vector<32xi8>, memref<?xi8> -> vector<4xf32>
  return %y : vector<4xf32>
}

// -----

func.func @bfpin_batch_rows(%x: memref<3x32xi8>, %e: memref<2x2xi8>, %w: memref<?xi8>, %y: memref<3x4xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error@+1 {{'coopvec.batch_matvec' op has 3 input rows but 2 exponent rows}}
  coopvec.batch_matvec %x as BFP8 exponents %e : memref<2x2xi8>, %w[%c0] matrix<BF16, 4x32, RowMajor> stride %c64 fidelity<lofi, dst = f32> into %y : memref<3x32xi8>, memref<?xi8> -> memref<3x4xf32>
  return
}

// -----

func.func @bfpin_batch_dynamic_row(%x: memref<?x32xi8>, %e: memref<?x?xi8>, %w: memref<?xi8>, %y: memref<?x4xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error@+1 {{'coopvec.batch_matvec' op exponent rows must have a static length, but got 'memref<?x?xi8>'}}
  coopvec.batch_matvec %x as BFP8 exponents %e : memref<?x?xi8>, %w[%c0] matrix<BF16, 4x32, RowMajor> stride %c64 fidelity<lofi, dst = f32> into %y : memref<?x32xi8>, memref<?xi8> -> memref<?x4xf32>
  return
}

// -----

func.func @bfpin_batch_quantized(%x: memref<?x32xi8>, %e: memref<?x2xi8>, %w: memref<?xi8>, %y: memref<?x4xf32>) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  // expected-error@+1 {{'coopvec.batch_matvec' op exponents are the shared exponents of a block-float input; the quantized form takes none}}
  coopvec.batch_matvec %x as I8 exponents %e : memref<?x2xi8>, %w[%c0] matrix<I8, 4x32, RowMajor> stride %c32 weight_zero_points %w[%c0] as I8 per_tensor : memref<?xi8> into %y : memref<?x32xi8>, memref<?xi8> -> memref<?x4xf32>
  return
}

// -----

func.func @bfp_bias(%x: vector<32xf32>, %w: memref<?xi8>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error@+1 {{'coopvec.matvec' op bias interpretation BFP4 is not valid; expected one of I16, U16, I32, U32, F16, F32, U8, I8, F8_E4M3, F8_E5M2, BF16, F6_E2M3, F6_E3M2, F4_E2M1, I4, U4}}
  %y = coopvec.matvec %x as BF16, %w[%c0] matrix<BF16, 4x32, RowMajor> stride %c64 bias %w[%c0] as BFP4 fidelity<lofi, dst = f32, l1_acc> : vector<32xf32>, memref<?xi8>, memref<?xi8> -> vector<4xf32>
  return %y : vector<4xf32>
}

// -----

// tile_pack has no scales operand: block-scaled matrices (block floats, MX)
// cannot be tiled through it.
func.func @bfp_tile_pack(%w: memref<?xi8>, %t: memref<1x1x16x32xi8>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'coopvec.tile_pack' op does not take block-scaled matrices (only coopvec.matvec and coopvec.batch_matvec read scales)}}
  coopvec.tile_pack %w[%c0] matrix<BFP8, 16x32, InferencingOptimal, scale f8E8M0FNU block 16> into %t : memref<?xi8>, memref<1x1x16x32xi8>
  return
}
