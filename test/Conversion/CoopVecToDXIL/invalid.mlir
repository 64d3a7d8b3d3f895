// Everything DXIL cannot express is rejected with the op and the reason,
// never dropped. emulate=true lets the support check pass (with a warning
// where the D3D12 profile does not list the combination) so that the
// lowering's own rules are reached.
// RUN: coopvec-opt %s --split-input-file --verify-diagnostics \
// RUN:   --convert-coopvec-to-dxil=emulate=true

func.func @convert_matrix(%src: memref<?xi8>, %dst: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error@+1 {{'coopvec.convert_matrix' cannot be lowered to DXIL: it is the D3D12 API call ConvertLinearAlgebraMatrix, not a shader operation; convert matrices on the host with coopvecDxConvertLinearAlgebraMatrix (LinAlgCoop/Runtime/Dxil.h)}}
  coopvec.convert_matrix %src[%c0] matrix<F32, 4x4, RowMajor> stride %c64
      to %dst[%c0] matrix<F16, 4x4, InferencingOptimal> : memref<?xi8>, memref<?xi8>
  return
}

// -----

func.func @matrix_size_dynamic_stride(%s: index) -> index {
  // expected-error@+1 {{'coopvec.matrix_size' cannot be lowered to DXIL: its stride is not a constant, and DXIL has no size query (GetLinearAlgebraMatrixConversionDestinationInfo is a host API call: use coopvecDxGetLinearAlgebraMatrixConversionDestinationInfo)}}
  %n = coopvec.matrix_size matrix<F16, 8x8, RowMajor> stride %s : index
  return %n : index
}

// -----

func.func @outer_product_row_major(%a: vector<4xf16>, %m: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  // expected-warning@+2 {{'coopvec.outer_product_accumulate' is not supported by profile 'd3d12-tier1.1': outer products accumulate only into TrainingOptimal matrices, but got RowMajor (it will be emulated)}}
  // expected-error@+1 {{'coopvec.outer_product_accumulate' cannot be lowered to DXIL: DXIL accumulates outer products only into TrainingOptimal matrices, but the matrix is RowMajor}}
  coopvec.outer_product_accumulate %a, %a, %m[%c0] matrix<F16, 4x4, RowMajor> stride %c16
      : vector<4xf16>, vector<4xf16>, memref<?xi8>
  return
}

// -----

func.func @outer_product_dynamic_stride(%a: vector<4xf16>, %m: memref<?xi8>, %s: index) {
  %c0 = arith.constant 0 : index
  // expected-warning@+2 {{'coopvec.outer_product_accumulate' is not supported by profile 'd3d12-tier1.1': outer products accumulate only with stride 0 (it will be emulated)}}
  // expected-error@+1 {{'coopvec.outer_product_accumulate' cannot be lowered to DXIL: DXIL accumulates outer products only with stride 0}}
  coopvec.outer_product_accumulate %a, %a, %m[%c0] matrix<F16, 4x4, TrainingOptimal> stride %s
      : vector<4xf16>, vector<4xf16>, memref<?xi8>
  return
}

// -----

func.func @long_vector(%x: vector<2048xf16>, %m: memref<?xi8>) -> vector<4xf16> {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'coopvec.matvec' cannot be lowered to DXIL: its input vector has 2048 elements; DXIL vectors hold at most 1024}}
  %y = coopvec.matvec %x as F16, %m[%c0] matrix<F16, 4x2048, InferencingOptimal>
         : vector<2048xf16>, memref<?xi8> -> vector<4xf16>
  return %y : vector<4xf16>
}

// -----

func.func @long_result(%x: vector<4xf16>, %m: memref<?xi8>) -> vector<1025xf16> {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'coopvec.matvec' cannot be lowered to DXIL: its result vector has 1025 elements; DXIL vectors hold at most 1024}}
  %y = coopvec.matvec %x as F16, %m[%c0] matrix<F16, 1025x4, InferencingOptimal>
         : vector<4xf16>, memref<?xi8> -> vector<1025xf16>
  return %y : vector<1025xf16>
}

// -----

func.func @long_accumulate(%v: vector<1028xf16>, %m: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'coopvec.vector_accumulate' cannot be lowered to DXIL: its input vector has 1028 elements; DXIL vectors hold at most 1024}}
  coopvec.vector_accumulate %v, %m[%c0] : vector<1028xf16>, memref<?xi8>
  return
}

// -----

