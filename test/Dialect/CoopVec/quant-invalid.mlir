// RUN: coopvec-opt %s -split-input-file -verify-diagnostics

// The quantized form of coopvec.batch_matvec and coopvec.quantize_rows: one
// case per rule, each with its whole message.

func.func @reductions_need_weight_zero_points(%x: memref<?x64xi8>, %w: memref<?xi8>, %r: memref<?x4xi32>, %y: memref<?x32xi32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error@+1 {{'coopvec.batch_matvec' op reductions require weight zero points}}
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<U8, 32x64, RowMajor> stride %c64
      reductions %r as I32 group 16 : memref<?x4xi32>
      into %y : memref<?x64xi8>, memref<?xi8> -> memref<?x32xi32>
  return
}

// -----

func.func @reductions_full_mask(%x: memref<?x64xi8>, %w: memref<?xi8>, %zw: memref<?xi8>, %r: memref<1x1xi32>, %y: memref<?x32xi32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error@+1 {{'coopvec.batch_matvec' op reductions need the full input mask: one value per row and group, not per_tensor}}
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<U8, 32x64, RowMajor> stride %c64
      weight_zero_points %zw[%c0] as U8 per_tensor : memref<?xi8>
      reductions %r as I32 per_tensor : memref<1x1xi32>
      into %y : memref<?x64xi8>, memref<?xi8> -> memref<?x32xi32>
  return
}

// -----

func.func @group_divides_k(%x: memref<?x64xi8>, %w: memref<?xi8>, %zw: memref<?xi8>, %y: memref<?x32xi32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error@+1 {{'coopvec.batch_matvec' op weight zero points: group size 24 does not divide K = 64}}
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<U8, 32x64, RowMajor> stride %c64
      weight_zero_points %zw[%c0] as U8 group 24 : memref<?xi8>
      into %y : memref<?x64xi8>, memref<?xi8> -> memref<?x32xi32>
  return
}

// -----

