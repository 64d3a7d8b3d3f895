// RUN: coopvec-opt %s -split-input-file -verify-diagnostics

// One case per validation rule, each with its whole message.

//===----------------------------------------------------------------------===//
// Matrix descriptors
//===----------------------------------------------------------------------===//

func.func @unknown_interpretation_in_matrix(%x: vector<4xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{unknown interpretation 'F64'; expected one of I16, U16, I32, U32, F16, F32, PackedS8x32, PackedU8x32, U8, I8, F8_E4M3, F8_E5M2, BF16, F6_E2M3, F6_E3M2, F4_E2M1, I4, U4, BFP8, BFP4 or their element types}}
  %0 = coopvec.matvec %x as F32, %w[%o] matrix<F64, 4x4, RowMajor> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  return
}

// -----

func.func @unknown_interpretation_type(%x: vector<4xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{unknown interpretation 'tf32'; expected one of I16, U16, I32, U32, F16, F32, PackedS8x32, PackedU8x32, U8, I8, F8_E4M3, F8_E5M2, BF16, F6_E2M3, F6_E3M2, F4_E2M1, I4, U4, BFP8, BFP4 or their element types}}
  %0 = coopvec.matvec %x as F32, %w[%o] matrix<tf32, 4x4, RowMajor> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  return
}

// -----

func.func @unknown_interpretation_integer_type(%x: vector<4xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{unknown interpretation 'i64'; expected one of I16, U16, I32, U32, F16, F32, PackedS8x32, PackedU8x32, U8, I8, F8_E4M3, F8_E5M2, BF16, F6_E2M3, F6_E3M2, F4_E2M1, I4, U4, BFP8, BFP4 or their element types}}
  %0 = coopvec.matvec %x as i64, %w[%o] matrix<F32, 4x4, InferencingOptimal> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  return
}

// -----

// A 4-bit row of 40 elements is 20 bytes (column pairs share a byte).
func.func @subbyte_stride_too_short(%x: vector<40xf32>, %w: memref<?xi8>, %o: index) {
  %c16 = arith.constant 16 : index
  // expected-error@+1 {{'coopvec.matvec' op matrix stride 16 is shorter than one row of the RowMajor matrix (20 bytes)}}
  %0 = coopvec.matvec %x as F32, %w[%o] matrix<F4_E2M1, 4x40, RowMajor> stride %c16 : vector<40xf32>, memref<?xi8> -> vector<4xf32>
  return
}

// -----

func.func @block_scale_type(%x: vector<32xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{block scale type must be f8E8M0FNU (UE8M0) or f8E4M3FN (UE4M3), but got 'f16'}}
  %0 = coopvec.matvec %x as F32, %w[%o] matrix<F8_E4M3, 4x32, RowMajor, scale f16 block 32> stride %o scales %w[%o] : memref<?xi8> : vector<32xf32>, memref<?xi8> -> vector<4xf32>
  return
}

// -----

func.func @block_size(%x: vector<32xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{block size must be 32 or 16, but got 64}}
  %0 = coopvec.matvec %x as F32, %w[%o] matrix<F8_E4M3, 4x32, RowMajor, scale f8E8M0FNU block 64> stride %o scales %w[%o] : memref<?xi8> : vector<32xf32>, memref<?xi8> -> vector<4xf32>
  return
}

// -----

func.func @block_scheme(%x: vector<32xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{F8_E4M3 elements with 'f8E4M3FN' scales in blocks of 16 are not a block-scale scheme; expected f8E8M0FNU x 32 over F8_E4M3, F8_E5M2, F6_E2M3, F6_E3M2 or F4_E2M1, f8E8M0FNU x 16 or f8E4M3FN x 16 over F4_E2M1, or f8E8M0FNU x 16 over BFP8 or BFP4}}
  %0 = coopvec.matvec %x as F32, %w[%o] matrix<F8_E4M3, 4x32, RowMajor, scale f8E4M3FN block 16> stride %o scales %w[%o] : memref<?xi8> : vector<32xf32>, memref<?xi8> -> vector<4xf32>
  return
}

// -----

func.func @block_scale_clause(%x: vector<32xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{expected 'transpose' or 'scale <type> block <size>'}}
  %0 = coopvec.matvec %x as F32, %w[%o] matrix<F8_E4M3, 4x32, RowMajor, scaled f8E8M0FNU block 32> stride %o : vector<32xf32>, memref<?xi8> -> vector<4xf32>
  return
}

// -----

func.func @transpose_twice(%x: vector<32xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{expected 'scale <type> block <size>' after 'transpose'}}
  %0 = coopvec.matvec %x as F32, %w[%o] matrix<F8_E4M3, 4x32, InferencingOptimal, transpose, transpose> : vector<32xf32>, memref<?xi8> -> vector<4xf32>
  return
}

// -----

func.func @block_scale_twice(%x: vector<32xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{expected '>' after the block scale}}
  %0 = coopvec.matvec %x as F32, %w[%o] matrix<F8_E4M3, 4x32, RowMajor, scale f8E8M0FNU block 32, transpose> stride %o : vector<32xf32>, memref<?xi8> -> vector<4xf32>
  return
}

// -----

func.func @unknown_layout(%x: vector<4xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{unknown matrix layout 'Diagonal'; expected RowMajor, ColumnMajor, InferencingOptimal (MulOptimal) or TrainingOptimal (OuterProductOptimal)}}
  %0 = coopvec.matvec %x as F32, %w[%o] matrix<F32, 4x4, Diagonal> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  return
}

// -----

func.func @zero_dim(%x: vector<4xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{matrix dimension M = 0 is out of range [1, 65536]}}
  %0 = coopvec.matvec %x as F32, %w[%o] matrix<F32, 0x4, InferencingOptimal> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  return
}

// -----

func.func @huge_dim(%x: vector<4xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{matrix dimension K = 100000 is out of range [1, 65536]}}
  %0 = coopvec.matvec %x as F32, %w[%o] matrix<F32, 4x100000, InferencingOptimal> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  return
}

// -----

