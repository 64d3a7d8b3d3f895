// fp6/fp4 and block-scaled matrices convert-coopvec-to-nvvm does not lower on
// sm_120a: located errors, one rule per case (fp6/fp4 before sm_100a is
// invalid.mlir's; the verifier rejects scale schemes PTX lacks).
// RUN: coopvec-opt %s -split-input-file --convert-coopvec-to-nvvm=chip=sm_120a -verify-diagnostics


module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @fp6_inputs(%x: vector<32xf32>, %w: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 32 : index
      // expected-error@+1 {{an F6_E2M3 matrix takes F8_E4M3/F8_E5M2 inputs of f16 or f32 elements here}}
      %r = coopvec.matvec %x as F6_E2M3, %w[%c0] matrix<F6_E2M3, 16x32, RowMajor> stride %s
             : vector<32xf32>, memref<?xi8> -> vector<16xf32>
      gpu.return
    }
  }
}


// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @scales_buffer(%x: vector<64xf32>, %w: memref<?xi8>, %sc: memref<?xi8, strided<[2]>>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 32 : index
      // expected-error@+1 {{the scales buffer must be a 1-D i8 memref with the identity layout}}
      %r = coopvec.matvec %x as F8_E4M3, %w[%c0] matrix<F4_E2M1, 16x64, RowMajor, scale f8E8M0FNU block 32>
             stride %s scales %sc[%c0] : memref<?xi8, strided<[2]>>
             : vector<64xf32>, memref<?xi8> -> vector<16xf32>
      gpu.return
    }
  }
}
