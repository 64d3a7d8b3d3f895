// Every builtin profile accepts what it lists and rejects the rest, with the
// first unmet requirement; each round-trips as data.
// RUN: coopvec-opt %s -split-input-file -verify-diagnostics -coopvec-check-support
// RUN: for p in d3d12-tier1.0 d3d12-tier1.1 cpu-host sm_80 sm_89 sm_90 sm_100a sm_120a rv64-nuclei-xxlvqmacc rv64-sifive-xsfvqmacc vulkan1.3 wormhole-b0; do \
// RUN:   echo 'module {}' | coopvec-opt --coopvec-attach-profile=profile=$p > %t.$p.mlir && \
// RUN:   coopvec-opt %t.$p.mlir | diff %t.$p.mlir - || exit 1; done
// RUN: echo 'module {}' | coopvec-opt --coopvec-attach-profile=profile=sm_120a | FileCheck %s --check-prefix=SM120A
// RUN: echo 'module {}' | coopvec-opt --coopvec-attach-profile=profile=rv64-nuclei-xxlvqmacc | FileCheck %s --check-prefix=NUCLEI
// RUN: echo 'module {}' | coopvec-opt --coopvec-attach-profile=profile=cpu-host | FileCheck %s --check-prefix=CPU
// RUN: echo 'module {}' | coopvec-opt --coopvec-attach-profile=profile=wormhole-b0 | FileCheck %s --check-prefix=WORMHOLE
// RUN: coopvec-opt --help | FileCheck %s --check-prefix=HELP

