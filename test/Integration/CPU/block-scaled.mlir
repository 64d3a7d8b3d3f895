// MXFP4 in its stored form: coopvec.mx_quantize splits each weight row into
// E2M1 elements and UE8M0 scales; their bytes (vector.bitcast: two elements
// to a byte, the even one in the low nibble) are stored as a RowMajor matrix
// and a row-major scale grid, which coopvec.matvec and coopvec.batch_matvec
// read as a block-scaled matrix. Every value is exact (the weights lie on
// the E2M1 grid times the block's power of two, the inputs are small
// halves), so the products equal the float64 sums 143.5, -113.875 (x) and
// -226, -38.8125 (x2), and the mx_dequantize round trip returns the weights.
// RUN: coopvec-run %s -e quantized | FileCheck %s
// CHECK: [143.5, -113.875]
// CHECK-NEXT: [-226, -38.8125]
// CHECK-NEXT: [143.5, -113.875]
// CHECK-NEXT: [-226, -38.8125]
// CHECK-NEXT: 0
func.func @quantized() -> (vector<2xf32>, vector<2xf32>, vector<2xf32>, vector<2xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %w0 = arith.constant dense<[6.0, 1.5, -4.0, -3.0, 6.0, -1.5, 1.0, 3.0, -2.0, -1.0, 6.0, -4.0, -4.0, -1.0, -1.5, 6.0, 2.0, 4.0, 2.0, 1.0, -0.5, 1.0, 1.0, 4.0, 6.0, 2.0, 3.0, 3.0, -3.0, -1.5, 6.0, -3.0, 48.0, -24.0, -32.0, 32.0, -12.0, 4.0, 48.0, 4.0, -48.0, -16.0, 4.0, 16.0, -48.0, -4.0, 16.0, 24.0, -24.0, 4.0, -4.0, -4.0, 8.0, 12.0, -8.0, 48.0, 12.0, 8.0, 16.0, 48.0, -32.0, 24.0, -16.0, 12.0]> : vector<64xf32>
  %w1 = arith.constant dense<[1.5, 0.75, 0.125, 0.75, 0.125, -0.75, 0.125, 0.5, 1.0, 0.75, 1.0, -0.125, -1.0, 0.375, 1.0, 0.375, 0.25, 0.25, 1.5, 1.5, 0.375, -0.125, -0.75, -0.375, 1.0, 0.25, 0.25, -1.0, 0.125, -0.375, -0.5, 0.125, 12.0, 6.0, -3.0, -12.0, -1.0, -3.0, 12.0, -3.0, 12.0, -6.0, 4.0, 6.0, 4.0, 8.0, 3.0, 6.0, 1.0, -2.0, 1.0, 12.0, -6.0, 1.0, 12.0, 6.0, -2.0, 12.0, -1.0, -1.0, -12.0, -4.0, 1.0, -8.0]> : vector<64xf32>
  %x = arith.constant dense<[-2.0, 4.0, 0.0, -1.0, -4.0, 4.0, 4.0, 2.0, -4.0, -3.0, 1.0, -2.0, 0.0, 4.0, 3.0, -4.0, 1.0, -1.0, -1.0, -3.0, 4.0, -3.0, -2.0, -1.0, 0.0, -2.0, -4.0, 3.0, 2.0, -4.0, 0.0, -1.0, 0.0, 4.0, 4.0, 2.0, -4.0, 3.0, 1.0, -4.0, -4.0, -2.0, -4.0, -3.0, -4.0, -3.0, 3.0, -4.0, -3.0, 4.0, 4.0, 3.0, 1.0, -2.0, 1.0, -3.0, 1.0, 2.0, 2.0, 0.0, 1.0, 0.0, -1.0, 1.0]> : vector<64xf32>
  %x2 = arith.constant dense<[0.0, -1.5, -1.0, 0.5, -1.5, 1.0, 1.0, 0.0, 1.5, -1.5, 0.5, -1.0, -1.5, -0.5, 0.0, 0.5, 1.0, 1.5, 0.5, 0.0, 1.0, 1.5, -1.5, 0.5, 0.0, -1.5, -0.5, 1.0, 0.0, 1.5, 1.0, -0.5, 0.0, 1.0, 0.0, 0.0, -1.5, -1.0, -1.0, 0.5, -0.5, 1.0, 0.5, -1.5, 1.5, 0.0, -1.0, 0.0, -1.0, -1.5, -0.5, -0.5, 0.5, 1.5, 1.5, -0.5, -1.5, 0.0, 1.0, -1.5, 1.5, 1.0, 1.0, 1.5]> : vector<64xf32>
  %e0, %s0 = coopvec.mx_quantize %w0 block 32 : vector<64xf32> -> vector<64xf4E2M1FN>, vector<2xf8E8M0FNU>
  %e1, %s1 = coopvec.mx_quantize %w1 block 32 : vector<64xf32> -> vector<64xf4E2M1FN>, vector<2xf8E8M0FNU>
  // The stored form: 32 bytes per row (stride 32), 2 scales per row.
  %m = memref.alloc() : memref<64xi8>
  %sc = memref.alloc() : memref<4xi8>
  %b0 = vector.bitcast %e0 : vector<64xf4E2M1FN> to vector<32xi8>
  %b1 = vector.bitcast %e1 : vector<64xf4E2M1FN> to vector<32xi8>
  vector.store %b0, %m[%c0] : memref<64xi8>, vector<32xi8>
  vector.store %b1, %m[%c32] : memref<64xi8>, vector<32xi8>
  %t0 = vector.bitcast %s0 : vector<2xf8E8M0FNU> to vector<2xi8>
  %t1 = vector.bitcast %s1 : vector<2xf8E8M0FNU> to vector<2xi8>
  vector.store %t0, %sc[%c0] : memref<4xi8>, vector<2xi8>
  vector.store %t1, %sc[%c2] : memref<4xi8>, vector<2xi8>
  %mb = memref.cast %m : memref<64xi8> to memref<?xi8>
  %sb = memref.cast %sc : memref<4xi8> to memref<?xi8>
  %y = coopvec.matvec %x as F32, %mb[%c0] matrix<F4_E2M1, 2x64, RowMajor, scale f8E8M0FNU block 32>
         stride %c32 scales %sb[%c0] : memref<?xi8> : vector<64xf32>, memref<?xi8> -> vector<2xf32>
  %y2 = coopvec.matvec %x2 as F32, %mb[%c0] matrix<F4_E2M1, 2x64, RowMajor, scale f8E8M0FNU block 32>
         stride %c32 scales %sb[%c0] : memref<?xi8> : vector<64xf32>, memref<?xi8> -> vector<2xf32>
  // The same two inputs as a batch.
  %in = memref.alloc() : memref<2x64xf32>
  %out = memref.alloc() : memref<2x2xf32>
  vector.store %x, %in[%c0, %c0] : memref<2x64xf32>, vector<64xf32>
  vector.store %x2, %in[%c1, %c0] : memref<2x64xf32>, vector<64xf32>
  coopvec.batch_matvec %in as F32, %mb[%c0] matrix<F4_E2M1, 2x64, RowMajor, scale f8E8M0FNU block 32>
      stride %c32 scales %sb[%c0] : memref<?xi8> into %out : memref<2x64xf32>, memref<?xi8> -> memref<2x2xf32>
  %z = vector.load %out[%c0, %c0] : memref<2x2xf32>, vector<2xf32>
  %z2 = vector.load %out[%c1, %c0] : memref<2x2xf32>, vector<2xf32>
  // Dequantizing gives the weights back: the largest difference is 0.
  %d0 = coopvec.mx_dequantize %e0, %s0 block 32 : vector<64xf4E2M1FN>, vector<2xf8E8M0FNU> -> vector<64xf32>
  %diff = arith.subf %d0, %w0 : vector<64xf32>
  %adiff = math.absf %diff : vector<64xf32>
  %maxdiff = vector.reduction <maximumf>, %adiff : vector<64xf32> into f32
  memref.dealloc %m : memref<64xi8>
  memref.dealloc %sc : memref<4xi8>
  memref.dealloc %in : memref<2x64xf32>
  memref.dealloc %out : memref<2x2xf32>
  return %y, %y2, %z, %z2, %maxdiff : vector<2xf32>, vector<2xf32>, vector<2xf32>, vector<2xf32>, f32
}
