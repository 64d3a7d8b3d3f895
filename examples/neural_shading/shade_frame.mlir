// The neural shader of examples/neural_shading for a whole frame: every row
// of the feature matrix (one pixel: normal, view direction, light direction
// times visibility, albedo; see Scene.h) goes through 12 -> 64 -> 64 -> 3
// with bias and ReLU, exp at the output, and its RGB radiance is stored in
// the same row of %rgb.
//
// The weights arrive exactly as train.py wrote them: the bytes of the
// row-major float32 .npy files (coopvec-run fills a memref<?xi8> with any
// array's bytes). With 12 features every row is 16-byte aligned, so they
// could be read row-major as they are; the entries convert them instead with
// `coopvec.convert_matrix`, once per frame before the pixel loop, to the
// inferencing-optimal layout the CPU kernels and D3D12 devices prefer (and,
// for F16, to the type D3D12 requires).
//
//   neural-shading features --width W --height H -o features.npy \
//     --rgb-buffer rgb.npy
//   coopvec-run shade_frame.mlir -e shade_frame \
//     --arg features.npy --arg w0.npy --arg b0.npy --arg w1.npy \
//     --arg b1.npy --arg w2.npy --arg b2.npy --arg rgb.npy \
//     --out-arg 7=network.npy
//
// (%rgb is any f32 (pixels x 3) array; every row is overwritten.)
//
// The pixels are independent: the loops are scf.parallel. The CPU
// pipeline's --coopvec-batch turns the @shade_frame_f32 loop into one fused
// coopvec.mlp; the F16 loop rounds every layer to f16, which the f32 fused
// kernel would not, so it stays one invocation per pixel, and
// async-parallel-for spreads it over the cores.

// F16 throughout, the D3D12 minimum support set (what shade_pixel.mlir
// uses): matrices converted to F16 in the inferencing-optimal layout, biases
// to F16 vectors, features rounded to f16 before the first layer.
//
// Converted weights (offsets 128-byte aligned; sizes are what
// `coopvec.matrix_size` folds to, see @f16_weight_sizes): layer 0 (64x12,
// 1536 bytes) at 0, layer 1 (64x64, 8192 bytes) at 1536, layer 2 (3x64, 1024
// bytes) at 9728; 10752 bytes in all. Converted biases, each read as a 1xM
// row-major matrix (offsets 128-byte aligned as a converted matrix needs,
// which also meets the 64-byte bias rule): 64 halves at 0, 64 at 128, 3 at
// 256; 272 bytes in all.
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
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %c1536 = arith.constant 1536 : index
  %c9728 = arith.constant 9728 : index

  %weights = memref.alloc() {alignment = 64 : i64} : memref<10752xi8>
  %biases = memref.alloc() {alignment = 64 : i64} : memref<272xi8>
  coopvec.convert_matrix %w0[%c0] matrix<F32, 64x12, RowMajor> stride %c48
      to %weights[%c0] matrix<F16, 64x12, InferencingOptimal>
      : memref<?xi8>, memref<10752xi8>
  coopvec.convert_matrix %w1[%c0] matrix<F32, 64x64, RowMajor> stride %c256
      to %weights[%c1536] matrix<F16, 64x64, InferencingOptimal>
      : memref<?xi8>, memref<10752xi8>
  coopvec.convert_matrix %w2[%c0] matrix<F32, 3x64, RowMajor> stride %c256
      to %weights[%c9728] matrix<F16, 3x64, InferencingOptimal>
      : memref<?xi8>, memref<10752xi8>
  coopvec.convert_matrix %b0[%c0] matrix<F32, 1x64, RowMajor> stride %c256
      to %biases[%c0] matrix<F16, 1x64, RowMajor> stride %c128
      : memref<?xi8>, memref<272xi8>
  coopvec.convert_matrix %b1[%c0] matrix<F32, 1x64, RowMajor> stride %c256
      to %biases[%c128] matrix<F16, 1x64, RowMajor> stride %c128
      : memref<?xi8>, memref<272xi8>
  coopvec.convert_matrix %b2[%c0] matrix<F32, 1x3, RowMajor> stride %c12
      to %biases[%c256] matrix<F16, 1x3, RowMajor> stride %c16
      : memref<?xi8>, memref<272xi8>

  %zero = arith.constant dense<0.0> : vector<64xf16>
  %pixels = memref.dim %features, %c0 : memref<?x12xf32>
  scf.parallel (%i) = (%c0) to (%pixels) step (%c1) {
    %x = vector.load %features[%i, %c0] : memref<?x12xf32>, vector<12xf32>
    %xh = arith.truncf %x : vector<12xf32> to vector<12xf16>
    %l0 = coopvec.matvec %xh as F16, %weights[%c0] matrix<F16, 64x12, InferencingOptimal>
            bias %biases[%c0] as F16
            : vector<12xf16>, memref<10752xi8>, memref<272xi8> -> vector<64xf16>
    %h0 = arith.maximumf %l0, %zero : vector<64xf16>
    %l1 = coopvec.matvec %h0 as F16, %weights[%c1536] matrix<F16, 64x64, InferencingOptimal>
            bias %biases[%c128] as F16
            : vector<64xf16>, memref<10752xi8>, memref<272xi8> -> vector<64xf16>
    %h1 = arith.maximumf %l1, %zero : vector<64xf16>
    %l2 = coopvec.matvec %h1 as F16, %weights[%c9728] matrix<F16, 3x64, InferencingOptimal>
            bias %biases[%c256] as F16
            : vector<64xf16>, memref<10752xi8>, memref<272xi8> -> vector<3xf16>
    %e = math.exp %l2 : vector<3xf16>
    %y = arith.extf %e : vector<3xf16> to vector<3xf32>
    vector.store %y, %rgb[%i, %c0] : memref<?x3xf32>, vector<3xf32>
  }
  memref.dealloc %biases : memref<272xi8>
  memref.dealloc %weights : memref<10752xi8>
  return
}

