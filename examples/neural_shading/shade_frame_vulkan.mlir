// The frame of shade_frame.mlir on a GPU, a Vulkan 1.3 device or an
// NVIDIA GPU (coopvec-run's default GPU API; README.md: "On an NVIDIA
// GPU"): the same entries with the same arguments, so the same command line
// runs it with `--gpu-api=vulkan` (lavapipe, Vulkan on the CPU, does):
//
//   neural-shading features --width W --height H -o features.npy \
//     --rgb-buffer rgb.npy
//   coopvec-run --gpu-api=vulkan shade_frame_vulkan.mlir -e shade_frame \
//     --arg features.npy --arg w0.npy --arg b0.npy --arg w1.npy \
//     --arg b1.npy --arg w2.npy --arg b2.npy --arg rgb.npy \
//     --out-arg 7=network.npy
//
// The host code converts the weights once per frame with
// `coopvec.convert_matrix` (the CPU runtime) and launches one invocation per
// pixel: a `gpu.launch` of ceil(pixels / 64) workgroups of 64, each
// invocation past the last pixel doing nothing. coopvec-run outlines the
// launch into a kernel and compiles it to SPIR-V (coopvec-vulkan-pipeline);
// the memrefs it captures are staged by the runtime (copied in, and back
// where the kernel wrote them).
//
// The differences from shade_frame.mlir are what core Vulkan asks for:
//
// * Matrices are RowMajor with an explicit stride: the shader reads a row's
//   elements at consecutive addresses (the optimal layouts work on Vulkan
//   too, at Layout.h's offsets, but cost address arithmetic per element).
//   Rows are padded to 16 bytes, the
//   smallest stride coopvec accepts (`coopvec.matrix_size` folds the sizes,
//   see @weight_sizes).
// * A kernel's memrefs are 1-D: the (pixels x 12) features and (pixels x 3)
//   RGB are passed as their contiguous 1-D views (memref.collapse_shape),
//   and a pixel's row starts at 12 i and 3 i.
//
// Each invocation does what one iteration of the CPU loop does, with the
// same rounding: @shade_frame rounds the features to f16, every layer's
// result to f16 (F16 matrices and biases, f32 sums) and exp's too;
// @shade_frame_f32 is F32 throughout. The lowering multiplies and adds each
// product in the CPU reference's order (NoContraction), so the layers are
// bit-identical to the CPU's (f32 -> f16 conversions round by the device's
// default mode, to nearest even on lavapipe); only exp is the device's
// (GLSL.std.450 Exp, in f32 for both entries: see @shade_frame). On
// lavapipe the F16 frame equals the CPU's bit for bit; the F32 one differs
// in the last bits of exp, invisible after 8-bit encoding.

