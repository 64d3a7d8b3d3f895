// Every combination convert-coopvec-to-nvvm does not lower is a located
// error (never an llc abort), one rule per case.
// RUN: coopvec-opt %s -split-input-file --convert-coopvec-to-nvvm=chip=sm_89 -verify-diagnostics
// RUN: not coopvec-opt %s --convert-coopvec-to-nvvm=chip=sm_75 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: error: convert-coopvec-to-nvvm: unknown chip 'sm_75' (expected sm_80, sm_89, sm_90, sm_100a or sm_120a)
// What the SM lacks is the profile's (the pipeline checks it first): fp8
// matrices need sm_89.
// RUN: not coopvec-opt %S/Inputs/fp8.mlir --coopvec-nvvm-pipeline=chip=sm_80 2>&1 | FileCheck %s --check-prefix=SM80
// SM80: fp8.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'coopvec.matvec' is not supported by profile 'sm_80': it does not list the matrix-vector combination input = F16, input_interp = F8_E4M3, matrix = F8_E4M3, output = F32
// The pass alone checks it too.
// RUN: not coopvec-opt %S/Inputs/fp8.mlir --convert-coopvec-to-nvvm=chip=sm_80 2>&1 | FileCheck %s --check-prefix=FP8SM80
// FP8SM80: fp8.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'coopvec.matvec' op is not supported by convert-coopvec-to-nvvm: 8-bit float products need sm_89 or later, not sm_80

