// RUN: coopvec-opt %s --convert-coopvec-to-nvvm --split-input-file --verify-diagnostics

// A block of more than 1024 threads: no stage size (and no launch) fits.
// One error for the function, however many matvecs it has.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{'gpu.func' op has a known_block_size of 2048 threads; convert-coopvec-to-nvvm takes 1 to 1024}}
    gpu.func @k(%x: vector<32xf16>, %w: memref<?xi8>, %y: memref<?xf32>) kernel
        attributes {known_block_size = array<i32: 1024, 2, 1>} {
      %c0 = arith.constant 0 : index
      %s = arith.constant 64 : index
      %r = coopvec.matvec %x as F16, %w[%c0] matrix<F16, 16x32, RowMajor> stride %s
             : vector<32xf16>, memref<?xi8> -> vector<16xf32>
      vector.store %r, %y[%c0] : memref<?xf32>, vector<16xf32>
      %r2 = coopvec.matvec %x as F16, %w[%c0] matrix<F16, 16x32, RowMajor> stride %s
             : vector<32xf16>, memref<?xi8> -> vector<16xf32>
      vector.store %r2, %y[%c0] : memref<?xf32>, vector<16xf32>
      gpu.return
    }
  }
}

// -----

// A negative size.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{'gpu.func' op has a known_block_size of -64 threads; convert-coopvec-to-nvvm takes 1 to 1024}}
    gpu.func @k(%x: vector<32xf16>, %w: memref<?xi8>, %y: memref<?xf32>) kernel
        attributes {known_block_size = array<i32: -64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %s = arith.constant 64 : index
      %r = coopvec.matvec %x as F16, %w[%c0] matrix<F16, 16x32, RowMajor> stride %s
             : vector<32xf16>, memref<?xi8> -> vector<16xf32>
      vector.store %r, %y[%c0] : memref<?xf32>, vector<16xf32>
      gpu.return
    }
  }
}

// -----

// The stage's name taken by a global that cannot be the stages.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{'memref.global' op uses the name @__coopvec_warp_stage, which convert-coopvec-to-nvvm reserves for the cooperative step's stages (a static 1-D i32 memref.global in workgroup memory of whole 256-word stages)}}
    memref.global "private" @__coopvec_warp_stage : memref<16xf32> = uninitialized
    gpu.func @k(%x: vector<32xf16>, %w: memref<?xi8>, %y: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 64 : index
      %r = coopvec.matvec %x as F16, %w[%c0] matrix<F16, 16x32, RowMajor> stride %s
             : vector<32xf16>, memref<?xi8> -> vector<16xf32>
      vector.store %r, %y[%c0] : memref<?xf32>, vector<16xf32>
      gpu.return
    }
  }
}

// -----

// ... or by another kind of symbol.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{'gpu.func' op uses the name @__coopvec_warp_stage, which convert-coopvec-to-nvvm reserves}}
    gpu.func @__coopvec_warp_stage() {
      gpu.return
    }
    gpu.func @k(%x: vector<32xf16>, %w: memref<?xi8>, %y: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 64 : index
      %r = coopvec.matvec %x as F16, %w[%c0] matrix<F16, 16x32, RowMajor> stride %s
             : vector<32xf16>, memref<?xi8> -> vector<16xf32>
      vector.store %r, %y[%c0] : memref<?xf32>, vector<16xf32>
      gpu.return
    }
  }
}