// SM120A: #coopvec.profile<name = "sm_120a", kind = "nvptx", arch = "sm_120a", features = ["mma.sync", "mma.f8f6f4", "block_scale", "mma.block_scale",
// SM120A-SAME: #coopvec.matvec_support<input = F32, input_interp = F4_E2M1, matrix = F6_E3M2, bias = F16, output = F16, transpose = true, tiles = [array<i64: 16, 8, 32>]>
// NUCLEI: #coopvec.profile<name = "rv64-nuclei-xxlvqmacc", kind = "riscv", arch = "rv64gcv_xxlvqmacc", features = ["rvv", "xxlvqmacc", "batch_matvec", "mlp", "quantized"], matvec = [#coopvec.matvec_support<input = PackedS8x32, input_interp = I8, matrix = I8, bias = I32, output = I32, tiles = [array<i64: 4, 4, 4>]>,
// CPU: #coopvec.profile<name = "cpu-host", kind = "cpu", arch = "{{.+}}", features = ["batch_matvec", "mlp", "convert", "pack", "mx", "block_scale", "bf16", "tf32", "fp8", "fp6", "fp4", "e8m0", "tile_mma", "math_fidelity"{{.*}}], matvec = [#coopvec.matvec_support<transpose = true>], outer_product = [#coopvec.accum_support<>], vector_accumulate = [#coopvec.accum_support<>]>
// WORMHOLE: #coopvec.profile<name = "wormhole-b0", kind = "tenstorrent", arch = "wormhole_b0", features = ["math_fidelity", "batch_matvec", "bf16", "tf32", "bfp", "tile_mma"], matvec = [#coopvec.matvec_support<input = F32, input_interp = BF16, matrix = BF16, bias = F32, output = F32, transpose = true, tiles = [array<i64: 16, 8, 16>, array<i64: 32, 32, 32>]>, #coopvec.matvec_support<input = F32, input_interp = BF16, matrix = BF16, bias = BF16, output = F32, transpose = true, tiles = [array<i64: 16, 8, 16>, array<i64: 32, 32, 32>]>, #coopvec.matvec_support<input = F16, input_interp = BF16, matrix = BF16, bias = F32, output = F32, transpose = true, tiles = [array<i64: 16, 8, 16>, array<i64: 32, 32, 32>]>, #coopvec.matvec_support<input = F16, input_interp = BF16, matrix = BF16, bias = BF16, output = F32, transpose = true, tiles = [array<i64: 16, 8, 16>, array<i64: 32, 32, 32>]>, #coopvec.matvec_support<input = F32, input_interp = F32, matrix = F32, bias = F32, output = F32, transpose = true, tiles = [array<i64: 16, 8, 16>, array<i64: 32, 32, 32>]>, #coopvec.matvec_support<input = F32, input_interp = F32, matrix = F32, bias = BF16, output = F32, transpose = true, tiles = [array<i64: 16, 8, 16>, array<i64: 32, 32, 32>]>, #coopvec.matvec_support<input = F16, input_interp = F32, matrix = F32, bias = F32, output = F32, transpose = true, tiles = [array<i64: 16, 8, 16>, array<i64: 32, 32, 32>]>, #coopvec.matvec_support<input = F16, input_interp = F32, matrix = F32, bias = BF16, output = F32, transpose = true, tiles = [array<i64: 16, 8, 16>, array<i64: 32, 32, 32>]>, #coopvec.matvec_support<input = F32, input_interp = BF16, matrix = BFP8, bias = F32, output = F32, transpose = true>, #coopvec.matvec_support<input = F32, input_interp = BF16, matrix = BFP8, bias = BF16, output = F32, transpose = true>, #coopvec.matvec_support<input = F32, input_interp = BF16, matrix = BFP4, bias = F32, output = F32, transpose = true>, #coopvec.matvec_support<input = F32, input_interp = BF16, matrix = BFP4, bias = BF16, output = F32, transpose = true>, #coopvec.matvec_support<input = F16, input_interp = BF16, matrix = BFP8, bias = F32, output = F32, transpose = true>, #coopvec.matvec_support<input = F16, input_interp = BF16, matrix = BFP8, bias = BF16, output = F32, transpose = true>, #coopvec.matvec_support<input = F16, input_interp = BF16, matrix = BFP4, bias = F32, output = F32, transpose = true>, #coopvec.matvec_support<input = F16, input_interp = BF16, matrix = BFP4, bias = BF16, output = F32, transpose = true>, #coopvec.matvec_support<input = I8, input_interp = BFP8, matrix = BF16, bias = F32, output = F32, transpose = true>, #coopvec.matvec_support<input = I8, input_interp = BFP8, matrix = BF16, bias = BF16, output = F32, transpose = true>, #coopvec.matvec_support<input = I8, input_interp = BFP8, matrix = BFP8, bias = F32, output = F32, transpose = true>, #coopvec.matvec_support<input = I8, input_interp = BFP8, matrix = BFP8, bias = BF16, output = F32, transpose = true>, #coopvec.matvec_support<input = I8, input_interp = BFP8, matrix = BFP4, bias = F32, output = F32, transpose = true>, #coopvec.matvec_support<input = I8, input_interp = BFP8, matrix = BFP4, bias = BF16, output = F32, transpose = true>, #coopvec.matvec_support<input = I8, input_interp = BFP4, matrix = BF16, bias = F32, output = F32, transpose = true>, #coopvec.matvec_support<input = I8, input_interp = BFP4, matrix = BF16, bias = BF16, output = F32, transpose = true>, #coopvec.matvec_support<input = I8, input_interp = BFP4, matrix = BFP8, bias = F32, output = F32, transpose = true>, #coopvec.matvec_support<input = I8, input_interp = BFP4, matrix = BFP8, bias = BF16, output = F32, transpose = true>, #coopvec.matvec_support<input = I8, input_interp = BFP4, matrix = BFP4, bias = F32, output = F32, transpose = true>, #coopvec.matvec_support<input = I8, input_interp = BFP4, matrix = BFP4, bias = BF16, output = F32, transpose = true>], outer_product = [], vector_accumulate = []>
// HELP: --coopvec-check-support
// HELP: d3d12-tier1.0, d3d12-tier1.1, cpu-host, sm_80, sm_89, sm_90, sm_100a, sm_120a, rv64-nuclei-xxlvqmacc, rv64-sifive-xsfvqmacc, vulkan1.3, wormhole-b0

