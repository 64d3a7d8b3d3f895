// RUN: coopvec-opt %s | coopvec-opt | FileCheck %s
// RUN: coopvec-opt %s --mlir-print-op-generic | coopvec-opt | FileCheck %s
// RUN: coopvec-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func @matvec_f16
// CHECK-SAME: (%[[X:.*]]: vector<16xf16>, %[[W:.*]]: memref<?xi8>, %[[OFF:.*]]: index, %[[S:.*]]: index)
// CHECK: %{{.*}} = coopvec.matvec %[[X]] as F16, %[[W]][%[[OFF]]] matrix<F16, 32x16, RowMajor> stride %[[S]] : vector<16xf16>, memref<?xi8> -> vector<32xf16>
// GENERIC-LABEL: sym_name = "matvec_f16"
// GENERIC: "coopvec.matvec"(%{{.*}}) <{input_interp = #coopvec.interp<F16>, matrix_desc = #coopvec.matrix<F16, 32x16, RowMajor>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0, 0>}>
func.func @matvec_f16(%x: vector<16xf16>, %w: memref<?xi8>, %off: index, %s: index) -> vector<32xf16> {
  %y = coopvec.matvec %x as F16, %w[%off] matrix<F16, 32x16, RowMajor> stride %s
         : vector<16xf16>, memref<?xi8> -> vector<32xf16>
  return %y : vector<32xf16>
}

// CHECK-LABEL: func @matvec_add_fp8
// CHECK: coopvec.matvec %{{.*}} as F8_E4M3, %{{.*}}[%{{.*}}] matrix<F8_E4M3, 8x16, InferencingOptimal> bias %{{.*}}[%{{.*}}] as F16 : vector<16xf16>, memref<256xi8>, memref<?xi8> -> vector<8xf16>
func.func @matvec_add_fp8(%x: vector<16xf16>, %w: memref<256xi8>, %b: memref<?xi8>) -> vector<8xf16> {
  %c0 = arith.constant 0 : index
  %y = coopvec.matvec %x as F8_E4M3, %w[%c0] matrix<F8_E4M3, 8x16, InferencingOptimal>
         bias %b[%c0] as F16 : vector<16xf16>, memref<256xi8>, memref<?xi8> -> vector<8xf16>
  return %y : vector<8xf16>
}

// The seed's packed example: 8 words hold 32 signed bytes.
// CHECK-LABEL: func @matvec_packed
// CHECK: coopvec.matvec %{{.*}} as PackedS8x32, %{{.*}}[%{{.*}}] matrix<I8, 32x32, InferencingOptimal> : vector<8xi32>, memref<?xi8> -> vector<32xi32>
// CHECK: coopvec.matvec %{{.*}} unsigned as PackedU8x32, %{{.*}}[%{{.*}}] matrix<U8, 4x5, TrainingOptimal, transpose> unsigned_result : vector<2xi32>, memref<?xi8> -> vector<4xi32>
func.func @matvec_packed(%p: vector<8xi32>, %q: vector<2xi32>, %w: memref<?xi8>) -> (vector<32xi32>, vector<4xi32>) {
  %c0 = arith.constant 0 : index
  %y = coopvec.matvec %p as PackedS8x32, %w[%c0] matrix<I8, 32x32, InferencingOptimal>
         : vector<8xi32>, memref<?xi8> -> vector<32xi32>
  %z = coopvec.matvec %q unsigned as PackedU8x32, %w[%c0] matrix<U8, 4x5, TrainingOptimal, transpose>
         unsigned_result : vector<2xi32>, memref<?xi8> -> vector<4xi32>
  return %y, %z : vector<32xi32>, vector<4xi32>
}

// The seed's non-packed example: f32 values converted to I8.
// CHECK-LABEL: func @matvec_convert_input
// CHECK: coopvec.matvec %{{.*}} as I8, %{{.*}}[%{{.*}}] matrix<I8, 64x32, InferencingOptimal> bias %{{.*}}[%{{.*}}] as I32 : vector<32xf32>, memref<?xi8>, memref<?xi8> -> vector<64xi32>
func.func @matvec_convert_input(%x: vector<32xf32>, %w: memref<?xi8>, %b: memref<?xi8>, %off: index) -> vector<64xi32> {
  %y = coopvec.matvec %x as I8, %w[%off] matrix<I8, 64x32, InferencingOptimal> bias %b[%off] as I32
         : vector<32xf32>, memref<?xi8>, memref<?xi8> -> vector<64xi32>
  return %y : vector<64xi32>
}

