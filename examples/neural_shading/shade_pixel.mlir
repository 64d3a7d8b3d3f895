// The neural shader of the cooperative-vector proposal's motivation, for one
// pixel: 12 features (normal, view direction, light direction times
// visibility, albedo; see Scene.h) -> 64 -> 64 -> 3 with bias and ReLU, exp
// at the output. All weights live in one byte buffer in
// the inferencing-optimal layout, all biases in another; F16 throughout, the
// D3D12 minimum support set.
//
// Weights buffer (offsets are 128-byte aligned, sizes from
// `coopvec.matrix_size`): layer 0 (64x12) at 0, layer 1 (64x64) at 1536,
// layer 2 (3x64) at 9728. Bias buffer: 64 + 64 + 3 halves at 0, 128, 256.

func.func @shade_pixel(%features: vector<12xf16>, %weights: memref<?xi8>,
                       %biases: memref<?xi8>) -> vector<3xf16> {
  %w0 = arith.constant 0 : index
  %w1 = arith.constant 1536 : index
  %w2 = arith.constant 9728 : index
  %b0 = arith.constant 0 : index
  %b1 = arith.constant 128 : index
  %b2 = arith.constant 256 : index
  %zero = arith.constant dense<0.0> : vector<64xf16>

  %l0 = coopvec.matvec %features as F16, %weights[%w0] matrix<F16, 64x12, InferencingOptimal>
          bias %biases[%b0] as F16 : vector<12xf16>, memref<?xi8>, memref<?xi8> -> vector<64xf16>
  %h0 = arith.maximumf %l0, %zero : vector<64xf16>
  %l1 = coopvec.matvec %h0 as F16, %weights[%w1] matrix<F16, 64x64, InferencingOptimal>
          bias %biases[%b1] as F16 : vector<64xf16>, memref<?xi8>, memref<?xi8> -> vector<64xf16>
  %h1 = arith.maximumf %l1, %zero : vector<64xf16>
  %l2 = coopvec.matvec %h1 as F16, %weights[%w2] matrix<F16, 3x64, InferencingOptimal>
          bias %biases[%b2] as F16 : vector<64xf16>, memref<?xi8>, memref<?xi8> -> vector<3xf16>
  %rgb = math.exp %l2 : vector<3xf16>
  return %rgb : vector<3xf16>
}

// The buffer sizes the layout above needs, folded by --canonicalize.
func.func @weight_sizes() -> (index, index, index) {
  %0 = coopvec.matrix_size matrix<F16, 64x12, InferencingOptimal> : index
  %1 = coopvec.matrix_size matrix<F16, 64x64, InferencingOptimal> : index
  %2 = coopvec.matrix_size matrix<F16, 3x64, InferencingOptimal> : index
  return %0, %1, %2 : index, index, index
}
