// RUN: coopvec-opt %s -split-input-file -verify-diagnostics -coopvec-check-support
// RUN: coopvec-opt %s -split-input-file -verify-diagnostics -coopvec-check-support="profile=d3d12-tier1.1"

// The D3D12 minimum support set passes unchanged.
func.func @minimum_set(%h: vector<16xf16>, %f: vector<16xf32>, %p: vector<4xi32>, %w: memref<?xi8>, %o: index) {
  %0 = coopvec.matvec %h as F16, %w[%o] matrix<F16, 8x16, RowMajor> stride %o bias %w[%o] as F16 : vector<16xf16>, memref<?xi8>, memref<?xi8> -> vector<8xf16>
  %1 = coopvec.matvec %h as F8_E4M3, %w[%o] matrix<F8_E4M3, 8x16, InferencingOptimal> bias %w[%o] as F16 : vector<16xf16>, memref<?xi8>, memref<?xi8> -> vector<8xf16>
  %2 = coopvec.matvec %h as F8_E5M2, %w[%o] matrix<F8_E5M2, 8x16, TrainingOptimal> : vector<16xf16>, memref<?xi8> -> vector<8xf16>
  %3 = coopvec.matvec %p as PackedS8x32, %w[%o] matrix<I8, 8x16, InferencingOptimal> bias %w[%o] as I32 : vector<4xi32>, memref<?xi8>, memref<?xi8> -> vector<8xi32>
  %4 = coopvec.matvec %f as I8, %w[%o] matrix<I8, 8x16, ColumnMajor> stride %o bias %w[%o] as I32 : vector<16xf32>, memref<?xi8>, memref<?xi8> -> vector<8xi32>
  %a = arith.constant dense<1.0> : vector<8xf16>
  coopvec.outer_product_accumulate %a, %h, %w[%o] matrix<F16, 8x16, TrainingOptimal> : vector<8xf16>, vector<16xf16>, memref<?xi8>
  %c0 = arith.constant 0 : index
  coopvec.outer_product_accumulate %a, %h, %w[%o] matrix<F32, 8x16, TrainingOptimal> stride %c0 : vector<8xf16>, vector<16xf16>, memref<?xi8>
  coopvec.vector_accumulate %h, %w[%o] : vector<16xf16>, memref<?xi8>
  coopvec.convert_matrix %w[%o] matrix<F32, 8x16, RowMajor> stride %o to %w[%o] matrix<F8_E4M3, 8x16, InferencingOptimal> : memref<?xi8>, memref<?xi8>
  return
}

// -----

func.func @unlisted(%f: vector<16xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.matvec' is not supported by profile 'd3d12-tier1.1': it does not list the matrix-vector combination input = F32, input_interp = F32, matrix = F32, output = F32}}
  %0 = coopvec.matvec %f as F32, %w[%o] matrix<F32, 8x16, InferencingOptimal> : vector<16xf32>, memref<?xi8> -> vector<8xf32>
  return
}

// -----

func.func @wrong_bias(%h: vector<16xf16>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.matvec' is not supported by profile 'd3d12-tier1.1': it does not list the matrix-vector combination input = F16, input_interp = F16, matrix = F16, bias = F32, output = F16}}
  %0 = coopvec.matvec %h as F16, %w[%o] matrix<F16, 8x16, InferencingOptimal> bias %w[%o] as F32 : vector<16xf16>, memref<?xi8>, memref<?xi8> -> vector<8xf16>
  return
}

// -----

func.func @unsigned_output(%p: vector<4xi32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.matvec' is not supported by profile 'd3d12-tier1.1': it does not list the matrix-vector combination input = PackedS8x32, input_interp = I8, matrix = I8, output = U32}}
  %0 = coopvec.matvec %p as PackedS8x32, %w[%o] matrix<I8, 8x16, InferencingOptimal> unsigned_result : vector<4xi32>, memref<?xi8> -> vector<8xi32>
  return
}

// -----

func.func @transpose(%h: vector<16xf16>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.matvec' is not supported by profile 'd3d12-tier1.1': it does not support transpose for input = F16, input_interp = F16, matrix = F16, output = F16}}
  %0 = coopvec.matvec %h as F16, %w[%o] matrix<F16, 8x16, InferencingOptimal, transpose> : vector<16xf16>, memref<?xi8> -> vector<8xf16>
  return
}

// -----