// The SM 6.10 names are aliases and print as the SM 6.9 ones.
// CHECK-LABEL: func @layout_aliases
// CHECK: matrix<I16, 3x5, InferencingOptimal, transpose>
// CHECK: matrix<U16, 3x5, ColumnMajor> stride
// CHECK: matrix<I32, 5x3, TrainingOptimal>
func.func @layout_aliases(%x: vector<5xi16>, %w: memref<?xi8>) -> (vector<3xi32>, vector<3xi32>, vector<5xf32>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %a = coopvec.matvec %x as I16, %w[%c0] matrix<I16, 3x5, MulOptimal, transpose> : vector<5xi16>, memref<?xi8> -> vector<3xi32>
  %b = coopvec.matvec %x unsigned as U16, %w[%c0] matrix<U16, 3x5, ColumnMajor> stride %c16 : vector<5xi16>, memref<?xi8> -> vector<3xi32>
  %v = arith.constant dense<1.0> : vector<3xf32>
  %c = coopvec.matvec %v as F32, %w[%c0] matrix<I32, 5x3, OuterProductOptimal> : vector<3xf32>, memref<?xi8> -> vector<5xf32>
  return %a, %b, %c : vector<3xi32>, vector<3xi32>, vector<5xf32>
}

// CHECK-LABEL: func @every_interpretation
// CHECK-COUNT-10: coopvec.matvec
func.func @every_interpretation(%x: vector<4xf32>, %w: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %0 = coopvec.matvec %x as I16, %w[%c0] matrix<I16, 4x4, InferencingOptimal> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  %1 = coopvec.matvec %x as U16, %w[%c0] matrix<U16, 4x4, InferencingOptimal> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  %2 = coopvec.matvec %x as I32, %w[%c0] matrix<I32, 4x4, InferencingOptimal> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  %3 = coopvec.matvec %x as U32, %w[%c0] matrix<U32, 4x4, InferencingOptimal> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  %4 = coopvec.matvec %x as F16, %w[%c0] matrix<F16, 4x4, InferencingOptimal> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  %5 = coopvec.matvec %x as F32, %w[%c0] matrix<F32, 4x4, InferencingOptimal> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  %6 = coopvec.matvec %x as U8, %w[%c0] matrix<U8, 4x4, InferencingOptimal> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  %7 = coopvec.matvec %x as I8, %w[%c0] matrix<I8, 4x4, InferencingOptimal> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  %8 = coopvec.matvec %x as F8_E4M3, %w[%c0] matrix<F8_E4M3, 4x4, InferencingOptimal> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  %9 = coopvec.matvec %x as F8_E5M2, %w[%c0] matrix<F8_E5M2, 4x4, InferencingOptimal> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  return
}

// CHECK-LABEL: func @accumulate
// CHECK: coopvec.outer_product_accumulate %{{.*}}, %{{.*}}, %{{.*}}[%{{.*}}] matrix<F32, 8x4, TrainingOptimal> : vector<8xf16>, vector<4xf16>, memref<?xi8>
// CHECK: coopvec.outer_product_accumulate %{{.*}}, %{{.*}}, %{{.*}}[%{{.*}}] matrix<F16, 8x4, RowMajor> stride %{{.*}} : vector<8xf16>, vector<4xf16>, memref<?xi8>
// CHECK: coopvec.vector_accumulate %{{.*}}, %{{.*}}[%{{.*}}] : vector<8xf16>, memref<?xi8>
func.func @accumulate(%a: vector<8xf16>, %b: vector<4xf16>, %w: memref<?xi8>, %off: index) {
  %c16 = arith.constant 16 : index
  coopvec.outer_product_accumulate %a, %b, %w[%off] matrix<F32, 8x4, TrainingOptimal>
      : vector<8xf16>, vector<4xf16>, memref<?xi8>
  coopvec.outer_product_accumulate %a, %b, %w[%off] matrix<F16, 8x4, RowMajor> stride %c16
      : vector<8xf16>, vector<4xf16>, memref<?xi8>
  coopvec.vector_accumulate %a, %w[%off] : vector<8xf16>, memref<?xi8>
  return
}