// cpu-host runs everything the verifiers accept.
module attributes {coopvec.profile = "cpu-host"} {
  func.func @cpu(%f: vector<16xf32>, %x: memref<?x16xf32>, %y: memref<?x8xf32>, %w: memref<?xi8>, %o: index) {
    %0 = coopvec.matvec %f as F4_E2M1, %w[%o] matrix<F4_E2M1, 8x16, InferencingOptimal, transpose> : vector<16xf32>, memref<?xi8> -> vector<8xf32>
    coopvec.batch_matvec %x as F32, %w[%o] matrix<BF16, 8x16, ColumnMajor> stride %o into %y : memref<?x16xf32>, memref<?xi8> -> memref<?x8xf32>
    %1, %2 = coopvec.mx_quantize %f block 16 : vector<16xf32> -> vector<16xf4E2M1FN>, vector<1xf8E4M3FN>
    coopvec.vector_accumulate %f, %w[%o] : vector<16xf32>, memref<?xi8>
    return
  }
}

// -----

module attributes {coopvec.profile = "sm_80"} {
  func.func @sm80(%h: vector<16xf16>, %f: vector<32xf32>, %w: memref<?xi8>, %o: index) {
    %0 = coopvec.matvec %h as F16, %w[%o] matrix<F16, 8x16, TrainingOptimal, transpose> bias %w[%o] as F32 : vector<16xf16>, memref<?xi8>, memref<?xi8> -> vector<8xf32>
    // expected-error@+1 {{'coopvec.matvec' is not supported by profile 'sm_80': it does not list the matrix-vector combination input = F32, input_interp = F8_E4M3, matrix = F8_E4M3, output = F32}}
    %1 = coopvec.matvec %f as F8_E4M3, %w[%o] matrix<F8_E4M3, 8x32, RowMajor> stride %o : vector<32xf32>, memref<?xi8> -> vector<8xf32>
    // expected-error@+1 {{'coopvec.convert' is not supported by profile 'sm_80': it does not list the feature 'fp8'}}
    %2 = coopvec.convert %f rounding rn satfinite : vector<32xf32> -> vector<32xf8E4M3FN>
    return
  }
}

// -----

module attributes {coopvec.profile = "sm_89"} {
  func.func @sm89(%f: vector<32xf32>, %w: memref<?xi8>, %o: index) {
    %0 = coopvec.matvec %f as F8_E4M3, %w[%o] matrix<F8_E5M2, 8x32, RowMajor> stride %o : vector<32xf32>, memref<?xi8> -> vector<8xf32>
    // MX with fp8 elements is fp8 cvt and integer scale arithmetic; fp4
    // elements need the fp4 cvt of sm_100a/sm_120a.
    %1, %2 = coopvec.mx_quantize %f block 32 : vector<32xf32> -> vector<32xf8E4M3FN>, vector<1xf8E8M0FNU>
    // expected-error@+1 {{'coopvec.mx_quantize' is not supported by profile 'sm_89': it does not list the feature 'fp4'}}
    %3, %4 = coopvec.mx_quantize %f block 32 : vector<32xf32> -> vector<32xf4E2M1FN>, vector<1xf8E8M0FNU>
    return
  }
}

// -----

module attributes {coopvec.profile = "sm_90"} {
  func.func @sm90(%p: vector<8xi32>, %f: vector<32xf32>, %w: memref<?xi8>, %o: index) {
    %0 = coopvec.matvec %p as PackedS8x32, %w[%o] matrix<U8, 8x32, RowMajor> stride %o bias %w[%o] as I32 : vector<8xi32>, memref<?xi8>, memref<?xi8> -> vector<8xi32>
    // Transposed optimal layouts are addresses to the NVIDIA kernels.
    %1 = coopvec.matvec %p as PackedS8x32, %w[%o] matrix<I8, 8x32, InferencingOptimal, transpose> : vector<8xi32>, memref<?xi8> -> vector<8xi32>
    // expected-error@+1 {{'coopvec.matvec' is not supported by profile 'sm_90': it does not list the matrix-vector combination input = F32, input_interp = F6_E2M3, matrix = F6_E2M3, output = F32}}
    %2 = coopvec.matvec %f as F6_E2M3, %w[%o] matrix<F6_E2M3, 8x32, RowMajor> stride %o : vector<32xf32>, memref<?xi8> -> vector<8xf32>
    return
  }
}

