// Launch arguments a Vulkan kernel cannot take (invalid.mlir).
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @indices(%x: memref<?xindex>) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      gpu.return
    }
    gpu.func @short(%x: i16) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      gpu.return
    }
    gpu.func @strided(%x: memref<4xf32, strided<[2]>>) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      gpu.return
    }
  }
  func.func @host(%x: memref<?xindex>, %s: i16, %y: memref<4xf32, strided<[2]>>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @m::@indices blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?xindex>)
    gpu.launch_func @m::@short blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%s : i16)
    gpu.launch_func @m::@strided blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%y : memref<4xf32, strided<[2]>>)
    return
  }
}
