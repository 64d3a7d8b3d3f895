// coopvec-convert-gpu-to-spirv carries bf16 as its 16 bits (Vulkan 1.3 has
// no bf16): arith and math ops that compute on bf16 values are located
// errors (without the check, MLIR 22's patterns fail on them with an
// operand-type error of spirv.FConvert or "failed to legalize").
// RUN: coopvec-opt %s --coopvec-convert-gpu-to-spirv -split-input-file -verify-diagnostics

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @widen(%x: memref<8xbf16>, %y: memref<8xf32>) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      %c0 = arith.constant 0 : index
      %v = memref.load %x[%c0] : memref<8xbf16>
      // expected-error@+1 {{'arith.extf' op computes on bf16, which coopvec-convert-gpu-to-spirv does not lower (Vulkan 1.3 has no bf16: bf16 values are carried as their 16 bits, through loads, stores, arith.bitcast and arith.select only)}}
      %w = arith.extf %v : bf16 to f32
      memref.store %w, %y[%c0] : memref<8xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @constant(%y: memref<8xbf16>) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      %c0 = arith.constant 0 : index
      // expected-error@+1 {{'arith.constant' op computes on bf16}}
      %one = arith.constant 1.0 : bf16
      memref.store %one, %y[%c0] : memref<8xbf16>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @vector_math(%x: memref<8xbf16>) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      %c0 = arith.constant 0 : index
      %v = vector.load %x[%c0] : memref<8xbf16>, vector<4xbf16>
      // expected-error@+1 {{'math.absf' op computes on bf16}}
      %a = math.absf %v : vector<4xbf16>
      vector.store %a, %x[%c0] : memref<8xbf16>, vector<4xbf16>
      gpu.return
    }
  }
}