func.func @long_outer_product(%a: vector<1100xf16>, %b: vector<4xf16>, %m: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'coopvec.outer_product_accumulate' cannot be lowered to DXIL: its first input vector has 1100 elements; DXIL vectors hold at most 1024}}
  coopvec.outer_product_accumulate %a, %b, %m[%c0] matrix<F16, 1100x4, TrainingOptimal>
      : vector<1100xf16>, vector<4xf16>, memref<?xi8>
  return
}

// -----

func.func @strided_buffer(%x: vector<4xf16>, %m: memref<?xi8, strided<[2]>>) -> vector<4xf16> {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'coopvec.matvec' cannot be lowered to DXIL: its matrix buffer has stride 2; a DXIL raw buffer is contiguous bytes (stride 1)}}
  %y = coopvec.matvec %x as F16, %m[%c0] matrix<F16, 4x4, InferencingOptimal>
         : vector<4xf16>, memref<?xi8, strided<[2]>> -> vector<4xf16>
  return %y : vector<4xf16>
}

// -----

func.func @dynamic_stride_buffer(%x: vector<4xf16>, %m: memref<?xi8>, %b: memref<?xi8, strided<[?]>>) -> vector<4xf16> {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'coopvec.matvec' cannot be lowered to DXIL: its bias buffer has stride ?; a DXIL raw buffer is contiguous bytes (stride 1)}}
  %y = coopvec.matvec %x as F16, %m[%c0] matrix<F16, 4x4, InferencingOptimal> bias %b[%c0] as F16
         : vector<4xf16>, memref<?xi8>, memref<?xi8, strided<[?]>> -> vector<4xf16>
  return %y : vector<4xf16>
}

// -----

func.func @memory_space(%v: vector<8xf16>, %m: memref<?xi8, 3>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'coopvec.vector_accumulate' cannot be lowered to DXIL: its output array buffer is in memory space 3 : i64; a DXIL raw buffer is a host-visible resource in the default memory space}}
  coopvec.vector_accumulate %v, %m[%c0] : vector<8xf16>, memref<?xi8, 3>
  return
}

// -----

func.func @offset_beyond_i32(%x: vector<4xf16>, %m: memref<?xi8>) -> vector<4xf16> {
  %big = arith.constant 4294967296 : index
  // expected-error@+1 {{'coopvec.matvec' cannot be lowered to DXIL: its matrix offset 4294967296 does not fit DXIL's i32 operand}}
  %y = coopvec.matvec %x as F16, %m[%big] matrix<F16, 4x4, InferencingOptimal>
         : vector<4xf16>, memref<?xi8> -> vector<4xf16>
  return %y : vector<4xf16>
}

// -----

func.func @stride_beyond_i32(%x: vector<4xf16>, %m: memref<?xi8>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %big = arith.constant 4294967296 : index
  // expected-warning@+2 {{'coopvec.matvec' is not supported by profile 'd3d12-tier1.1': it does not list the matrix-vector combination input = F16, input_interp = F16, matrix = F16, output = F32 (it will be emulated)}}
  // expected-error@+1 {{'coopvec.matvec' cannot be lowered to DXIL: its matrix stride 4294967296 does not fit DXIL's i32 operand}}
  %y = coopvec.matvec %x as F16, %m[%c0] matrix<F16, 4x4, RowMajor> stride %big
         : vector<4xf16>, memref<?xi8> -> vector<4xf32>
  return %y : vector<4xf32>
}

// -----

func.func @bias_offset_beyond_i32(%x: vector<4xf16>, %m: memref<?xi8>) -> vector<4xf16> {
  %c0 = arith.constant 0 : index
  %big = arith.constant 4294967296 : index
  // expected-error@+1 {{'coopvec.matvec' cannot be lowered to DXIL: its bias offset 4294967296 does not fit DXIL's i32 operand}}
  %y = coopvec.matvec %x as F16, %m[%c0] matrix<F16, 4x4, InferencingOptimal> bias %m[%big] as F16
         : vector<4xf16>, memref<?xi8>, memref<?xi8> -> vector<4xf16>
  return %y : vector<4xf16>
}

// -----

func.func @accumulate_offset_beyond_i32(%v: vector<8xf16>, %m: memref<?xi8>) {
  %big = arith.constant 8589934592 : index
  // expected-error@+1 {{'coopvec.vector_accumulate' cannot be lowered to DXIL: its offset 8589934592 does not fit DXIL's i32 operand}}
  coopvec.vector_accumulate %v, %m[%big] : vector<8xf16>, memref<?xi8>
  return
}

