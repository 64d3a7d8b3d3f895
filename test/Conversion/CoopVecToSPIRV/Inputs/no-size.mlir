// Kernels whose workgroup size nothing gives (invalid.mlir).
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @none(%x: memref<?xf32>) kernel {
      gpu.return
    }
    gpu.func @differ(%x: memref<?xf32>) kernel {
      gpu.return
    }
    gpu.func @dynamic(%x: memref<?xf32>) kernel {
      gpu.return
    }
  }
  func.func @host(%x: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @m::@differ blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%x : memref<?xf32>)
    gpu.launch_func @m::@differ blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%x : memref<?xf32>)
    gpu.launch_func @m::@dynamic blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1) args(%x : memref<?xf32>)
    return
  }
}
