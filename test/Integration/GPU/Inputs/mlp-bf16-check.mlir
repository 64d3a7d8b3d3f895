// A BF16 coopvec.mlp inside a GPU kernel, checked in one program: @check
// fills the buffers (300 rows of 16 features, a 16 -> 32 -> 4 BF16 network:
// RowMajor then ColumnMajor weights, F32 biases, ReLU on the hidden layer),
// runs the network on the GPU with every thread taking its own row (full
// warps take the bf16 tensor-core step for each layer, the last partial
// warp the per-lane path), runs the same coopvec.mlp on the whole batch on
// the CPU, and returns the number of results that differ bit for bit.
//
// The values make every sum exact in f32 in any order, so the summation
// order (which coopvec.mlp leaves to the target) cannot show: features are
// multiples of 1/8 in [-2, 2], weights of 1/8 in [-1, 1], biases of 1/8 in
// [-4, 4]; the first layer's sums are multiples of 2^-6 below 2^6, the
// hidden values rounded to bf16 keep that grid, and the second layer's sums
// are multiples of 2^-9 below 2^11 (20 bits). What remains is what the
// targets must agree on: the rounding of every layer's input to bf16, the
// bias, the ReLU.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @mlp(%x: memref<?x16xf32>, %w: memref<?xi8>, %b: memref<?xi8>,
                  %y: memref<?x4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c256 = arith.constant 256 : index
      %c1024 = arith.constant 1024 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %t = arith.addi %base, %tid : index
      %n = memref.dim %x, %c0 : memref<?x16xf32>
      %live = arith.cmpi ult, %t, %n : index
      scf.if %live {
        %xr = memref.subview %x[%t, 0] [1, 16] [1, 1] : memref<?x16xf32> to memref<1x16xf32, strided<[16, 1], offset: ?>>
        %yr = memref.subview %y[%t, 0] [1, 4] [1, 1] : memref<?x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
        coopvec.mlp %xr layers [
            %w[%c0] matrix<BF16, 32x16, RowMajor> stride %c32 bias %b[%c0] relu,
            %w[%c1024] matrix<BF16, 4x32, ColumnMajor> stride %c16 bias %b[%c256] none]
          into %yr
          : memref<1x16xf32, strided<[16, 1], offset: ?>>, memref<1x4xf32, strided<[4, 1], offset: ?>>,
            memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>
      }
      gpu.return
    }
  }

  // (i * a + b) mod m.
  func.func private @hash(%i: index, %a: index, %b: index, %m: index) -> index {
    %p = arith.muli %i, %a : index
    %s = arith.addi %p, %b : index
    %r = arith.remui %s, %m : index
    return %r : index
  }

  // (hash(i, a, b, m) - bias) / 8 as an f32.
  func.func private @eighths(%i: index, %a: index, %b: index, %m: index,
                             %bias: i32) -> f32 {
    %h = func.call @hash(%i, %a, %b, %m) : (index, index, index, index) -> index
    %hi = arith.index_cast %h : index to i32
    %v = arith.subi %hi, %bias : i32
    %f = arith.sitofp %v : i32 to f32
    %eighth = arith.constant 0.125 : f32
    %r = arith.mulf %f, %eighth : f32
    return %r : f32
  }

  // The network on the GPU into %y.
  func.func @gpu(%x: memref<?x16xf32>, %w: memref<?xi8>, %b: memref<?xi8>,
                 %y: memref<?x4xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c127 = arith.constant 127 : index
    %c128 = arith.constant 128 : index
    %n = memref.dim %x, %c0 : memref<?x16xf32>
    %nw = memref.dim %w, %c0 : memref<?xi8>
    %nb = memref.dim %b, %c0 : memref<?xi8>
    %dx = gpu.alloc (%n) : memref<?x16xf32>
    %dw = gpu.alloc (%nw) : memref<?xi8>
    %db = gpu.alloc (%nb) : memref<?xi8>
    %dy = gpu.alloc (%n) : memref<?x4xf32>
    gpu.memcpy %dx, %x : memref<?x16xf32>, memref<?x16xf32>
    gpu.memcpy %dw, %w : memref<?xi8>, memref<?xi8>
    gpu.memcpy %db, %b : memref<?xi8>, memref<?xi8>
    %n127 = arith.addi %n, %c127 : index
    %grid = arith.divui %n127, %c128 : index
    gpu.launch_func @kernels::@mlp blocks in (%grid, %c1, %c1) threads in (%c128, %c1, %c1)
        args(%dx : memref<?x16xf32>, %dw : memref<?xi8>, %db : memref<?xi8>, %dy : memref<?x4xf32>)
    gpu.memcpy %y, %dy : memref<?x4xf32>, memref<?x4xf32>
    gpu.dealloc %dx : memref<?x16xf32>
    gpu.dealloc %dw : memref<?xi8>
    gpu.dealloc %db : memref<?xi8>
    gpu.dealloc %dy : memref<?x4xf32>
    return
  }

  func.func @check() -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c11 = arith.constant 11 : index
    %c16 = arith.constant 16 : index
    %c17 = arith.constant 17 : index
    %c29 = arith.constant 29 : index
    %c32 = arith.constant 32 : index
    %c33 = arith.constant 33 : index
    %c65 = arith.constant 65 : index
    %c256 = arith.constant 256 : index
    %c768 = arith.constant 768 : index
    %c1024 = arith.constant 1024 : index
    %c1536 = arith.constant 1536 : index
    %c8i = arith.constant 8 : i32
    %c16i = arith.constant 16 : i32
    %c32i = arith.constant 32 : i32
    %n = arith.constant 300 : index
    %x = memref.alloc(%n) : memref<?x16xf32>
    scf.for %i = %c0 to %n step %c1 {
      scf.for %k = %c0 to %c16 step %c1 {
        %ik = arith.muli %i, %c16 : index
        %e = arith.addi %ik, %k : index
        %v = func.call @eighths(%e, %c29, %c3, %c33, %c16i) : (index, index, index, index, i32) -> f32
        memref.store %v, %x[%i, %k] : memref<?x16xf32>
      }
    }
    // 768 bf16 weights (both layers' 1536 bytes), exact in bf16.
    %w = memref.alloc(%c1536) : memref<?xi8>
    %wv = memref.view %w[%c0][%c768] : memref<?xi8> to memref<?xbf16>
    scf.for %i = %c0 to %c768 step %c1 {
      %v = func.call @eighths(%i, %c7, %c5, %c17, %c8i) : (index, index, index, index, i32) -> f32
      %h = arith.truncf %v : f32 to bf16
      memref.store %h, %wv[%i] : memref<?xbf16>
    }
    %b = memref.alloc(%c1024) : memref<?xi8>
    %bv = memref.view %b[%c0][%c256] : memref<?xi8> to memref<?xf32>
    scf.for %i = %c0 to %c256 step %c1 {
      %v = func.call @eighths(%i, %c11, %c1, %c65, %c32i) : (index, index, index, index, i32) -> f32
      memref.store %v, %bv[%i] : memref<?xf32>
    }
    %g = memref.alloc(%n) : memref<?x4xf32>
    %cpu = memref.alloc(%n) : memref<?x4xf32>
    func.call @gpu(%x, %w, %b, %g) : (memref<?x16xf32>, memref<?xi8>, memref<?xi8>, memref<?x4xf32>) -> ()
    coopvec.mlp %x layers [
        %w[%c0] matrix<BF16, 32x16, RowMajor> stride %c32 bias %b[%c0] relu,
        %w[%c1024] matrix<BF16, 4x32, ColumnMajor> stride %c16 bias %b[%c256] none]
      into %cpu
      : memref<?x16xf32>, memref<?x4xf32>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>
    %bad = scf.for %r = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
      %row = scf.for %j = %c0 to %c4 step %c1 iter_args(%a = %acc) -> (index) {
        %gv = memref.load %g[%r, %j] : memref<?x4xf32>
        %cv = memref.load %cpu[%r, %j] : memref<?x4xf32>
        %gb = arith.bitcast %gv : f32 to i32
        %cb = arith.bitcast %cv : f32 to i32
        %ne = arith.cmpi ne, %gb, %cb : i32
        %one = arith.index_castui %ne : i1 to index
        %next = arith.addi %a, %one : index
        scf.yield %next : index
      }
      scf.yield %row : index
    }
    memref.dealloc %x : memref<?x16xf32>
    memref.dealloc %w : memref<?xi8>
    memref.dealloc %b : memref<?xi8>
    memref.dealloc %g : memref<?x4xf32>
    memref.dealloc %cpu : memref<?x4xf32>
    return %bad : index
  }
}
