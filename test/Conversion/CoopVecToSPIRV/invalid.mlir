// Everything convert-coopvec-to-spirv and coopvec-vulkan-launch-args do not
// take is a located error, one rule per case.
// RUN: coopvec-opt %s -split-input-file --convert-coopvec-to-spirv=workgroup-size=64 -verify-diagnostics
// RUN: not coopvec-opt %S/Inputs/no-size.mlir --convert-coopvec-to-spirv 2>&1 | FileCheck %s --check-prefix=NOSIZE
// NOSIZE: no-size.mlir:4:5: error: convert-coopvec-to-spirv: the workgroup size of this kernel is fixed in SPIR-V, and neither known_block_size nor its gpu.launch_func ops (none) nor the workgroup-size option give it
// NOSIZE: no-size.mlir:{{[0-9]+}}:5: error: {{.*}}(they differ){{.*}}
// NOSIZE: no-size.mlir:{{[0-9]+}}:5: error: {{.*}}(not constant){{.*}}
// RUN: not coopvec-opt %S/Inputs/no-size.mlir --convert-coopvec-to-spirv=workgroup-size=1,2,3,4 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not coopvec-opt %S/Inputs/no-size.mlir --convert-coopvec-to-spirv=workgroup-size=0 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: error: convert-coopvec-to-spirv: workgroup-size takes one to three positive sizes
// RUN: not coopvec-opt %S/Inputs/launch-args.mlir --coopvec-vulkan-pipeline 2>&1 | FileCheck %s --check-prefix=ARGS
// ARGS: launch-args.mlir:{{[0-9]+}}:5: error: 'gpu.launch_func' op argument 0 cannot be passed to a Vulkan kernel: a memref of index (the kernel's index is 32-bit; elements must be whole bytes)
// ARGS: launch-args.mlir:{{[0-9]+}}:5: error: 'gpu.launch_func' op argument 0 cannot be passed to a Vulkan kernel: a i16 (scalars are index, i32, f32, i64 or f64)
// ARGS: launch-args.mlir:{{[0-9]+}}:5: error: 'gpu.launch_func' op argument 0 cannot be passed to a Vulkan kernel: a strided memref whose last dimension is not contiguous

module attributes {gpu.container_module} {
  gpu.module @m {
    func.func @not_a_kernel(%x: vector<8xf16>, %w: memref<?xi8>) -> vector<16xf32> {
      %c0 = arith.constant 0 : index
      %s = arith.constant 16 : index
      // expected-error@+1 {{is not supported by convert-coopvec-to-spirv: it is not inside a gpu.func}}
      %r = coopvec.matvec %x as F16, %w[%c0] matrix<F16, 16x8, RowMajor> stride %s
             : vector<8xf16>, memref<?xi8> -> vector<16xf32>
      return %r : vector<16xf32>
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: vector<32xf16>, %w: memref<?xi8>, %sc: memref<?xi8, strided<[1], offset: 4>>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 32 : index
      // expected-error@+1 {{is not supported by convert-coopvec-to-spirv: buffers must be 1-D i8 memrefs with the identity layout}}
      %r = coopvec.matvec %x as F8_E4M3, %w[%c0] matrix<F8_E4M3, 16x32, RowMajor, scale f8E8M0FNU block 32> stride %s
             scales %sc[%c0] : memref<?xi8, strided<[1], offset: 4>>
             : vector<32xf16>, memref<?xi8> -> vector<16xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: vector<16xf16>, %w: memref<?xi8, strided<[1], offset: ?>>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 32 : index
      // expected-error@+1 {{is not supported by convert-coopvec-to-spirv: buffers must be 1-D i8 memrefs with the identity layout}}
      %r = coopvec.matvec %x as F16, %w[%c0] matrix<F16, 16x16, RowMajor> stride %s
             : vector<16xf16>, memref<?xi8, strided<[1], offset: ?>> -> vector<16xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: vector<4097xf16>, %w: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 8208 : index
      // expected-error@+1 {{is not supported by convert-coopvec-to-spirv: a 16x4097 matrix (M and K up to 4096 here)}}
      %r = coopvec.matvec %x as F16, %w[%c0] matrix<F16, 16x4097, RowMajor> stride %s
             : vector<4097xf16>, memref<?xi8> -> vector<16xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: vector<16xf16>, %w: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 32 : index
      // expected-error@+1 {{is not supported by convert-coopvec-to-spirv: an F16 matrix takes F16 or F32 inputs of f16 or f32 elements here}}
      %r = coopvec.matvec %x as F8_E4M3, %w[%c0] matrix<F16, 16x16, RowMajor> stride %s
             : vector<16xf16>, memref<?xi8> -> vector<16xf32>
      gpu.return
    }
  }
}