// The same network in F32: matrices converted to the inferencing-optimal
// layout without a type change (64x12: 3072 bytes at 0, 64x64: 16384 bytes at
// 3072, 3x64: 2048 bytes at 19456; 21504 bytes in all), biases read straight
// from the .npy bytes. The per-pixel loop is the plainest shape: load a row,
// matvec/ReLU chain, exp, store the row.
func.func @shade_frame_f32(%features: memref<?x12xf32>,
                           %w0: memref<?xi8>, %b0: memref<?xi8>,
                           %w1: memref<?xi8>, %b1: memref<?xi8>,
                           %w2: memref<?xi8>, %b2: memref<?xi8>,
                           %rgb: memref<?x3xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c48 = arith.constant 48 : index
  %c256 = arith.constant 256 : index
  %c3072 = arith.constant 3072 : index
  %c19456 = arith.constant 19456 : index

  %weights = memref.alloc() {alignment = 64 : i64} : memref<21504xi8>
  coopvec.convert_matrix %w0[%c0] matrix<F32, 64x12, RowMajor> stride %c48
      to %weights[%c0] matrix<F32, 64x12, InferencingOptimal>
      : memref<?xi8>, memref<21504xi8>
  coopvec.convert_matrix %w1[%c0] matrix<F32, 64x64, RowMajor> stride %c256
      to %weights[%c3072] matrix<F32, 64x64, InferencingOptimal>
      : memref<?xi8>, memref<21504xi8>
  coopvec.convert_matrix %w2[%c0] matrix<F32, 3x64, RowMajor> stride %c256
      to %weights[%c19456] matrix<F32, 3x64, InferencingOptimal>
      : memref<?xi8>, memref<21504xi8>

  %zero = arith.constant dense<0.0> : vector<64xf32>
  %pixels = memref.dim %features, %c0 : memref<?x12xf32>
  scf.parallel (%i) = (%c0) to (%pixels) step (%c1) {
    %x = vector.load %features[%i, %c0] : memref<?x12xf32>, vector<12xf32>
    %l0 = coopvec.matvec %x as F32, %weights[%c0] matrix<F32, 64x12, InferencingOptimal>
            bias %b0[%c0] as F32
            : vector<12xf32>, memref<21504xi8>, memref<?xi8> -> vector<64xf32>
    %h0 = arith.maximumf %l0, %zero : vector<64xf32>
    %l1 = coopvec.matvec %h0 as F32, %weights[%c3072] matrix<F32, 64x64, InferencingOptimal>
            bias %b1[%c0] as F32
            : vector<64xf32>, memref<21504xi8>, memref<?xi8> -> vector<64xf32>
    %h1 = arith.maximumf %l1, %zero : vector<64xf32>
    %l2 = coopvec.matvec %h1 as F32, %weights[%c19456] matrix<F32, 3x64, InferencingOptimal>
            bias %b2[%c0] as F32
            : vector<64xf32>, memref<21504xi8>, memref<?xi8> -> vector<3xf32>
    %y = math.exp %l2 : vector<3xf32>
    vector.store %y, %rgb[%i, %c0] : memref<?x3xf32>, vector<3xf32>
  }
  memref.dealloc %weights : memref<21504xi8>
  return
}