func.func @reductions_refine_zero_points(%x: memref<?x64xi8>, %w: memref<?xi8>, %zw: memref<?xi8>, %r: memref<?x2xi32>, %y: memref<?x32xi32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error@+1 {{'coopvec.batch_matvec' op reduction groups of 32 must equal or refine the weight zero points' groups of 16}}
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<U8, 32x64, RowMajor> stride %c64
      weight_zero_points %zw[%c0] as U8 group 16 : memref<?xi8>
      reductions %r as I32 group 32 : memref<?x2xi32>
      into %y : memref<?x64xi8>, memref<?xi8> -> memref<?x32xi32>
  return
}

// -----

func.func @reductions_straddle_scales(%x: memref<?x64xi8>, %w: memref<?xi8>, %zw: memref<?xi8>, %sx: memref<?x4xf32>, %r: memref<?x2xi32>, %y: memref<?x32xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error@+1 {{'coopvec.batch_matvec' op reduction groups of 32 straddle the compute groups of 16 (the finer scale grouping)}}
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<U8, 32x64, RowMajor> stride %c64
      weight_zero_points %zw[%c0] as U8 per_tensor : memref<?xi8>
      input_scales %sx as F32 group 16 : memref<?x4xf32>
      reductions %r as I32 group 32 : memref<?x2xi32>
      into %y : memref<?x64xi8>, memref<?xi8> -> memref<?x32xf32>
  return
}

// -----

func.func @scales_nest(%x: memref<?x96xi8>, %w: memref<?xi8>, %sw: memref<?xi8>, %sx: memref<?x3xf32>, %y: memref<?x32xf32>) {
  %c0 = arith.constant 0 : index
  %c96 = arith.constant 96 : index
  // expected-error@+1 {{'coopvec.batch_matvec' op input scale groups of 32 and weight scale groups of 48 must nest (one size divides the other)}}
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<I8, 32x96, RowMajor> stride %c96
      weight_scales %sw[%c0] as F32 group 48 : memref<?xi8>
      input_scales %sx as F32 group 32 : memref<?x3xf32>
      into %y : memref<?x96xi8>, memref<?xi8> -> memref<?x32xf32>
  return
}

// -----

func.func @matrix_type(%x: memref<?x64xi8>, %w: memref<?xi8>, %zw: memref<?xi8>, %y: memref<?x32xf32>) {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  // expected-error@+1 {{'coopvec.batch_matvec' op a quantized product takes an I8, U8, I4 or U4 matrix, but got F16}}
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<F16, 32x64, RowMajor> stride %c128
      weight_zero_points %zw[%c0] as U8 per_tensor : memref<?xi8>
      into %y : memref<?x64xi8>, memref<?xi8> -> memref<?x32xf32>
  return
}

// -----

func.func @input_type(%x: memref<?x64xf32>, %w: memref<?xi8>, %zw: memref<?xi8>, %y: memref<?x32xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error@+1 {{'coopvec.batch_matvec' op a quantized product takes i8 input rows read as I8 or U8, but got 'f32' read as I8}}
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<I8, 32x64, RowMajor> stride %c64
      weight_zero_points %zw[%c0] as U8 per_tensor : memref<?xi8>
      into %y : memref<?x64xf32>, memref<?xi8> -> memref<?x32xf32>
  return
}

// -----

func.func @output_type(%x: memref<?x64xi8>, %w: memref<?xi8>, %zw: memref<?xi8>, %y: memref<?x32xi16>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error@+1 {{'coopvec.batch_matvec' op a quantized product writes f32, f16, bf16 or i32 rows, but got 'i16'}}
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<I8, 32x64, RowMajor> stride %c64
      weight_zero_points %zw[%c0] as U8 per_tensor : memref<?xi8>
      into %y : memref<?x64xi8>, memref<?xi8> -> memref<?x32xi16>
  return
}

// -----

func.func @i32_no_scales(%x: memref<?x64xi8>, %w: memref<?xi8>, %sw: memref<?xi8>, %y: memref<?x32xi32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error@+1 {{'coopvec.batch_matvec' op an i32 result is the exact integer product and takes no scales}}
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<I8, 32x64, RowMajor> stride %c64
      weight_scales %sw[%c0] as F32 per_tensor : memref<?xi8>
      into %y : memref<?x64xi8>, memref<?xi8> -> memref<?x32xi32>
  return
}

// -----

func.func @bias_type(%x: memref<?x64xi8>, %w: memref<?xi8>, %sw: memref<?xi8>, %b: memref<?xi8>, %y: memref<?x32xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error@+1 {{'coopvec.batch_matvec' op the bias of a quantized product with 'f32' results must be F32, F16 or BF16, but is I32}}
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<I8, 32x64, RowMajor> stride %c64
      weight_scales %sw[%c0] as F32 per_tensor : memref<?xi8>
      bias %b[%c0] as I32 into %y : memref<?x64xi8>, memref<?xi8>, memref<?xi8> -> memref<?x32xf32>
  return
}

// -----

func.func @scale_interp(%x: memref<?x64xi8>, %w: memref<?xi8>, %sw: memref<?xi8>, %y: memref<?x32xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error@+1 {{'coopvec.batch_matvec' op weight scales must be F32, F16 or BF16, but are I8}}
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<I8, 32x64, RowMajor> stride %c64
      weight_scales %sw[%c0] as I8 per_tensor : memref<?xi8>
      into %y : memref<?x64xi8>, memref<?xi8> -> memref<?x32xf32>
  return
}

// -----

func.func @zero_point_interp(%x: memref<?x64xi8>, %w: memref<?xi8>, %zx: memref<1x1xf32>, %y: memref<?x32xi32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error@+1 {{'coopvec.batch_matvec' op input zero points must be I8, U8 or I32, but are F32}}
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<I8, 32x64, RowMajor> stride %c64
      input_zero_points %zx as F32 per_tensor : memref<1x1xf32>
      into %y : memref<?x64xi8>, memref<?xi8> -> memref<?x32xi32>
  return
}

// -----

func.func @reductions_interp(%x: memref<?x64xi8>, %w: memref<?xi8>, %zw: memref<?xi8>, %r: memref<?x4xf32>, %y: memref<?x32xi32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error@+1 {{'coopvec.batch_matvec' op reductions must be I32, I8 or U8, but are F32}}
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<I8, 32x64, RowMajor> stride %c64
      weight_zero_points %zw[%c0] as U8 per_tensor : memref<?xi8>
      reductions %r as F32 group 16 : memref<?x4xf32>
      into %y : memref<?x64xi8>, memref<?xi8> -> memref<?x32xi32>
  return
}

// -----

func.func @storage_type(%x: memref<?x64xi8>, %w: memref<?xi8>, %sx: memref<?x4xf32>, %y: memref<?x32xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error@+1 {{'coopvec.batch_matvec' op input scales read as F16 need 'f16' elements, but got 'memref<?x4xf32>'}}
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<I8, 32x64, RowMajor> stride %c64
      input_scales %sx as F16 group 16 : memref<?x4xf32>
      into %y : memref<?x64xi8>, memref<?xi8> -> memref<?x32xf32>
  return
}

// -----

func.func @group_columns(%x: memref<?x64xi8>, %w: memref<?xi8>, %sx: memref<?x2xf32>, %y: memref<?x32xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error@+1 {{'coopvec.batch_matvec' op input scales need 4 columns (one per group of K), but got 'memref<?x2xf32>'}}
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<I8, 32x64, RowMajor> stride %c64
      input_scales %sx as F32 group 16 : memref<?x2xf32>
      into %y : memref<?x64xi8>, memref<?xi8> -> memref<?x32xf32>
  return
}

// -----

func.func @per_tensor_rows(%x: memref<?x64xi8>, %w: memref<?xi8>, %sx: memref<2x1xf32>, %y: memref<?x32xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error@+1 {{'coopvec.batch_matvec' op input scales per tensor need one row, but got 'memref<2x1xf32>'}}
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<I8, 32x64, RowMajor> stride %c64
      input_scales %sx as F32 per_tensor : memref<2x1xf32>
      into %y : memref<?x64xi8>, memref<?xi8> -> memref<?x32xf32>
  return
}

// -----

func.func @group_rows(%x: memref<3x64xi8>, %w: memref<?xi8>, %sx: memref<2x4xf32>, %y: memref<3x32xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error@+1 {{'coopvec.batch_matvec' op input scales need one row per input row (3), but got 'memref<2x4xf32>'}}
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<I8, 32x64, RowMajor> stride %c64
      input_scales %sx as F32 group 16 : memref<2x4xf32>
      into %y : memref<3x64xi8>, memref<?xi8> -> memref<3x32xf32>
  return
}

// -----

func.func @no_block_scales(%x: memref<?x64xi8>, %w: memref<?xi8>, %s: memref<?xi8>, %zw: memref<?xi8>, %y: memref<?x32xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error@+1 {{'coopvec.batch_matvec' op a quantized product takes an I8, U8, I4 or U4 matrix, but got F8_E4M3}}
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<F8_E4M3, 32x64, RowMajor, scale f8E8M0FNU block 32> stride %c64
      scales %s[%c0] : memref<?xi8>
      weight_zero_points %zw[%c0] as U8 per_tensor : memref<?xi8>
      into %y : memref<?x64xi8>, memref<?xi8> -> memref<?x32xf32>
  return
}

// -----

func.func @input_rows(%x: memref<?x32xi8>, %w: memref<?xi8>, %zw: memref<?xi8>, %y: memref<?x32xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error@+1 {{'coopvec.batch_matvec' op input rows have 32 elements, but the matrix has K = 64}}
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<I8, 32x64, RowMajor> stride %c64
      weight_zero_points %zw[%c0] as U8 per_tensor : memref<?xi8>
      into %y : memref<?x32xi8>, memref<?xi8> -> memref<?x32xf32>
  return
}

// -----

func.func @output_rows(%x: memref<?x64xi8>, %w: memref<?xi8>, %zw: memref<?xi8>, %y: memref<?x16xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error@+1 {{'coopvec.batch_matvec' op output rows have 16 elements, but the matrix has M = 32}}
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<I8, 32x64, RowMajor> stride %c64
      weight_zero_points %zw[%c0] as U8 per_tensor : memref<?xi8>
      into %y : memref<?x64xi8>, memref<?xi8> -> memref<?x16xf32>
  return
}

// -----

func.func @quantize_input_type(%x: memref<?x64xbf16>, %q: memref<?x64xi8>, %s: memref<?x4xf32>) {
  // expected-error@+1 {{'coopvec.quantize_rows' op quantizes f32 or f16 rows, but got 'bf16'}}
  coopvec.quantize_rows %x : memref<?x64xbf16> group 16 as I8 into %q : memref<?x64xi8> scales %s : memref<?x4xf32>
  return
}

// -----

func.func @quantize_output_type(%x: memref<?x64xf32>, %q: memref<?x64xi32>, %s: memref<?x4xf32>) {
  // expected-error@+1 {{'coopvec.quantize_rows' op writes i8 rows, but got 'i32'}}
  coopvec.quantize_rows %x : memref<?x64xf32> group 16 as I8 into %q : memref<?x64xi32> scales %s : memref<?x4xf32>
  return
}

// -----

func.func @quantize_row_length(%x: memref<?x64xf32>, %q: memref<?x32xi8>, %s: memref<?x4xf32>) {
  // expected-error@+1 {{'coopvec.quantize_rows' op output rows have 32 elements, but input rows 64}}
  coopvec.quantize_rows %x : memref<?x64xf32> group 16 as I8 into %q : memref<?x32xi8> scales %s : memref<?x4xf32>
  return
}

// -----

func.func @quantize_group(%x: memref<?x64xf32>, %q: memref<?x64xi8>, %s: memref<?x4xf32>) {
  // expected-error@+1 {{'coopvec.quantize_rows' op group size 24 does not divide the row length 64}}
  coopvec.quantize_rows %x : memref<?x64xf32> group 24 as I8 into %q : memref<?x64xi8> scales %s : memref<?x4xf32>
  return
}

// -----

func.func @quantize_interp(%x: memref<?x64xf32>, %q: memref<?x64xi8>, %s: memref<?x4xf32>) {
  // expected-error@+1 {{'coopvec.quantize_rows' op quantizes to I8 or U8, but got I4}}
  coopvec.quantize_rows %x : memref<?x64xf32> group 16 as I4 into %q : memref<?x64xi8> scales %s : memref<?x4xf32>
  return
}

// -----

func.func @quantize_u8_needs_zero_points(%x: memref<?x64xf32>, %q: memref<?x64xi8>, %s: memref<?x4xf32>) {
  // expected-error@+1 {{'coopvec.quantize_rows' op asymmetric U8 quantization needs zero points}}
  coopvec.quantize_rows %x : memref<?x64xf32> group 16 as U8 into %q : memref<?x64xi8> scales %s : memref<?x4xf32>
  return
}

// -----

func.func @quantize_i8_no_zero_points(%x: memref<?x64xf32>, %q: memref<?x64xi8>, %s: memref<?x4xf32>, %z: memref<?x4xi32>) {
  // expected-error@+1 {{'coopvec.quantize_rows' op symmetric I8 quantization takes no zero points}}
  coopvec.quantize_rows %x : memref<?x64xf32> group 16 as I8 into %q : memref<?x64xi8> scales %s : memref<?x4xf32> zero_points %z : memref<?x4xi32>
  return
}

// -----

func.func @quantize_scale_type(%x: memref<?x64xf32>, %q: memref<?x64xi8>, %s: memref<?x4xi32>) {
  // expected-error@+1 {{'coopvec.quantize_rows' op scales must be f32, f16 or bf16, but got 'i32'}}
  coopvec.quantize_rows %x : memref<?x64xf32> group 16 as I8 into %q : memref<?x64xi8> scales %s : memref<?x4xi32>
  return
}

// -----

func.func @quantize_reduction_type(%x: memref<?x64xf32>, %q: memref<?x64xi8>, %s: memref<?x4xf32>, %r: memref<?x4xf32>) {
  // expected-error@+1 {{'coopvec.quantize_rows' op zero points and reductions must be i32, but got 'memref<?x4xf32>'}}
  coopvec.quantize_rows %x : memref<?x64xf32> group 16 as I8 into %q : memref<?x64xi8> scales %s : memref<?x4xf32> reductions %r : memref<?x4xf32>
  return
}

// -----

func.func @quantize_columns(%x: memref<?x64xf32>, %q: memref<?x64xi8>, %s: memref<?x2xf32>) {
  // expected-error@+1 {{'coopvec.quantize_rows' op needs 4 columns (one per group), but got 'memref<?x2xf32>'}}
  coopvec.quantize_rows %x : memref<?x64xf32> group 16 as I8 into %q : memref<?x64xi8> scales %s : memref<?x2xf32>
  return
}

// -----

func.func @quantize_rows_count(%x: memref<3x64xf32>, %q: memref<3x64xi8>, %s: memref<2x4xf32>) {
  // expected-error@+1 {{'coopvec.quantize_rows' op has 3 input rows but 'memref<2x4xf32>'}}
  coopvec.quantize_rows %x : memref<3x64xf32> group 16 as I8 into %q : memref<3x64xi8> scales %s : memref<2x4xf32>
  return
}

// -----

func.func @generic_without_grouping(%x: memref<?x64xi8>, %w: memref<?xi8>, %zw: memref<?xi8>, %y: memref<?x32xi32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error@+1 {{'coopvec.batch_matvec' op weight zero points need an interpretation and a grouping}}
  "coopvec.batch_matvec"(%x, %w, %c0, %c64, %y, %zw, %c0) <{input_interp = #coopvec.interp<I8>, matrix_desc = #coopvec.matrix<I8, 32x64, RowMajor>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 1, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0>}> : (memref<?x64xi8>, memref<?xi8>, index, index, memref<?x32xi32>, memref<?xi8>, index) -> ()
  return
}
