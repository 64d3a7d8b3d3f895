// coopvec.matvec with 8-bit float matrices on Vulkan (no 8-bit float type
// there: inputs converted and weights decoded in integer code) against the
// CPU runtime, bit for bit. @check fills the inputs, runs each kernel over
// %n invocations and the same matvec in a host loop, and returns the number
// of differing result elements per case. Values are chosen so that every
// product and partial sum is exact (any summation order gives the same
// bits), while the inputs still round (k / 4 for |k| <= 80 has more bits
// than E4M3/E5M2 keep), saturate (1000 and -inf read as E4M3 give +-448)
// and hit subnormals (1/64 and 3/512).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // E4M3 24x32 RowMajor, f32 inputs read as E4M3, F32 bias, f32 results.
    gpu.func @e4m3(%x: memref<?xf32>, %w: memref<?xi8>, %b: memref<?xi8>,
                   %y: memref<?xf32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c24 = arith.constant 24 : index
      %c32 = arith.constant 32 : index
      %stride = arith.constant 32 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %t0 = arith.muli %bid, %bdim : index
      %t = arith.addi %t0, %tid : index
      %live = arith.cmpi ult, %t, %n : index
      scf.if %live {
        %xb = arith.muli %t, %c32 : index
        %xv = vector.load %x[%xb] : memref<?xf32>, vector<32xf32>
        %r = coopvec.matvec %xv as F8_E4M3, %w[%c0] matrix<F8_E4M3, 24x32, RowMajor> stride %stride
               bias %b[%c0] as F32
               : vector<32xf32>, memref<?xi8>, memref<?xi8> -> vector<24xf32>
        %yb = arith.muli %t, %c24 : index
        vector.store %r, %y[%yb] : memref<?xf32>, vector<24xf32>
      }
      gpu.return
    }
    // E5M2 20x32 ColumnMajor, f16 inputs read as E5M2, f16 results.
    gpu.func @e5m2(%x: memref<?xf16>, %w: memref<?xi8>, %y: memref<?xf16>,
                   %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c20 = arith.constant 20 : index
      %c32 = arith.constant 32 : index
      %stride = arith.constant 32 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %t0 = arith.muli %bid, %bdim : index
      %t = arith.addi %t0, %tid : index
      %live = arith.cmpi ult, %t, %n : index
      scf.if %live {
        %xb = arith.muli %t, %c32 : index
        %xv = vector.load %x[%xb] : memref<?xf16>, vector<32xf16>
        %r = coopvec.matvec %xv as F8_E5M2, %w[%c0] matrix<F8_E5M2, 20x32, ColumnMajor> stride %stride
               : vector<32xf16>, memref<?xi8> -> vector<20xf16>
        %yb = arith.muli %t, %c20 : index
        vector.store %r, %y[%yb] : memref<?xf16>, vector<20xf16>
      }
      gpu.return
    }
  }

  func.func private @hash(%i: index, %a: index, %b: index, %m: index) -> index {
    %p = arith.muli %i, %a : index
    %s = arith.addi %p, %b : index
    %r = arith.remui %s, %m : index
    return %r : index
  }

  // Input element i: (hash - 80) / 4, with specials every 37th element.
  func.func private @input(%i: index) -> f32 {
    %c0 = arith.constant 0 : index
    %c37 = arith.constant 37 : index
    %c7 = arith.constant 7 : index
    %c13 = arith.constant 13 : index
    %c161 = arith.constant 161 : index
    %h = func.call @hash(%i, %c7, %c13, %c161) : (index, index, index, index) -> index
    %hi = arith.index_cast %h : index to i32
    %hf = arith.sitofp %hi : i32 to f32
    %c80 = arith.constant 80.0 : f32
    %q = arith.constant 0.25 : f32
    %v0 = arith.subf %hf, %c80 : f32
    %v = arith.mulf %v0, %q : f32
    %k = arith.remui %i, %c37 : index
    %special = arith.cmpi eq, %k, %c0 : index
    %sel = arith.remui %i, %c7 : index
    %table = arith.constant dense<[1000.0, -1000.0, 0.015625, -0.005859375, 0.0, -0.0, 12.125]> : vector<7xf32>
    %s = vector.extract %table[%sel] : f32 from vector<7xf32>
    %r = arith.select %special, %s, %v : f32
    return %r : f32
  }

  func.func @check(%n: index) -> (index, index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c20 = arith.constant 20 : index
    %c24 = arith.constant 24 : index
    %c32 = arith.constant 32 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %nx = arith.muli %n, %c32 : index
    %x = memref.alloc(%nx) : memref<?xf32>
    %xh = memref.alloc(%nx) : memref<?xf16>
    scf.for %i = %c0 to %nx step %c1 {
      %v = func.call @input(%i) : (index) -> f32
      memref.store %v, %x[%i] : memref<?xf32>
      %vh = arith.truncf %v : f32 to f16
      memref.store %vh, %xh[%i] : memref<?xf16>
    }
    // Weights: E4M3 codes with exponent fields 5..10 (1/4 .. 15), either
    // sign; E5M2 codes with exponent fields 13..18 (1/4 .. 14), and the
    // subnormals 1 .. 3 every 11th weight.
    %c768 = arith.constant 1024 : index
    %we = memref.alloc(%c768) : memref<?xi8>
    %w5 = memref.alloc(%c768) : memref<?xi8>
    scf.for %i = %c0 to %c768 step %c1 {
      %c5 = arith.constant 5 : index
      %c11 = arith.constant 11 : index
      %c97 = arith.constant 97 : index
      %c256 = arith.constant 256 : index
      %h = func.call @hash(%i, %c97, %c5, %c256) : (index, index, index, index) -> index
      %hi = arith.index_cast %h : index to i32
      %c7i = arith.constant 7 : i32
      %c8i = arith.constant 8 : i32
      %c6i = arith.constant 6 : i32
      %c4i = arith.constant 4 : i32
      %c3i = arith.constant 3 : i32
      %c2i = arith.constant 2 : i32
      %c13i = arith.constant 13 : i32
      %c128i = arith.constant 128 : i32
      %sign = arith.andi %hi, %c128i : i32
      %mant = arith.andi %hi, %c7i : i32
      %e0 = arith.shrui %hi, %c3i : i32
      %e1 = arith.remui %e0, %c6i : i32
      %c5i = arith.constant 5 : i32
      %ee = arith.addi %e1, %c5i : i32
      %eshift = arith.shli %ee, %c3i : i32
      %m1 = arith.ori %eshift, %mant : i32
      %codeE4 = arith.ori %m1, %sign : i32
      %mant2 = arith.andi %hi, %c3i : i32
      %e5 = arith.addi %e1, %c13i : i32
      %e5s = arith.shli %e5, %c2i : i32
      %m2 = arith.ori %e5s, %mant2 : i32
      %code5n = arith.ori %m2, %sign : i32
      %k = arith.remui %i, %c11 : index
      %sub = arith.cmpi eq, %k, %c0 : index
      %subcode = arith.ori %sign, %mant2 : i32
      %code5 = arith.select %sub, %subcode, %code5n : i32
      %b4 = arith.trunci %codeE4 : i32 to i8
      %b5 = arith.trunci %code5 : i32 to i8
      memref.store %b4, %we[%i] : memref<?xi8>
      memref.store %b5, %w5[%i] : memref<?xi8>
    }
    %c96 = arith.constant 96 : index
    %bias = memref.alloc(%c96) : memref<?xi8>
    %biasf = memref.view %bias[%c0][] : memref<?xi8> to memref<24xf32>
    scf.for %i = %c0 to %c24 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      %q = arith.constant -0.5 : f32
      %v = arith.mulf %f, %q : f32
      memref.store %v, %biasf[%i] : memref<24xf32>
    }
    %ny4 = arith.muli %n, %c24 : index
    %y4 = memref.alloc(%ny4) : memref<?xf32>
    %ny5 = arith.muli %n, %c20 : index
    %y5 = memref.alloc(%ny5) : memref<?xf16>
    %np = arith.addi %n, %c63 : index
    %grid = arith.divui %np, %c64 : index
    gpu.launch_func @kernels::@e4m3 blocks in (%grid, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%x : memref<?xf32>, %we : memref<?xi8>, %bias : memref<?xi8>, %y4 : memref<?xf32>, %n : index)
    gpu.launch_func @kernels::@e5m2 blocks in (%grid, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%xh : memref<?xf16>, %w5 : memref<?xi8>, %y5 : memref<?xf16>, %n : index)
    %stride = arith.constant 32 : index
    %bad4 = scf.for %t = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
      %xb = arith.muli %t, %c32 : index
      %xv = vector.load %x[%xb] : memref<?xf32>, vector<32xf32>
      %r = coopvec.matvec %xv as F8_E4M3, %we[%c0] matrix<F8_E4M3, 24x32, RowMajor> stride %stride
             bias %bias[%c0] as F32
             : vector<32xf32>, memref<?xi8>, memref<?xi8> -> vector<24xf32>
      %yb = arith.muli %t, %c24 : index
      %g = vector.load %y4[%yb] : memref<?xf32>, vector<24xf32>
      %rb = arith.bitcast %r : vector<24xf32> to vector<24xi32>
      %gb = arith.bitcast %g : vector<24xf32> to vector<24xi32>
      %ne = arith.cmpi ne, %rb, %gb : vector<24xi32>
      %ne32 = arith.extui %ne : vector<24xi1> to vector<24xi32>
      %cnt = vector.reduction <add>, %ne32 : vector<24xi32> into i32
      %cnti = arith.index_cast %cnt : i32 to index
      %next = arith.addi %acc, %cnti : index
      scf.yield %next : index
    }
    %bad5 = scf.for %t = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
      %xb = arith.muli %t, %c32 : index
      %xv = vector.load %xh[%xb] : memref<?xf16>, vector<32xf16>
      %r = coopvec.matvec %xv as F8_E5M2, %w5[%c0] matrix<F8_E5M2, 20x32, ColumnMajor> stride %stride
             : vector<32xf16>, memref<?xi8> -> vector<20xf16>
      %yb = arith.muli %t, %c20 : index
      %g = vector.load %y5[%yb] : memref<?xf16>, vector<20xf16>
      %rb = arith.bitcast %r : vector<20xf16> to vector<20xi16>
      %gb = arith.bitcast %g : vector<20xf16> to vector<20xi16>
      %ne = arith.cmpi ne, %rb, %gb : vector<20xi16>
      %ne32 = arith.extui %ne : vector<20xi1> to vector<20xi32>
      %cnt = vector.reduction <add>, %ne32 : vector<20xi32> into i32
      %cnti = arith.index_cast %cnt : i32 to index
      %next = arith.addi %acc, %cnti : index
      scf.yield %next : index
    }
    memref.dealloc %x : memref<?xf32>
    memref.dealloc %xh : memref<?xf16>
    memref.dealloc %we : memref<?xi8>
    memref.dealloc %w5 : memref<?xi8>
    memref.dealloc %bias : memref<?xi8>
    memref.dealloc %y4 : memref<?xf32>
    memref.dealloc %y5 : memref<?xf16>
    return %bad4, %bad5 : index, index
  }
}