// CHECK-LABEL: func @convert
// CHECK: coopvec.convert_matrix %{{.*}}[%{{.*}}] matrix<F32, 64x32, RowMajor> stride %{{.*}} to %{{.*}}[%{{.*}}] matrix<F8_E4M3, 64x32, InferencingOptimal> : memref<?xi8>, memref<?xi8>
// CHECK: coopvec.convert_matrix %{{.*}}[%{{.*}}] matrix<F16, 64x32, ColumnMajor> stride %{{.*}} to %{{.*}}[%{{.*}}] matrix<F16, 64x32, RowMajor> stride %{{.*}} : memref<?xi8>, memref<?xi8>
// CHECK: coopvec.matrix_size matrix<F8_E5M2, 64x32, TrainingOptimal> : index
// CHECK: coopvec.matrix_size matrix<F32, 64x32, RowMajor> stride %{{.*}} : index
func.func @convert(%src: memref<?xi8>, %dst: memref<?xi8>) -> (index, index) {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %c64 = arith.constant 64 : index
  coopvec.convert_matrix %src[%c0] matrix<F32, 64x32, RowMajor> stride %c128
      to %dst[%c0] matrix<F8_E4M3, 64x32, InferencingOptimal> : memref<?xi8>, memref<?xi8>
  coopvec.convert_matrix %src[%c0] matrix<F16, 64x32, ColumnMajor> stride %c128
      to %dst[%c0] matrix<F16, 64x32, RowMajor> stride %c64 : memref<?xi8>, memref<?xi8>
  %n = coopvec.matrix_size matrix<F8_E5M2, 64x32, TrainingOptimal> : index
  %m = coopvec.matrix_size matrix<F32, 64x32, RowMajor> stride %c128 : index
  return %n, %m : index, index
}