module attributes {gpu.container_module} {

// F16. Converted weights (F16 RowMajor, offsets 128-byte aligned): layer 0
// (64x12, stride 32: 2048 bytes) at 0, layer 1 (64x64, stride 128: 8192
// bytes) at 2048, layer 2 (3x64, stride 128: 384 bytes) at 10240; 10624
// bytes in all. Converted biases as in shade_frame.mlir: 64 halves at 0, 64
// at 128, 3 at 256; 272 bytes in all.
func.func @shade_frame(%features: memref<?x12xf32>,
                       %w0: memref<?xi8>, %b0: memref<?xi8>,
                       %w1: memref<?xi8>, %b1: memref<?xi8>,
                       %w2: memref<?xi8>, %b2: memref<?xi8>,
                       %rgb: memref<?x3xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c12 = arith.constant 12 : index
  %c16 = arith.constant 16 : index
  %c48 = arith.constant 48 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index

  %weights = memref.alloc() {alignment = 64 : i64} : memref<10624xi8>
  %biases = memref.alloc() {alignment = 64 : i64} : memref<272xi8>
  %s32 = arith.constant 32 : index
  %o2048 = arith.constant 2048 : index
  %o10240 = arith.constant 10240 : index
  coopvec.convert_matrix %w0[%c0] matrix<F32, 64x12, RowMajor> stride %c48
      to %weights[%c0] matrix<F16, 64x12, RowMajor> stride %s32
      : memref<?xi8>, memref<10624xi8>
  coopvec.convert_matrix %w1[%c0] matrix<F32, 64x64, RowMajor> stride %c256
      to %weights[%o2048] matrix<F16, 64x64, RowMajor> stride %c128
      : memref<?xi8>, memref<10624xi8>
  coopvec.convert_matrix %w2[%c0] matrix<F32, 3x64, RowMajor> stride %c256
      to %weights[%o10240] matrix<F16, 3x64, RowMajor> stride %c128
      : memref<?xi8>, memref<10624xi8>
  coopvec.convert_matrix %b0[%c0] matrix<F32, 1x64, RowMajor> stride %c256
      to %biases[%c0] matrix<F16, 1x64, RowMajor> stride %c128
      : memref<?xi8>, memref<272xi8>
  coopvec.convert_matrix %b1[%c0] matrix<F32, 1x64, RowMajor> stride %c256
      to %biases[%c128] matrix<F16, 1x64, RowMajor> stride %c128
      : memref<?xi8>, memref<272xi8>
  coopvec.convert_matrix %b2[%c0] matrix<F32, 1x3, RowMajor> stride %c12
      to %biases[%c256] matrix<F16, 1x3, RowMajor> stride %c16
      : memref<?xi8>, memref<272xi8>

  %x1 = memref.collapse_shape %features [[0, 1]] : memref<?x12xf32> into memref<?xf32>
  %y1 = memref.collapse_shape %rgb [[0, 1]] : memref<?x3xf32> into memref<?xf32>
  %pixels = memref.dim %features, %c0 : memref<?x12xf32>
  %padded = arith.addi %pixels, %c63 : index
  %groups = arith.divui %padded, %c64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %groups, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %c64 : index
    %i = arith.addi %base, %tx : index
    %live = arith.cmpi ult, %i, %pixels : index
    scf.if %live {
      %zero = arith.constant dense<0.0> : vector<64xf16>
      %xo = arith.muli %i, %c12 : index
      %x = vector.load %x1[%xo] : memref<?xf32>, vector<12xf32>
      %xh = arith.truncf %x : vector<12xf32> to vector<12xf16>
      %l0 = coopvec.matvec %xh as F16, %weights[%c0] matrix<F16, 64x12, RowMajor> stride %s32
              bias %biases[%c0] as F16
              : vector<12xf16>, memref<10624xi8>, memref<272xi8> -> vector<64xf16>
      %h0 = arith.maximumf %l0, %zero : vector<64xf16>
      %l1 = coopvec.matvec %h0 as F16, %weights[%o2048] matrix<F16, 64x64, RowMajor> stride %c128
              bias %biases[%c128] as F16
              : vector<64xf16>, memref<10624xi8>, memref<272xi8> -> vector<64xf16>
      %h1 = arith.maximumf %l1, %zero : vector<64xf16>
      %l2 = coopvec.matvec %h1 as F16, %weights[%o10240] matrix<F16, 3x64, RowMajor> stride %c128
              bias %biases[%c256] as F16
              : vector<64xf16>, memref<10624xi8>, memref<272xi8> -> vector<3xf16>
      // exp of the f16 value in f32, rounded to f16: what the CPU's
      // math.exp on f16 computes (and the C++ network); GLSL's f16 Exp
      // is allowed a few f16 ulps, which lavapipe uses.
      %l2f = arith.extf %l2 : vector<3xf16> to vector<3xf32>
      %ef = math.exp %l2f : vector<3xf32>
      %e = arith.truncf %ef : vector<3xf32> to vector<3xf16>
      %y = arith.extf %e : vector<3xf16> to vector<3xf32>
      %c3 = arith.constant 3 : index
      %yo = arith.muli %i, %c3 : index
      vector.store %y, %y1[%yo] : memref<?xf32>, vector<3xf32>
    }
    gpu.terminator
  }
  memref.dealloc %biases : memref<272xi8>
  memref.dealloc %weights : memref<10624xi8>
  return
}