// -----

module attributes {coopvec.profile = "sm_100a"} {
  func.func @sm100a(%f: vector<32xf32>, %w: memref<?xi8>, %o: index) {
    %0 = coopvec.matvec %f as F6_E2M3, %w[%o] matrix<F4_E2M1, 8x32, RowMajor> stride %o : vector<32xf32>, memref<?xi8> -> vector<8xf32>
    // A BF16 matrix reads BF16 inputs only.
    // expected-error@+1 {{'coopvec.matvec' is not supported by profile 'sm_100a': it does not list the matrix-vector combination input = F32, input_interp = F16, matrix = BF16, output = F16}}
    %1 = coopvec.matvec %f as F16, %w[%o] matrix<BF16, 8x32, RowMajor> stride %o : vector<32xf32>, memref<?xi8> -> vector<8xf16>
    return
  }
}

// -----

module attributes {coopvec.profile = "sm_120a"} {
  func.func @sm120a(%f: vector<32xf32>, %s: vector<8xi16>, %w: memref<?xi8>, %o: index) {
    %0 = coopvec.matvec %f as F4_E2M1, %w[%o] matrix<F6_E3M2, 8x32, RowMajor> stride %o bias %w[%o] as F16 : vector<32xf32>, memref<?xi8>, memref<?xi8> -> vector<8xf16>
    %1, %2 = coopvec.mx_quantize %f block 32 : vector<32xf32> -> vector<32xf4E2M1FN>, vector<1xf8E8M0FNU>
    coopvec.vector_accumulate %0, %w[%o] : vector<8xf16>, memref<?xi8>
    // expected-error@+1 {{'coopvec.vector_accumulate' is not supported by profile 'sm_120a': it does not list vector accumulation of i16}}
    coopvec.vector_accumulate %s, %w[%o] : vector<8xi16>, memref<?xi8>
    return
  }
}

// -----

module attributes {coopvec.profile = "rv64-nuclei-xxlvqmacc"} {
  func.func @nuclei(%p: vector<4xi32>, %h: vector<16xf16>, %w: memref<?xi8>, %o: index) {
    %0 = coopvec.matvec %p as PackedU8x32, %w[%o] matrix<I8, 8x16, RowMajor> stride %o : vector<4xi32>, memref<?xi8> -> vector<8xi32>
    // expected-error@+1 {{'coopvec.matvec' is not supported by profile 'rv64-nuclei-xxlvqmacc': it does not list the matrix-vector combination input = F16, input_interp = F16, matrix = F16, output = F16}}
    %1 = coopvec.matvec %h as F16, %w[%o] matrix<F16, 8x16, RowMajor> stride %o : vector<16xf16>, memref<?xi8> -> vector<8xf16>
    return
  }
}

// -----

module attributes {coopvec.profile = "rv64-sifive-xsfvqmacc"} {
  func.func @sifive(%f: vector<16xf32>, %w: memref<?xi8>, %o: index) {
    %0 = coopvec.matvec %f as I8, %w[%o] matrix<I8, 8x16, RowMajor> stride %o bias %w[%o] as I32 : vector<16xf32>, memref<?xi8>, memref<?xi8> -> vector<8xi32>
    // expected-error@+1 {{'coopvec.outer_product_accumulate' is not supported by profile 'rv64-sifive-xsfvqmacc': it does not list outer-product accumulation of f32 into F32}}
    coopvec.outer_product_accumulate %f, %f, %w[%o] matrix<F32, 16x16, TrainingOptimal> : vector<16xf32>, vector<16xf32>, memref<?xi8>
    return
  }
}

// -----