func.func @overflowing_dim(%x: vector<4xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{invalid dimension}}
  %0 = coopvec.matvec %x as F32, %w[%o] matrix<F32, 4x99999999999999999999, InferencingOptimal> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  return
}

// -----

func.func @negative_dim(%x: vector<4xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{expected matrix shape MxK}}
  %0 = coopvec.matvec %x as F32, %w[%o] matrix<F32, -4x4, InferencingOptimal> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  return
}

// -----

func.func @one_dim(%x: vector<4xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{expected matrix shape MxK}}
  %0 = coopvec.matvec %x as F32, %w[%o] matrix<F32, 4, InferencingOptimal> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  return
}

// -----

func.func @bad_transpose_keyword(%x: vector<4xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{expected 'transpose'}}
  %0 = coopvec.matvec %x as F32, %w[%o] matrix<F32, 4x4, InferencingOptimal, flip> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  return
}

// -----

func.func @packed_matrix(%x: vector<4xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{matrix interpretation PackedS8x32 is packed; packed interpretations are only valid for input vectors}}
  %0 = coopvec.matvec %x as F32, %w[%o] matrix<PackedS8x32, 4x4, InferencingOptimal> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// coopvec.matvec
//===----------------------------------------------------------------------===//

func.func @unknown_input_interpretation(%x: vector<4xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{unknown interpretation 'TF32'; expected one of I16, U16, I32, U32, F16, F32, PackedS8x32, PackedU8x32, U8, I8, F8_E4M3, F8_E5M2, BF16, F6_E2M3, F6_E3M2, F4_E2M1, I4, U4, BFP8, BFP4 or their element types}}
  %0 = coopvec.matvec %x as TF32, %w[%o] matrix<F32, 4x4, InferencingOptimal> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  return
}

// -----

func.func @block_scaled_without_scales(%x: vector<32xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.matvec' op a block-scaled matrix needs a scales buffer}}
  %0 = coopvec.matvec %x as F32, %w[%o] matrix<F4_E2M1, 4x32, InferencingOptimal, scale f8E8M0FNU block 32> : vector<32xf32>, memref<?xi8> -> vector<4xf32>
  return
}

// -----

func.func @scales_without_block_scale(%x: vector<32xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.matvec' op scales given for a matrix without block scales}}
  %0 = coopvec.matvec %x as F32, %w[%o] matrix<F4_E2M1, 4x32, InferencingOptimal> scales %w[%o] : memref<?xi8> : vector<32xf32>, memref<?xi8> -> vector<4xf32>
  return
}

// -----

func.func @scales_negative_offset(%x: vector<32xf32>, %w: memref<?xi8>, %o: index) {
  %m1 = arith.constant -1 : index
  // expected-error@+1 {{'coopvec.matvec' op scales offset must be non-negative, but is -1}}
  %0 = coopvec.matvec %x as F32, %w[%o] matrix<F4_E2M1, 4x32, InferencingOptimal, scale f8E8M0FNU block 32> scales %w[%m1] : memref<?xi8> : vector<32xf32>, memref<?xi8> -> vector<4xf32>
  return
}

// -----

