// A memref.generic_atomic_rmw whose result is used: f32 atomic max by
// compare-and-swap, returning the value it replaced.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @fmax(%b: memref<?xi32>, %out: memref<?xi32>, %x: memref<?xf32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %t = gpu.thread_id x
      %v = memref.load %x[%t] : memref<?xf32>
      %old = memref.generic_atomic_rmw %b[%c0] : memref<?xi32> {
      ^bb0(%cur: i32):
        %f = arith.bitcast %cur : i32 to f32
        %m = arith.maximumf %f, %v : f32
        %n = arith.bitcast %m : f32 to i32
        memref.atomic_yield %n : i32
      }
      memref.store %old, %out[%t] : memref<?xi32>
      gpu.return
    }
  }
}
