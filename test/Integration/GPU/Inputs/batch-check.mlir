// coopvec-batch-to-gpu checked in one program: @check fills the buffers,
// runs @f16 and @int8 (host coopvec.batch_matvec ops, which the pass turns
// into GPU launches of one thread per row) and, on the CPU, the same
// product row by row with coopvec.matvec (which the pass leaves alone), and
// returns the number of result elements that differ (F16, I8). 1000 rows:
// full warps take the tensor-core step, the last partial warp the per-lane
// path. F16 values are multiples of 1/4 in [-2, 2], so every partial sum is
// exact and the float results are compared bit for bit too.
func.func @f16(%x: memref<?x64xf16>, %w: memref<?xi8>, %b: memref<?xi8>,
               %y: memref<?x48xf32>) {
  %c0 = arith.constant 0 : index
  %stride = arith.constant 128 : index
  coopvec.batch_matvec %x as F16, %w[%c0] matrix<F16, 48x64, RowMajor> stride %stride
      bias %b[%c0] as F32 into %y
      : memref<?x64xf16>, memref<?xi8>, memref<?xi8> -> memref<?x48xf32>
  return
}

func.func @int8(%x: memref<?x24xi32>, %w: memref<?xi8>, %b: memref<?xi8>,
                %y: memref<?x40xi32>) {
  %c0 = arith.constant 0 : index
  %stride = arith.constant 48 : index
  coopvec.batch_matvec %x as PackedS8x32, %w[%c0] matrix<I8, 40x96, ColumnMajor> stride %stride
      bias %b[%c0] as I32 into %y
      : memref<?x24xi32>, memref<?xi8>, memref<?xi8> -> memref<?x40xi32>
  return
}

// (i * a + b) mod m.
func.func private @hash(%i: index, %a: index, %b: index, %m: index) -> index {
  %p = arith.muli %i, %a : index
  %s = arith.addi %p, %b : index
  %r = arith.remui %s, %m : index
  return %r : index
}

// ((i * a + b) mod 17 - 8) / 4: a multiple of 1/4 in [-2, 2].
func.func private @quarter(%i: index, %a: index, %b: index) -> f32 {
  %c17 = arith.constant 17 : index
  %h = func.call @hash(%i, %a, %b, %c17) : (index, index, index, index) -> index
  %hi = arith.index_cast %h : index to i32
  %hf = arith.sitofp %hi : i32 to f32
  %c8 = arith.constant 8.0 : f32
  %q = arith.constant 0.25 : f32
  %v = arith.subf %hf, %c8 : f32
  %r = arith.mulf %v, %q : f32
  return %r : f32
}