module attributes {gpu.container_module} {
  gpu.module @m {
    func.func @not_a_kernel(%x: vector<8xf16>, %w: memref<?xi8>) -> vector<16xf32> {
      %c0 = arith.constant 0 : index
      %s = arith.constant 16 : index
      // expected-error@+1 {{is not supported by convert-coopvec-to-nvvm: it is not inside a gpu.func}}
      %r = coopvec.matvec %x as F16, %w[%c0] matrix<F16, 16x8, RowMajor> stride %s
             : vector<8xf16>, memref<?xi8> -> vector<16xf32>
      return %r : vector<16xf32>
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @fidelity(%x: vector<64xf32>, %w: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 128 : index
      // expected-error@+1 {{math fidelity is a Tenstorrent model with no NVVM lowering}}
      %r = coopvec.matvec %x as BF16, %w[%c0] matrix<BF16, 32x64, RowMajor> stride %s
             fidelity<hifi2, dst = f32, pack = bf16>
             : vector<64xf32>, memref<?xi8> -> vector<32xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @fp4_before_blackwell(%x: vector<64xf32>, %w: memref<?xi8>, %sc: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 32 : index
      // expected-error@+1 {{an F4_E2M1 matrix needs sm_100a or sm_120a (cvt.rn.f16x2.e2m1x2), not sm_89}}
      %r = coopvec.matvec %x as F8_E4M3, %w[%c0] matrix<F4_E2M1, 16x64, RowMajor, scale f8E8M0FNU block 32>
             stride %s scales %sc[%c0] : memref<?xi8>
             : vector<64xf32>, memref<?xi8> -> vector<16xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @strided(%x: vector<8xf16>, %w: memref<?xi8, strided<[1], offset: ?>>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 16 : index
      // expected-error@+1 {{buffers must be 1-D i8 memrefs with the identity layout}}
      %r = coopvec.matvec %x as F16, %w[%c0] matrix<F16, 16x8, RowMajor> stride %s
             : vector<8xf16>, memref<?xi8, strided<[1], offset: ?>> -> vector<16xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @f16_input(%x: vector<8xi32>, %w: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 16 : index
      // expected-error@+1 {{an F16 matrix takes F16 inputs of f16 or f32 elements here}}
      %r = coopvec.matvec %x as I32, %w[%c0] matrix<F16, 16x8, RowMajor> stride %s
             : vector<8xi32>, memref<?xi8> -> vector<16xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @f16_result(%x: vector<8xf16>, %w: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 16 : index
      // expected-error@+1 {{an F16 matrix gives f16 or f32 results here}}
      %r = coopvec.matvec %x as F16, %w[%c0] matrix<F16, 16x8, RowMajor> stride %s
             : vector<8xf16>, memref<?xi8> -> vector<16xi32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @f16_bias(%x: vector<8xf16>, %w: memref<?xi8>, %b: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 16 : index
      // expected-error@+1 {{an F16 matrix takes an F16 or F32 bias here}}
      %r = coopvec.matvec %x as F16, %w[%c0] matrix<F16, 16x8, RowMajor> stride %s
             bias %b[%c0] as I32
             : vector<8xf16>, memref<?xi8>, memref<?xi8> -> vector<16xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @int8_input(%x: vector<32xf16>, %w: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 32 : index
      // expected-error@+1 {{an I8/U8 matrix takes PackedS8x32/PackedU8x32 inputs (i32 words) or I8/U8 inputs (f32, i32 or i16 elements) here}}
      %r = coopvec.matvec %x as F16, %w[%c0] matrix<I8, 16x32, RowMajor> stride %s
             : vector<32xf16>, memref<?xi8> -> vector<16xi32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @int8_result(%x: vector<8xi32>, %w: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 32 : index
      // expected-error@+1 {{an I8/U8 matrix gives i32 or f32 results here}}
      %r = coopvec.matvec %x as PackedS8x32, %w[%c0] matrix<I8, 16x32, RowMajor> stride %s
             : vector<8xi32>, memref<?xi8> -> vector<16xf16>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @int8_bias(%x: vector<8xi32>, %w: memref<?xi8>, %b: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 32 : index
      // expected-error@+1 {{an I8/U8 matrix takes an I32, U32, I16 or U16 bias here}}
      %r = coopvec.matvec %x as PackedS8x32, %w[%c0] matrix<I8, 16x32, RowMajor> stride %s
             bias %b[%c0] as F16
             : vector<8xi32>, memref<?xi8>, memref<?xi8> -> vector<16xi32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @too_large(%x: vector<1250xi32>, %w: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 5008 : index
      // expected-error@+1 {{a 16x5000 matrix (M and K up to 4096 here)}}
      %r = coopvec.matvec %x as PackedU8x32, %w[%c0] matrix<U8, 16x5000, RowMajor> stride %s
             : vector<1250xi32>, memref<?xi8> -> vector<16xi32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @f8_input(%x: vector<32xf16>, %w: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 32 : index
      // expected-error@+1 {{an F8_E4M3 matrix takes F8_E4M3/F8_E5M2/F6_E2M3/F6_E3M2/F4_E2M1 inputs of f16 or f32 elements here}}
      %r = coopvec.matvec %x as F16, %w[%c0] matrix<F8_E4M3, 16x32, RowMajor> stride %s
             : vector<32xf16>, memref<?xi8> -> vector<16xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @f8_result(%x: vector<32xf16>, %w: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 32 : index
      // expected-error@+1 {{an F8_E4M3 matrix gives f16 or f32 results here}}
      %r = coopvec.matvec %x as F8_E4M3, %w[%c0] matrix<F8_E4M3, 16x32, RowMajor> stride %s
             : vector<32xf16>, memref<?xi8> -> vector<16xi32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @f8_bias(%x: vector<32xf16>, %w: memref<?xi8>, %b: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 32 : index
      // expected-error@+1 {{an F8_E4M3 matrix takes an F16 or F32 bias here}}
      %r = coopvec.matvec %x as F8_E4M3, %w[%c0] matrix<F8_E4M3, 16x32, RowMajor> stride %s
             bias %b[%c0] as I32
             : vector<32xf16>, memref<?xi8>, memref<?xi8> -> vector<16xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @int4_matrix(%x: vector<8xf32>, %w: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 16 : index
      // expected-error@+1 {{matrix interpretation I4 (lowered here: F16, BF16, F32, I8, U8, F8_E4M3, F8_E5M2, F6_E2M3, F6_E3M2, F4_E2M1)}}
      %r = coopvec.matvec %x as I4, %w[%c0] matrix<I4, 16x8, RowMajor> stride %s
             : vector<8xf32>, memref<?xi8> -> vector<16xi32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @other_op(%v: vector<16xf16>, %buf: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      // expected-error@+1 {{is not supported by convert-coopvec-to-nvvm yet (lowered here: coopvec.matvec, coopvec.batch_matvec, coopvec.mlp, coopvec.convert, coopvec.pack, coopvec.mx_quantize, coopvec.mx_dequantize)}}
      coopvec.vector_accumulate %v, %buf[%c0] : vector<16xf16>, memref<?xi8>
      gpu.return
    }
  }
}

// -----

// Batches in device code: the thread runs every row, so it needs a gpu.func.
module attributes {gpu.container_module} {
  gpu.module @m {
    func.func @batch_not_in_kernel(%x: memref<4x32xf16>, %w: memref<?xi8>, %y: memref<4x16xf32>) {
      %c0 = arith.constant 0 : index
      %s = arith.constant 64 : index
      // expected-error@+1 {{'coopvec.batch_matvec' op is not supported by convert-coopvec-to-nvvm: it is not inside a gpu.func (the thread runs the batch's rows)}}
      coopvec.batch_matvec %x as F16, %w[%c0] matrix<F16, 16x32, RowMajor> stride %s
          into %y : memref<4x32xf16>, memref<?xi8> -> memref<4x16xf32>
      return
    }
  }
}

// -----

// A quantized form's weight-side buffer that is not a plain byte buffer.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: memref<8x16xi8>, %w: memref<?xi8>, %zw: memref<?xi8, strided<[1], offset: 4>>, %y: memref<8x8xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      // expected-error@+1 {{'coopvec.batch_matvec' op is not supported by convert-coopvec-to-nvvm: buffers must be 1-D i8 memrefs with the identity layout}}
      coopvec.batch_matvec %x as I8, %w[%c0] matrix<U8, 8x16, RowMajor> stride %c16
          weight_zero_points %zw[%c0] as U8 group 16 : memref<?xi8, strided<[1], offset: 4>>
          into %y : memref<8x16xi8>, memref<?xi8> -> memref<8x8xi32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @fp4_inputs_before_blackwell(%x: vector<32xf32>, %w: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 32 : index
      // expected-error@+1 {{F4_E2M1 inputs need sm_100a or sm_120a (cvt.rn.satfinite.e2m1x2.f32), not sm_89}}
      %r = coopvec.matvec %x as F4_E2M1, %w[%c0] matrix<F8_E4M3, 16x32, RowMajor> stride %s
             : vector<32xf32>, memref<?xi8> -> vector<16xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @scales_buffer(%x: vector<32xf32>, %w: memref<?xi8>, %sc: memref<?xi8, strided<[2]>>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 32 : index
      // expected-error@+1 {{the scales buffer must be a 1-D i8 memref with the identity layout}}
      %r = coopvec.matvec %x as F8_E4M3, %w[%c0] matrix<F8_E4M3, 16x32, RowMajor, scale f8E8M0FNU block 32>
             stride %s scales %sc[%c0] : memref<?xi8, strided<[2]>>
             : vector<32xf32>, memref<?xi8> -> vector<16xf32>
      gpu.return
    }
  }
}
