// Every lowering path of convert-coopvec-to-spirv against the CPU runtime
// (cases.test). @check_<case>(x, w, b, n) runs the case's kernel over n
// invocations in blocks of 64 on the Vulkan device, the same
// coopvec.matvec per invocation on the host, and returns how many result
// elements differ: bit for bit, except f32 results, which the CPU kernels
// sum in another order (within 2^-12 here).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @f32_col(%x: memref<?xf32>, %w: memref<?xi8>, %b: memref<?xi8>,
        %y: memref<?xf32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %ck = arith.constant 12 : index
      %cm = arith.constant 20 : index
      %stride = arith.constant 80 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %t0 = arith.muli %bid, %bdim : index
      %t = arith.addi %t0, %tid : index
      %live = arith.cmpi ult, %t, %n : index
      scf.if %live {
        %xb = arith.muli %t, %ck : index
        %xv = vector.load %x[%xb] : memref<?xf32>, vector<12xf32>
        %r = coopvec.matvec %xv as F32, %w[%c0] matrix<F32, 20x12, ColumnMajor> stride %stride
               bias %b[%c0] as F32
               : vector<12xf32>, memref<?xi8>, memref<?xi8> -> vector<20xf32>
        %yb = arith.muli %t, %cm : index
        vector.store %r, %y[%yb] : memref<?xf32>, vector<20xf32>
      }
      gpu.return
    }
    gpu.func @f16_row(%x: memref<?xf32>, %w: memref<?xi8>, %b: memref<?xi8>,
        %y: memref<?xf16>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %ck = arith.constant 20 : index
      %cm = arith.constant 24 : index
      %stride = arith.constant 48 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %t0 = arith.muli %bid, %bdim : index
      %t = arith.addi %t0, %tid : index
      %live = arith.cmpi ult, %t, %n : index
      scf.if %live {
        %xb = arith.muli %t, %ck : index
        %xv = vector.load %x[%xb] : memref<?xf32>, vector<20xf32>
        %r = coopvec.matvec %xv as F16, %w[%c0] matrix<F16, 24x20, RowMajor> stride %stride
               bias %b[%c0] as F16
               : vector<20xf32>, memref<?xi8>, memref<?xi8> -> vector<24xf16>
        %yb = arith.muli %t, %cm : index
        vector.store %r, %y[%yb] : memref<?xf16>, vector<24xf16>
      }
      gpu.return
    }
    gpu.func @mixed(%x: memref<?xf32>, %w: memref<?xi8>, %b: memref<?xi8>,
        %y: memref<?xi32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %ck = arith.constant 30 : index
      %cm = arith.constant 16 : index
      %stride = arith.constant 32 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %t0 = arith.muli %bid, %bdim : index
      %t = arith.addi %t0, %tid : index
      %live = arith.cmpi ult, %t, %n : index
      scf.if %live {
        %xb = arith.muli %t, %ck : index
        %xv = vector.load %x[%xb] : memref<?xf32>, vector<30xf32>
        %r = coopvec.matvec %xv as I8, %w[%c0] matrix<U8, 16x30, RowMajor> stride %stride
               bias %b[%c0] as I32
               : vector<30xf32>, memref<?xi8>, memref<?xi8> -> vector<16xi32>
        %yb = arith.muli %t, %cm : index
        vector.store %r, %y[%yb] : memref<?xi32>, vector<16xi32>
      }
      gpu.return
    }
    gpu.func @u8_col(%x: memref<?xi32>, %w: memref<?xi8>, %b: memref<?xi8>,
        %y: memref<?xi32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %ck = arith.constant 10 : index
      %cm = arith.constant 8 : index
      %stride = arith.constant 16 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %t0 = arith.muli %bid, %bdim : index
      %t = arith.addi %t0, %tid : index
      %live = arith.cmpi ult, %t, %n : index
      scf.if %live {
        %xb = arith.muli %t, %ck : index
        %xv = vector.load %x[%xb] : memref<?xi32>, vector<10xi32>
        %r = coopvec.matvec %xv as PackedU8x32, %w[%c0] matrix<U8, 8x40, ColumnMajor> stride %stride
               bias %b[%c0] as U32 unsigned_result
               : vector<10xi32>, memref<?xi8>, memref<?xi8> -> vector<8xi32>
        %yb = arith.muli %t, %cm : index
        vector.store %r, %y[%yb] : memref<?xi32>, vector<8xi32>
      }
      gpu.return
    }
    gpu.func @s8u(%x: memref<?xi32>, %w: memref<?xi8>, %b: memref<?xi8>,
        %y: memref<?xi32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %ck = arith.constant 7 : index
      %cm = arith.constant 12 : index
      %stride = arith.constant 32 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %t0 = arith.muli %bid, %bdim : index
      %t = arith.addi %t0, %tid : index
      %live = arith.cmpi ult, %t, %n : index
      scf.if %live {
        %xb = arith.muli %t, %ck : index
        %xv = vector.load %x[%xb] : memref<?xi32>, vector<7xi32>
        %r = coopvec.matvec %xv as PackedU8x32, %w[%c0] matrix<I8, 12x26, RowMajor> stride %stride
               bias %b[%c0] as I16
               : vector<7xi32>, memref<?xi8>, memref<?xi8> -> vector<12xi32>
        %yb = arith.muli %t, %cm : index
        vector.store %r, %y[%yb] : memref<?xi32>, vector<12xi32>
      }
      gpu.return
    }
    // Every invocation adds (t, 2t, ..., 8t) to the same eight words at
    // byte 64 of %acc.
    gpu.func @accumulate(%acc: memref<?xi8>, %n: index) kernel {
      %c64 = arith.constant 64 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %t0 = arith.muli %bid, %bdim : index
      %t = arith.addi %t0, %tid : index
      %live = arith.cmpi ult, %t, %n : index
      scf.if %live {
        %ti = arith.index_cast %t : index to i32
        %tv = vector.broadcast %ti : i32 to vector<8xi32>
        %k = arith.constant dense<[1, 2, 3, 4, 5, 6, 7, 8]> : vector<8xi32>
        %v = arith.muli %tv, %k : vector<8xi32>
        coopvec.vector_accumulate %v, %acc[%c64] : vector<8xi32>, memref<?xi8>
      }
      gpu.return
    }
  }

  func.func @check_f32_col(%x: memref<?xf32>, %w: memref<?xi8>, %b: memref<?xi8>,
      %n: index) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %ck = arith.constant 12 : index
    %cm = arith.constant 20 : index
    %stride = arith.constant 80 : index
    %ny = arith.muli %n, %cm : index
    %y = memref.alloc(%ny) : memref<?xf32>
    %np = arith.addi %n, %c63 : index
    %grid = arith.divui %np, %c64 : index
    gpu.launch_func @kernels::@f32_col blocks in (%grid, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%x : memref<?xf32>, %w : memref<?xi8>, %b : memref<?xi8>, %y : memref<?xf32>, %n : index)
    %bad = scf.for %t = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
      %xb = arith.muli %t, %ck : index
      %xv = vector.load %x[%xb] : memref<?xf32>, vector<12xf32>
      %r = coopvec.matvec %xv as F32, %w[%c0] matrix<F32, 20x12, ColumnMajor> stride %stride
             bias %b[%c0] as F32
             : vector<12xf32>, memref<?xi8>, memref<?xi8> -> vector<20xf32>
      %yb = arith.muli %t, %cm : index
      %g = vector.load %y[%yb] : memref<?xf32>, vector<20xf32>
      %d = arith.subf %r, %g : vector<20xf32>
      %ad = math.absf %d : vector<20xf32>
      %tol = arith.constant dense<2.44140625e-4> : vector<20xf32>
      %ne = arith.cmpf ugt, %ad, %tol : vector<20xf32>
      %ne32 = arith.extui %ne : vector<20xi1> to vector<20xi32>
      %cnt = vector.reduction <add>, %ne32 : vector<20xi32> into i32
      %cnti = arith.index_cast %cnt : i32 to index
      %next = arith.addi %acc, %cnti : index
      scf.yield %next : index
    }
    memref.dealloc %y : memref<?xf32>
    return %bad : index
  }
  func.func @check_f16_row(%x: memref<?xf32>, %w: memref<?xi8>, %b: memref<?xi8>,
      %n: index) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %ck = arith.constant 20 : index
    %cm = arith.constant 24 : index
    %stride = arith.constant 48 : index
    %ny = arith.muli %n, %cm : index
    %y = memref.alloc(%ny) : memref<?xf16>
    %np = arith.addi %n, %c63 : index
    %grid = arith.divui %np, %c64 : index
    gpu.launch_func @kernels::@f16_row blocks in (%grid, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%x : memref<?xf32>, %w : memref<?xi8>, %b : memref<?xi8>, %y : memref<?xf16>, %n : index)
    %bad = scf.for %t = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
      %xb = arith.muli %t, %ck : index
      %xv = vector.load %x[%xb] : memref<?xf32>, vector<20xf32>
      %r = coopvec.matvec %xv as F16, %w[%c0] matrix<F16, 24x20, RowMajor> stride %stride
             bias %b[%c0] as F16
             : vector<20xf32>, memref<?xi8>, memref<?xi8> -> vector<24xf16>
      %yb = arith.muli %t, %cm : index
      %g = vector.load %y[%yb] : memref<?xf16>, vector<24xf16>
      %rb = arith.bitcast %r : vector<24xf16> to vector<24xi16>
      %gb = arith.bitcast %g : vector<24xf16> to vector<24xi16>
      %ne = arith.cmpi ne, %rb, %gb : vector<24xi16>
      %ne32 = arith.extui %ne : vector<24xi1> to vector<24xi32>
      %cnt = vector.reduction <add>, %ne32 : vector<24xi32> into i32
      %cnti = arith.index_cast %cnt : i32 to index
      %next = arith.addi %acc, %cnti : index
      scf.yield %next : index
    }
    memref.dealloc %y : memref<?xf16>
    return %bad : index
  }
  func.func @check_mixed(%x: memref<?xf32>, %w: memref<?xi8>, %b: memref<?xi8>,
      %n: index) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %ck = arith.constant 30 : index
    %cm = arith.constant 16 : index
    %stride = arith.constant 32 : index
    %ny = arith.muli %n, %cm : index
    %y = memref.alloc(%ny) : memref<?xi32>
    %np = arith.addi %n, %c63 : index
    %grid = arith.divui %np, %c64 : index
    gpu.launch_func @kernels::@mixed blocks in (%grid, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%x : memref<?xf32>, %w : memref<?xi8>, %b : memref<?xi8>, %y : memref<?xi32>, %n : index)
    %bad = scf.for %t = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
      %xb = arith.muli %t, %ck : index
      %xv = vector.load %x[%xb] : memref<?xf32>, vector<30xf32>
      %r = coopvec.matvec %xv as I8, %w[%c0] matrix<U8, 16x30, RowMajor> stride %stride
             bias %b[%c0] as I32
             : vector<30xf32>, memref<?xi8>, memref<?xi8> -> vector<16xi32>
      %yb = arith.muli %t, %cm : index
      %g = vector.load %y[%yb] : memref<?xi32>, vector<16xi32>
      %ne = arith.cmpi ne, %r, %g : vector<16xi32>
      %ne32 = arith.extui %ne : vector<16xi1> to vector<16xi32>
      %cnt = vector.reduction <add>, %ne32 : vector<16xi32> into i32
      %cnti = arith.index_cast %cnt : i32 to index
      %next = arith.addi %acc, %cnti : index
      scf.yield %next : index
    }
    memref.dealloc %y : memref<?xi32>
    return %bad : index
  }
  func.func @check_u8_col(%x: memref<?xi32>, %w: memref<?xi8>, %b: memref<?xi8>,
      %n: index) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %ck = arith.constant 10 : index
    %cm = arith.constant 8 : index
    %stride = arith.constant 16 : index
    %ny = arith.muli %n, %cm : index
    %y = memref.alloc(%ny) : memref<?xi32>
    %np = arith.addi %n, %c63 : index
    %grid = arith.divui %np, %c64 : index
    gpu.launch_func @kernels::@u8_col blocks in (%grid, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%x : memref<?xi32>, %w : memref<?xi8>, %b : memref<?xi8>, %y : memref<?xi32>, %n : index)
    %bad = scf.for %t = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
      %xb = arith.muli %t, %ck : index
      %xv = vector.load %x[%xb] : memref<?xi32>, vector<10xi32>
      %r = coopvec.matvec %xv as PackedU8x32, %w[%c0] matrix<U8, 8x40, ColumnMajor> stride %stride
             bias %b[%c0] as U32 unsigned_result
             : vector<10xi32>, memref<?xi8>, memref<?xi8> -> vector<8xi32>
      %yb = arith.muli %t, %cm : index
      %g = vector.load %y[%yb] : memref<?xi32>, vector<8xi32>
      %ne = arith.cmpi ne, %r, %g : vector<8xi32>
      %ne32 = arith.extui %ne : vector<8xi1> to vector<8xi32>
      %cnt = vector.reduction <add>, %ne32 : vector<8xi32> into i32
      %cnti = arith.index_cast %cnt : i32 to index
      %next = arith.addi %acc, %cnti : index
      scf.yield %next : index
    }
    memref.dealloc %y : memref<?xi32>
    return %bad : index
  }
  func.func @check_s8u(%x: memref<?xi32>, %w: memref<?xi8>, %b: memref<?xi8>,
      %n: index) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %ck = arith.constant 7 : index
    %cm = arith.constant 12 : index
    %stride = arith.constant 32 : index
    %ny = arith.muli %n, %cm : index
    %y = memref.alloc(%ny) : memref<?xi32>
    %np = arith.addi %n, %c63 : index
    %grid = arith.divui %np, %c64 : index
    gpu.launch_func @kernels::@s8u blocks in (%grid, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%x : memref<?xi32>, %w : memref<?xi8>, %b : memref<?xi8>, %y : memref<?xi32>, %n : index)
    %bad = scf.for %t = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
      %xb = arith.muli %t, %ck : index
      %xv = vector.load %x[%xb] : memref<?xi32>, vector<7xi32>
      %r = coopvec.matvec %xv as PackedU8x32, %w[%c0] matrix<I8, 12x26, RowMajor> stride %stride
             bias %b[%c0] as I16
             : vector<7xi32>, memref<?xi8>, memref<?xi8> -> vector<12xi32>
      %yb = arith.muli %t, %cm : index
      %g = vector.load %y[%yb] : memref<?xi32>, vector<12xi32>
      %ne = arith.cmpi ne, %r, %g : vector<12xi32>
      %ne32 = arith.extui %ne : vector<12xi1> to vector<12xi32>
      %cnt = vector.reduction <add>, %ne32 : vector<12xi32> into i32
      %cnti = arith.index_cast %cnt : i32 to index
      %next = arith.addi %acc, %cnti : index
      scf.yield %next : index
    }
    memref.dealloc %y : memref<?xi32>
    return %bad : index
  }
  // @accumulate over n invocations into a zeroed 128-byte buffer: the
  // eight words at byte 64, then how many of the 32 words differ from
  // (S, 2S, ..., 8S) there and 0 elsewhere, S = n (n - 1) / 2.
  func.func @check_accumulate(%n: index) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c24 = arith.constant 24 : index
    %c32 = arith.constant 32 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %c0_i8 = arith.constant 0 : i8
    %buf = memref.alloc() : memref<128xi8>
    %c128 = arith.constant 128 : index
    scf.for %i = %c0 to %c128 step %c1 {
      memref.store %c0_i8, %buf[%i] : memref<128xi8>
    }
    %bufd = memref.cast %buf : memref<128xi8> to memref<?xi8>
    %np = arith.addi %n, %c63 : index
    %grid = arith.divui %np, %c64 : index
    gpu.launch_func @kernels::@accumulate blocks in (%grid, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%bufd : memref<?xi8>, %n : index)
    %words = memref.view %buf[%c0][] : memref<128xi8> to memref<32xi32>
    %nm1 = arith.subi %n, %c1 : index
    %nn = arith.muli %n, %nm1 : index
    %c2 = arith.constant 2 : index
    %s = arith.divui %nn, %c2 : index
    %bad = scf.for %i = %c0 to %c32 step %c1 iter_args(%acc = %c0) -> (index) {
      %v = memref.load %words[%i] : memref<32xi32>
      %lo = arith.cmpi uge, %i, %c16 : index
      %hi = arith.cmpi ult, %i, %c24 : index
      %in = arith.andi %lo, %hi : i1
      %k0 = arith.subi %i, %c16 : index
      %k = arith.addi %k0, %c1 : index
      %e0 = arith.muli %s, %k : index
      %e = arith.select %in, %e0, %c0 : index
      %ei = arith.index_cast %e : index to i32
      %ne = arith.cmpi ne, %v, %ei : i32
      %one = arith.select %ne, %c1, %c0 : index
      %next = arith.addi %acc, %one : index
      scf.yield %next : index
    }
    memref.dealloc %buf : memref<128xi8>
    return %bad : index
  }
}
