// RUN: coopvec-opt %s -split-input-file -verify-diagnostics

func.func @pack_rank(%w: memref<?xi8>, %p: memref<4x16x16xi8>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'coopvec.tile_pack' op packed buffer must have rank 4 (row tiles, column tiles, tile rows, tile columns), not 3}}
  coopvec.tile_pack %w[%c0] matrix<I8, 64x16, InferencingOptimal> into %p : memref<?xi8>, memref<4x16x16xi8>
  return
}

// -----

func.func @pack_tiles(%w: memref<?xi8>, %p: memref<4x1x16x16xi8>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'coopvec.tile_pack' op packed buffer of 16x16 tiles of a 64x32 matrix must have 4x2 of them, not 4x1}}
  coopvec.tile_pack %w[%c0] matrix<I8, 64x32, InferencingOptimal> into %p : memref<?xi8>, memref<4x1x16x16xi8>
  return
}

// -----

func.func @pack_type(%w: memref<?xi8>, %p: memref<1x1x8x8xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'coopvec.tile_pack' op packed buffer elements must be 'f16' (the decoded F16), not 'f32'}}
  coopvec.tile_pack %w[%c0] matrix<F16, 8x8, InferencingOptimal> into %p : memref<?xi8>, memref<1x1x8x8xf32>
  return
}

// -----

func.func @pack_stride(%w: memref<?xi8>, %p: memref<1x1x8x8xi8>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'coopvec.tile_pack' op a RowMajor or ColumnMajor matrix needs a stride}}
  coopvec.tile_pack %w[%c0] matrix<I8, 8x8, RowMajor> into %p : memref<?xi8>, memref<1x1x8x8xi8>
  return
}

// -----

func.func @pack_no_stride(%w: memref<?xi8>, %p: memref<1x1x8x8xi8>) {
  %c0 = arith.constant 0 : index
  %s = arith.constant 16 : index
  // expected-error@+1 {{'coopvec.tile_pack' op an optimal layout takes no stride}}
  coopvec.tile_pack %w[%c0] matrix<I8, 8x8, InferencingOptimal> stride %s into %p : memref<?xi8>, memref<1x1x8x8xi8>
  return
}

// -----

func.func @mma_k(%a: vector<16x16xi8>, %b: vector<8x8xi8>, %c: vector<16x8xi32>) -> vector<16x8xi32> {
  // expected-error@+1 {{'coopvec.tile_mma' op lhs has 16 columns but rhs has 8 rows}}
  %0 = coopvec.tile_mma %a, %b, %c : vector<16x16xi8>, vector<8x8xi8> -> vector<16x8xi32>
  return %0 : vector<16x8xi32>
}

// -----

func.func @mma_acc(%a: vector<16x16xi8>, %b: vector<16x8xi8>, %c: vector<8x8xi32>) -> vector<8x8xi32> {
  // expected-error@+1 {{'coopvec.tile_mma' op accumulator must be 16x8 (lhs rows x rhs columns), not 8x8}}
  %0 = coopvec.tile_mma %a, %b, %c : vector<16x16xi8>, vector<16x8xi8> -> vector<8x8xi32>
  return %0 : vector<8x8xi32>
}

// -----

func.func @mma_int_acc(%a: vector<4x4xi8>, %b: vector<4x4xi8>, %c: vector<4x4xi16>) -> vector<4x4xi16> {
  // expected-error@+1 {{'coopvec.tile_mma' op integer tiles accumulate in i32, not 'i16'}}
  %0 = coopvec.tile_mma %a, %b, %c : vector<4x4xi8>, vector<4x4xi8> -> vector<4x4xi16>
  return %0 : vector<4x4xi16>
}

// -----

func.func @mma_float_acc(%a: vector<4x4xf16>, %b: vector<4x4xf16>, %c: vector<4x4xf16>) -> vector<4x4xf16> {
  // expected-error@+1 {{'coopvec.tile_mma' op float tiles accumulate in f32, not 'f16'}}
  %0 = coopvec.tile_mma %a, %b, %c : vector<4x4xf16>, vector<4x4xf16> -> vector<4x4xf16>
  return %0 : vector<4x4xf16>
}

// -----

func.func @mma_unsigned_float(%a: vector<4x4xf16>, %b: vector<4x4xf16>, %c: vector<4x4xf32>) -> vector<4x4xf32> {
  // expected-error@+1 {{'coopvec.tile_mma' op 'unsigned' applies to integer tiles only}}
  %0 = coopvec.tile_mma %a unsigned, %b, %c : vector<4x4xf16>, vector<4x4xf16> -> vector<4x4xf32>
  return %0 : vector<4x4xf32>
}

// -----

func.func @mma_mixed(%a: vector<4x4xi8>, %b: vector<4x4xf16>, %c: vector<4x4xf32>) -> vector<4x4xf32> {
  // expected-error@+1 {{'coopvec.tile_mma' op operands must both be integers of at most 16 bits or both floats of at most 32 bits, not 'i8' and 'f16'}}
  %0 = coopvec.tile_mma %a, %b, %c : vector<4x4xi8>, vector<4x4xf16> -> vector<4x4xf32>
  return %0 : vector<4x4xf32>
}