// -----

// A BF16 matrix reads its input as BF16 only (the DXIL-rounded bf16 widened
// to f32; Vulkan 1.3 has no bf16 type).
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: vector<16xf32>, %w: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 32 : index
      // expected-error@+1 {{is not supported by convert-coopvec-to-spirv: a BF16 matrix takes BF16 inputs of f16 or f32 elements here}}
      %r = coopvec.matvec %x as F32, %w[%c0] matrix<BF16, 16x16, RowMajor> stride %s
             : vector<16xf32>, memref<?xi8> -> vector<16xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: vector<16xf32>, %w: memref<?xi8>, %b: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 64 : index
      // expected-error@+1 {{is not supported by convert-coopvec-to-spirv: an F32 matrix takes an F16, BF16 or F32 bias here}}
      %r = coopvec.matvec %x as F32, %w[%c0] matrix<F32, 16x16, RowMajor> stride %s
             bias %b[%c0] as I32
             : vector<16xf32>, memref<?xi8>, memref<?xi8> -> vector<16xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: vector<16xf16>, %w: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 16 : index
      // expected-error@+1 {{is not supported by convert-coopvec-to-spirv: an I8/U8 matrix takes PackedS8x32/PackedU8x32 inputs (i32 words) or I8/U8 inputs (f32, i32 or i16 elements) here}}
      %r = coopvec.matvec %x as I8, %w[%c0] matrix<I8, 16x16, RowMajor> stride %s
             : vector<16xf16>, memref<?xi8> -> vector<16xi32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: vector<4xi32>, %w: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 16 : index
      // expected-error@+1 {{is not supported by convert-coopvec-to-spirv: an I8/U8 matrix gives i32 or f32 results here}}
      %r = coopvec.matvec %x as PackedS8x32, %w[%c0] matrix<I8, 16x16, RowMajor> stride %s
             : vector<4xi32>, memref<?xi8> -> vector<16xf16>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: vector<4xi32>, %w: memref<?xi8>, %b: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 16 : index
      // expected-error@+1 {{is not supported by convert-coopvec-to-spirv: an I8/U8 matrix takes an I32, U32, I16 or U16 bias here}}
      %r = coopvec.matvec %x as PackedS8x32, %w[%c0] matrix<I8, 16x16, RowMajor> stride %s
             bias %b[%c0] as F32
             : vector<4xi32>, memref<?xi8>, memref<?xi8> -> vector<16xi32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: vector<16xf32>, %w: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 16 : index
      // expected-error@+1 {{is not supported by convert-coopvec-to-spirv: matrix interpretation I4 (lowered here: F32, F16, BF16, F8_E4M3, F8_E5M2, F6_E2M3, F6_E3M2, F4_E2M1, I8, U8; BFP8, BFP4 with math fidelity)}}
      %r = coopvec.matvec %x as I8, %w[%c0] matrix<I4, 16x16, RowMajor> stride %s
             : vector<16xf32>, memref<?xi8> -> vector<16xi32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: vector<16xf16>, %w: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 16 : index
      // expected-error@+1 {{is not supported by convert-coopvec-to-spirv: an 8-, 6- or 4-bit float matrix takes F8_E4M3, F8_E5M2, F16 or F32 inputs of f16 or f32 elements here}}
      %r = coopvec.matvec %x as BF16, %w[%c0] matrix<F6_E2M3, 16x16, RowMajor> stride %s
             : vector<16xf16>, memref<?xi8> -> vector<16xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    func.func @f(%v: vector<4xi32>, %buf: memref<?xi8>) {
      %c0 = arith.constant 0 : index
      // expected-error@+1 {{is not supported by convert-coopvec-to-spirv: it is not inside a gpu.func}}
      coopvec.vector_accumulate %v, %buf[%c0] : vector<4xi32>, memref<?xi8>
      return
    }
  }
}


// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%v: vector<4xi32>, %buf: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %sub = memref.subview %buf[%c64] [%c64] [1] : memref<?xi8> to memref<?xi8, strided<[1], offset: ?>>
      %cast = memref.cast %sub : memref<?xi8, strided<[1], offset: ?>> to memref<?xi8>
      // expected-error@+1 {{is not supported by convert-coopvec-to-spirv: the buffer must be an argument of the kernel (it is bound as 32-bit words for the atomics)}}
      coopvec.vector_accumulate %v, %cast[%c0] : vector<4xi32>, memref<?xi8>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%v: vector<4xi32>, %buf: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      // expected-error@+1 {{is not supported by convert-coopvec-to-spirv: the buffer it adds to is bound as 32-bit words for the atomics, so the kernel may only accumulate into it (found 'memref.load')}}
      coopvec.vector_accumulate %v, %buf[%c0] : vector<4xi32>, memref<?xi8>
      %b = memref.load %buf[%c0] : memref<?xi8>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%a: vector<4xf32>, %b: vector<4xf32>, %m: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      // expected-error@+1 {{'coopvec.outer_product_accumulate' op is not supported by convert-coopvec-to-spirv: matrix interpretation BF16 (lowered here: F16, F32, F8_E4M3, F8_E5M2, I8, U8, I16, U16, I32, U32)}}
      coopvec.outer_product_accumulate %a, %b, %m[%c0] matrix<BF16, 4x4, RowMajor> stride %c16
          : vector<4xf32>, vector<4xf32>, memref<?xi8>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%a: vector<80xf32>, %b: vector<80xf32>, %m: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      %c320 = arith.constant 320 : index
      // expected-error@+1 {{'coopvec.outer_product_accumulate' op is not supported by convert-coopvec-to-spirv: a 80x80 outer product (up to 4096 elements here)}}
      coopvec.outer_product_accumulate %a, %b, %m[%c0] matrix<F32, 80x80, RowMajor> stride %c320
          : vector<80xf32>, vector<80xf32>, memref<?xi8>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: memref<?xf32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      // expected-error@+1 {{'arith.constant' op uses a vector of more than 4 elements that convert-coopvec-to-spirv cannot split into scalars (SPIR-V vectors have at most 4): index it with constants, and keep it out of loop-carried values and function signatures}}
      %zero = arith.constant dense<0.0> : vector<8xf32>
      %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> vector<8xf32> {
        %v = vector.load %x[%i] : memref<?xf32>, vector<8xf32>
        %a = arith.addf %acc, %v : vector<8xf32>
        scf.yield %a : vector<8xf32>
      }
      vector.store %s, %x[%c0] : memref<?xf32>, vector<8xf32>
      gpu.return
    }
  }
}

// -----

// The quantized form over a batch with no static row count.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: memref<?x16xi8>, %w: memref<?xi8>, %zw: memref<?xi8>, %y: memref<?x8xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      // expected-error@+1 {{'coopvec.batch_matvec' op is not supported by convert-coopvec-to-spirv: both batches have a dynamic number of rows}}
      coopvec.batch_matvec %x as I8, %w[%c0] matrix<U8, 8x16, RowMajor> stride %c16
          weight_zero_points %zw[%c0] as U8 group 16 : memref<?xi8>
          into %y : memref<?x16xi8>, memref<?xi8> -> memref<?x8xi32>
      gpu.return
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
      // expected-error@+1 {{'coopvec.batch_matvec' op is not supported by convert-coopvec-to-spirv: buffers must be 1-D i8 memrefs with the identity layout}}
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
    gpu.func @k(%x: memref<?x16xf32>, %w: memref<?xi8>, %y: memref<?x8xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      // expected-error@+1 {{'coopvec.batch_matvec' op is not supported by convert-coopvec-to-spirv: both batches have a dynamic number of rows, and a shader cannot read a buffer's size: give one of them a static row count}}
      coopvec.batch_matvec %x as F32, %w[%c0] matrix<F32, 8x16, RowMajor> stride %c64
          into %y : memref<?x16xf32>, memref<?xi8> -> memref<?x8xf32>
      gpu.return
    }
  }
}

// -----

// A batch in a kernel is a loop of matvecs: a row the matvec lowering does
// not take is its error, at the batch.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: memref<4x16xf32>, %w: memref<?xi8>, %y: memref<4x8xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      // expected-error@+1 {{'coopvec.matvec' op is not supported by convert-coopvec-to-spirv: matrix interpretation I4}}
      coopvec.batch_matvec %x as I8, %w[%c0] matrix<I4, 8x16, RowMajor> stride %c16
          into %y : memref<4x16xf32>, memref<?xi8> -> memref<4x8xi32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: memref<?x16xf32>, %w: memref<?xi8>, %y: memref<?x8xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      // expected-error@+1 {{'coopvec.mlp' op is not supported by convert-coopvec-to-spirv: both batches have a dynamic number of rows, and a shader cannot read a buffer's size: give one of them a static row count}}
      coopvec.mlp %x layers [%w[%c0] matrix<F32, 8x16, RowMajor> stride %c64 none] into %y
          : memref<?x16xf32>, memref<?x8xf32>, memref<?xi8>
      gpu.return
    }
  }
}