module attributes {coopvec.profile = "vulkan1.3"} {
  func.func @vulkan(%p: vector<4xi32>, %x: memref<?x4xi32>, %y: memref<?x8xi32>, %z: memref<?x16xf32>, %v: memref<?x8xf32>, %w: memref<?xi8>, %o: index, %z0: vector<16xf32>) {
    %0 = coopvec.matvec %p as PackedU8x32, %w[%o] matrix<U8, 8x16, InferencingOptimal, transpose> unsigned_result : vector<4xi32>, memref<?xi8> -> vector<8xi32>
    coopvec.vector_accumulate %0, %w[%o] : vector<8xi32>, memref<?xi8>
    coopvec.batch_matvec %x as PackedS8x32, %w[%o] matrix<I8, 8x16, InferencingOptimal> into %y : memref<?x4xi32>, memref<?xi8> -> memref<?x8xi32>
    coopvec.mlp %z layers [%w[%o] matrix<F16, 8x16, RowMajor> stride %o none] into %v : memref<?x16xf32>, memref<?x8xf32>, memref<?xi8>
    // expected-error@+1 {{'coopvec.matvec' is not supported by profile 'vulkan1.3': it does not list the matrix-vector combination input = F32, input_interp = I8, matrix = I4, output = I32}}
    %1 = coopvec.matvec %z0 as I8, %w[%o] matrix<I4, 8x16, RowMajor> stride %o : vector<16xf32>, memref<?xi8> -> vector<8xi32>
    return
  }
}

// -----

// Vulkan 1.3 decodes 8-, 6- and 4-bit float matrices and their MX (UE8M0)
// and NVFP4 (UE4M3) block scales in integer code, for F8, F16 and F32
// inputs.
module attributes {coopvec.profile = "vulkan1.3"} {
  func.func @vulkan_block_scaled(%f: vector<64xf32>, %h: vector<64xf16>, %w: memref<?xi8>, %s: memref<?xi8>, %o: index) {
    %0 = coopvec.matvec %f as F32, %w[%o] matrix<F4_E2M1, 8x64, RowMajor, scale f8E8M0FNU block 32> stride %o scales %s[%o] : memref<?xi8> : vector<64xf32>, memref<?xi8> -> vector<8xf32>
    %1 = coopvec.matvec %h as F8_E5M2, %w[%o] matrix<F4_E2M1, 8x64, InferencingOptimal, transpose, scale f8E4M3FN block 16> scales %s[%o] : memref<?xi8> : vector<64xf16>, memref<?xi8> -> vector<8xf16>
    %2 = coopvec.matvec %h as F16, %w[%o] matrix<F6_E3M2, 8x64, ColumnMajor> stride %o bias %w[%o] as F32 : vector<64xf16>, memref<?xi8>, memref<?xi8> -> vector<8xf16>
    // expected-error@+1 {{'coopvec.matvec' is not supported by profile 'vulkan1.3': it does not list the matrix-vector combination input = F16, input_interp = BF16, matrix = F4_E2M1, output = F32}}
    %3 = coopvec.matvec %h as BF16, %w[%o] matrix<F4_E2M1, 8x64, RowMajor> stride %o : vector<64xf16>, memref<?xi8> -> vector<8xf32>
    return
  }
}

// -----

module attributes {coopvec.profile = "d3d12-tier1.1"} {
  func.func @d3d12(%f: vector<16xf32>, %a: f32, %b: f32, %w: memref<?xi8>, %o: index) {
    %0 = coopvec.matvec %f as I8, %w[%o] matrix<I8, 8x16, RowMajor> stride %o : vector<16xf32>, memref<?xi8> -> vector<8xi32>
    %c = coopvec.matrix_size matrix<I8, 8x16, InferencingOptimal> : index
    // expected-error@+1 {{'coopvec.pack' is not supported by profile 'd3d12-tier1.1': it does not list the feature 'pack'}}
    %1 = coopvec.pack %a, %b to f16 rounding rn : f32, f32 -> i32
    return
  }
}

// -----

// expected-error@+1 {{unknown support profile 'sm_75'; expected one of d3d12-tier1.0}}
module attributes {coopvec.profile = "sm_75"} {
}

// -----