// F32. Converted weights (F32 RowMajor, the rows of the .npy files with the
// same 16-byte-multiple strides, so the conversion is a copy into one
// buffer): 64x12 (stride 48: 3072 bytes) at 0, 64x64 (stride 256: 16384
// bytes) at 3072, 3x64 (stride 256: 768 bytes) at 19456; 20224 bytes in
// all. Biases are read straight from the .npy bytes, as in shade_frame.mlir.
func.func @shade_frame_f32(%features: memref<?x12xf32>,
                           %w0: memref<?xi8>, %b0: memref<?xi8>,
                           %w1: memref<?xi8>, %b1: memref<?xi8>,
                           %w2: memref<?xi8>, %b2: memref<?xi8>,
                           %rgb: memref<?x3xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c12 = arith.constant 12 : index
  %c48 = arith.constant 48 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %c3072 = arith.constant 3072 : index
  %c19456 = arith.constant 19456 : index

  %weights = memref.alloc() {alignment = 64 : i64} : memref<20224xi8>
  coopvec.convert_matrix %w0[%c0] matrix<F32, 64x12, RowMajor> stride %c48
      to %weights[%c0] matrix<F32, 64x12, RowMajor> stride %c48
      : memref<?xi8>, memref<20224xi8>
  coopvec.convert_matrix %w1[%c0] matrix<F32, 64x64, RowMajor> stride %c256
      to %weights[%c3072] matrix<F32, 64x64, RowMajor> stride %c256
      : memref<?xi8>, memref<20224xi8>
  coopvec.convert_matrix %w2[%c0] matrix<F32, 3x64, RowMajor> stride %c256
      to %weights[%c19456] matrix<F32, 3x64, RowMajor> stride %c256
      : memref<?xi8>, memref<20224xi8>

  %x1 = memref.collapse_shape %features [[0, 1]] : memref<?x12xf32> into memref<?xf32>
  %y1 = memref.collapse_shape %rgb [[0, 1]] : memref<?x3xf32> into memref<?xf32>
  %pixels = memref.dim %features, %c0 : memref<?x12xf32>
  %padded = arith.addi %pixels, %c63 : index
  %groups = arith.divui %padded, %c64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %groups, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %c64 : index
    %i = arith.addi %base, %tx : index
    %live = arith.cmpi ult, %i, %pixels : index
    scf.if %live {
      %zero = arith.constant dense<0.0> : vector<64xf32>
      %xo = arith.muli %i, %c12 : index
      %x = vector.load %x1[%xo] : memref<?xf32>, vector<12xf32>
      %l0 = coopvec.matvec %x as F32, %weights[%c0] matrix<F32, 64x12, RowMajor> stride %c48
              bias %b0[%c0] as F32
              : vector<12xf32>, memref<20224xi8>, memref<?xi8> -> vector<64xf32>
      %h0 = arith.maximumf %l0, %zero : vector<64xf32>
      %l1 = coopvec.matvec %h0 as F32, %weights[%c3072] matrix<F32, 64x64, RowMajor> stride %c256
              bias %b1[%c0] as F32
              : vector<64xf32>, memref<20224xi8>, memref<?xi8> -> vector<64xf32>
      %h1 = arith.maximumf %l1, %zero : vector<64xf32>
      %l2 = coopvec.matvec %h1 as F32, %weights[%c19456] matrix<F32, 3x64, RowMajor> stride %c256
              bias %b2[%c0] as F32
              : vector<64xf32>, memref<20224xi8>, memref<?xi8> -> vector<3xf32>
      %y = math.exp %l2 : vector<3xf32>
      %c3 = arith.constant 3 : index
      %yo = arith.muli %i, %c3 : index
      vector.store %y, %y1[%yo] : memref<?xf32>, vector<3xf32>
    }
    gpu.terminator
  }
  memref.dealloc %weights : memref<20224xi8>
  return
}