// -----

// Ops DXIL has no counterpart for are rejected, never dropped.
func.func @conversion(%x: vector<8xf32>) -> vector<8xf8E4M3FN> {
  // expected-warning@+2 {{'coopvec.convert' is not supported by profile 'd3d12-tier1.1': it does not list the feature 'convert' (it will be emulated)}}
  // expected-error@+1 {{'coopvec.convert' cannot be lowered to DXIL: DXIL SM 6.9 has no low-precision conversion or block-scale operation; convert on the host or use an interpretation (F8_E4M3, F8_E5M2)}}
  %0 = coopvec.convert %x rounding rn satfinite : vector<8xf32> -> vector<8xf8E4M3FN>
  return %0 : vector<8xf8E4M3FN>
}

// -----

func.func @mx(%x: vector<32xf32>) -> (vector<32xf4E2M1FN>, vector<1xf8E8M0FNU>) {
  // expected-warning@+2 {{'coopvec.mx_quantize' is not supported by profile 'd3d12-tier1.1': it does not list the feature 'mx' (it will be emulated)}}
  // expected-error@+1 {{'coopvec.mx_quantize' cannot be lowered to DXIL: DXIL SM 6.9 has no low-precision conversion or block-scale operation; convert on the host or use an interpretation (F8_E4M3, F8_E5M2)}}
  %e, %s = coopvec.mx_quantize %x block 32 : vector<32xf32> -> vector<32xf4E2M1FN>, vector<1xf8E8M0FNU>
  return %e, %s : vector<32xf4E2M1FN>, vector<1xf8E8M0FNU>
}

// -----

func.func @batched(%in: memref<?x4xf16>, %out: memref<?x4xf16>, %w: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  // expected-warning@+2 {{'coopvec.batch_matvec' is not supported by profile 'd3d12-tier1.1': it does not list the feature 'batch_matvec' (it will be emulated)}}
  // expected-error@+1 {{'coopvec.batch_matvec' cannot be lowered to DXIL: DXIL expresses one invocation's product; the batched and fused forms are for the CPU target (do not run --coopvec-batch before this pass)}}
  coopvec.batch_matvec %in as F16, %w[%c0] matrix<F16, 4x4, InferencingOptimal> into %out : memref<?x4xf16>, memref<?xi8> -> memref<?x4xf16>
  return
}

// -----

// Identified structs are context-wide: an input whose "dx.types.Handle" has
// another body cannot take DXIL's handles.
func.func @foreign_handle(%x: vector<4xf32>, %m: memref<?xi8>, %h: !llvm.struct<"dx.types.Handle", (i32)>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  // expected-warning@+2 {{'coopvec.matvec' is not supported by profile 'd3d12-tier1.1'}}
  // expected-error@+1 {{'coopvec.matvec' cannot be lowered to DXIL: the input defines '!llvm.struct<"dx.types.Handle", (i32)>', but DXIL's handle is a struct of one pointer}}
  %y = coopvec.matvec %x as F32, %m[%c0] matrix<F32, 4x4, InferencingOptimal>
         : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  return %y : vector<4xf32>
}

// -----

// Interpretations without a DXIL ComponentType, as matrix, input, bias and
// outer-product accumulator.
func.func @matrix_bf16(%x: vector<8xf16>, %w: memref<?xi8>) -> vector<8xf16> {
  %c0 = arith.constant 0 : index
  // expected-warning@+2 {{'coopvec.matvec' is not supported by profile 'd3d12-tier1.1': it does not list the matrix-vector combination input = F16, input_interp = F16, matrix = BF16, output = F16 (it will be emulated)}}
  // expected-error@+1 {{'coopvec.matvec' cannot be lowered to DXIL: its matrix interpretation BF16 has no DXIL ComponentType (SM 6.9 has I16, U16, I32, U32, F16, F32, PackedS8x32, PackedU8x32, U8, I8, F8_E4M3, F8_E5M2)}}
  %y = coopvec.matvec %x as F16, %w[%c0] matrix<BF16, 8x8, InferencingOptimal>
         : vector<8xf16>, memref<?xi8> -> vector<8xf16>
  return %y : vector<8xf16>
}

// -----

