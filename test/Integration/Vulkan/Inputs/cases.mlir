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
    // Float accumulation (compare-and-swap loops): invocation t adds
    // (t % 4) * (1, 2, ..., 8) / 4 to eight f32 words at byte 0 and
    // (t % 2) * (1, ..., 8) / 2 to eight f16 halves at byte 64 of %acc;
    // every partial sum is exact, so any order gives the same bits.
    gpu.func @accumulate_float(%acc: memref<?xi8>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c64 = arith.constant 64 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %t0 = arith.muli %bid, %bdim : index
      %t = arith.addi %t0, %tid : index
      %live = arith.cmpi ult, %t, %n : index
      scf.if %live {
        %t4 = arith.remui %t, %c4 : index
        %t4i = arith.index_cast %t4 : index to i32
        %t4f = arith.sitofp %t4i : i32 to f32
        %tv = vector.broadcast %t4f : f32 to vector<8xf32>
        %k = arith.constant dense<[0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0]> : vector<8xf32>
        %v = arith.mulf %tv, %k : vector<8xf32>
        coopvec.vector_accumulate %v, %acc[%c0] : vector<8xf32>, memref<?xi8>
        %t2 = arith.remui %t, %c2 : index
        %t2i = arith.index_cast %t2 : index to i32
        %t2f = arith.sitofp %t2i : i32 to f16
        %hv = vector.broadcast %t2f : f16 to vector<8xf16>
        %kh = arith.constant dense<[0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0]> : vector<8xf16>
        %h = arith.mulf %hv, %kh : vector<8xf16>
        coopvec.vector_accumulate %h, %acc[%c64] : vector<8xf16>, memref<?xi8>
      }
      gpu.return
    }
    // Outer products into one matrix from every invocation: f16 vectors
    // into an F32 5x3 RowMajor matrix (stride 16) at byte 0 and f32
    // vectors into an F16 3x5 ColumnMajor matrix (stride 16) at byte 128
    // of %m; a = (t % 4 - 1, t % 4, ...) / 4 and b = (1, -2, 3, ...) / 2,
    // exact in every order.
    gpu.func @outer_product(%m: memref<?xi8>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c128 = arith.constant 128 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %t0 = arith.muli %bid, %bdim : index
      %t = arith.addi %t0, %tid : index
      %live = arith.cmpi ult, %t, %n : index
      scf.if %live {
        %t4 = arith.remui %t, %c4 : index
        %t4i = arith.index_cast %t4 : index to i32
        %t4f = arith.sitofp %t4i : i32 to f32
        %tv = vector.broadcast %t4f : f32 to vector<5xf32>
        %off = arith.constant dense<[-1.0, 0.0, 1.0, 2.0, -3.0]> : vector<5xf32>
        %q = arith.constant dense<0.25> : vector<5xf32>
        %a0 = arith.addf %tv, %off : vector<5xf32>
        %a = arith.mulf %a0, %q : vector<5xf32>
        %b = arith.constant dense<[0.5, -1.0, 1.5]> : vector<3xf32>
        %ah = arith.truncf %a : vector<5xf32> to vector<5xf16>
        %bh = arith.truncf %b : vector<3xf32> to vector<3xf16>
        coopvec.outer_product_accumulate %ah, %bh, %m[%c0] matrix<F32, 5x3, RowMajor> stride %c16
            : vector<5xf16>, vector<3xf16>, memref<?xi8>
        coopvec.outer_product_accumulate %b, %a, %m[%c128] matrix<F16, 3x5, ColumnMajor> stride %c16
            : vector<3xf32>, vector<5xf32>, memref<?xi8>
      }
      gpu.return
    }

    // The optimal layouts (Layout.h's formulas, computed in the shader as
    // the CPU runtime does), plain and transposed, on the inputs of the
    // strided cases above: I8 InferencingOptimal transposed (stored 26 x 12),
    // U8 TrainingOptimal, F16 TrainingOptimal transposed (stored 20 x 24) and
    // F16 InferencingOptimal; make-inputs.py sizes the buffers.
    gpu.func @s8_iopt_t(%x: memref<?xi32>, %w: memref<?xi8>, %b: memref<?xi8>,
        %y: memref<?xi32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %ck = arith.constant 7 : index
      %cm = arith.constant 12 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %t0 = arith.muli %bid, %bdim : index
      %t = arith.addi %t0, %tid : index
      %live = arith.cmpi ult, %t, %n : index
      scf.if %live {
        %xb = arith.muli %t, %ck : index
        %xv = vector.load %x[%xb] : memref<?xi32>, vector<7xi32>
        %r = coopvec.matvec %xv as PackedU8x32, %w[%c0] matrix<I8, 12x26, InferencingOptimal, transpose>
               bias %b[%c0] as I16
               : vector<7xi32>, memref<?xi8>, memref<?xi8> -> vector<12xi32>
        %yb = arith.muli %t, %cm : index
        vector.store %r, %y[%yb] : memref<?xi32>, vector<12xi32>
      }
      gpu.return
    }
    gpu.func @u8_topt(%x: memref<?xi32>, %w: memref<?xi8>, %b: memref<?xi8>,
        %y: memref<?xi32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %ck = arith.constant 10 : index
      %cm = arith.constant 8 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %t0 = arith.muli %bid, %bdim : index
      %t = arith.addi %t0, %tid : index
      %live = arith.cmpi ult, %t, %n : index
      scf.if %live {
        %xb = arith.muli %t, %ck : index
        %xv = vector.load %x[%xb] : memref<?xi32>, vector<10xi32>
        %r = coopvec.matvec %xv as PackedU8x32, %w[%c0] matrix<U8, 8x40, TrainingOptimal>
               bias %b[%c0] as U32 unsigned_result
               : vector<10xi32>, memref<?xi8>, memref<?xi8> -> vector<8xi32>
        %yb = arith.muli %t, %cm : index
        vector.store %r, %y[%yb] : memref<?xi32>, vector<8xi32>
      }
      gpu.return
    }
    gpu.func @f16_topt_t(%x: memref<?xf32>, %w: memref<?xi8>, %b: memref<?xi8>,
        %y: memref<?xf16>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %ck = arith.constant 20 : index
      %cm = arith.constant 24 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %t0 = arith.muli %bid, %bdim : index
      %t = arith.addi %t0, %tid : index
      %live = arith.cmpi ult, %t, %n : index
      scf.if %live {
        %xb = arith.muli %t, %ck : index
        %xv = vector.load %x[%xb] : memref<?xf32>, vector<20xf32>
        %r = coopvec.matvec %xv as F16, %w[%c0] matrix<F16, 24x20, TrainingOptimal, transpose>
               bias %b[%c0] as F16
               : vector<20xf32>, memref<?xi8>, memref<?xi8> -> vector<24xf16>
        %yb = arith.muli %t, %cm : index
        vector.store %r, %y[%yb] : memref<?xf16>, vector<24xf16>
      }
      gpu.return
    }
    gpu.func @f16_iopt(%x: memref<?xf32>, %w: memref<?xi8>, %b: memref<?xi8>,
        %y: memref<?xf16>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %ck = arith.constant 20 : index
      %cm = arith.constant 24 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %t0 = arith.muli %bid, %bdim : index
      %t = arith.addi %t0, %tid : index
      %live = arith.cmpi ult, %t, %n : index
      scf.if %live {
        %xb = arith.muli %t, %ck : index
        %xv = vector.load %x[%xb] : memref<?xf32>, vector<20xf32>
        %r = coopvec.matvec %xv as F16, %w[%c0] matrix<F16, 24x20, InferencingOptimal>
               bias %b[%c0] as F16
               : vector<20xf32>, memref<?xi8>, memref<?xi8> -> vector<24xf16>
        %yb = arith.muli %t, %cm : index
        vector.store %r, %y[%yb] : memref<?xf16>, vector<24xf16>
      }
      gpu.return
    }
    // Integer accumulation into one buffer from every invocation t: outer
    // products, each
    // element exact or saturating with addends of one sign, so that the
    // result does not depend on the order of the atomics (s = t % 7 - 3,
    // w = t % 3, u = t % 2): i32 vectors into an I32 4x3 RowMajor matrix
    // (40000 x 60000 saturates), i16 vectors into an I16 4x3 ColumnMajor
    // one (two elements to a word, saturating both ways), a U8 3x4 RowMajor
    // one (four to a word; negative sums clamp to 0) and an I8 2x4
    // ColumnMajor one, and i32 vectors into an F32 3x2 RowMajor matrix
    // (3 x 16777217 and -5 x 16777217 round once to f32); and an i16
    // vector_accumulate (wrapping, so any order gives the same bits) of
    // (t, -1 - t, 50, 30000 w, -1) into five halves at byte 576; the first
    // two products again into an I32 TrainingOptimal matrix at byte 640 and
    // an I16 InferencingOptimal one at byte 896.
    // Float vectors into integer matrices (@check_outer_product_f2i):
    // products whose fractions are 1/4 or 3/4 (never a tie, so each update
    // adds the product rounded to an integer) and of one sign per element
    // (saturation in any order gives the same bound), f32 into I8 RowMajor,
    // U16 ColumnMajor and I32 TrainingOptimal (products of 10^9 saturate
    // it), f16 into I16, and f32 into U32 (products of 3 10^9 and more
    // saturate at 2^32 - 1, negative ones stop at 0).
    gpu.func @outer_product_f2i(%M: memref<?xi8>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c128 = arith.constant 128 : index
      %c256 = arith.constant 256 : index
      %c512 = arith.constant 512 : index
      %c640 = arith.constant 640 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %t0 = arith.muli %bid, %bdim : index
      %t = arith.addi %t0, %tid : index
      %live = arith.cmpi ult, %t, %n : index
      scf.if %live {
        %ti = arith.index_cast %t : index to i32
        %c4i = arith.constant 4 : i32
        %t4 = arith.remui %ti, %c4i : i32
        %tf = arith.uitofp %t4 : i32 to f32
        %tv = vector.broadcast %tf : f32 to vector<4xf32>
        %off = arith.constant dense<[0.25, 0.75, 1.25, 2.25]> : vector<4xf32>
        %sign = arith.constant dense<[1.0, -1.0, 1.0, -1.0]> : vector<4xf32>
        %a0 = arith.addf %tv, %off : vector<4xf32>
        %a = arith.mulf %a0, %sign : vector<4xf32>
        %b = arith.constant dense<[1.0, 3.0, -5.0]> : vector<3xf32>
        %one = arith.constant dense<[1.0, 1.0, 1.0, 1.0]> : vector<4xf32>
        %big = arith.constant dense<[1.0e9, -1.0e9, 3.0, 7.0e8]> : vector<4xf32>
        %tp = arith.addf %tv, %one : vector<4xf32>
        %tp2 = vector.extract_strided_slice %tp {offsets = [0], sizes = [2], strides = [1]} : vector<4xf32> to vector<2xf32>
        %abig = arith.mulf %tp, %big : vector<4xf32>
        %ah = arith.truncf %a : vector<4xf32> to vector<4xf16>
        %bh = arith.truncf %b : vector<3xf32> to vector<3xf16>
        coopvec.outer_product_accumulate %a, %b, %M[%c0] matrix<I8, 4x3, RowMajor> stride %c16
            : vector<4xf32>, vector<3xf32>, memref<?xi8>
        coopvec.outer_product_accumulate %b, %a, %M[%c128] matrix<U16, 3x4, ColumnMajor> stride %c16
            : vector<3xf32>, vector<4xf32>, memref<?xi8>
        coopvec.outer_product_accumulate %abig, %b, %M[%c256] matrix<I32, 4x3, TrainingOptimal>
            : vector<4xf32>, vector<3xf32>, memref<?xi8>
        coopvec.outer_product_accumulate %ah, %bh, %M[%c512] matrix<I16, 4x3, RowMajor> stride %c16
            : vector<4xf16>, vector<3xf16>, memref<?xi8>
        %au0 = arith.constant dense<[3.0e9, -1.25]> : vector<2xf32>
        %au = arith.mulf %au0, %tp2 : vector<2xf32>
        %bu = arith.constant dense<[1.0, 0.75]> : vector<2xf32>
        coopvec.outer_product_accumulate %au, %bu, %M[%c640] matrix<U32, 2x2, RowMajor> stride %c16
            : vector<2xf32>, vector<2xf32>, memref<?xi8>
      }
      gpu.return
    }

    // 8-bit float matrices (@check_outer_product_f8): every invocation adds
    // the same products, so any order of the atomics gives the CPU's
    // sequence of roundings: f32 vectors into E4M3 RowMajor (saturating at
    // 448), f16 into E5M2 ColumnMajor, i32 into E5M2 (saturating at 57344)
    // and i16 into E4M3.
    gpu.func @outer_product_f8(%M: memref<?xi8>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c128 = arith.constant 128 : index
      %c256 = arith.constant 256 : index
      %c384 = arith.constant 384 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %t0 = arith.muli %bid, %bdim : index
      %t = arith.addi %t0, %tid : index
      %live = arith.cmpi ult, %t, %n : index
      scf.if %live {
        %a = arith.constant dense<[0.3, -1.5, 40.0]> : vector<3xf32>
        %b = arith.constant dense<[1.0, 2.5, -0.7, 3.0]> : vector<4xf32>
        %ah = arith.truncf %a : vector<3xf32> to vector<3xf16>
        %bh = arith.truncf %b : vector<4xf32> to vector<4xf16>
        %ai = arith.constant dense<[3, -7]> : vector<2xi32>
        %bi = arith.constant dense<[1000, 5]> : vector<2xi32>
        %as = arith.constant dense<[1, -2, 30]> : vector<3xi16>
        %bs = arith.constant dense<[2, 5]> : vector<2xi16>
        coopvec.outer_product_accumulate %a, %b, %M[%c0] matrix<F8_E4M3, 3x4, RowMajor> stride %c16
            : vector<3xf32>, vector<4xf32>, memref<?xi8>
        coopvec.outer_product_accumulate %bh, %ah, %M[%c128] matrix<F8_E5M2, 4x3, ColumnMajor> stride %c16
            : vector<4xf16>, vector<3xf16>, memref<?xi8>
        coopvec.outer_product_accumulate %ai, %bi, %M[%c256] matrix<F8_E5M2, 2x2, RowMajor> stride %c16
            : vector<2xi32>, vector<2xi32>, memref<?xi8>
        coopvec.outer_product_accumulate %as, %bs, %M[%c384] matrix<F8_E4M3, 3x2, RowMajor> stride %c16
            : vector<3xi16>, vector<2xi16>, memref<?xi8>
      }
      gpu.return
    }

    gpu.func @outer_product_int(%m: memref<?xi8>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c128 = arith.constant 128 : index
      %c256 = arith.constant 256 : index
      %c384 = arith.constant 384 : index
      %c512 = arith.constant 512 : index
      %c576 = arith.constant 576 : index
      %c640 = arith.constant 640 : index
      %c896 = arith.constant 896 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %t0 = arith.muli %bid, %bdim : index
      %t = arith.addi %t0, %tid : index
      %live = arith.cmpi ult, %t, %n : index
      scf.if %live {
        %ti = arith.index_cast %t : index to i32
        %c2i = arith.constant 2 : i32
        %c3i = arith.constant 3 : i32
        %c7i = arith.constant 7 : i32
        %c5i = arith.constant 5 : i32
        %c40000i = arith.constant 40000 : i32
        %c100000i = arith.constant 100000 : i32
        %c1h = arith.constant 1 : i16
        %cm1h = arith.constant -1 : i16
        %c50h = arith.constant 50 : i16
        %t7 = arith.remui %ti, %c7i : i32
        %s = arith.subi %t7, %c3i : i32
        %w = arith.remui %ti, %c3i : i32
        %w5 = arith.muli %w, %c100000i : i32
        %ui = arith.remui %ti, %c2i : i32
        %u = arith.trunci %ui : i32 to i16
        %wh = arith.trunci %w : i32 to i16
        %a1 = vector.from_elements %s, %w5, %c5i, %c40000i : vector<4xi32>
        %b1 = arith.constant dense<[60000, -7, 11]> : vector<3xi32>
        %a2 = vector.from_elements %wh, %c1h, %cm1h, %c50h : vector<4xi16>
        %b2 = arith.constant dense<[1, 2, 200]> : vector<3xi16>
        %a3 = vector.from_elements %c1h, %u, %cm1h : vector<3xi16>
        %b3 = arith.constant dense<[1, 0, 2, 3]> : vector<4xi16>
        %a4 = vector.from_elements %cm1h, %u : vector<2xi16>
        %b4 = arith.constant dense<[0, 1, 3, 100]> : vector<4xi16>
        %a5 = arith.constant dense<[2, 3, -5]> : vector<3xi32>
        %b5 = arith.constant dense<[7, 16777217]> : vector<2xi32>
        %th = arith.trunci %ti : i32 to i16
        %nth = arith.subi %cm1h, %th : i16
        %c30000h = arith.constant 30000 : i16
        %w30000 = arith.muli %wh, %c30000h : i16
        %a6 = vector.from_elements %th, %nth, %c50h, %w30000, %cm1h : vector<5xi16>
        coopvec.outer_product_accumulate %a1, %b1, %m[%c0] matrix<I32, 4x3, RowMajor> stride %c16
            : vector<4xi32>, vector<3xi32>, memref<?xi8>
        coopvec.outer_product_accumulate %a2, %b2, %m[%c128] matrix<I16, 4x3, ColumnMajor> stride %c16
            : vector<4xi16>, vector<3xi16>, memref<?xi8>
        coopvec.outer_product_accumulate %a3, %b3, %m[%c256] matrix<U8, 3x4, RowMajor> stride %c16
            : vector<3xi16>, vector<4xi16>, memref<?xi8>
        coopvec.outer_product_accumulate %a4, %b4, %m[%c384] matrix<I8, 2x4, ColumnMajor> stride %c16
            : vector<2xi16>, vector<4xi16>, memref<?xi8>
        coopvec.outer_product_accumulate %a5, %b5, %m[%c512] matrix<F32, 3x2, RowMajor> stride %c16
            : vector<3xi32>, vector<2xi32>, memref<?xi8>
        coopvec.vector_accumulate %a6, %m[%c576] : vector<5xi16>, memref<?xi8>
        coopvec.outer_product_accumulate %a1, %b1, %m[%c640] matrix<I32, 4x3, TrainingOptimal>
            : vector<4xi32>, vector<3xi32>, memref<?xi8>
        coopvec.outer_product_accumulate %a2, %b2, %m[%c896] matrix<I16, 4x3, InferencingOptimal>
            : vector<4xi16>, vector<3xi16>, memref<?xi8>
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

  // The same accumulation on the CPU runtime (host coopvec ops) and on the
  // Vulkan device, compared byte for byte: the number of bytes that differ.
  func.func private @compare_bytes(%a: memref<?xi8>, %b: memref<?xi8>) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %len = memref.dim %a, %c0 : memref<?xi8>
    %bad = scf.for %i = %c0 to %len step %c1 iter_args(%acc = %c0) -> (index) {
      %x = memref.load %a[%i] : memref<?xi8>
      %y = memref.load %b[%i] : memref<?xi8>
      %ne = arith.cmpi ne, %x, %y : i8
      %one = arith.select %ne, %c1, %c0 : index
      %next = arith.addi %acc, %one : index
      scf.yield %next : index
    }
    return %bad : index
  }
  func.func private @zeroed(%len: index) -> memref<?xi8> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant 0 : i8
    %buf = memref.alloc(%len) : memref<?xi8>
    scf.for %i = %c0 to %len step %c1 {
      memref.store %z, %buf[%i] : memref<?xi8>
    }
    return %buf : memref<?xi8>
  }
  func.func @check_accumulate_float(%n: index) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %gpu = func.call @zeroed(%c128) : (index) -> memref<?xi8>
    %cpu = func.call @zeroed(%c128) : (index) -> memref<?xi8>
    %np = arith.addi %n, %c63 : index
    %grid = arith.divui %np, %c64 : index
    gpu.launch_func @kernels::@accumulate_float blocks in (%grid, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%gpu : memref<?xi8>, %n : index)
    scf.for %t = %c0 to %n step %c1 {
      %t4 = arith.remui %t, %c4 : index
      %t4i = arith.index_cast %t4 : index to i32
      %t4f = arith.sitofp %t4i : i32 to f32
      %tv = vector.broadcast %t4f : f32 to vector<8xf32>
      %k = arith.constant dense<[0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0]> : vector<8xf32>
      %v = arith.mulf %tv, %k : vector<8xf32>
      coopvec.vector_accumulate %v, %cpu[%c0] : vector<8xf32>, memref<?xi8>
      %t2 = arith.remui %t, %c2 : index
      %t2i = arith.index_cast %t2 : index to i32
      %t2f = arith.sitofp %t2i : i32 to f16
      %hv = vector.broadcast %t2f : f16 to vector<8xf16>
      %kh = arith.constant dense<[0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0]> : vector<8xf16>
      %h = arith.mulf %hv, %kh : vector<8xf16>
      coopvec.vector_accumulate %h, %cpu[%c64] : vector<8xf16>, memref<?xi8>
    }
    %bad = func.call @compare_bytes(%gpu, %cpu) : (memref<?xi8>, memref<?xi8>) -> index
    // Not all zero: the last f32 word holds 2 * (0 + 1 + 2 + 3) * n / 4.
    %words = memref.view %gpu[%c0][%c2] : memref<?xi8> to memref<?xi32>
    %last = memref.load %words[%c1] : memref<?xi32>
    %zero = arith.constant 0 : i32
    %empty = arith.cmpi eq, %last, %zero : i32
    %extra = arith.select %empty, %c128, %c0 : index
    %total = arith.addi %bad, %extra : index
    memref.dealloc %gpu : memref<?xi8>
    memref.dealloc %cpu : memref<?xi8>
    return %total : index
  }
  func.func @check_outer_product(%n: index) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c208 = arith.constant 208 : index
    %gpu = func.call @zeroed(%c208) : (index) -> memref<?xi8>
    %cpu = func.call @zeroed(%c208) : (index) -> memref<?xi8>
    %np = arith.addi %n, %c63 : index
    %grid = arith.divui %np, %c64 : index
    gpu.launch_func @kernels::@outer_product blocks in (%grid, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%gpu : memref<?xi8>, %n : index)
    scf.for %t = %c0 to %n step %c1 {
      %a:2 = func.call @outer_vectors_host(%t) : (index) -> (vector<5xf32>, vector<3xf32>)
      %ah = arith.truncf %a#0 : vector<5xf32> to vector<5xf16>
      %bh = arith.truncf %a#1 : vector<3xf32> to vector<3xf16>
      coopvec.outer_product_accumulate %ah, %bh, %cpu[%c0] matrix<F32, 5x3, RowMajor> stride %c16
          : vector<5xf16>, vector<3xf16>, memref<?xi8>
      coopvec.outer_product_accumulate %a#1, %a#0, %cpu[%c128] matrix<F16, 3x5, ColumnMajor> stride %c16
          : vector<3xf32>, vector<5xf32>, memref<?xi8>
    }
    %bad = func.call @compare_bytes(%gpu, %cpu) : (memref<?xi8>, memref<?xi8>) -> index
    memref.dealloc %gpu : memref<?xi8>
    memref.dealloc %cpu : memref<?xi8>
    return %bad : index
  }
  func.func @check_s8_iopt_t(%x: memref<?xi32>, %w: memref<?xi8>, %b: memref<?xi8>,
      %n: index) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %ck = arith.constant 7 : index
    %cm = arith.constant 12 : index
    %ny = arith.muli %n, %cm : index
    %y = memref.alloc(%ny) : memref<?xi32>
    %np = arith.addi %n, %c63 : index
    %grid = arith.divui %np, %c64 : index
    gpu.launch_func @kernels::@s8_iopt_t blocks in (%grid, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%x : memref<?xi32>, %w : memref<?xi8>, %b : memref<?xi8>, %y : memref<?xi32>, %n : index)
    %bad = scf.for %t = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
      %xb = arith.muli %t, %ck : index
      %xv = vector.load %x[%xb] : memref<?xi32>, vector<7xi32>
      %r = coopvec.matvec %xv as PackedU8x32, %w[%c0] matrix<I8, 12x26, InferencingOptimal, transpose>
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
  func.func @check_u8_topt(%x: memref<?xi32>, %w: memref<?xi8>, %b: memref<?xi8>,
      %n: index) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %ck = arith.constant 10 : index
    %cm = arith.constant 8 : index
    %ny = arith.muli %n, %cm : index
    %y = memref.alloc(%ny) : memref<?xi32>
    %np = arith.addi %n, %c63 : index
    %grid = arith.divui %np, %c64 : index
    gpu.launch_func @kernels::@u8_topt blocks in (%grid, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%x : memref<?xi32>, %w : memref<?xi8>, %b : memref<?xi8>, %y : memref<?xi32>, %n : index)
    %bad = scf.for %t = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
      %xb = arith.muli %t, %ck : index
      %xv = vector.load %x[%xb] : memref<?xi32>, vector<10xi32>
      %r = coopvec.matvec %xv as PackedU8x32, %w[%c0] matrix<U8, 8x40, TrainingOptimal>
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
  func.func @check_f16_topt_t(%x: memref<?xf32>, %w: memref<?xi8>, %b: memref<?xi8>,
      %n: index) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %ck = arith.constant 20 : index
    %cm = arith.constant 24 : index
    %ny = arith.muli %n, %cm : index
    %y = memref.alloc(%ny) : memref<?xf16>
    %np = arith.addi %n, %c63 : index
    %grid = arith.divui %np, %c64 : index
    gpu.launch_func @kernels::@f16_topt_t blocks in (%grid, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%x : memref<?xf32>, %w : memref<?xi8>, %b : memref<?xi8>, %y : memref<?xf16>, %n : index)
    %bad = scf.for %t = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
      %xb = arith.muli %t, %ck : index
      %xv = vector.load %x[%xb] : memref<?xf32>, vector<20xf32>
      %r = coopvec.matvec %xv as F16, %w[%c0] matrix<F16, 24x20, TrainingOptimal, transpose>
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
  func.func @check_f16_iopt(%x: memref<?xf32>, %w: memref<?xi8>, %b: memref<?xi8>,
      %n: index) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %ck = arith.constant 20 : index
    %cm = arith.constant 24 : index
    %ny = arith.muli %n, %cm : index
    %y = memref.alloc(%ny) : memref<?xf16>
    %np = arith.addi %n, %c63 : index
    %grid = arith.divui %np, %c64 : index
    gpu.launch_func @kernels::@f16_iopt blocks in (%grid, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%x : memref<?xf32>, %w : memref<?xi8>, %b : memref<?xi8>, %y : memref<?xf16>, %n : index)
    %bad = scf.for %t = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
      %xb = arith.muli %t, %ck : index
      %xv = vector.load %x[%xb] : memref<?xf32>, vector<20xf32>
      %r = coopvec.matvec %xv as F16, %w[%c0] matrix<F16, 24x20, InferencingOptimal>
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
  // @outer_product_int on the device and the same products, in order, on
  // the CPU runtime: the number of bytes that differ.
  func.func @check_outer_product_f2i(%n: index) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %c512 = arith.constant 512 : index
    %c576 = arith.constant 576 : index
    %c640 = arith.constant 640 : index
    %c672 = arith.constant 672 : index
    %gpu = func.call @zeroed(%c672) : (index) -> memref<?xi8>
    %cpu = func.call @zeroed(%c672) : (index) -> memref<?xi8>
    %np = arith.addi %n, %c63 : index
    %grid = arith.divui %np, %c64 : index
    gpu.launch_func @kernels::@outer_product_f2i blocks in (%grid, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%gpu : memref<?xi8>, %n : index)
    scf.for %t = %c0 to %n step %c1 {
      %ti = arith.index_cast %t : index to i32
      %c4i = arith.constant 4 : i32
      %t4 = arith.remui %ti, %c4i : i32
      %tf = arith.uitofp %t4 : i32 to f32
      %tv = vector.broadcast %tf : f32 to vector<4xf32>
      %off = arith.constant dense<[0.25, 0.75, 1.25, 2.25]> : vector<4xf32>
      %sign = arith.constant dense<[1.0, -1.0, 1.0, -1.0]> : vector<4xf32>
      %a0 = arith.addf %tv, %off : vector<4xf32>
      %a = arith.mulf %a0, %sign : vector<4xf32>
      %b = arith.constant dense<[1.0, 3.0, -5.0]> : vector<3xf32>
      %one = arith.constant dense<[1.0, 1.0, 1.0, 1.0]> : vector<4xf32>
      %big = arith.constant dense<[1.0e9, -1.0e9, 3.0, 7.0e8]> : vector<4xf32>
      %tp = arith.addf %tv, %one : vector<4xf32>
      %tp2 = vector.extract_strided_slice %tp {offsets = [0], sizes = [2], strides = [1]} : vector<4xf32> to vector<2xf32>
      %abig = arith.mulf %tp, %big : vector<4xf32>
      %ah = arith.truncf %a : vector<4xf32> to vector<4xf16>
      %bh = arith.truncf %b : vector<3xf32> to vector<3xf16>
      coopvec.outer_product_accumulate %a, %b, %cpu[%c0] matrix<I8, 4x3, RowMajor> stride %c16
          : vector<4xf32>, vector<3xf32>, memref<?xi8>
      coopvec.outer_product_accumulate %b, %a, %cpu[%c128] matrix<U16, 3x4, ColumnMajor> stride %c16
          : vector<3xf32>, vector<4xf32>, memref<?xi8>
      coopvec.outer_product_accumulate %abig, %b, %cpu[%c256] matrix<I32, 4x3, TrainingOptimal>
          : vector<4xf32>, vector<3xf32>, memref<?xi8>
      coopvec.outer_product_accumulate %ah, %bh, %cpu[%c512] matrix<I16, 4x3, RowMajor> stride %c16
          : vector<4xf16>, vector<3xf16>, memref<?xi8>
      %au0 = arith.constant dense<[3.0e9, -1.25]> : vector<2xf32>
      %au = arith.mulf %au0, %tp2 : vector<2xf32>
      %bu = arith.constant dense<[1.0, 0.75]> : vector<2xf32>
      coopvec.outer_product_accumulate %au, %bu, %cpu[%c640] matrix<U32, 2x2, RowMajor> stride %c16
          : vector<2xf32>, vector<2xf32>, memref<?xi8>
    }
    %bad = func.call @compare_bytes(%gpu, %cpu) : (memref<?xi8>, memref<?xi8>) -> index
    memref.dealloc %gpu : memref<?xi8>
    memref.dealloc %cpu : memref<?xi8>
    return %bad : index
  }
  func.func @check_outer_product_f8(%n: index) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %c384 = arith.constant 384 : index
    %c512 = arith.constant 512 : index
    %gpu = func.call @zeroed(%c512) : (index) -> memref<?xi8>
    %cpu = func.call @zeroed(%c512) : (index) -> memref<?xi8>
    %np = arith.addi %n, %c63 : index
    %grid = arith.divui %np, %c64 : index
    gpu.launch_func @kernels::@outer_product_f8 blocks in (%grid, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%gpu : memref<?xi8>, %n : index)
    scf.for %t = %c0 to %n step %c1 {
      %a = arith.constant dense<[0.3, -1.5, 40.0]> : vector<3xf32>
      %b = arith.constant dense<[1.0, 2.5, -0.7, 3.0]> : vector<4xf32>
      %ah = arith.truncf %a : vector<3xf32> to vector<3xf16>
      %bh = arith.truncf %b : vector<4xf32> to vector<4xf16>
      %ai = arith.constant dense<[3, -7]> : vector<2xi32>
      %bi = arith.constant dense<[1000, 5]> : vector<2xi32>
      %as = arith.constant dense<[1, -2, 30]> : vector<3xi16>
      %bs = arith.constant dense<[2, 5]> : vector<2xi16>
      coopvec.outer_product_accumulate %a, %b, %cpu[%c0] matrix<F8_E4M3, 3x4, RowMajor> stride %c16
          : vector<3xf32>, vector<4xf32>, memref<?xi8>
      coopvec.outer_product_accumulate %bh, %ah, %cpu[%c128] matrix<F8_E5M2, 4x3, ColumnMajor> stride %c16
          : vector<4xf16>, vector<3xf16>, memref<?xi8>
      coopvec.outer_product_accumulate %ai, %bi, %cpu[%c256] matrix<F8_E5M2, 2x2, RowMajor> stride %c16
          : vector<2xi32>, vector<2xi32>, memref<?xi8>
      coopvec.outer_product_accumulate %as, %bs, %cpu[%c384] matrix<F8_E4M3, 3x2, RowMajor> stride %c16
          : vector<3xi16>, vector<2xi16>, memref<?xi8>
    }
    %bad = func.call @compare_bytes(%gpu, %cpu) : (memref<?xi8>, memref<?xi8>) -> index
    memref.dealloc %gpu : memref<?xi8>
    memref.dealloc %cpu : memref<?xi8>
    return %bad : index
  }
  func.func @check_outer_product_int(%n: index) -> index {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %c384 = arith.constant 384 : index
    %c512 = arith.constant 512 : index
    %c576 = arith.constant 576 : index
    %c640 = arith.constant 640 : index
    %c896 = arith.constant 896 : index
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %c944 = arith.constant 944 : index
    %gpu = func.call @zeroed(%c944) : (index) -> memref<?xi8>
    %cpu = func.call @zeroed(%c944) : (index) -> memref<?xi8>
    %np = arith.addi %n, %c63 : index
    %grid = arith.divui %np, %c64 : index
    gpu.launch_func @kernels::@outer_product_int blocks in (%grid, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%gpu : memref<?xi8>, %n : index)
    scf.for %t = %c0 to %n step %c1 {
      %ti = arith.index_cast %t : index to i32
      %c2i = arith.constant 2 : i32
      %c3i = arith.constant 3 : i32
      %c7i = arith.constant 7 : i32
      %c5i = arith.constant 5 : i32
      %c40000i = arith.constant 40000 : i32
      %c100000i = arith.constant 100000 : i32
      %c1h = arith.constant 1 : i16
      %cm1h = arith.constant -1 : i16
      %c50h = arith.constant 50 : i16
      %t7 = arith.remui %ti, %c7i : i32
      %s = arith.subi %t7, %c3i : i32
      %w = arith.remui %ti, %c3i : i32
      %w5 = arith.muli %w, %c100000i : i32
      %ui = arith.remui %ti, %c2i : i32
      %u = arith.trunci %ui : i32 to i16
      %wh = arith.trunci %w : i32 to i16
      %a1 = vector.from_elements %s, %w5, %c5i, %c40000i : vector<4xi32>
      %b1 = arith.constant dense<[60000, -7, 11]> : vector<3xi32>
      %a2 = vector.from_elements %wh, %c1h, %cm1h, %c50h : vector<4xi16>
      %b2 = arith.constant dense<[1, 2, 200]> : vector<3xi16>
      %a3 = vector.from_elements %c1h, %u, %cm1h : vector<3xi16>
      %b3 = arith.constant dense<[1, 0, 2, 3]> : vector<4xi16>
      %a4 = vector.from_elements %cm1h, %u : vector<2xi16>
      %b4 = arith.constant dense<[0, 1, 3, 100]> : vector<4xi16>
      %a5 = arith.constant dense<[2, 3, -5]> : vector<3xi32>
      %b5 = arith.constant dense<[7, 16777217]> : vector<2xi32>
      %th = arith.trunci %ti : i32 to i16
      %nth = arith.subi %cm1h, %th : i16
      %c30000h = arith.constant 30000 : i16
      %w30000 = arith.muli %wh, %c30000h : i16
      %a6 = vector.from_elements %th, %nth, %c50h, %w30000, %cm1h : vector<5xi16>
      coopvec.outer_product_accumulate %a1, %b1, %cpu[%c0] matrix<I32, 4x3, RowMajor> stride %c16
          : vector<4xi32>, vector<3xi32>, memref<?xi8>
      coopvec.outer_product_accumulate %a2, %b2, %cpu[%c128] matrix<I16, 4x3, ColumnMajor> stride %c16
          : vector<4xi16>, vector<3xi16>, memref<?xi8>
      coopvec.outer_product_accumulate %a3, %b3, %cpu[%c256] matrix<U8, 3x4, RowMajor> stride %c16
          : vector<3xi16>, vector<4xi16>, memref<?xi8>
      coopvec.outer_product_accumulate %a4, %b4, %cpu[%c384] matrix<I8, 2x4, ColumnMajor> stride %c16
          : vector<2xi16>, vector<4xi16>, memref<?xi8>
      coopvec.outer_product_accumulate %a5, %b5, %cpu[%c512] matrix<F32, 3x2, RowMajor> stride %c16
          : vector<3xi32>, vector<2xi32>, memref<?xi8>
      coopvec.vector_accumulate %a6, %cpu[%c576] : vector<5xi16>, memref<?xi8>
      coopvec.outer_product_accumulate %a1, %b1, %cpu[%c640] matrix<I32, 4x3, TrainingOptimal>
          : vector<4xi32>, vector<3xi32>, memref<?xi8>
      coopvec.outer_product_accumulate %a2, %b2, %cpu[%c896] matrix<I16, 4x3, InferencingOptimal>
          : vector<4xi16>, vector<3xi16>, memref<?xi8>
    }
    %bad = func.call @compare_bytes(%gpu, %cpu) : (memref<?xi8>, memref<?xi8>) -> index
    memref.dealloc %gpu : memref<?xi8>
    memref.dealloc %cpu : memref<?xi8>
    return %bad : index
  }
  func.func private @outer_vectors_host(%t: index) -> (vector<5xf32>, vector<3xf32>) {
    %c4 = arith.constant 4 : index
    %t4 = arith.remui %t, %c4 : index
    %t4i = arith.index_cast %t4 : index to i32
    %t4f = arith.sitofp %t4i : i32 to f32
    %tv = vector.broadcast %t4f : f32 to vector<5xf32>
    %off = arith.constant dense<[-1.0, 0.0, 1.0, 2.0, -3.0]> : vector<5xf32>
    %q = arith.constant dense<0.25> : vector<5xf32>
    %a0 = arith.addf %tv, %off : vector<5xf32>
    %a = arith.mulf %a0, %q : vector<5xf32>
    %b = arith.constant dense<[0.5, -1.0, 1.5]> : vector<3xf32>
    return %a, %b : vector<5xf32>, vector<3xf32>
  }
}
