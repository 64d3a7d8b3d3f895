// A HiFi4 product with an f32 Dst for fidelity.test's pipeline run: every
// matrix byte 0x3F (each F32 element 0x3F3F3F3F, 0.7470...), inputs 1.0.
memref.global "private" constant @weights : memref<2048xi8> = dense<63>

func.func @main() -> vector<16xf32> {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %g = memref.get_global @weights : memref<2048xi8>
  %w = memref.cast %g : memref<2048xi8> to memref<?xi8>
  %x = arith.constant dense<1.0> : vector<32xf32>
  %y = coopvec.matvec %x as F32, %w[%c0] matrix<F32, 16x32, RowMajor> stride %c128
         fidelity<hifi4, dst = f32> : vector<32xf32>, memref<?xi8> -> vector<16xf32>
  return %y : vector<16xf32>
}