func.func @input_i4(%x: vector<8xf32>, %w: memref<?xi8>) -> vector<8xi32> {
  %c0 = arith.constant 0 : index
  // expected-warning@+2 {{'coopvec.matvec' is not supported by profile 'd3d12-tier1.1': it does not list the matrix-vector combination input = F32, input_interp = I4, matrix = I8, output = I32 (it will be emulated)}}
  // expected-error@+1 {{'coopvec.matvec' cannot be lowered to DXIL: its input interpretation I4 has no DXIL ComponentType (SM 6.9 has I16, U16, I32, U32, F16, F32, PackedS8x32, PackedU8x32, U8, I8, F8_E4M3, F8_E5M2)}}
  %y = coopvec.matvec %x as I4, %w[%c0] matrix<I8, 8x8, InferencingOptimal>
         : vector<8xf32>, memref<?xi8> -> vector<8xi32>
  return %y : vector<8xi32>
}

// -----

func.func @bias_f6(%x: vector<8xf16>, %w: memref<?xi8>) -> vector<8xf16> {
  %c0 = arith.constant 0 : index
  // expected-warning@+2 {{'coopvec.matvec' is not supported by profile 'd3d12-tier1.1': it does not list the matrix-vector combination input = F16, input_interp = F16, matrix = F16, bias = F6_E2M3, output = F16 (it will be emulated)}}
  // expected-error@+1 {{'coopvec.matvec' cannot be lowered to DXIL: its bias interpretation F6_E2M3 has no DXIL ComponentType (SM 6.9 has I16, U16, I32, U32, F16, F32, PackedS8x32, PackedU8x32, U8, I8, F8_E4M3, F8_E5M2)}}
  %y = coopvec.matvec %x as F16, %w[%c0] matrix<F16, 8x8, InferencingOptimal>
         bias %w[%c0] as F6_E2M3 : vector<8xf16>, memref<?xi8>, memref<?xi8> -> vector<8xf16>
  return %y : vector<8xf16>
}

// -----

func.func @outer_product_bf16(%a: vector<8xf16>, %m: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  // expected-warning@+2 {{'coopvec.outer_product_accumulate' is not supported by profile 'd3d12-tier1.1': it does not list outer-product accumulation of f16 into BF16 (it will be emulated)}}
  // expected-error@+1 {{'coopvec.outer_product_accumulate' cannot be lowered to DXIL: its matrix interpretation BF16 has no DXIL ComponentType (SM 6.9 has I16, U16, I32, U32, F16, F32, PackedS8x32, PackedU8x32, U8, I8, F8_E4M3, F8_E5M2)}}
  coopvec.outer_product_accumulate %a, %a, %m[%c0] matrix<BF16, 8x8, TrainingOptimal>
      : vector<8xf16>, vector<8xf16>, memref<?xi8>
  return
}

// -----

func.func @block_scaled(%x: vector<64xf16>, %w: memref<?xi8>) -> vector<8xf16> {
  %c0 = arith.constant 0 : index
  // expected-warning@+2 {{'coopvec.matvec' is not supported by profile 'd3d12-tier1.1': it does not list the feature 'block_scale' (it will be emulated)}}
  // expected-error@+1 {{'coopvec.matvec' cannot be lowered to DXIL: DXIL SM 6.9 has no block-scaled matrices (the matrix has block scales)}}
  %y = coopvec.matvec %x as F16, %w[%c0] matrix<F8_E4M3, 8x64, InferencingOptimal, scale f8E8M0FNU block 32>
         scales %w[%c0] : memref<?xi8> : vector<64xf16>, memref<?xi8> -> vector<8xf16>
  return %y : vector<8xf16>
}

// -----

// A matvec DXIL could express but for its math fidelity.
func.func @matvec_fidelity(%x: vector<16xf32>, %w: memref<?xi8>) -> vector<16xf32> {
  %c0 = arith.constant 0 : index
  // expected-warning@+2 {{'coopvec.matvec' is not supported by profile 'd3d12-tier1.1': it does not list the feature 'math_fidelity' (it will be emulated)}}
  // expected-error@+1 {{'coopvec.matvec' cannot be lowered to DXIL: DXIL SM 6.9 has no math fidelity (a Tenstorrent Wormhole compute configuration); lower the op with --convert-coopvec-to-cpu, which runs the Wormhole model}}
  %y = coopvec.matvec %x as F32, %w[%c0] matrix<F32, 16x16, InferencingOptimal>
         fidelity<hifi4, dst = f32> : vector<16xf32>, memref<?xi8> -> vector<16xf32>
  return %y : vector<16xf32>
}