// The same network with BF16 weights, written as the fused op. The f32
// weights are rounded to bf16 (coopvec.convert, nearest even) row by row
// into row-major BF16 matrices (row strides 32 and 128 bytes: layer 0 at 0,
// layer 1 at 2048, layer 2 at 10240; 10752 bytes in all); biases stay f32
// from the .npy bytes. coopvec.mlp rounds each layer's input (the features,
// the hidden activations) to bf16 and sums the exact products in f32: the
// CPU runs it on AMX tiles (Intel CPUs with AMX-BF16), on vdpbf16ps where
// that is faster than f32 FMAs (AMD CPUs with AVX-512 BF16), else on the f32
// kernels. `neural-shading cpu-network --precision bf16` is the scalar model.
func.func @shade_frame_bf16(%features: memref<?x12xf32>,
                            %w0: memref<?xi8>, %b0: memref<?xi8>,
                            %w1: memref<?xi8>, %b1: memref<?xi8>,
                            %w2: memref<?xi8>, %b2: memref<?xi8>,
                            %rgb: memref<?x3xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c12 = arith.constant 12 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c192 = arith.constant 192 : index
  %c768 = arith.constant 768 : index
  %c1024 = arith.constant 1024 : index
  %c2048 = arith.constant 2048 : index
  %c4096 = arith.constant 4096 : index
  %c5120 = arith.constant 5120 : index
  %c10240 = arith.constant 10240 : index

  %weights = memref.alloc() {alignment = 64 : i64} : memref<10752xi8>
  %bf = memref.view %weights[%c0][] : memref<10752xi8> to memref<5376xbf16>
  %f0 = memref.view %w0[%c0][%c768] : memref<?xi8> to memref<?xf32>
  %f1 = memref.view %w1[%c0][%c4096] : memref<?xi8> to memref<?xf32>
  %f2 = memref.view %w2[%c0][%c192] : memref<?xi8> to memref<?xf32>
  scf.for %r = %c0 to %c64 step %c1 {
    %from = arith.muli %r, %c12 : index
    %v = vector.load %f0[%from] : memref<?xf32>, vector<12xf32>
    %h = coopvec.convert %v rounding rn : vector<12xf32> -> vector<12xbf16>
    %to = arith.muli %r, %c16 : index
    vector.store %h, %bf[%to] : memref<5376xbf16>, vector<12xbf16>
  }
  scf.for %r = %c0 to %c64 step %c1 {
    %from = arith.muli %r, %c64 : index
    %v = vector.load %f1[%from] : memref<?xf32>, vector<64xf32>
    %h = coopvec.convert %v rounding rn : vector<64xf32> -> vector<64xbf16>
    %to = arith.addi %from, %c1024 : index
    vector.store %h, %bf[%to] : memref<5376xbf16>, vector<64xbf16>
  }
  scf.for %r = %c0 to %c3 step %c1 {
    %from = arith.muli %r, %c64 : index
    %v = vector.load %f2[%from] : memref<?xf32>, vector<64xf32>
    %h = coopvec.convert %v rounding rn : vector<64xf32> -> vector<64xbf16>
    %to = arith.addi %from, %c5120 : index
    vector.store %h, %bf[%to] : memref<5376xbf16>, vector<64xbf16>
  }
  coopvec.mlp %features layers [
      %weights[%c0] matrix<BF16, 64x12, RowMajor> stride %c32 bias %b0[%c0] relu,
      %weights[%c2048] matrix<BF16, 64x64, RowMajor> stride %c128 bias %b1[%c0] relu,
      %weights[%c10240] matrix<BF16, 3x64, RowMajor> stride %c128 bias %b2[%c0] none]
      exp into %rgb
      : memref<?x12xf32>, memref<?x3xf32>,
        memref<10752xi8>, memref<10752xi8>, memref<10752xi8>,
        memref<?xi8>, memref<?xi8>, memref<?xi8>
  memref.dealloc %weights : memref<10752xi8>
  return
}

