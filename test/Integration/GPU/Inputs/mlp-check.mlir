// coopvec.mlp inside a GPU kernel, checked in one program: @check fills the
// buffers (1000 rows of 12 features, a 12 -> 64 -> 64 -> 3 I8 network:
// RowMajor, ColumnMajor and RowMajor weights, I32 biases, ReLU on the hidden
// layers (u8 activations), per-row requant scales, input scale 8), runs the
// network on the GPU with every thread taking its own row (a one-row
// subview: full warps take the tensor-core step for each layer, the last
// partial warp the per-lane path), runs the same coopvec.mlp on the whole
// batch on the CPU (the runtime's fused kernel), and returns the number of
// results that differ: bit for bit without exp, and, with exp on the
// results, by more than 2^-12 relative (the GPU's exp, ex2.approx of
// x log2(e), against glibc's expf; as the Vulkan tests bound GLSL's Exp).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @mlp(%x: memref<?x12xf32>, %w: memref<?xi8>, %b: memref<?xi8>,
                  %s: memref<?xi8>, %q: f32, %y: memref<?x3xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %c256 = arith.constant 256 : index
      %c512 = arith.constant 512 : index
      %c1024 = arith.constant 1024 : index
      %c5120 = arith.constant 5120 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %t = arith.addi %base, %tid : index
      %n = memref.dim %x, %c0 : memref<?x12xf32>
      %live = arith.cmpi ult, %t, %n : index
      scf.if %live {
        %xr = memref.subview %x[%t, 0] [1, 12] [1, 1] : memref<?x12xf32> to memref<1x12xf32, strided<[12, 1], offset: ?>>
        %yr = memref.subview %y[%t, 0] [1, 3] [1, 1] : memref<?x3xf32> to memref<1x3xf32, strided<[3, 1], offset: ?>>
        coopvec.mlp %xr layers [
            %w[%c0] matrix<I8, 64x12, RowMajor> stride %c16 bias %b[%c0] relu requant %s[%c0],
            %w[%c1024] matrix<I8, 64x64, ColumnMajor> stride %c64 bias %b[%c256] relu requant %s[%c256],
            %w[%c5120] matrix<I8, 3x64, RowMajor> stride %c64 bias %b[%c512] none requant %s[%c512]]
          input_scale %q into %yr
          : memref<1x12xf32, strided<[12, 1], offset: ?>>, memref<1x3xf32, strided<[3, 1], offset: ?>>,
            memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>,
            memref<?xi8>, memref<?xi8>, memref<?xi8>
      }
      gpu.return
    }
    gpu.func @mlp_exp(%x: memref<?x12xf32>, %w: memref<?xi8>, %b: memref<?xi8>,
                      %s: memref<?xi8>, %q: f32, %y: memref<?x3xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %c256 = arith.constant 256 : index
      %c512 = arith.constant 512 : index
      %c1024 = arith.constant 1024 : index
      %c5120 = arith.constant 5120 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %t = arith.addi %base, %tid : index
      %n = memref.dim %x, %c0 : memref<?x12xf32>
      %live = arith.cmpi ult, %t, %n : index
      scf.if %live {
        %xr = memref.subview %x[%t, 0] [1, 12] [1, 1] : memref<?x12xf32> to memref<1x12xf32, strided<[12, 1], offset: ?>>
        %yr = memref.subview %y[%t, 0] [1, 3] [1, 1] : memref<?x3xf32> to memref<1x3xf32, strided<[3, 1], offset: ?>>
        coopvec.mlp %xr layers [
            %w[%c0] matrix<I8, 64x12, RowMajor> stride %c16 bias %b[%c0] relu requant %s[%c0],
            %w[%c1024] matrix<I8, 64x64, ColumnMajor> stride %c64 bias %b[%c256] relu requant %s[%c256],
            %w[%c5120] matrix<I8, 3x64, RowMajor> stride %c64 bias %b[%c512] none requant %s[%c512]]
          input_scale %q exp into %yr
          : memref<1x12xf32, strided<[12, 1], offset: ?>>, memref<1x3xf32, strided<[3, 1], offset: ?>>,
            memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>,
            memref<?xi8>, memref<?xi8>, memref<?xi8>
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

  // The network on the GPU (kernel @mlp or @mlp_exp, by `exp`) into %y.
  func.func @gpu(%x: memref<?x12xf32>, %w: memref<?xi8>, %b: memref<?xi8>,
                 %s: memref<?xi8>, %q: f32, %y: memref<?x3xf32>, %exp: i1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c127 = arith.constant 127 : index
    %c128 = arith.constant 128 : index
    %n = memref.dim %x, %c0 : memref<?x12xf32>
    %nw = memref.dim %w, %c0 : memref<?xi8>
    %nb = memref.dim %b, %c0 : memref<?xi8>
    %ns = memref.dim %s, %c0 : memref<?xi8>
    %dx = gpu.alloc (%n) : memref<?x12xf32>
    %dw = gpu.alloc (%nw) : memref<?xi8>
    %db = gpu.alloc (%nb) : memref<?xi8>
    %ds = gpu.alloc (%ns) : memref<?xi8>
    %dy = gpu.alloc (%n) : memref<?x3xf32>
    gpu.memcpy %dx, %x : memref<?x12xf32>, memref<?x12xf32>
    gpu.memcpy %dw, %w : memref<?xi8>, memref<?xi8>
    gpu.memcpy %db, %b : memref<?xi8>, memref<?xi8>
    gpu.memcpy %ds, %s : memref<?xi8>, memref<?xi8>
    %n127 = arith.addi %n, %c127 : index
    %grid = arith.divui %n127, %c128 : index
    scf.if %exp {
      gpu.launch_func @kernels::@mlp_exp blocks in (%grid, %c1, %c1) threads in (%c128, %c1, %c1)
          args(%dx : memref<?x12xf32>, %dw : memref<?xi8>, %db : memref<?xi8>, %ds : memref<?xi8>, %q : f32, %dy : memref<?x3xf32>)
    } else {
      gpu.launch_func @kernels::@mlp blocks in (%grid, %c1, %c1) threads in (%c128, %c1, %c1)
          args(%dx : memref<?x12xf32>, %dw : memref<?xi8>, %db : memref<?xi8>, %ds : memref<?xi8>, %q : f32, %dy : memref<?x3xf32>)
    }
    gpu.memcpy %y, %dy : memref<?x3xf32>, memref<?x3xf32>
    gpu.dealloc %dx : memref<?x12xf32>
    gpu.dealloc %dw : memref<?xi8>
    gpu.dealloc %db : memref<?xi8>
    gpu.dealloc %ds : memref<?xi8>
    gpu.dealloc %dy : memref<?x3xf32>
    return
  }

  // The number of elements of %g and %c (n x 3) that differ: bit for bit, or
  // (`relative`) by more than 2^-12 |c|.
  func.func @differ(%g: memref<?x3xf32>, %c: memref<?x3xf32>, %relative: i1) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %tol = arith.constant 2.44140625e-04 : f32
    %n = memref.dim %g, %c0 : memref<?x3xf32>
    %bad = scf.for %r = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
      %row = scf.for %j = %c0 to %c3 step %c1 iter_args(%a = %acc) -> (index) {
        %gv = memref.load %g[%r, %j] : memref<?x3xf32>
        %cv = memref.load %c[%r, %j] : memref<?x3xf32>
        %gb = arith.bitcast %gv : f32 to i32
        %cb = arith.bitcast %cv : f32 to i32
        %ne = arith.cmpi ne, %gb, %cb : i32
        %d = arith.subf %gv, %cv : f32
        %ad = math.absf %d : f32
        %ac = math.absf %cv : f32
        %lim = arith.mulf %ac, %tol : f32
        %beyond = arith.cmpf ugt, %ad, %lim : f32
        %far = arith.andi %ne, %beyond : i1
        %out = arith.select %relative, %far, %ne : i1
        %one = arith.index_castui %out : i1 to index
        %next = arith.addi %a, %one : index
        scf.yield %next : index
      }
      scf.yield %row : index
    }
    return %bad : index
  }

  func.func @check() -> (index, index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c12 = arith.constant 12 : index
    %c13 = arith.constant 13 : index
    %c16 = arith.constant 16 : index
    %c29 = arith.constant 29 : index
    %c33 = arith.constant 33 : index
    %c37 = arith.constant 37 : index
    %c64 = arith.constant 64 : index
    %c97 = arith.constant 97 : index
    %c256 = arith.constant 256 : index
    %c512 = arith.constant 512 : index
    %c1000 = arith.constant 1000 : index
    %c1024 = arith.constant 1024 : index
    %c4001 = arith.constant 4001 : index
    %c5120 = arith.constant 5120 : index
    %c5376 = arith.constant 5376 : index
    %c2000 = arith.constant 2000 : i32
    %c16i = arith.constant 16 : i32
    %c48f = arith.constant 48.0 : f32
    %xstep = arith.constant 0.0703125 : f32
    %sstep = arith.constant 1.52587890625e-05 : f32
    %c2m6 = arith.constant 0.015625 : f32
    %c128 = arith.constant 128 : index
    %n = arith.constant 1000 : index
    // Features ((h - 48) * 0.0703125, h in [0, 97)), weights in [-16, 16],
    // biases in [-2000, 2000], requant scales (17 + h) 2^-16 (h in
    // [0, 1000)), 2^-6 of that for the last layer (results of a few units,
    // which exp keeps finite).
    %x = memref.alloc(%n) : memref<?x12xf32>
    scf.for %i = %c0 to %n step %c1 {
      scf.for %k = %c0 to %c12 step %c1 {
        %ik = arith.muli %i, %c12 : index
        %e = arith.addi %ik, %k : index
        %h = func.call @hash(%e, %c29, %c3, %c97) : (index, index, index, index) -> index
        %hi = arith.index_cast %h : index to i32
        %hf = arith.sitofp %hi : i32 to f32
        %v = arith.subf %hf, %c48f : f32
        %xv = arith.mulf %v, %xstep : f32
        memref.store %xv, %x[%i, %k] : memref<?x12xf32>
      }
    }
    %w = memref.alloc(%c5376) : memref<?xi8>
    scf.for %i = %c0 to %c5376 step %c1 {
      %h = func.call @hash(%i, %c37, %c5, %c33) : (index, index, index, index) -> index
      %hi = arith.index_cast %h : index to i32
      %v = arith.subi %hi, %c16i : i32
      %byte = arith.trunci %v : i32 to i8
      memref.store %byte, %w[%i] : memref<?xi8>
    }
    %b = memref.alloc(%c1024) : memref<?xi8>
    %bv = memref.view %b[%c0][%c256] : memref<?xi8> to memref<?xi32>
    scf.for %i = %c0 to %c256 step %c1 {
      %h = func.call @hash(%i, %c13, %c5, %c4001) : (index, index, index, index) -> index
      %hi = arith.index_cast %h : index to i32
      %v = arith.subi %hi, %c2000 : i32
      memref.store %v, %bv[%i] : memref<?xi32>
    }
    %s = memref.alloc(%c1024) : memref<?xi8>
    %sv = memref.view %s[%c0][%c256] : memref<?xi8> to memref<?xf32>
    scf.for %i = %c0 to %c256 step %c1 {
      %h = func.call @hash(%i, %c7, %c1, %c1000) : (index, index, index, index) -> index
      %hi = arith.index_cast %h : index to i32
      %h1 = arith.addi %hi, %c16i : i32
      %hf = arith.sitofp %h1 : i32 to f32
      %v = arith.mulf %hf, %sstep : f32
      %last = arith.cmpi uge, %i, %c128 : index
      %small = arith.mulf %v, %c2m6 : f32
      %sel = arith.select %last, %small, %v : f32
      memref.store %sel, %sv[%i] : memref<?xf32>
    }
    %q = arith.constant 8.0 : f32
    %false = arith.constant false
    %true = arith.constant true

    %g = memref.alloc(%n) : memref<?x3xf32>
    %cpu = memref.alloc(%n) : memref<?x3xf32>
    func.call @gpu(%x, %w, %b, %s, %q, %g, %false) : (memref<?x12xf32>, memref<?xi8>, memref<?xi8>, memref<?xi8>, f32, memref<?x3xf32>, i1) -> ()
    coopvec.mlp %x layers [
        %w[%c0] matrix<I8, 64x12, RowMajor> stride %c16 bias %b[%c0] relu requant %s[%c0],
        %w[%c1024] matrix<I8, 64x64, ColumnMajor> stride %c64 bias %b[%c256] relu requant %s[%c256],
        %w[%c5120] matrix<I8, 3x64, RowMajor> stride %c64 bias %b[%c512] none requant %s[%c512]]
      input_scale %q into %cpu
      : memref<?x12xf32>, memref<?x3xf32>, memref<?xi8>, memref<?xi8>, memref<?xi8>,
        memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>
    %exact = func.call @differ(%g, %cpu, %false) : (memref<?x3xf32>, memref<?x3xf32>, i1) -> index
    func.call @gpu(%x, %w, %b, %s, %q, %g, %true) : (memref<?x12xf32>, memref<?xi8>, memref<?xi8>, memref<?xi8>, f32, memref<?x3xf32>, i1) -> ()
    coopvec.mlp %x layers [
        %w[%c0] matrix<I8, 64x12, RowMajor> stride %c16 bias %b[%c0] relu requant %s[%c0],
        %w[%c1024] matrix<I8, 64x64, ColumnMajor> stride %c64 bias %b[%c256] relu requant %s[%c256],
        %w[%c5120] matrix<I8, 3x64, RowMajor> stride %c64 bias %b[%c512] none requant %s[%c512]]
      input_scale %q exp into %cpu
      : memref<?x12xf32>, memref<?x3xf32>, memref<?xi8>, memref<?xi8>, memref<?xi8>,
        memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>
    %close = func.call @differ(%g, %cpu, %true) : (memref<?x3xf32>, memref<?x3xf32>, i1) -> index
    memref.dealloc %x : memref<?x12xf32>
    memref.dealloc %w : memref<?xi8>
    memref.dealloc %b : memref<?xi8>
    memref.dealloc %s : memref<?xi8>
    memref.dealloc %g : memref<?x3xf32>
    memref.dealloc %cpu : memref<?x3xf32>
    return %exact, %close : index, index
  }
}
