// A GPU program with a coopvec op that convert-coopvec-to-nvvm does not
// take (an I4 matrix: the sm_90 profile lists s4/u4 mma.sync tiles, the
// lowering has no 4-bit integer products); matvec-lowered.mlir checks that
// the run stops with a located error before anything is compiled for the
// GPU.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @int4(%x: memref<?xf32>, %w: memref<?xi8>, %y: memref<?xi32>) kernel {
      %c0 = arith.constant 0 : index
      %stride = arith.constant 16 : index
      %xv = vector.load %x[%c0] : memref<?xf32>, vector<16xf32>
      %r = coopvec.matvec %xv as I4, %w[%c0] matrix<I4, 16x16, RowMajor> stride %stride
             : vector<16xf32>, memref<?xi8> -> vector<16xi32>
      vector.store %r, %y[%c0] : memref<?xi32>, vector<16xi32>
      gpu.return
    }
  }

  func.func @run() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c512 = arith.constant 512 : index
    %x = gpu.alloc (%c16) : memref<?xf32>
    %w = gpu.alloc (%c512) : memref<?xi8>
    %y = gpu.alloc (%c16) : memref<?xi32>
    gpu.launch_func @kernels::@int4 blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%x : memref<?xf32>, %w : memref<?xi8>, %y : memref<?xi32>)
    gpu.dealloc %x : memref<?xf32>
    gpu.dealloc %w : memref<?xi8>
    gpu.dealloc %y : memref<?xi32>
    return
  }
}