// The network with I8 weights, as the fused op: the integer network
// `train.py --i8` writes to weights_i8/ (fine-tuned for I8): int8 weights
// with one scale per row, int32 biases, per-row requantization scales s0..s2
// and the input scale. The features are quantized to s8 with the input
// scale, each hidden layer's ReLU output to u8 with its row's scale, the
// last layer's sums times theirs are the log radiance (see coopvec.mlp).
// The weights are converted from the files' row-major (row strides 12 and
// 64 bytes) to the inferencing-optimal layout: layer 0 (768 bytes) at 0,
// layer 1 (4096 bytes) at 768, layer 2 (512 bytes) at 4864; 5376 bytes in
// all. On the CPU: AMX tiles, vpdpbusd or vpmaddwd, the same results to the
// bit, which `neural-shading cpu-network --precision i8` reproduces.
//
//   coopvec-run shade_frame.mlir -e shade_frame_i8 --arg features.npy \
//     --arg weights_i8/w0.npy --arg weights_i8/b0.npy ... --arg b2.npy \
//     --arg weights_i8/s0.npy --arg s1.npy --arg s2.npy \
//     --arg weights_i8/input_scale.npy --arg rgb.npy --out-arg 11=network.npy
func.func @shade_frame_i8(%features: memref<?x12xf32>,
                          %w0: memref<?xi8>, %b0: memref<?xi8>,
                          %w1: memref<?xi8>, %b1: memref<?xi8>,
                          %w2: memref<?xi8>, %b2: memref<?xi8>,
                          %s0: memref<?xi8>, %s1: memref<?xi8>,
                          %s2: memref<?xi8>, %input_scale: memref<1xf32>,
                          %rgb: memref<?x3xf32>) {
  %c0 = arith.constant 0 : index
  %c12 = arith.constant 12 : index
  %c64 = arith.constant 64 : index
  %c768 = arith.constant 768 : index
  %c4864 = arith.constant 4864 : index
  %weights = memref.alloc() {alignment = 64 : i64} : memref<5376xi8>
  coopvec.convert_matrix %w0[%c0] matrix<I8, 64x12, RowMajor> stride %c12
      to %weights[%c0] matrix<I8, 64x12, InferencingOptimal>
      : memref<?xi8>, memref<5376xi8>
  coopvec.convert_matrix %w1[%c0] matrix<I8, 64x64, RowMajor> stride %c64
      to %weights[%c768] matrix<I8, 64x64, InferencingOptimal>
      : memref<?xi8>, memref<5376xi8>
  coopvec.convert_matrix %w2[%c0] matrix<I8, 3x64, RowMajor> stride %c64
      to %weights[%c4864] matrix<I8, 3x64, InferencingOptimal>
      : memref<?xi8>, memref<5376xi8>
  %scale = memref.load %input_scale[%c0] : memref<1xf32>
  coopvec.mlp %features layers [
      %weights[%c0] matrix<I8, 64x12, InferencingOptimal> stride %c0
          bias %b0[%c0] relu requant %s0[%c0],
      %weights[%c768] matrix<I8, 64x64, InferencingOptimal> stride %c0
          bias %b1[%c0] relu requant %s1[%c0],
      %weights[%c4864] matrix<I8, 3x64, InferencingOptimal> stride %c0
          bias %b2[%c0] none requant %s2[%c0]]
      input_scale %scale exp into %rgb
      : memref<?x12xf32>, memref<?x3xf32>,
        memref<5376xi8>, memref<5376xi8>, memref<5376xi8>,
        memref<?xi8>, memref<?xi8>, memref<?xi8>,
        memref<?xi8>, memref<?xi8>, memref<?xi8>
  memref.dealloc %weights : memref<5376xi8>
  return
}

// The converted buffers' sizes, folded by --canonicalize through the
// runtime's layout math: 1536, 8192, 1024 (F16), 3072, 16384, 2048 (F32) and
// 768, 4096, 512 (I8).
func.func @weight_sizes() -> (index, index, index, index, index, index,
                              index, index, index) {
  %0 = coopvec.matrix_size matrix<F16, 64x12, InferencingOptimal> : index
  %1 = coopvec.matrix_size matrix<F16, 64x64, InferencingOptimal> : index
  %2 = coopvec.matrix_size matrix<F16, 3x64, InferencingOptimal> : index
  %3 = coopvec.matrix_size matrix<F32, 64x12, InferencingOptimal> : index
  %4 = coopvec.matrix_size matrix<F32, 64x64, InferencingOptimal> : index
  %5 = coopvec.matrix_size matrix<F32, 3x64, InferencingOptimal> : index
  %6 = coopvec.matrix_size matrix<I8, 64x12, InferencingOptimal> : index
  %7 = coopvec.matrix_size matrix<I8, 64x64, InferencingOptimal> : index
  %8 = coopvec.matrix_size matrix<I8, 3x64, InferencingOptimal> : index
  return %0, %1, %2, %3, %4, %5, %6, %7, %8
      : index, index, index, index, index, index, index, index, index
}
