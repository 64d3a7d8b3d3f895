// A UE8M0 block-scaled fp8 matrix: per lane before sm_120a.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @mxfp8(%x: vector<32xf16>, %w: memref<?xi8>, %sc: memref<?xi8>, %y: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 32 : index
      %r = coopvec.matvec %x as F8_E4M3, %w[%c0] matrix<F8_E5M2, 16x32, RowMajor, scale f8E8M0FNU block 32>
             stride %s scales %sc[%c0] : memref<?xi8>
             : vector<32xf16>, memref<?xi8> -> vector<16xf32>
      vector.store %r, %y[%c0] : memref<?xf32>, vector<16xf32>
      gpu.return
    }
  }
}
