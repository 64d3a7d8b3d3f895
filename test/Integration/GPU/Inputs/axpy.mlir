// A plain GPU program (no coopvec ops): y = a * x + y on the GPU, with the
// host code copying the arguments in and the results out. The tests in the
// folder above run it.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @axpy(%x: memref<?xf32>, %y: memref<?xf32>, %a: f32,
                   %n: index) kernel {
      %block = gpu.block_id x
      %size = gpu.block_dim x
      %thread = gpu.thread_id x
      %base = arith.muli %block, %size : index
      %i = arith.addi %base, %thread : index
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %xi = memref.load %x[%i] : memref<?xf32>
        %yi = memref.load %y[%i] : memref<?xf32>
        %ax = arith.mulf %a, %xi : f32
        %sum = arith.addf %ax, %yi : f32
        memref.store %sum, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
  }

  // y = a * x + y, in place, with `threads` threads a block; also returns
  // a copy of the new y made on the host from the device's buffer.
  func.func @axpy(%hx: memref<?xf32>, %hy: memref<?xf32>, %a: f32,
                  %threads: index) -> memref<?xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %hx, %c0 : memref<?xf32>
    %x = gpu.alloc (%n) : memref<?xf32>
    %y = gpu.alloc (%n) : memref<?xf32>
    gpu.memcpy %x, %hx : memref<?xf32>, memref<?xf32>
    gpu.memcpy %y, %hy : memref<?xf32>, memref<?xf32>
    %last = arith.subi %threads, %c1 : index
    %padded = arith.addi %n, %last : index
    %blocks = arith.divui %padded, %threads : index
    gpu.launch_func @kernels::@axpy blocks in (%blocks, %c1, %c1)
        threads in (%threads, %c1, %c1)
        args(%x : memref<?xf32>, %y : memref<?xf32>, %a : f32, %n : index)
    gpu.memcpy %hy, %y : memref<?xf32>, memref<?xf32>
    %copy = memref.alloc (%n) : memref<?xf32>
    gpu.memcpy %copy, %y : memref<?xf32>, memref<?xf32>
    gpu.dealloc %x : memref<?xf32>
    gpu.dealloc %y : memref<?xf32>
    return %copy : memref<?xf32>
  }
}