// Profiles round-trip as module attributes.
// CHECK-LABEL: module @with_profile
// CHECK-SAME: coopvec.profile = #coopvec.profile<name = "gpu", matvec = [#coopvec.matvec_support<input = F16, input_interp = F16, matrix = F16, bias = F16, output = F16, transpose = true>], outer_product = [#coopvec.accum_support<input = F16, accumulation = F32>], vector_accumulate = [], fp8_optimal_only = true>
module @with_profile attributes {coopvec.profile = #coopvec.profile<name = "gpu", tier = tier1_1,
    matvec = [#coopvec.matvec_support<input = F16, input_interp = F16, matrix = F16, bias = F16, output = F16, transpose = true>],
    outer_product = [#coopvec.accum_support<input = F16, accumulation = F32>],
    vector_accumulate = [], fp8_optimal_only = true>} {
}

// The target kind, architecture, features, tile shapes and rows that leave
// types out (any) round-trip too; tier1_1 is the default and is elided.
// CHECK-LABEL: module @mma_profile
// CHECK-SAME: coopvec.profile = #coopvec.profile<name = "mma", kind = "nvptx", arch = "sm_120a", features = ["mma.sync", "batch_matvec"], matvec = [#coopvec.matvec_support<input = F16, input_interp = F16, matrix = F16, bias = F32, output = F32, tiles = [array<i64: 16, 8, 16>]>, #coopvec.matvec_support<matrix = F4_E2M1, transpose = true>], outer_product = [#coopvec.accum_support<>], vector_accumulate = []>
module @mma_profile attributes {coopvec.profile = #coopvec.profile<name = "mma", kind = "nvptx",
    arch = "sm_120a", tier = tier1_1, features = ["mma.sync", "batch_matvec"],
    matvec = [#coopvec.matvec_support<input = F16, input_interp = F16, matrix = F16, bias = F32, output = F32, tiles = [array<i64: 16, 8, 16>]>,
              #coopvec.matvec_support<matrix = f4E2M1FN, transpose = true>],
    outer_product = [#coopvec.accum_support<>], vector_accumulate = []>} {
}

// A module may name a builtin profile.
// CHECK-LABEL: module @named_profile
// CHECK-SAME: coopvec.profile = "sm_90"
module @named_profile attributes {coopvec.profile = "sm_90"} {
}

// CHECK-LABEL: func @batched
// CHECK: coopvec.batch_matvec %{{.*}} as F32, %{{.*}}[%{{.*}}] matrix<F32, 64x9, InferencingOptimal> bias %{{.*}}[%{{.*}}] as F32 into %{{.*}} : memref<?x9xf32>, memref<?xi8>, memref<?xi8> -> memref<?x64xf32>
// CHECK: coopvec.mlp %{{.*}} layers [%{{.*}}[%{{.*}}] matrix<F16, 64x9, InferencingOptimal> stride %{{.*}} bias %{{.*}}[%{{.*}}] relu, %{{.*}}[%{{.*}}] matrix<F16, 3x64, RowMajor> stride %{{.*}} none] exp into %{{.*}} : memref<?x9xf32>, memref<?x3xf32>, memref<?xi8>, memref<?xi8>, memref<?xi8>
func.func @batched(%x: memref<?x9xf32>, %h: memref<?x64xf32>, %y: memref<?x3xf32>, %w: memref<?xi8>, %b: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  coopvec.batch_matvec %x as F32, %w[%c0] matrix<F32, 64x9, InferencingOptimal> bias %b[%c0] as F32 into %h
      : memref<?x9xf32>, memref<?xi8>, memref<?xi8> -> memref<?x64xf32>
  coopvec.mlp %x layers [%w[%c0] matrix<F16, 64x9, InferencingOptimal> stride %c0 bias %b[%c0] relu,
                         %w[%c128] matrix<F16, 3x64, RowMajor> stride %c128 none] exp into %y
      : memref<?x9xf32>, memref<?x3xf32>, memref<?xi8>, memref<?xi8>, memref<?xi8>
  return
}

// BF16 weights (each layer's input read as BF16).
// CHECK-LABEL: func.func @mlp_bf16(
// CHECK: coopvec.mlp %{{.*}} layers [%{{.*}}[%{{.*}}] matrix<BF16, 64x9, InferencingOptimal, transpose> stride %{{.*}} relu, %{{.*}}[%{{.*}}] matrix<BF16, 3x64, RowMajor> stride %{{.*}} bias %{{.*}}[%{{.*}}] none] into %{{.*}} : memref<?x9xf32>, memref<?x3xf32>, memref<?xi8>, memref<?xi8>, memref<?xi8>
func.func @mlp_bf16(%x: memref<?x9xf32>, %y: memref<?x3xf32>, %w: memref<?xi8>, %b: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  coopvec.mlp %x layers [%w[%c0] matrix<BF16, 64x9, InferencingOptimal, transpose> stride %c0 relu,
                         %w[%c128] matrix<BF16, 3x64, RowMajor> stride %c128 bias %b[%c0] none] into %y
      : memref<?x9xf32>, memref<?x3xf32>, memref<?xi8>, memref<?xi8>, memref<?xi8>
  return
}

// I8 weights: a requant buffer per layer (after the activation) and the
// input scale (before exp); the requant buffer types follow the biases'.
// CHECK-LABEL: func.func @mlp_i8(
// CHECK: coopvec.mlp %{{.*}} layers [%{{.*}}[%{{.*}}] matrix<I8, 64x9, RowMajor> stride %{{.*}} bias %[[B:.*]][%{{.*}}] relu requant %[[S:.*]][%{{.*}}], %{{.*}}[%{{.*}}] matrix<I8, 3x64, InferencingOptimal> stride %{{.*}} none requant %[[S]][%{{.*}}]] input_scale %{{.*}} exp into %{{.*}} : memref<?x9xf32>, memref<?x3xf32>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<256xi8>, memref<256xi8>
func.func @mlp_i8(%x: memref<?x9xf32>, %y: memref<?x3xf32>, %w: memref<?xi8>, %b: memref<?xi8>, %s: memref<256xi8>, %q: f32) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c1024 = arith.constant 1024 : index
  coopvec.mlp %x layers [%w[%c0] matrix<I8, 64x9, RowMajor> stride %c16 bias %b[%c0] relu requant %s[%c0],
                         %w[%c1024] matrix<I8, 3x64, InferencingOptimal> stride %c0 none requant %s[%c16]]
      input_scale %q exp into %y
      : memref<?x9xf32>, memref<?x3xf32>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<256xi8>, memref<256xi8>
  return
}

// Interpretations DXIL lacks, by name and by builtin element type; the name
// is what prints.
// CHECK-LABEL: func @matvec_element_types
// CHECK: coopvec.matvec %{{.*}} as BF16, %{{.*}}[%{{.*}}] matrix<BF16, 8x16, RowMajor> stride %{{.*}} bias %{{.*}}[%{{.*}}] as BF16 : vector<16xf32>, memref<?xi8>, memref<?xi8> -> vector<8xf32>
// CHECK: coopvec.matvec %{{.*}} as F32, %{{.*}}[%{{.*}}] matrix<F6_E2M3, 8x16, InferencingOptimal> : vector<16xf32>, memref<?xi8> -> vector<8xf32>
// CHECK: coopvec.matvec %{{.*}} as F6_E3M2, %{{.*}}[%{{.*}}] matrix<F6_E3M2, 8x16, TrainingOptimal, transpose> : vector<16xf32>, memref<?xi8> -> vector<8xf32>
// CHECK: coopvec.matvec %{{.*}} as F4_E2M1, %{{.*}}[%{{.*}}] matrix<F4_E2M1, 8x16, ColumnMajor> stride %{{.*}} bias %{{.*}}[%{{.*}}] as F4_E2M1 : vector<16xf16>, memref<?xi8>, memref<?xi8> -> vector<8xf32>
// CHECK: coopvec.matvec %{{.*}} as I4, %{{.*}}[%{{.*}}] matrix<I4, 8x16, InferencingOptimal> bias %{{.*}}[%{{.*}}] as I32 : vector<16xf32>, memref<?xi8>, memref<?xi8> -> vector<8xi32>
// CHECK: coopvec.matvec %{{.*}} as U4, %{{.*}}[%{{.*}}] matrix<U4, 8x16, InferencingOptimal> : vector<16xi32>, memref<?xi8> -> vector<8xi32>
// CHECK: coopvec.matvec %{{.*}} as I8, %{{.*}}[%{{.*}}] matrix<U8, 8x16, InferencingOptimal> : vector<16xf32>, memref<?xi8> -> vector<8xi32>
// GENERIC-LABEL: sym_name = "matvec_element_types"
// GENERIC: input_interp = #coopvec.interp<BF16>, matrix_desc = #coopvec.matrix<BF16, 8x16, RowMajor>
func.func @matvec_element_types(%x: vector<16xf32>, %h: vector<16xf16>, %i: vector<16xi32>,
                                %w: memref<?xi8>, %b: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %0 = coopvec.matvec %x as bf16, %w[%c0] matrix<bf16, 8x16, RowMajor> stride %c32 bias %b[%c0] as BF16
         : vector<16xf32>, memref<?xi8>, memref<?xi8> -> vector<8xf32>
  %1 = coopvec.matvec %x as F32, %w[%c0] matrix<f6E2M3FN, 8x16, InferencingOptimal>
         : vector<16xf32>, memref<?xi8> -> vector<8xf32>
  %2 = coopvec.matvec %x as f6E3M2FN, %w[%c0] matrix<F6_E3M2, 8x16, TrainingOptimal, transpose>
         : vector<16xf32>, memref<?xi8> -> vector<8xf32>
  %3 = coopvec.matvec %h as F4_E2M1, %w[%c0] matrix<f4E2M1FN, 8x16, ColumnMajor> stride %c32
         bias %b[%c0] as f4E2M1FN : vector<16xf16>, memref<?xi8>, memref<?xi8> -> vector<8xf32>
  %4 = coopvec.matvec %x as si4, %w[%c0] matrix<i4, 8x16, InferencingOptimal> bias %b[%c0] as i32
         : vector<16xf32>, memref<?xi8>, memref<?xi8> -> vector<8xi32>
  %5 = coopvec.matvec %i as ui4, %w[%c0] matrix<U4, 8x16, InferencingOptimal>
         : vector<16xi32>, memref<?xi8> -> vector<8xi32>
  %6 = coopvec.matvec %x as si8, %w[%c0] matrix<ui8, 8x16, InferencingOptimal>
         : vector<16xf32>, memref<?xi8> -> vector<8xi32>
  return
}

// Block-scaled matrices: OCP MX (UE8M0 scales, blocks of 32; blocks of 16
// for E2M1) and NVFP4 (UE4M3 scales, blocks of 16).
// CHECK-LABEL: func @matvec_block_scaled
// CHECK: coopvec.matvec %{{.*}} as F32, %{{.*}}[%{{.*}}] matrix<F8_E4M3, 16x64, InferencingOptimal, scale f8E8M0FNU block 32> scales %{{.*}}[%{{.*}}] : memref<?xi8> bias %{{.*}}[%{{.*}}] as F32 : vector<64xf32>, memref<?xi8>, memref<?xi8> -> vector<16xf32>
// CHECK: coopvec.matvec %{{.*}} as F16, %{{.*}}[%{{.*}}] matrix<F4_E2M1, 16x64, RowMajor, scale f8E4M3FN block 16> stride %{{.*}} scales %{{.*}}[%{{.*}}] : memref<128xi8> : vector<64xf16>, memref<?xi8> -> vector<16xf32>
// CHECK: coopvec.matvec %{{.*}} as F32, %{{.*}}[%{{.*}}] matrix<F6_E3M2, 64x16, TrainingOptimal, transpose, scale f8E8M0FNU block 32> scales %{{.*}}[%{{.*}}] : memref<?xi8> : vector<16xf32>, memref<?xi8> -> vector<64xf32>
// CHECK: coopvec.batch_matvec %{{.*}} as F32, %{{.*}}[%{{.*}}] matrix<F4_E2M1, 16x64, InferencingOptimal, scale f8E8M0FNU block 16> scales %{{.*}}[%{{.*}}] : memref<?xi8> into %{{.*}} : memref<?x64xf32>, memref<?xi8> -> memref<?x16xf32>
// GENERIC-LABEL: sym_name = "matvec_block_scaled"
// GENERIC: matrix_desc = #coopvec.matrix<F8_E4M3, 16x64, InferencingOptimal, scale f8E8M0FNU block 32>
func.func @matvec_block_scaled(%x: vector<64xf32>, %h: vector<64xf16>, %y: vector<16xf32>,
                               %w: memref<?xi8>, %sc: memref<?xi8>, %nv: memref<128xi8>,
                               %xs: memref<?x64xf32>, %ys: memref<?x16xf32>) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %0 = coopvec.matvec %x as F32, %w[%c0] matrix<F8_E4M3, 16x64, InferencingOptimal, scale f8E8M0FNU block 32>
         scales %sc[%c0] : memref<?xi8> bias %w[%c0] as F32
         : vector<64xf32>, memref<?xi8>, memref<?xi8> -> vector<16xf32>
  %1 = coopvec.matvec %h as F16, %w[%c0] matrix<F4_E2M1, 16x64, RowMajor, scale f8E4M3FN block 16>
         stride %c32 scales %nv[%c0] : memref<128xi8> : vector<64xf16>, memref<?xi8> -> vector<16xf32>
  %2 = coopvec.matvec %y as F32, %w[%c0] matrix<F6_E3M2, 64x16, TrainingOptimal, transpose, scale f8E8M0FNU block 32>
         scales %sc[%c0] : memref<?xi8> : vector<16xf32>, memref<?xi8> -> vector<64xf32>
  coopvec.batch_matvec %xs as F32, %w[%c0] matrix<F4_E2M1, 16x64, InferencingOptimal, scale f8E8M0FNU block 16>
      scales %sc[%c0] : memref<?xi8> into %ys : memref<?x64xf32>, memref<?xi8> -> memref<?x16xf32>
  return
}