func.func @scales_without_offset(%x: vector<32xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.matvec' op scales buffer and scales offset must be given together}}
  %0 = "coopvec.matvec"(%x, %w, %o, %w) <{input_interp = #coopvec.interp<F32>, matrix_desc = #coopvec.matrix<F4_E2M1, 4x32, InferencingOptimal, scale f8E8M0FNU block 32>, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0>}> : (vector<32xf32>, memref<?xi8>, index, memref<?xi8>) -> vector<4xf32>
  return
}

// -----

func.func @packed_bias(%x: vector<4xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.matvec' op bias interpretation PackedU8x32 is not valid; expected one of I16, U16, I32, U32, F16, F32, U8, I8, F8_E4M3, F8_E5M2, BF16, F6_E2M3, F6_E3M2, F4_E2M1, I4, U4}}
  %0 = coopvec.matvec %x as F32, %w[%o] matrix<F32, 4x4, InferencingOptimal> bias %w[%o] as PackedU8x32 : vector<4xf32>, memref<?xi8>, memref<?xi8> -> vector<4xf32>
  return
}

// -----

func.func @packed_needs_i32(%x: vector<8xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.matvec' op packed interpretation PackedS8x32 needs i32 physical elements, but the input has 'f32'}}
  %0 = coopvec.matvec %x as PackedS8x32, %w[%o] matrix<I8, 4x32, InferencingOptimal> : vector<8xf32>, memref<?xi8> -> vector<4xi32>
  return
}

// -----

func.func @packed_length(%x: vector<4xi32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.matvec' op input has 4 packed words, but K = 30 needs 8 (ceil(K/4))}}
  %0 = coopvec.matvec %x as PackedS8x32, %w[%o] matrix<I8, 4x30, InferencingOptimal> : vector<4xi32>, memref<?xi8> -> vector<4xi32>
  return
}

// -----

func.func @input_length(%x: vector<8xf16>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.matvec' op input has 8 elements, but the matrix has K = 16}}
  %0 = coopvec.matvec %x as F16, %w[%o] matrix<F16, 4x16, InferencingOptimal> : vector<8xf16>, memref<?xi8> -> vector<4xf16>
  return
}

// -----

func.func @result_length(%x: vector<16xf16>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.matvec' op result has 16 elements, but the matrix has M = 32}}
  %0 = coopvec.matvec %x as F16, %w[%o] matrix<F16, 32x16, InferencingOptimal> : vector<16xf16>, memref<?xi8> -> vector<16xf16>
  return
}

// -----

func.func @input_element_type(%x: vector<4xi8>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.matvec' op input elements must be 16- or 32-bit integers or floats (f16, f32, i16, i32), but got 'i8'}}
  %0 = coopvec.matvec %x as I8, %w[%o] matrix<I8, 4x4, InferencingOptimal> : vector<4xi8>, memref<?xi8> -> vector<4xi32>
  return
}

// -----

func.func @result_element_type(%x: vector<4xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.matvec' op result elements must be 16- or 32-bit integers or floats (f16, f32, i16, i32), but got 'f64'}}
  %0 = coopvec.matvec %x as F32, %w[%o] matrix<F32, 4x4, InferencingOptimal> : vector<4xf32>, memref<?xi8> -> vector<4xf64>
  return
}

// -----

func.func @bf16_input(%x: vector<4xbf16>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.matvec' op input elements must be 16- or 32-bit integers or floats (f16, f32, i16, i32), but got 'bf16'}}
  %0 = coopvec.matvec %x as F16, %w[%o] matrix<F16, 4x4, InferencingOptimal> : vector<4xbf16>, memref<?xi8> -> vector<4xf32>
  return
}

// -----

// Empty vectors do not exist in MLIR: the type itself is rejected.
// expected-error@+1 {{vector types must have positive constant sizes but got 0}}
func.func @empty_vector(%x: vector<0xf32>, %w: memref<?xi8>, %o: index) {
  return
}

// -----

func.func @rank2_vector(%x: vector<2x2xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.matvec' op operand #0 must be 1-D fixed-length vector, but got 'vector<2x2xf32>'}}
  %0 = coopvec.matvec %x as F32, %w[%o] matrix<F32, 4x4, InferencingOptimal> : vector<2x2xf32>, memref<?xi8> -> vector<4xf32>
  return
}

// -----

func.func @scalable_vector(%x: vector<[4]xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.matvec' op operand #0 must be 1-D fixed-length vector, but got 'vector<[4]xf32>'}}
  %0 = coopvec.matvec %x as F32, %w[%o] matrix<F32, 4x4, InferencingOptimal> : vector<[4]xf32>, memref<?xi8> -> vector<4xf32>
  return
}

// -----

func.func @non_byte_buffer(%x: vector<4xf32>, %w: memref<?xf32>, %o: index) {
  // expected-error@+1 {{'coopvec.matvec' op operand #1 must be 1D memref of 8-bit signless integer values, but got 'memref<?xf32>'}}
  %0 = coopvec.matvec %x as F32, %w[%o] matrix<F32, 4x4, InferencingOptimal> : vector<4xf32>, memref<?xf32> -> vector<4xf32>
  return
}

// -----

func.func @transpose_row_major(%x: vector<4xf32>, %w: memref<?xi8>, %o: index, %s: index) {
  // expected-error@+1 {{'coopvec.matvec' op transpose is not supported for the RowMajor layout; use an optimal layout}}
  %0 = coopvec.matvec %x as F32, %w[%o] matrix<F32, 4x4, RowMajor, transpose> stride %s : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  return
}

// -----

func.func @transpose_column_major(%x: vector<4xf32>, %w: memref<?xi8>, %o: index, %s: index) {
  // expected-error@+1 {{'coopvec.matvec' op transpose is not supported for the ColumnMajor layout; use an optimal layout}}
  %0 = coopvec.matvec %x as F32, %w[%o] matrix<F32, 4x4, ColumnMajor, transpose> stride %s : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  return
}

// -----

func.func @unsigned_float_input(%x: vector<4xf16>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.matvec' op the unsigned flag is only valid for integer vectors, but the input is 'vector<4xf16>'}}
  %0 = coopvec.matvec %x unsigned as F16, %w[%o] matrix<F16, 4x4, InferencingOptimal> : vector<4xf16>, memref<?xi8> -> vector<4xf16>
  return
}

// -----

func.func @unsigned_float_result(%x: vector<4xf16>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.matvec' op the unsigned flag is only valid for integer vectors, but the result is 'vector<4xf16>'}}
  %0 = coopvec.matvec %x as F16, %w[%o] matrix<F16, 4x4, InferencingOptimal> unsigned_result : vector<4xf16>, memref<?xi8> -> vector<4xf16>
  return
}

// -----

func.func @missing_stride(%x: vector<4xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.matvec' op matrix stride is required for the RowMajor layout}}
  %0 = coopvec.matvec %x as F32, %w[%o] matrix<F32, 4x4, RowMajor> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  return
}

// -----

func.func @unaligned_stride(%x: vector<4xf32>, %w: memref<?xi8>, %o: index) {
  %s = arith.constant 40 : index
  // expected-error@+1 {{'coopvec.matvec' op matrix stride 40 must be a multiple of 16 bytes}}
  %0 = coopvec.matvec %x as F32, %w[%o] matrix<F32, 4x4, RowMajor> stride %s : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  return
}

// -----

func.func @short_row_stride(%x: vector<8xf32>, %w: memref<?xi8>, %o: index) {
  %s = arith.constant 16 : index
  // expected-error@+1 {{'coopvec.matvec' op matrix stride 16 is shorter than one row of the RowMajor matrix (32 bytes)}}
  %0 = coopvec.matvec %x as F32, %w[%o] matrix<F32, 4x8, RowMajor> stride %s : vector<8xf32>, memref<?xi8> -> vector<4xf32>
  return
}

// -----

func.func @short_column_stride(%x: vector<4xf16>, %w: memref<?xi8>, %o: index) {
  %s = arith.constant 16 : index
  // expected-error@+1 {{'coopvec.matvec' op matrix stride 16 is shorter than one column of the ColumnMajor matrix (20 bytes)}}
  %0 = coopvec.matvec %x as F16, %w[%o] matrix<F16, 10x4, ColumnMajor> stride %s : vector<4xf16>, memref<?xi8> -> vector<10xf16>
  return
}

// -----

func.func @negative_stride(%x: vector<4xf32>, %w: memref<?xi8>, %o: index) {
  %s = arith.constant -16 : index
  // expected-error@+1 {{'coopvec.matvec' op matrix stride must be non-negative, but is -16}}
  %0 = coopvec.matvec %x as F32, %w[%o] matrix<F32, 4x4, RowMajor> stride %s : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  return
}

// -----

func.func @unaligned_matrix_offset(%x: vector<4xf32>, %w: memref<?xi8>) {
  %o = arith.constant 64 : index
  // expected-error@+1 {{'coopvec.matvec' op matrix offset 64 must be a multiple of 128 bytes}}
  %0 = coopvec.matvec %x as F32, %w[%o] matrix<F32, 4x4, InferencingOptimal> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  return
}

// -----

func.func @negative_matrix_offset(%x: vector<4xf32>, %w: memref<?xi8>) {
  %o = arith.constant -128 : index
  // expected-error@+1 {{'coopvec.matvec' op matrix offset must be non-negative, but is -128}}
  %0 = coopvec.matvec %x as F32, %w[%o] matrix<F32, 4x4, InferencingOptimal> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  return
}

// -----

func.func @unaligned_bias_offset(%x: vector<4xf32>, %w: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %o = arith.constant 96 : index
  // expected-error@+1 {{'coopvec.matvec' op bias offset 96 must be a multiple of 64 bytes}}
  %0 = coopvec.matvec %x as F32, %w[%c0] matrix<F32, 4x4, InferencingOptimal> bias %w[%o] as F32 : vector<4xf32>, memref<?xi8>, memref<?xi8> -> vector<4xf32>
  return
}

// -----

func.func @bias_without_interpretation(%x: vector<4xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.matvec' op bias needs an interpretation}}
  %0 = "coopvec.matvec"(%x, %w, %o, %w, %o) <{input_interp = #coopvec.interp<F32>, matrix_desc = #coopvec.matrix<F32, 4x4, InferencingOptimal>, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1, 0, 0, 0>}> : (vector<4xf32>, memref<?xi8>, index, memref<?xi8>, index) -> vector<4xf32>
  return
}

// -----

func.func @interpretation_without_bias(%x: vector<4xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.matvec' op bias interpretation given without a bias}}
  %0 = "coopvec.matvec"(%x, %w, %o) <{bias_interp = #coopvec.interp<F32>, input_interp = #coopvec.interp<F32>, matrix_desc = #coopvec.matrix<F32, 4x4, InferencingOptimal>, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0>}> : (vector<4xf32>, memref<?xi8>, index) -> vector<4xf32>
  return
}

// -----

func.func @bias_without_offset(%x: vector<4xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.matvec' op bias buffer and bias offset must be given together}}
  %0 = "coopvec.matvec"(%x, %w, %o, %w) <{bias_interp = #coopvec.interp<F32>, input_interp = #coopvec.interp<F32>, matrix_desc = #coopvec.matrix<F32, 4x4, InferencingOptimal>, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0, 0, 0, 0>}> : (vector<4xf32>, memref<?xi8>, index, memref<?xi8>) -> vector<4xf32>
  return
}

// -----

func.func @non_integer_interpretation(%x: vector<4xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{invalid properties {input_interp = 3.500000e+00 : f32, matrix_desc = #coopvec.matrix<F32, 4x4, InferencingOptimal>, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0>} for op coopvec.matvec: Invalid attribute `input_interp` in property conversion: 3.500000e+00 : f32}}
  %0 = "coopvec.matvec"(%x, %w, %o) <{input_interp = 3.5 : f32, matrix_desc = #coopvec.matrix<F32, 4x4, InferencingOptimal>, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0>}> : (vector<4xf32>, memref<?xi8>, index) -> vector<4xf32>
  return
}

// -----

func.func @missing_descriptor(%x: vector<4xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.matvec' op requires attribute 'matrix_desc'}}
  %0 = "coopvec.matvec"(%x, %w, %o) <{input_interp = #coopvec.interp<F32>, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0>}> : (vector<4xf32>, memref<?xi8>, index) -> vector<4xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// coopvec.outer_product_accumulate
//===----------------------------------------------------------------------===//

func.func @outer_element_types(%a: vector<8xf16>, %b: vector<4xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.outer_product_accumulate' op input vectors must have the same element type, but got 'f16' and 'f32'}}
  coopvec.outer_product_accumulate %a, %b, %w[%o] matrix<F16, 8x4, TrainingOptimal> : vector<8xf16>, vector<4xf32>, memref<?xi8>
  return
}

// -----

func.func @outer_product_block_scaled(%a: vector<8xf16>, %b: vector<32xf16>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.outer_product_accumulate' op does not take block-scaled matrices (only coopvec.matvec and coopvec.batch_matvec read scales)}}
  coopvec.outer_product_accumulate %a, %b, %w[%o] matrix<F8_E4M3, 8x32, TrainingOptimal, scale f8E8M0FNU block 32> : vector<8xf16>, vector<32xf16>, memref<?xi8>
  return
}

// -----

func.func @outer_product_subbyte_accumulation(%a: vector<8xf16>, %b: vector<4xf16>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.outer_product_accumulate' op accumulation interpretation F4_E2M1 is not valid; expected one of I16, U16, I32, U32, F16, F32, U8, I8, F8_E4M3, F8_E5M2, BF16}}
  coopvec.outer_product_accumulate %a, %b, %w[%o] matrix<F4_E2M1, 8x4, TrainingOptimal> : vector<8xf16>, vector<4xf16>, memref<?xi8>
  return
}

// -----

func.func @outer_first_length(%a: vector<4xf16>, %b: vector<4xf16>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.outer_product_accumulate' op first input has 4 elements, but the matrix has M = 8}}
  coopvec.outer_product_accumulate %a, %b, %w[%o] matrix<F16, 8x4, TrainingOptimal> : vector<4xf16>, vector<4xf16>, memref<?xi8>
  return
}

// -----

func.func @outer_second_length(%a: vector<8xf16>, %b: vector<8xf16>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.outer_product_accumulate' op second input has 8 elements, but the matrix has N = 4}}
  coopvec.outer_product_accumulate %a, %b, %w[%o] matrix<F16, 8x4, TrainingOptimal> : vector<8xf16>, vector<8xf16>, memref<?xi8>
  return
}

// -----

func.func @outer_element_kind(%a: vector<8xi8>, %b: vector<4xi8>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.outer_product_accumulate' op input elements must be 16- or 32-bit integers or floats (f16, f32, i16, i32), but got 'i8'}}
  coopvec.outer_product_accumulate %a, %b, %w[%o] matrix<I8, 8x4, TrainingOptimal> : vector<8xi8>, vector<4xi8>, memref<?xi8>
  return
}

// -----

func.func @outer_transpose(%a: vector<8xf16>, %b: vector<4xf16>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.outer_product_accumulate' op outer-product accumulation does not transpose the matrix}}
  coopvec.outer_product_accumulate %a, %b, %w[%o] matrix<F16, 8x4, TrainingOptimal, transpose> : vector<8xf16>, vector<4xf16>, memref<?xi8>
  return
}

// -----

func.func @outer_offset(%a: vector<8xf16>, %b: vector<4xf16>, %w: memref<?xi8>) {
  %o = arith.constant 16 : index
  // expected-error@+1 {{'coopvec.outer_product_accumulate' op matrix offset 16 must be a multiple of 128 bytes}}
  coopvec.outer_product_accumulate %a, %b, %w[%o] matrix<F16, 8x4, TrainingOptimal> : vector<8xf16>, vector<4xf16>, memref<?xi8>
  return
}

// -----

func.func @outer_stride(%a: vector<8xf16>, %b: vector<4xf16>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.outer_product_accumulate' op matrix stride is required for the ColumnMajor layout}}
  coopvec.outer_product_accumulate %a, %b, %w[%o] matrix<F16, 8x4, ColumnMajor> : vector<8xf16>, vector<4xf16>, memref<?xi8>
  return
}

// -----

//===----------------------------------------------------------------------===//
// coopvec.vector_accumulate
//===----------------------------------------------------------------------===//

func.func @accumulate_offset(%v: vector<8xf16>, %w: memref<?xi8>) {
  %o = arith.constant 32 : index
  // expected-error@+1 {{'coopvec.vector_accumulate' op accumulation offset 32 must be a multiple of 64 bytes}}
  coopvec.vector_accumulate %v, %w[%o] : vector<8xf16>, memref<?xi8>
  return
}

// -----

func.func @accumulate_element_type(%v: vector<8xf64>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.vector_accumulate' op input elements must be 16- or 32-bit integers or floats (f16, f32, i16, i32), but got 'f64'}}
  coopvec.vector_accumulate %v, %w[%o] : vector<8xf64>, memref<?xi8>
  return
}

// -----

//===----------------------------------------------------------------------===//
// coopvec.convert_matrix and coopvec.matrix_size
//===----------------------------------------------------------------------===//

func.func @convert_matrix_block_scaled(%src: memref<?xi8>, %dst: memref<?xi8>, %o: index) {
  %c64 = arith.constant 64 : index
  // expected-error@+1 {{'coopvec.convert_matrix' op does not take block-scaled matrices (only coopvec.matvec and coopvec.batch_matvec read scales)}}
  coopvec.convert_matrix %src[%o] matrix<F32, 8x32, RowMajor> stride %c64 to %dst[%o] matrix<F8_E4M3, 8x32, InferencingOptimal, scale f8E8M0FNU block 32> : memref<?xi8>, memref<?xi8>
  return
}

// -----

func.func @convert_matrix_non_dxil(%src: memref<?xi8>, %dst: memref<?xi8>, %o: index) {
  %c64 = arith.constant 64 : index
  // expected-error@+1 {{'coopvec.convert_matrix' op matrix conversion takes the DXIL interpretations, but got BF16}}
  coopvec.convert_matrix %src[%o] matrix<F32, 8x16, RowMajor> stride %c64 to %dst[%o] matrix<BF16, 8x16, InferencingOptimal> : memref<?xi8>, memref<?xi8>
  return
}

// -----

func.func @convert_shape(%s: memref<?xi8>, %d: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.convert_matrix' op source is 8x4 but destination is 4x8; conversion keeps the shape}}
  coopvec.convert_matrix %s[%o] matrix<F16, 8x4, InferencingOptimal> to %d[%o] matrix<F16, 4x8, InferencingOptimal> : memref<?xi8>, memref<?xi8>
  return
}

// -----

func.func @convert_transpose(%s: memref<?xi8>, %d: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.convert_matrix' op matrix conversion does not transpose}}
  coopvec.convert_matrix %s[%o] matrix<F16, 8x4, InferencingOptimal, transpose> to %d[%o] matrix<F16, 8x4, InferencingOptimal> : memref<?xi8>, memref<?xi8>
  return
}

// -----

func.func @convert_integer_types(%s: memref<?xi8>, %d: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.convert_matrix' op cannot convert I8 to F16: differing types need F32 or F16 on one side and a lower-precision float type on the other}}
  coopvec.convert_matrix %s[%o] matrix<I8, 8x4, InferencingOptimal> to %d[%o] matrix<F16, 8x4, InferencingOptimal> : memref<?xi8>, memref<?xi8>
  return
}

// -----

func.func @convert_fp8_to_fp8(%s: memref<?xi8>, %d: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.convert_matrix' op cannot convert F8_E4M3 to F8_E5M2: differing types need F32 or F16 on one side and a lower-precision float type on the other}}
  coopvec.convert_matrix %s[%o] matrix<F8_E4M3, 8x4, InferencingOptimal> to %d[%o] matrix<F8_E5M2, 8x4, InferencingOptimal> : memref<?xi8>, memref<?xi8>
  return
}

// -----

func.func @convert_fp8_layout(%s: memref<?xi8>, %d: memref<?xi8>, %o: index, %st: index) {
  // expected-error@+1 {{'coopvec.convert_matrix' op F8_E5M2 destinations need an optimal layout, but got ColumnMajor}}
  coopvec.convert_matrix %s[%o] matrix<F32, 8x4, InferencingOptimal> to %d[%o] matrix<F8_E5M2, 8x4, ColumnMajor> stride %st : memref<?xi8>, memref<?xi8>
  return
}

// -----

func.func @convert_source_stride(%s: memref<?xi8>, %d: memref<?xi8>, %o: index) {
  %st = arith.constant 18 : index
  // expected-error@+1 {{'coopvec.convert_matrix' op source stride 18 must be a multiple of the element size (4 bytes)}}
  coopvec.convert_matrix %s[%o] matrix<F32, 8x4, RowMajor> stride %st to %d[%o] matrix<F16, 8x4, InferencingOptimal> : memref<?xi8>, memref<?xi8>
  return
}

// -----

func.func @convert_source_short_stride(%s: memref<?xi8>, %d: memref<?xi8>, %o: index) {
  %st = arith.constant 12 : index
  // expected-error@+1 {{'coopvec.convert_matrix' op source stride 12 is shorter than one row of the RowMajor matrix (16 bytes)}}
  coopvec.convert_matrix %s[%o] matrix<F32, 8x4, RowMajor> stride %st to %d[%o] matrix<F16, 8x4, InferencingOptimal> : memref<?xi8>, memref<?xi8>
  return
}

// -----

func.func @convert_destination_stride(%s: memref<?xi8>, %d: memref<?xi8>, %o: index) {
  %st = arith.constant 24 : index
  // expected-error@+1 {{'coopvec.convert_matrix' op destination stride 24 must be a multiple of 16 bytes}}
  coopvec.convert_matrix %s[%o] matrix<F32, 8x4, InferencingOptimal> to %d[%o] matrix<F32, 8x4, RowMajor> stride %st : memref<?xi8>, memref<?xi8>
  return
}

// -----

func.func @convert_destination_offset(%s: memref<?xi8>, %d: memref<?xi8>, %o: index) {
  %do = arith.constant 64 : index
  // expected-error@+1 {{'coopvec.convert_matrix' op destination offset 64 must be a multiple of 128 bytes}}
  coopvec.convert_matrix %s[%o] matrix<F32, 8x4, InferencingOptimal> to %d[%do] matrix<F16, 8x4, InferencingOptimal> : memref<?xi8>, memref<?xi8>
  return
}

// -----

func.func @convert_source_offset(%s: memref<?xi8>, %d: memref<?xi8>, %o: index) {
  %so = arith.constant -4 : index
  // expected-error@+1 {{'coopvec.convert_matrix' op source offset must be non-negative, but is -4}}
  coopvec.convert_matrix %s[%so] matrix<F32, 8x4, InferencingOptimal> to %d[%o] matrix<F16, 8x4, InferencingOptimal> : memref<?xi8>, memref<?xi8>
  return
}

// -----

func.func @size_transpose() -> index {
  // expected-error@+1 {{'coopvec.matrix_size' op matrix size queries do not transpose}}
  %0 = coopvec.matrix_size matrix<F16, 8x4, InferencingOptimal, transpose> : index
  return %0 : index
}

// -----

func.func @size_stride() -> index {
  // expected-error@+1 {{'coopvec.matrix_size' op matrix stride is required for the RowMajor layout}}
  %0 = coopvec.matrix_size matrix<F16, 8x4, RowMajor> : index
  return %0 : index
}

// -----

//===----------------------------------------------------------------------===//
// Profiles
//===----------------------------------------------------------------------===//

// expected-error@+1 {{'coopvec.profile' must be a #coopvec.profile attribute or the name of a builtin profile}}
module attributes {coopvec.profile = 1 : i32} {
}

// -----

// expected-error@+1 {{'coopvec.profile' must be a #coopvec.profile attribute or the name of a builtin profile}}
module attributes {coopvec.profile = ""} {
}

// -----

// expected-error@+1 {{unknown profile kind 'cuda'; expected one of d3d12, cpu, nvptx, riscv, vulkan, tenstorrent}}
module attributes {coopvec.profile = #coopvec.profile<name = "p", kind = "cuda", matvec = [], outer_product = [], vector_accumulate = []>} {
}

// -----

// expected-error@+1 {{nvptx arch 'sm_90x' is not an SM name (sm_<N>, sm_<N>a or sm_<N>f)}}
module attributes {coopvec.profile = #coopvec.profile<name = "p", kind = "nvptx", arch = "sm_90x", matvec = [], outer_product = [], vector_accumulate = []>} {
}

// -----

// expected-error@+1 {{profile features must be non-empty strings, but got 3 : i64}}
module attributes {coopvec.profile = #coopvec.profile<name = "p", features = ["mma.sync", 3], matvec = [], outer_product = [], vector_accumulate = []>} {
}

// -----

// expected-error@+1 {{profile tile shapes must be array<i64: m, n, k> of positive sizes, but got array<i64: 16, 8>}}
module attributes {coopvec.profile = #coopvec.profile<name = "p", matvec = [#coopvec.matvec_support<matrix = F16, tiles = [array<i64: 16, 8>]>], outer_product = [], vector_accumulate = []>} {
}

// -----

// expected-error@+1 {{profile tile shapes must be array<i64: m, n, k> of positive sizes, but got array<i64: 16, 0, 8>}}
module attributes {coopvec.profile = #coopvec.profile<name = "p", matvec = [#coopvec.matvec_support<matrix = F16, tiles = [array<i64: 16, 0, 8>]>], outer_product = [], vector_accumulate = []>} {
}

// -----

// expected-error@+1 {{unknown coopvec attribute 'coopvec.target'}}
module attributes {coopvec.target = 1 : i32} {
}

// -----

// expected-error@+1 {{profile of tier tier1_0 cannot list outer-product or vector-accumulate support (tier1_1 is needed)}}
module attributes {coopvec.profile = #coopvec.profile<name = "p", tier = tier1_0, matvec = [], outer_product = [#coopvec.accum_support<input = F16, accumulation = F16>], vector_accumulate = []>} {
}

// -----

// expected-error@+1 {{profile 'matvec' entries must be #coopvec.matvec_support, but got 1 : i32}}
module attributes {coopvec.profile = #coopvec.profile<name = "p", tier = tier1_1, matvec = [1 : i32], outer_product = [], vector_accumulate = []>} {
}

// -----

// expected-error@+1 {{profile name must not be empty}}
module attributes {coopvec.profile = #coopvec.profile<name = "", tier = tier1_1, matvec = [], outer_product = [], vector_accumulate = []>} {
}

// -----

// expected-error@+1 {{profile without cooperative-vector support cannot list matrix-vector support}}
module attributes {coopvec.profile = #coopvec.profile<name = "p", tier = none, matvec = [#coopvec.matvec_support<input = F16, input_interp = F16, matrix = F16, bias = F16, output = F16>], outer_product = [], vector_accumulate = []>} {
}

// -----

// expected-error@+2 {{expected ::mlir::coopvec::SupportTier to be one of: none, tier1_0, tier1_1}}
// expected-error@+1 {{failed to parse CoopVec_ProfileAttr parameter 'tier' which is to be a `::mlir::coopvec::SupportTier`}}
module attributes {coopvec.profile = #coopvec.profile<name = "p", tier = tier2, matvec = [], outer_product = [], vector_accumulate = []>} {
}

// -----

//===----------------------------------------------------------------------===//
// coopvec.batch_matvec and coopvec.mlp
//===----------------------------------------------------------------------===//

func.func @batch_dynamic_row(%x: memref<?x?xf32>, %y: memref<?x4xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.batch_matvec' op batch rows must have a static length, but got 'memref<?x?xf32>'}}
  coopvec.batch_matvec %x as F32, %w[%o] matrix<F32, 4x4, InferencingOptimal> into %y : memref<?x?xf32>, memref<?xi8> -> memref<?x4xf32>
  return
}

// -----

func.func @batch_row_count(%x: memref<8x4xf32>, %y: memref<7x4xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.batch_matvec' op has 8 input rows but 7 output rows}}
  coopvec.batch_matvec %x as F32, %w[%o] matrix<F32, 4x4, InferencingOptimal> into %y : memref<8x4xf32>, memref<?xi8> -> memref<7x4xf32>
  return
}

// -----

func.func @batch_row_length(%x: memref<?x8xf32>, %y: memref<?x4xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.batch_matvec' op input has 8 elements, but the matrix has K = 9}}
  coopvec.batch_matvec %x as F32, %w[%o] matrix<F32, 4x9, InferencingOptimal> into %y : memref<?x8xf32>, memref<?xi8> -> memref<?x4xf32>
  return
}

// -----

func.func @batch_transpose(%x: memref<?x4xf32>, %y: memref<?x4xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.batch_matvec' op transpose is not supported for the ColumnMajor layout; use an optimal layout}}
  coopvec.batch_matvec %x as F32, %w[%o] matrix<F32, 4x4, ColumnMajor, transpose> stride %o into %y : memref<?x4xf32>, memref<?xi8> -> memref<?x4xf32>
  return
}

// -----

func.func @mlp_f16_rows(%x: memref<?x4xf16>, %y: memref<?x4xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.mlp' op inputs and outputs must be f32 rows, but got 'memref<?x4xf16>' and 'memref<?x4xf32>'}}
  coopvec.mlp %x layers [%w[%o] matrix<F32, 4x4, InferencingOptimal> stride %o none] into %y : memref<?x4xf16>, memref<?x4xf32>, memref<?xi8>
  return
}

// -----

func.func @mlp_int_weights(%x: memref<?x4xf32>, %y: memref<?x4xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.mlp' op fused layers take F32, F16, BF16 or I8 weights, but layer 0 has U8}}
  coopvec.mlp %x layers [%w[%o] matrix<U8, 4x4, InferencingOptimal> stride %o none] into %y : memref<?x4xf32>, memref<?x4xf32>, memref<?xi8>
  return
}

// -----

func.func @mlp_i8_no_scales(%x: memref<?x4xf32>, %y: memref<?x4xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.mlp' op has I8 weights, so it needs an input_scale and a requant buffer for each of its 1 layers}}
  coopvec.mlp %x layers [%w[%o] matrix<I8, 4x4, InferencingOptimal> stride %o none] into %y : memref<?x4xf32>, memref<?x4xf32>, memref<?xi8>
  return
}

// -----

func.func @mlp_i8_missing_requant(%x: memref<?x4xf32>, %y: memref<?x4xf32>, %w: memref<?xi8>, %s: memref<?xi8>, %o: index, %q: f32) {
  // expected-error@+1 {{'coopvec.mlp' op has I8 weights, so it needs an input_scale and a requant buffer for each of its 2 layers}}
  coopvec.mlp %x layers [%w[%o] matrix<I8, 4x4, InferencingOptimal> stride %o relu requant %s[%o], %w[%o] matrix<I8, 4x4, InferencingOptimal> stride %o none] input_scale %q into %y : memref<?x4xf32>, memref<?x4xf32>, memref<?xi8>, memref<?xi8>, memref<?xi8>
  return
}

// -----

func.func @mlp_float_scales(%x: memref<?x4xf32>, %y: memref<?x4xf32>, %w: memref<?xi8>, %s: memref<?xi8>, %o: index, %q: f32) {
  // expected-error@+1 {{'coopvec.mlp' op input_scale and requant are for I8 weights, but the layers have F32 weights}}
  coopvec.mlp %x layers [%w[%o] matrix<F32, 4x4, InferencingOptimal> stride %o none requant %s[%o]] input_scale %q into %y : memref<?x4xf32>, memref<?x4xf32>, memref<?xi8>, memref<?xi8>
  return
}

// -----

func.func @mlp_input_scale_value(%x: memref<?x4xf32>, %y: memref<?x4xf32>, %w: memref<?xi8>, %s: memref<?xi8>, %o: index) {
  %q = arith.constant -2.0 : f32
  // expected-error@+1 {{'coopvec.mlp' op input_scale must be a positive finite f32, but is -2}}
  coopvec.mlp %x layers [%w[%o] matrix<I8, 4x4, InferencingOptimal> stride %o none requant %s[%o]] input_scale %q into %y : memref<?x4xf32>, memref<?x4xf32>, memref<?xi8>, memref<?xi8>
  return
}

// -----

func.func @mlp_input_scale_inf(%x: memref<?x4xf32>, %y: memref<?x4xf32>, %w: memref<?xi8>, %s: memref<?xi8>, %o: index) {
  %q = arith.constant 0x7F800000 : f32
  // expected-error@+1 {{'coopvec.mlp' op input_scale must be a positive finite f32, but is INF}}
  coopvec.mlp %x layers [%w[%o] matrix<I8, 4x4, InferencingOptimal> stride %o none requant %s[%o]] input_scale %q into %y : memref<?x4xf32>, memref<?x4xf32>, memref<?xi8>, memref<?xi8>
  return
}

// -----

func.func @mlp_requant_offset(%x: memref<?x4xf32>, %y: memref<?x4xf32>, %w: memref<?xi8>, %s: memref<?xi8>, %o: index, %q: f32) {
  %c6 = arith.constant 6 : index
  // expected-error@+1 {{'coopvec.mlp' op requant offset 6 must be a multiple of 4 bytes}}
  coopvec.mlp %x layers [%w[%o] matrix<I8, 4x4, InferencingOptimal> stride %o none requant %s[%c6]] input_scale %q into %y : memref<?x4xf32>, memref<?x4xf32>, memref<?xi8>, memref<?xi8>
  return
}

// -----

func.func @mlp_requant_counts(%x: memref<?x4xf32>, %y: memref<?x4xf32>, %w: memref<?xi8>, %o: index, %q: f32) {
  // expected-error@+1 {{'coopvec.mlp' op needs one offset per requant buffer}}
  "coopvec.mlp"(%x, %w, %o, %o, %q, %w, %y) <{activations = array<i32: 0>, bias_layers = array<i64>, matrices = [#coopvec.matrix<I8, 4x4, InferencingOptimal>], operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 1, 1, 0, 1>}> : (memref<?x4xf32>, memref<?xi8>, index, index, f32, memref<?xi8>, memref<?x4xf32>) -> ()
  return
}

// -----

func.func @mlp_mixed_weights(%x: memref<?x4xf32>, %y: memref<?x4xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.mlp' op every layer must have F32 weights, but layer 1 has F16}}
  coopvec.mlp %x layers [%w[%o] matrix<F32, 4x4, InferencingOptimal> stride %o relu, %w[%o] matrix<F16, 4x4, InferencingOptimal> stride %o none] into %y : memref<?x4xf32>, memref<?x4xf32>, memref<?xi8>, memref<?xi8>
  return
}

// -----

func.func @mlp_chain(%x: memref<?x4xf32>, %y: memref<?x4xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.mlp' op layer 1 takes K = 8 values, but receives 16}}
  coopvec.mlp %x layers [%w[%o] matrix<F32, 16x4, InferencingOptimal> stride %o relu, %w[%o] matrix<F32, 4x8, InferencingOptimal> stride %o none] into %y : memref<?x4xf32>, memref<?x4xf32>, memref<?xi8>, memref<?xi8>
  return
}

// -----

func.func @mlp_output(%x: memref<?x4xf32>, %y: memref<?x3xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.mlp' op the last layer produces 4 values, but output rows hold 3}}
  coopvec.mlp %x layers [%w[%o] matrix<F32, 4x4, InferencingOptimal> stride %o none] into %y : memref<?x4xf32>, memref<?x3xf32>, memref<?xi8>
  return
}

// -----

func.func @mlp_activation(%x: memref<?x4xf32>, %y: memref<?x4xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{unknown activation 'tanh'; expected relu or none}}
  coopvec.mlp %x layers [%w[%o] matrix<F32, 4x4, InferencingOptimal> stride %o tanh] into %y : memref<?x4xf32>, memref<?x4xf32>, memref<?xi8>
  return
}

// -----

func.func @mlp_types(%x: memref<?x4xf32>, %y: memref<?x4xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{expected 3 types (inputs, outputs, then each weight, bias and requant buffer), but got 2}}
  coopvec.mlp %x layers [%w[%o] matrix<F32, 4x4, InferencingOptimal> stride %o none] into %y : memref<?x4xf32>, memref<?x4xf32>
  return
}

// -----

func.func @mlp_layer_stride(%x: memref<?x4xf32>, %y: memref<?x4xf32>, %w: memref<?xi8>, %o: index) {
  %s = arith.constant 8 : index
  // expected-error@+1 {{'coopvec.mlp' op matrix stride 8 must be a multiple of 16 bytes}}
  coopvec.mlp %x layers [%w[%o] matrix<F32, 4x4, RowMajor> stride %s none] into %y : memref<?x4xf32>, memref<?x4xf32>, memref<?xi8>
  return
}

// -----

func.func @mlp_no_layers(%x: memref<?x4xf32>, %y: memref<?x4xf32>) {
  // expected-error@+1 {{'coopvec.mlp' op needs at least one layer}}
  "coopvec.mlp"(%x, %y) <{activations = array<i32>, bias_layers = array<i64>, matrices = [], operandSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 0, 0, 0, 1>}> : (memref<?x4xf32>, memref<?x4xf32>) -> ()
  return
}

// -----

func.func @mlp_bias_layers(%x: memref<?x4xf32>, %y: memref<?x4xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.mlp' op bias layer indices must increase and be below 1, but got 3}}
  "coopvec.mlp"(%x, %w, %o, %o, %w, %o, %y) <{activations = array<i32: 0>, bias_layers = array<i64: 3>, matrices = [#coopvec.matrix<F32, 4x4, InferencingOptimal>], operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 0, 0, 0, 1>}> : (memref<?x4xf32>, memref<?xi8>, index, index, memref<?xi8>, index, memref<?x4xf32>) -> ()
  return
}

// -----

func.func @mlp_unknown_activation_value(%x: memref<?x4xf32>, %y: memref<?x4xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.mlp' op layer 0 has an unknown activation 7}}
  "coopvec.mlp"(%x, %w, %o, %o, %y) <{activations = array<i32: 7>, bias_layers = array<i64>, matrices = [#coopvec.matrix<F32, 4x4, InferencingOptimal>], operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0, 0, 1>}> : (memref<?x4xf32>, memref<?xi8>, index, index, memref<?x4xf32>) -> ()
  return
}

// -----

func.func @mlp_operand_counts(%x: memref<?x4xf32>, %y: memref<?x4xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.mlp' op has 1 layers, so it needs that many weights, weight offsets, weight strides and activations}}
  "coopvec.mlp"(%x, %w, %o, %y) <{activations = array<i32: 0>, bias_layers = array<i64>, matrices = [#coopvec.matrix<F32, 4x4, InferencingOptimal>], operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 1>}> : (memref<?x4xf32>, memref<?xi8>, index, memref<?x4xf32>) -> ()
  return
}