// Wormhole B0 runs BF16 and TF32 products, with or without a fidelity, in any
// layout; nothing else.
module attributes {coopvec.profile = "wormhole-b0"} {
  func.func @wormhole(%x: vector<64xf32>, %h: vector<64xf16>, %xb: memref<?x64xf32>, %yb: memref<?x32xf32>, %w: memref<?xi8>, %o: index) {
    %0 = coopvec.matvec %x as BF16, %w[%o] matrix<BF16, 32x64, RowMajor> stride %o fidelity<hifi2, dst = f32, pack = bf16> : vector<64xf32>, memref<?xi8> -> vector<32xf32>
    %1 = coopvec.matvec %h as F32, %w[%o] matrix<F32, 32x64, InferencingOptimal, transpose> fidelity<hifi4, dst = f32> : vector<64xf16>, memref<?xi8> -> vector<32xf32>
    coopvec.batch_matvec %xb as BF16, %w[%o] matrix<BF16, 32x64, ColumnMajor> stride %o fidelity<lofi, dst = bf16> into %yb : memref<?x64xf32>, memref<?xi8> -> memref<?x32xf32>
    %2 = coopvec.matvec %x as BF16, %w[%o] matrix<BF16, 32x64, RowMajor> stride %o : vector<64xf32>, memref<?xi8> -> vector<32xf32>
    %4 = coopvec.matvec %x as BF16, %w[%o] matrix<BF16, 32x64, RowMajor> stride %o bias %w[%o] as BF16 fidelity<hifi2, dst = f32, pack = bf16, l1_acc> : vector<64xf32>, memref<?xi8>, memref<?xi8> -> vector<32xf32>
    // expected-error@+1 {{'coopvec.matvec' is not supported by profile 'wormhole-b0': it does not list the matrix-vector combination input = F16, input_interp = F16, matrix = F16, output = F32}}
    %3 = coopvec.matvec %h as F16, %w[%o] matrix<F16, 32x64, RowMajor> stride %o : vector<64xf16>, memref<?xi8> -> vector<32xf32>
    return
  }
}

// -----

// Math fidelity is a feature: D3D12 does not list it.
module attributes {coopvec.profile = "d3d12-tier1.1"} {
  func.func @no_fidelity(%x: vector<16xf32>, %w: memref<?xi8>, %o: index) {
    // expected-error@+1 {{'coopvec.matvec' is not supported by profile 'd3d12-tier1.1': it does not list the feature 'math_fidelity'}}
    %0 = coopvec.matvec %x as F32, %w[%o] matrix<F32, 16x16, InferencingOptimal> fidelity<hifi4, dst = f32> : vector<16xf32>, memref<?xi8> -> vector<16xf32>
    return
  }
}

// -----

// So is the element-wise multiply: the Wormhole profile takes it, D3D12
// does not.
module attributes {coopvec.profile = "wormhole-b0"} {
  func.func @eltwise(%a: vector<16xbf16>) -> vector<16xf32> {
    %0 = coopvec.eltwise_mul %a, %a fidelity<lofi, dst = bf16> : vector<16xbf16> -> vector<16xf32>
    return %0 : vector<16xf32>
  }
}

// -----

module attributes {coopvec.profile = "d3d12-tier1.1"} {
  func.func @no_eltwise(%a: vector<16xbf16>) -> vector<16xf32> {
    // expected-error@+1 {{'coopvec.eltwise_mul' is not supported by profile 'd3d12-tier1.1': it does not list the feature 'math_fidelity'}}
    %0 = coopvec.eltwise_mul %a, %a fidelity<lofi, dst = bf16> : vector<16xbf16> -> vector<16xf32>
    return %0 : vector<16xf32>
  }
}

// -----

// Block-float matrices need the feature 'bfp' and a row with their
// interpretation: the Wormhole profile has both.
module attributes {coopvec.profile = "wormhole-b0"} {
  func.func @bfp(%x: vector<64xf32>, %w: memref<?xi8>, %e: memref<?xi8>) -> vector<32xf32> {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %0 = coopvec.matvec %x as BF16, %w[%c0] matrix<BFP8, 32x64, RowMajor, scale f8E8M0FNU block 16> stride %c64
           scales %e[%c0] : memref<?xi8> fidelity<hifi2, dst = f32> : vector<64xf32>, memref<?xi8> -> vector<32xf32>
    return %0 : vector<32xf32>
  }
}

