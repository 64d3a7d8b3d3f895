// coopvec.matvec on the GPU against the CPU, in one program: @check fills
// the inputs, runs each kernel over 1000 threads (31 full warps, which take
// the tensor-core step, and a partial one, which takes the per-lane path)
// and the same matvec in a host loop (the CPU runtime), and returns the
// number of elements that differ, per case. The values are chosen so that
// every float sum is exact (multiples of 1/16 below 2^12): any summation
// order gives the same bits, so the float case is compared bit for bit too.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // F16 64x64 RowMajor, f16 inputs, F32 bias, f32 results.
    gpu.func @f16(%x: memref<?xf16>, %w: memref<?xi8>, %b: memref<?xi8>,
                  %y: memref<?xf32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %stride = arith.constant 128 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %t0 = arith.muli %bid, %bdim : index
      %t = arith.addi %t0, %tid : index
      %live = arith.cmpi ult, %t, %n : index
      scf.if %live {
        %xb = arith.muli %t, %c64 : index
        %xv = vector.load %x[%xb] : memref<?xf16>, vector<64xf16>
        %r = coopvec.matvec %xv as F16, %w[%c0] matrix<F16, 64x64, RowMajor> stride %stride
               bias %b[%c0] as F32
               : vector<64xf16>, memref<?xi8>, memref<?xi8> -> vector<64xf32>
        vector.store %r, %y[%xb] : memref<?xf32>, vector<64xf32>
      }
      gpu.return
    }
    // I8 48x96 ColumnMajor, PackedS8x32 inputs, I32 bias, i32 results.
    gpu.func @int8(%x: memref<?xi32>, %w: memref<?xi8>, %b: memref<?xi8>,
                   %y: memref<?xi32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c24 = arith.constant 24 : index
      %c48 = arith.constant 48 : index
      %stride = arith.constant 48 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %t0 = arith.muli %bid, %bdim : index
      %t = arith.addi %t0, %tid : index
      %live = arith.cmpi ult, %t, %n : index
      scf.if %live {
        %xb = arith.muli %t, %c24 : index
        %xv = vector.load %x[%xb] : memref<?xi32>, vector<24xi32>
        %r = coopvec.matvec %xv as PackedS8x32, %w[%c0] matrix<I8, 48x96, ColumnMajor> stride %stride
               bias %b[%c0] as I32
               : vector<24xi32>, memref<?xi8>, memref<?xi8> -> vector<48xi32>
        %yb = arith.muli %t, %c48 : index
        vector.store %r, %y[%yb] : memref<?xi32>, vector<48xi32>
      }
      gpu.return
    }
  }

  // Copies the buffers to the GPU, launches `kernel` over %n threads in
  // blocks of 128 and copies the results back.
  func.func @run_f16(%x: memref<?xf16>, %w: memref<?xi8>, %b: memref<?xi8>,
                     %y: memref<?xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %c127 = arith.constant 127 : index
    %nx = memref.dim %x, %c0 : memref<?xf16>
    %nw = memref.dim %w, %c0 : memref<?xi8>
    %nb = memref.dim %b, %c0 : memref<?xi8>
    %ny = memref.dim %y, %c0 : memref<?xf32>
    %dx = gpu.alloc (%nx) : memref<?xf16>
    %dw = gpu.alloc (%nw) : memref<?xi8>
    %db = gpu.alloc (%nb) : memref<?xi8>
    %dy = gpu.alloc (%ny) : memref<?xf32>
    gpu.memcpy %dx, %x : memref<?xf16>, memref<?xf16>
    gpu.memcpy %dw, %w : memref<?xi8>, memref<?xi8>
    gpu.memcpy %db, %b : memref<?xi8>, memref<?xi8>
    %np = arith.addi %n, %c127 : index
    %grid = arith.divui %np, %c128 : index
    gpu.launch_func @kernels::@f16 blocks in (%grid, %c1, %c1) threads in (%c128, %c1, %c1)
        args(%dx : memref<?xf16>, %dw : memref<?xi8>, %db : memref<?xi8>, %dy : memref<?xf32>, %n : index)
    gpu.memcpy %y, %dy : memref<?xf32>, memref<?xf32>
    gpu.dealloc %dx : memref<?xf16>
    gpu.dealloc %dw : memref<?xi8>
    gpu.dealloc %db : memref<?xi8>
    gpu.dealloc %dy : memref<?xf32>
    return
  }
  func.func @run_int8(%x: memref<?xi32>, %w: memref<?xi8>, %b: memref<?xi8>,
                      %y: memref<?xi32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %c127 = arith.constant 127 : index
    %nx = memref.dim %x, %c0 : memref<?xi32>
    %nw = memref.dim %w, %c0 : memref<?xi8>
    %nb = memref.dim %b, %c0 : memref<?xi8>
    %ny = memref.dim %y, %c0 : memref<?xi32>
    %dx = gpu.alloc (%nx) : memref<?xi32>
    %dw = gpu.alloc (%nw) : memref<?xi8>
    %db = gpu.alloc (%nb) : memref<?xi8>
    %dy = gpu.alloc (%ny) : memref<?xi32>
    gpu.memcpy %dx, %x : memref<?xi32>, memref<?xi32>
    gpu.memcpy %dw, %w : memref<?xi8>, memref<?xi8>
    gpu.memcpy %db, %b : memref<?xi8>, memref<?xi8>
    %np = arith.addi %n, %c127 : index
    %grid = arith.divui %np, %c128 : index
    gpu.launch_func @kernels::@int8 blocks in (%grid, %c1, %c1) threads in (%c128, %c1, %c1)
        args(%dx : memref<?xi32>, %dw : memref<?xi8>, %db : memref<?xi8>, %dy : memref<?xi32>, %n : index)
    gpu.memcpy %y, %dy : memref<?xi32>, memref<?xi32>
    gpu.dealloc %dx : memref<?xi32>
    gpu.dealloc %dw : memref<?xi8>
    gpu.dealloc %db : memref<?xi8>
    gpu.dealloc %dy : memref<?xi32>
    return
  }

  // (i * a + b) mod m, for filling buffers.
  func.func private @hash(%i: index, %a: index, %b: index, %m: index) -> index {
    %p = arith.muli %i, %a : index
    %s = arith.addi %p, %b : index
    %r = arith.remui %s, %m : index
    return %r : index
  }

  func.func @check() -> (index, index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %c13 = arith.constant 13 : index
    %c17 = arith.constant 17 : index
    %c24 = arith.constant 24 : index
    %c48 = arith.constant 48 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %c1000 = arith.constant 1000 : index
    %quarter = arith.constant 0.25 : f32
    %n = arith.constant 1000 : index

    // ---- F16: x = ((7 i + 3) mod 17 - 8) / 4, w = ((5 j + 11) mod 13 - 6) / 4
    // over the whole buffer (the row padding too), bias = (r mod 7 - 3) / 4.
    %fx = memref.alloc() : memref<64000xf16>
    %nfx = arith.constant 64000 : index
    scf.for %i = %c0 to %nfx step %c1 {
      %h = func.call @hash(%i, %c7, %c3, %c17) : (index, index, index, index) -> index
      %hi = arith.index_cast %h : index to i32
      %hf = arith.sitofp %hi : i32 to f32
      %c8f = arith.constant 8.0 : f32
      %v = arith.subf %hf, %c8f : f32
      %q = arith.mulf %v, %quarter : f32
      %h16 = arith.truncf %q : f32 to f16
      memref.store %h16, %fx[%i] : memref<64000xf16>
    }
    %fw = memref.alloc() : memref<8192xi8>
    %fwh = memref.view %fw[%c0][] : memref<8192xi8> to memref<4096xf16>
    %n4096 = arith.constant 4096 : index
    scf.for %i = %c0 to %n4096 step %c1 {
      %c5 = arith.constant 5 : index
      %c11 = arith.constant 11 : index
      %h = func.call @hash(%i, %c5, %c11, %c13) : (index, index, index, index) -> index
      %hi = arith.index_cast %h : index to i32
      %hf = arith.sitofp %hi : i32 to f32
      %c6f = arith.constant 6.0 : f32
      %v = arith.subf %hf, %c6f : f32
      %q = arith.mulf %v, %quarter : f32
      %h16 = arith.truncf %q : f32 to f16
      memref.store %h16, %fwh[%i] : memref<4096xf16>
    }
    %fb = memref.alloc() : memref<256xi8>
    %fbf = memref.view %fb[%c0][] : memref<256xi8> to memref<64xf32>
    scf.for %i = %c0 to %c64 step %c1 {
      %h = func.call @hash(%i, %c1, %c0, %c7) : (index, index, index, index) -> index
      %hi = arith.index_cast %h : index to i32
      %hf = arith.sitofp %hi : i32 to f32
      %c3f = arith.constant 3.0 : f32
      %v = arith.subf %hf, %c3f : f32
      %q = arith.mulf %v, %quarter : f32
      memref.store %q, %fbf[%i] : memref<64xf32>
    }
    %fxd = memref.cast %fx : memref<64000xf16> to memref<?xf16>
    %fwd = memref.cast %fw : memref<8192xi8> to memref<?xi8>
    %fbd = memref.cast %fb : memref<256xi8> to memref<?xi8>
    %gpu16 = memref.alloc() : memref<64000xf32>
    %gpu16d = memref.cast %gpu16 : memref<64000xf32> to memref<?xf32>
    func.call @run_f16(%fxd, %fwd, %fbd, %gpu16d, %n) : (memref<?xf16>, memref<?xi8>, memref<?xi8>, memref<?xf32>, index) -> ()
    %stride16 = arith.constant 128 : index
    %bad16 = scf.for %t = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
      %xb = arith.muli %t, %c64 : index
      %xv = vector.load %fx[%xb] : memref<64000xf16>, vector<64xf16>
      %r = coopvec.matvec %xv as F16, %fwd[%c0] matrix<F16, 64x64, RowMajor> stride %stride16
             bias %fbd[%c0] as F32
             : vector<64xf16>, memref<?xi8>, memref<?xi8> -> vector<64xf32>
      %g = vector.load %gpu16[%xb] : memref<64000xf32>, vector<64xf32>
      %rb = arith.bitcast %r : vector<64xf32> to vector<64xi32>
      %gb = arith.bitcast %g : vector<64xf32> to vector<64xi32>
      %ne = arith.cmpi ne, %rb, %gb : vector<64xi32>
      %ne32 = arith.extui %ne : vector<64xi1> to vector<64xi32>
      %cnt = vector.reduction <add>, %ne32 : vector<64xi32> into i32
      %cnti = arith.index_cast %cnt : i32 to index
      %next = arith.addi %acc, %cnti : index
      scf.yield %next : index
    }

    // ---- I8: every packed word and matrix byte from a hash, bias
    // r * 1000 - 20000.
    %ix = memref.alloc() : memref<24000xi32>
    %n24000 = arith.constant 24000 : index
    scf.for %i = %c0 to %n24000 step %c1 {
      %a = arith.constant 2654435761 : index
      %b = arith.constant 40503 : index
      %m = arith.constant 4294967296 : index
      %h = func.call @hash(%i, %a, %b, %m) : (index, index, index, index) -> index
      %w = arith.index_cast %h : index to i32
      memref.store %w, %ix[%i] : memref<24000xi32>
    }
    %iw = memref.alloc() : memref<4608xi8>
    %n4608 = arith.constant 4608 : index
    scf.for %i = %c0 to %n4608 step %c1 {
      %a = arith.constant 73 : index
      %b = arith.constant 19 : index
      %h = func.call @hash(%i, %a, %b, %c256) : (index, index, index, index) -> index
      %v = arith.index_cast %h : index to i8
      memref.store %v, %iw[%i] : memref<4608xi8>
    }
    %ib = memref.alloc() : memref<192xi8>
    %ibi = memref.view %ib[%c0][] : memref<192xi8> to memref<48xi32>
    scf.for %i = %c0 to %c48 step %c1 {
      %k = arith.constant 1000 : index
      %o = arith.constant 20000 : index
      %p = arith.muli %i, %k : index
      %v = arith.subi %p, %o : index
      %vi = arith.index_cast %v : index to i32
      memref.store %vi, %ibi[%i] : memref<48xi32>
    }
    %ixd = memref.cast %ix : memref<24000xi32> to memref<?xi32>
    %iwd = memref.cast %iw : memref<4608xi8> to memref<?xi8>
    %ibd = memref.cast %ib : memref<192xi8> to memref<?xi8>
    %gpu8 = memref.alloc() : memref<48000xi32>
    %gpu8d = memref.cast %gpu8 : memref<48000xi32> to memref<?xi32>
    func.call @run_int8(%ixd, %iwd, %ibd, %gpu8d, %n) : (memref<?xi32>, memref<?xi8>, memref<?xi8>, memref<?xi32>, index) -> ()
    %bad8 = scf.for %t = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
      %xb = arith.muli %t, %c24 : index
      %xv = vector.load %ix[%xb] : memref<24000xi32>, vector<24xi32>
      %r = coopvec.matvec %xv as PackedS8x32, %iwd[%c0] matrix<I8, 48x96, ColumnMajor> stride %c48
             bias %ibd[%c0] as I32
             : vector<24xi32>, memref<?xi8>, memref<?xi8> -> vector<48xi32>
      %yb = arith.muli %t, %c48 : index
      %g = vector.load %gpu8[%yb] : memref<48000xi32>, vector<48xi32>
      %ne = arith.cmpi ne, %r, %g : vector<48xi32>
      %ne32 = arith.extui %ne : vector<48xi1> to vector<48xi32>
      %cnt = vector.reduction <add>, %ne32 : vector<48xi32> into i32
      %cnti = arith.index_cast %cnt : i32 to index
      %next = arith.addi %acc, %cnti : index
      scf.yield %next : index
    }
    memref.dealloc %fx : memref<64000xf16>
    memref.dealloc %fw : memref<8192xi8>
    memref.dealloc %fb : memref<256xi8>
    memref.dealloc %gpu16 : memref<64000xf32>
    memref.dealloc %ix : memref<24000xi32>
    memref.dealloc %iw : memref<4608xi8>
    memref.dealloc %ib : memref<192xi8>
    memref.dealloc %gpu8 : memref<48000xi32>
    return %bad16, %bad8 : index, index
  }
}