// I8: the fused network of shade_frame.mlir's @shade_frame_i8 (same
// arguments), with the weights converted to RowMajor (rows padded to 16
// bytes: 64x12 at 0, 64x64 at 1024, 3x64 at 5120; 5312 bytes) and the
// coopvec.mlp left in host code: `coopvec-opt --coopvec-batch-to-gpu` turns
// it into a launch of one thread per pixel (on NVIDIA, full warps multiply
// on tensor cores), and without that pass it runs on the CPU. Its layers
// are exact (i32 sums, one f32 rounding per step) on every target; exp is
// the device's.
func.func @shade_frame_i8(%features: memref<?x12xf32>,
                          %w0: memref<?xi8>, %b0: memref<?xi8>,
                          %w1: memref<?xi8>, %b1: memref<?xi8>,
                          %w2: memref<?xi8>, %b2: memref<?xi8>,
                          %s0: memref<?xi8>, %s1: memref<?xi8>,
                          %s2: memref<?xi8>, %input_scale: memref<1xf32>,
                          %rgb: memref<?x3xf32>) {
  %c0 = arith.constant 0 : index
  %c12 = arith.constant 12 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c1024 = arith.constant 1024 : index
  %c5120 = arith.constant 5120 : index
  %weights = memref.alloc() {alignment = 64 : i64} : memref<5376xi8>
  coopvec.convert_matrix %w0[%c0] matrix<I8, 64x12, RowMajor> stride %c12
      to %weights[%c0] matrix<I8, 64x12, RowMajor> stride %c16
      : memref<?xi8>, memref<5376xi8>
  coopvec.convert_matrix %w1[%c0] matrix<I8, 64x64, RowMajor> stride %c64
      to %weights[%c1024] matrix<I8, 64x64, RowMajor> stride %c64
      : memref<?xi8>, memref<5376xi8>
  coopvec.convert_matrix %w2[%c0] matrix<I8, 3x64, RowMajor> stride %c64
      to %weights[%c5120] matrix<I8, 3x64, RowMajor> stride %c64
      : memref<?xi8>, memref<5376xi8>
  %scale = memref.load %input_scale[%c0] : memref<1xf32>
  coopvec.mlp %features layers [
      %weights[%c0] matrix<I8, 64x12, RowMajor> stride %c16
          bias %b0[%c0] relu requant %s0[%c0],
      %weights[%c1024] matrix<I8, 64x64, RowMajor> stride %c64
          bias %b1[%c0] relu requant %s1[%c0],
      %weights[%c5120] matrix<I8, 3x64, RowMajor> stride %c64
          bias %b2[%c0] none requant %s2[%c0]]
      input_scale %scale exp into %rgb
      : memref<?x12xf32>, memref<?x3xf32>,
        memref<5376xi8>, memref<5376xi8>, memref<5376xi8>,
        memref<?xi8>, memref<?xi8>, memref<?xi8>,
        memref<?xi8>, memref<?xi8>, memref<?xi8>
  memref.dealloc %weights : memref<5376xi8>
  return
}

// The converted buffers' sizes, folded by --canonicalize: 2048, 8192, 384
// (F16) and 3072, 16384, 768 (F32).
func.func @weight_sizes() -> (index, index, index, index, index, index) {
  %s32 = arith.constant 32 : index
  %s48 = arith.constant 48 : index
  %s128 = arith.constant 128 : index
  %s256 = arith.constant 256 : index
  %0 = coopvec.matrix_size matrix<F16, 64x12, RowMajor> stride %s32 : index
  %1 = coopvec.matrix_size matrix<F16, 64x64, RowMajor> stride %s128 : index
  %2 = coopvec.matrix_size matrix<F16, 3x64, RowMajor> stride %s128 : index
  %3 = coopvec.matrix_size matrix<F32, 64x12, RowMajor> stride %s48 : index
  %4 = coopvec.matrix_size matrix<F32, 64x64, RowMajor> stride %s256 : index
  %5 = coopvec.matrix_size matrix<F32, 3x64, RowMajor> stride %s256 : index
  return %0, %1, %2, %3, %4, %5 : index, index, index, index, index, index
}

}