// -----

// A target with math fidelity but without block-float unpacking.
module attributes {coopvec.profile = #coopvec.profile<name = "no-bfp", kind = "tenstorrent", features = ["math_fidelity"], matvec = [#coopvec.matvec_support<>], outer_product = [], vector_accumulate = []>} {
  func.func @no_bfp(%x: vector<64xf32>, %w: memref<?xi8>, %e: memref<?xi8>) -> vector<32xf32> {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    // expected-error@+1 {{'coopvec.matvec' is not supported by profile 'no-bfp': it does not list the feature 'bfp'}}
    %0 = coopvec.matvec %x as BF16, %w[%c0] matrix<BFP8, 32x64, RowMajor, scale f8E8M0FNU block 16> stride %c64
           scales %e[%c0] : memref<?xi8> fidelity<hifi2, dst = f32> : vector<64xf32>, memref<?xi8> -> vector<32xf32>
    return %0 : vector<32xf32>
  }
}

// -----

// Block-float inputs (the stored bytes, physical I8, with exponents) need
// the feature 'bfp' and a row with their interpretation: wormhole-b0 has
// them against BF16, BFP8 and BFP4 matrices, and the CPU runs everything
// the verifier accepts.
module attributes {coopvec.profile = "wormhole-b0"} {
  func.func @bfp_input(%x: vector<64xi8>, %e: vector<4xi8>, %xs: memref<?x32xi8>, %es: memref<?x4xi8>, %w: memref<?xi8>, %s: memref<?xi8>, %y: memref<?x32xf32>) -> vector<32xf32> {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %0 = coopvec.matvec %x as BFP8 exponents %e : vector<4xi8>, %w[%c0] matrix<BF16, 32x64, RowMajor> stride %c128
           fidelity<hifi2, dst = f32> : vector<64xi8>, memref<?xi8> -> vector<32xf32>
    coopvec.batch_matvec %xs as BFP4 exponents %es : memref<?x4xi8>, %w[%c0] matrix<BFP4, 32x64, InferencingOptimal, scale f8E8M0FNU block 16>
        scales %s[%c0] : memref<?xi8> fidelity<lofi, dst = bf16> into %y : memref<?x32xi8>, memref<?xi8> -> memref<?x32xf32>
    return %0 : vector<32xf32>
  }
}

// -----

module attributes {coopvec.profile = "cpu-host"} {
  func.func @bfp_input_cpu(%x: vector<64xi8>, %e: vector<4xi8>, %w: memref<?xi8>) -> vector<32xf32> {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %0 = coopvec.matvec %x as BFP8 exponents %e : vector<4xi8>, %w[%c0] matrix<BF16, 32x64, RowMajor> stride %c128
           fidelity<hifi2, dst = f32> : vector<64xi8>, memref<?xi8> -> vector<32xf32>
    return %0 : vector<32xf32>
  }
}

// -----

// Vulkan decodes block-float inputs in its Wormhole model too.
module attributes {coopvec.profile = "vulkan1.3"} {
  func.func @bfp_input_vulkan(%x: vector<64xi8>, %e: vector<4xi8>, %w: memref<?xi8>) -> vector<32xf32> {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %0 = coopvec.matvec %x as BFP8 exponents %e : vector<4xi8>, %w[%c0] matrix<BF16, 32x64, RowMajor> stride %c128
           fidelity<hifi2, dst = f32> : vector<64xi8>, memref<?xi8> -> vector<32xf32>
    return %0 : vector<32xf32>
  }
}

// -----

