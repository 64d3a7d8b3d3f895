// coopvec-convert-gpu-to-spirv rejects bf16 memrefs in kernels with a
// located error: MLIR 22's SPIR-V type converter would give them 4-byte f32
// elements (OpTypeFloat 32, ArrayStride 4) against the host's 2-byte
// buffers. Without the check, coopvec-vulkan-pipeline compiled the first
// kernel (its buffers as f32 arrays of stride 4) and this test fails.
// RUN: coopvec-opt %s --coopvec-convert-gpu-to-spirv -split-input-file -verify-diagnostics

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @copy(%x: memref<8xbf16>, %y: memref<8xbf16>) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      %c0 = arith.constant 0 : index
      // expected-error@+1 {{'memref.load' op uses a memref of bf16, which coopvec-convert-gpu-to-spirv does not lower: MLIR 22's SPIR-V type converter gives it 4-byte f32 elements, not the host's 2-byte ones (pass bf16 values as i16 bits)}}
      %v = memref.load %x[%c0] : memref<8xbf16>
      memref.store %v, %y[%c0] : memref<8xbf16>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // An unused bf16 argument: the error is the function's.
    // expected-error@+1 {{'gpu.func' op uses a memref of bf16}}
    gpu.func @unused(%x: memref<8xbf16>) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      gpu.return
    }
  }
}