func.func @fp8_row_major(%h: vector<16xf16>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.matvec' is not supported by profile 'd3d12-tier1.1': F8_E4M3 matrices need an optimal layout, but got RowMajor}}
  %0 = coopvec.matvec %h as F8_E4M3, %w[%o] matrix<F8_E4M3, 8x16, RowMajor> stride %o : vector<16xf16>, memref<?xi8> -> vector<8xf16>
  return
}

// -----

func.func @outer_row_major(%a: vector<8xf16>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.outer_product_accumulate' is not supported by profile 'd3d12-tier1.1': outer products accumulate only into TrainingOptimal matrices, but got RowMajor}}
  coopvec.outer_product_accumulate %a, %a, %w[%o] matrix<F16, 8x8, RowMajor> stride %o : vector<8xf16>, vector<8xf16>, memref<?xi8>
  return
}

// -----

func.func @outer_stride(%a: vector<8xf16>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.outer_product_accumulate' is not supported by profile 'd3d12-tier1.1': outer products accumulate only with stride 0}}
  coopvec.outer_product_accumulate %a, %a, %w[%o] matrix<F16, 8x8, TrainingOptimal> stride %o : vector<8xf16>, vector<8xf16>, memref<?xi8>
  return
}

// -----

func.func @outer_types(%a: vector<8xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.outer_product_accumulate' is not supported by profile 'd3d12-tier1.1': it does not list outer-product accumulation of f32 into F32}}
  coopvec.outer_product_accumulate %a, %a, %w[%o] matrix<F32, 8x8, TrainingOptimal> : vector<8xf32>, vector<8xf32>, memref<?xi8>
  return
}

// -----

func.func @accumulate_f32(%v: vector<8xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.vector_accumulate' is not supported by profile 'd3d12-tier1.1': it does not list vector accumulation of f32}}
  coopvec.vector_accumulate %v, %w[%o] : vector<8xf32>, memref<?xi8>
  return
}

// -----

func.func @convert_unsupported(%w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.convert_matrix' is not supported by profile 'd3d12-tier1.1': U16 is neither F32 nor a matrix interpretation it supports}}
  coopvec.convert_matrix %w[%o] matrix<U16, 8x16, InferencingOptimal> to %w[%o] matrix<U16, 8x16, TrainingOptimal> : memref<?xi8>, memref<?xi8>
  return
}

// -----

// Every op the profile cannot run is reported, not only the first.
func.func @several(%f: vector<16xf32>, %v: vector<8xf32>, %w: memref<?xi8>, %o: index) {
  // expected-error@+1 {{'coopvec.matvec' is not supported by profile 'd3d12-tier1.1'}}
  %0 = coopvec.matvec %f as F32, %w[%o] matrix<F32, 8x16, InferencingOptimal> : vector<16xf32>, memref<?xi8> -> vector<8xf32>
  // expected-error@+1 {{'coopvec.vector_accumulate' is not supported by profile 'd3d12-tier1.1'}}
  coopvec.vector_accumulate %v, %w[%o] : vector<8xf32>, memref<?xi8>
  return
}

// -----

// A module's own profile wins over the pass option.
module attributes {coopvec.profile = #coopvec.profile<name = "gpu", tier = tier1_0,
    matvec = [#coopvec.matvec_support<input = F16, input_interp = F16, matrix = F16, bias = F16, output = F16, transpose = true>],
    outer_product = [], vector_accumulate = []>} {
  func.func @own_profile(%h: vector<16xf16>, %w: memref<?xi8>, %o: index) {
    %0 = coopvec.matvec %h as F16, %w[%o] matrix<F16, 8x16, InferencingOptimal, transpose> : vector<16xf16>, memref<?xi8> -> vector<8xf16>
    // expected-error@+1 {{'coopvec.vector_accumulate' is not supported by profile 'gpu': vector accumulation needs tier1_1, but it is tier1_0}}
    coopvec.vector_accumulate %h, %w[%o] : vector<16xf16>, memref<?xi8>
    return
  }
}

// -----

module attributes {coopvec.profile = #coopvec.profile<name = "cpu-off", tier = none,
    matvec = [], outer_product = [], vector_accumulate = []>} {
  func.func @no_support(%h: vector<16xf16>, %w: memref<?xi8>, %o: index) {
    // expected-error@+1 {{'coopvec.matvec' is not supported by profile 'cpu-off': it does not support cooperative vectors}}
    %0 = coopvec.matvec %h as F16, %w[%o] matrix<F16, 8x16, InferencingOptimal> : vector<16xf16>, memref<?xi8> -> vector<8xf16>
    return
  }
}