// A block-float input against a BF16 matrix still needs 'bfp'.
module attributes {coopvec.profile = #coopvec.profile<name = "no-bfp", kind = "tenstorrent", features = ["math_fidelity"], matvec = [#coopvec.matvec_support<>], outer_product = [], vector_accumulate = []>} {
  func.func @no_bfp_input(%x: vector<64xi8>, %e: vector<4xi8>, %w: memref<?xi8>) -> vector<32xf32> {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    // expected-error@+1 {{'coopvec.matvec' is not supported by profile 'no-bfp': it does not list the feature 'bfp'}}
    %0 = coopvec.matvec %x as BFP8 exponents %e : vector<4xi8>, %w[%c0] matrix<BF16, 32x64, RowMajor> stride %c128
           fidelity<hifi2, dst = f32> : vector<64xi8>, memref<?xi8> -> vector<32xf32>
    return %0 : vector<32xf32>
  }
}

// -----

// The packer on a Dst tile needs the tiled form and math fidelity: the CPU
// lists both, D3D12 neither.
module attributes {coopvec.profile = "cpu-host"} {
  func.func @pack_dst(%d: vector<16x8xf32>) -> vector<16x8xf32> {
    %0 = coopvec.tile_pack_dst %d fidelity<lofi, dst = f32, pack = bf16> : vector<16x8xf32>
    return %0 : vector<16x8xf32>
  }
}

// -----

module attributes {coopvec.profile = "d3d12-tier1.1"} {
  func.func @no_pack_dst(%d: vector<16x8xf32>) -> vector<16x8xf32> {
    // expected-error@+1 {{'coopvec.tile_pack_dst' is not supported by profile 'd3d12-tier1.1': it does not list the feature 'tile_mma'}}
    %0 = coopvec.tile_pack_dst %d fidelity<lofi, dst = f32, pack = bf16> : vector<16x8xf32>
    return %0 : vector<16x8xf32>
  }
}

// -----

// The quantized form of batch_matvec needs the feature 'quantized' (its
// types follow the verifier's rules, not a matrix row): vulkan1.3, the
// NVIDIA and the RISC-V profiles list it (their lowerings take it in
// kernels), wormhole-b0 does not.
module attributes {coopvec.profile = "vulkan1.3"} {
  func.func @quantized_vulkan(%x: memref<?x16xi8>, %w: memref<?xi8>, %y: memref<?x8xf32>, %o: index) {
    coopvec.batch_matvec %x as I8, %w[%o] matrix<U8, 8x16, RowMajor> stride %o
        weight_zero_points %w[%o] as U8 group 16 : memref<?xi8>
        into %y : memref<?x16xi8>, memref<?xi8> -> memref<?x8xf32>
    return
  }
}

// -----

module attributes {coopvec.profile = "rv64-sifive-xsfvqmacc"} {
  func.func @quantized_sifive(%x: memref<?x16xi8>, %w: memref<?xi8>, %y: memref<?x8xi32>, %o: index) {
    coopvec.batch_matvec %x as I8, %w[%o] matrix<I8, 8x16, RowMajor> stride %o
        weight_zero_points %w[%o] as I8 group 16 : memref<?xi8>
        into %y : memref<?x16xi8>, memref<?xi8> -> memref<?x8xi32>
    return
  }
}

// -----

module attributes {coopvec.profile = "sm_80"} {
  func.func @quantized_sm80(%x: memref<?x16xi8>, %w: memref<?xi8>, %y: memref<?x8xf32>, %o: index) {
    coopvec.batch_matvec %x as I8, %w[%o] matrix<U8, 8x16, RowMajor> stride %o
        weight_zero_points %w[%o] as U8 group 16 : memref<?xi8>
        into %y : memref<?x16xi8>, memref<?xi8> -> memref<?x8xf32>
    return
  }
}

// -----

module attributes {coopvec.profile = "wormhole-b0"} {
  func.func @quantized_wormhole(%x: memref<?x16xi8>, %w: memref<?xi8>, %y: memref<?x8xf32>, %o: index) {
    // expected-error@+1 {{'coopvec.batch_matvec' is not supported by profile 'wormhole-b0': it does not list the feature 'quantized'}}
    coopvec.batch_matvec %x as I8, %w[%o] matrix<U8, 8x16, RowMajor> stride %o
        weight_zero_points %w[%o] as U8 group 16 : memref<?xi8>
        into %y : memref<?x16xi8>, memref<?xi8> -> memref<?x8xf32>
    return
  }
}