func.func @check() -> (index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c11 = arith.constant 11 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %n = arith.constant 1000 : index

  // ---- F16 48x64 RowMajor, F32 bias, f32 results.
  %fx = memref.alloc(%n) : memref<?x64xf16>
  scf.for %r = %c0 to %n step %c1 {
    scf.for %k = %c0 to %c64 step %c1 {
      %i0 = arith.muli %r, %c64 : index
      %i = arith.addi %i0, %k : index
      %v = func.call @quarter(%i, %c7, %c3) : (index, index, index) -> f32
      %h = arith.truncf %v : f32 to f16
      memref.store %h, %fx[%r, %k] : memref<?x64xf16>
    }
  }
  %nfw = arith.constant 6144 : index
  %fw = memref.alloc(%nfw) : memref<?xi8>
  %fwh = memref.view %fw[%c0][%c64] : memref<?xi8> to memref<?xf16>
  %n3072 = arith.constant 3072 : index
  scf.for %i = %c0 to %n3072 step %c1 {
    %v = func.call @quarter(%i, %c5, %c11) : (index, index, index) -> f32
    %h = arith.truncf %v : f32 to f16
    memref.store %h, %fwh[%i] : memref<?xf16>
  }
  %fb = memref.alloc(%c256) : memref<?xi8>
  %fbf = memref.view %fb[%c0][%c64] : memref<?xi8> to memref<?xf32>
  %c48 = arith.constant 48 : index
  scf.for %i = %c0 to %c48 step %c1 {
    %v = func.call @quarter(%i, %c1, %c0) : (index, index, index) -> f32
    memref.store %v, %fbf[%i] : memref<?xf32>
  }
  %fy = memref.alloc(%n) : memref<?x48xf32>
  func.call @f16(%fx, %fw, %fb, %fy) : (memref<?x64xf16>, memref<?xi8>, memref<?xi8>, memref<?x48xf32>) -> ()
  %stride16 = arith.constant 128 : index
  %bad16 = scf.for %t = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
    %xv = vector.load %fx[%t, %c0] : memref<?x64xf16>, vector<64xf16>
    %r = coopvec.matvec %xv as F16, %fw[%c0] matrix<F16, 48x64, RowMajor> stride %stride16
           bias %fb[%c0] as F32
           : vector<64xf16>, memref<?xi8>, memref<?xi8> -> vector<48xf32>
    %g = vector.load %fy[%t, %c0] : memref<?x48xf32>, vector<48xf32>
    %rb = arith.bitcast %r : vector<48xf32> to vector<48xi32>
    %gb = arith.bitcast %g : vector<48xf32> to vector<48xi32>
    %ne = arith.cmpi ne, %rb, %gb : vector<48xi32>
    %ne32 = arith.extui %ne : vector<48xi1> to vector<48xi32>
    %cnt = vector.reduction <add>, %ne32 : vector<48xi32> into i32
    %cnti = arith.index_cast %cnt : i32 to index
    %next = arith.addi %acc, %cnti : index
    scf.yield %next : index
  }

  // ---- I8 40x96 ColumnMajor, PackedS8x32 inputs, I32 bias.
  %c24 = arith.constant 24 : index
  %ix = memref.alloc(%n) : memref<?x24xi32>
  scf.for %r = %c0 to %n step %c1 {
    scf.for %k = %c0 to %c24 step %c1 {
      %i0 = arith.muli %r, %c24 : index
      %i = arith.addi %i0, %k : index
      %a = arith.constant 2654435761 : index
      %b = arith.constant 40503 : index
      %m = arith.constant 4294967296 : index
      %h = func.call @hash(%i, %a, %b, %m) : (index, index, index, index) -> index
      %w = arith.index_cast %h : index to i32
      memref.store %w, %ix[%r, %k] : memref<?x24xi32>
    }
  }
  %n4608 = arith.constant 4608 : index
  %iw = memref.alloc(%n4608) : memref<?xi8>
  scf.for %i = %c0 to %n4608 step %c1 {
    %a = arith.constant 73 : index
    %b = arith.constant 19 : index
    %h = func.call @hash(%i, %a, %b, %c256) : (index, index, index, index) -> index
    %v = arith.index_cast %h : index to i8
    memref.store %v, %iw[%i] : memref<?xi8>
  }
  %ib = memref.alloc(%c256) : memref<?xi8>
  %ibi = memref.view %ib[%c0][%c64] : memref<?xi8> to memref<?xi32>
  %c40 = arith.constant 40 : index
  scf.for %i = %c0 to %c40 step %c1 {
    %k = arith.constant 1000 : index
    %o = arith.constant 20000 : index
    %p = arith.muli %i, %k : index
    %v = arith.subi %p, %o : index
    %vi = arith.index_cast %v : index to i32
    memref.store %vi, %ibi[%i] : memref<?xi32>
  }
  %iy = memref.alloc(%n) : memref<?x40xi32>
  func.call @int8(%ix, %iw, %ib, %iy) : (memref<?x24xi32>, memref<?xi8>, memref<?xi8>, memref<?x40xi32>) -> ()
  %bad8 = scf.for %t = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
    %xv = vector.load %ix[%t, %c0] : memref<?x24xi32>, vector<24xi32>
    %r = coopvec.matvec %xv as PackedS8x32, %iw[%c0] matrix<I8, 40x96, ColumnMajor> stride %c48
           bias %ib[%c0] as I32
           : vector<24xi32>, memref<?xi8>, memref<?xi8> -> vector<40xi32>
    %g = vector.load %iy[%t, %c0] : memref<?x40xi32>, vector<40xi32>
    %ne = arith.cmpi ne, %r, %g : vector<40xi32>
    %ne32 = arith.extui %ne : vector<40xi1> to vector<40xi32>
    %cnt = vector.reduction <add>, %ne32 : vector<40xi32> into i32
    %cnti = arith.index_cast %cnt : i32 to index
    %next = arith.addi %acc, %cnti : index
    scf.yield %next : index
  }
  memref.dealloc %fx : memref<?x64xf16>
  memref.dealloc %fw : memref<?xi8>
  memref.dealloc %fb : memref<?xi8>
  memref.dealloc %fy : memref<?x48xf32>
  memref.dealloc %ix : memref<?x24xi32>
  memref.dealloc %iw : memref<?xi8>
  memref.dealloc %ib : memref<?xi8>
  memref.dealloc %iy : memref<?x40xi32>
  return %bad16, %bad8 : index, index
}
