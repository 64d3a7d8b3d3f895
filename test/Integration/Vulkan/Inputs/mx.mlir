// Block-scaled (OCP MX and NVFP4) and unscaled 8-, 6- and 4-bit float
// matrices through coopvec.matvec on Vulkan, against the CPU runtime bit for
// bit (mx.test; Inputs/make-mx-inputs.py makes the buffers). Each
// @check_<case> runs the kernel over %n invocations, then the same matvec
// on the host for each, and returns the number of result elements whose
// bits differ. One kernel per case:
//   mxfp8: matrix<F8_E4M3, 24x64, RowMajor, scale f8E8M0FNU block 32>, f32 inputs as F32, F32 bias, f32 results
//   mxfp6_iopt_t: matrix<F6_E3M2, 16x64, InferencingOptimal, transpose, scale f8E8M0FNU block 32>, f16 inputs as F16, f16 results
//   mxfp4_col: matrix<F4_E2M1, 20x64, ColumnMajor, scale f8E8M0FNU block 32>, f32 inputs as F8_E4M3, F16 bias, f32 results
//   nvfp4_topt_t: matrix<F4_E2M1, 16x64, TrainingOptimal, transpose, scale f8E4M3FN block 16>, f16 inputs as F32, F32 bias, f16 results
//   mxfp4_odd: matrix<F4_E2M1, 12x37, RowMajor, scale f8E8M0FNU block 16>, f32 inputs as F16, f32 results
//   mxfp6_e2m3: matrix<F6_E2M3, 10x40, RowMajor, scale f8E8M0FNU block 32>, f16 inputs as F8_E5M2, F16 bias, f32 results
//   f4_iopt: matrix<F4_E2M1, 16x48, InferencingOptimal>, f32 inputs as F32, f32 results
//   f6_col: matrix<F6_E2M3, 8x24, ColumnMajor>, f16 inputs as F16, f16 results
//   f8_f32in: matrix<F8_E5M2, 12x32, RowMajor>, f32 inputs as F32, F32 bias, f32 results
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @mxfp8(%x: memref<?xf32>, %w: memref<?xi8>, %s: memref<?xi8>, %b: memref<?xi8>, %y: memref<?xf32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %ck = arith.constant 64 : index
      %cm = arith.constant 24 : index
      %moff = arith.constant 0 : index
      %stride = arith.constant 64 : index
      %soff = arith.constant 0 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %t0 = arith.muli %bid, %bdim : index
      %t = arith.addi %t0, %tid : index
      %live = arith.cmpi ult, %t, %n : index
      scf.if %live {
        %xb = arith.muli %t, %ck : index
        %xv = vector.load %x[%xb] : memref<?xf32>, vector<64xf32>
        %r = coopvec.matvec %xv as F32, %w[%moff] matrix<F8_E4M3, 24x64, RowMajor, scale f8E8M0FNU block 32> stride %stride
               scales %s[%soff] : memref<?xi8>
               bias %b[%c0] as F32
               : vector<64xf32>, memref<?xi8>, memref<?xi8> -> vector<24xf32>
        %yb = arith.muli %t, %cm : index
        vector.store %r, %y[%yb] : memref<?xf32>, vector<24xf32>
      }
      gpu.return
    }
    gpu.func @mxfp6_iopt_t(%x: memref<?xf16>, %w: memref<?xi8>, %s: memref<?xi8>, %y: memref<?xf16>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %ck = arith.constant 64 : index
      %cm = arith.constant 16 : index
      %moff = arith.constant 128 : index
      %soff = arith.constant 5 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %t0 = arith.muli %bid, %bdim : index
      %t = arith.addi %t0, %tid : index
      %live = arith.cmpi ult, %t, %n : index
      scf.if %live {
        %xb = arith.muli %t, %ck : index
        %xv = vector.load %x[%xb] : memref<?xf16>, vector<64xf16>
        %r = coopvec.matvec %xv as F16, %w[%moff] matrix<F6_E3M2, 16x64, InferencingOptimal, transpose, scale f8E8M0FNU block 32>
               scales %s[%soff] : memref<?xi8>
               : vector<64xf16>, memref<?xi8> -> vector<16xf16>
        %yb = arith.muli %t, %cm : index
        vector.store %r, %y[%yb] : memref<?xf16>, vector<16xf16>
      }
      gpu.return
    }
    gpu.func @mxfp4_col(%x: memref<?xf32>, %w: memref<?xi8>, %s: memref<?xi8>, %b: memref<?xi8>, %y: memref<?xf32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %ck = arith.constant 64 : index
      %cm = arith.constant 20 : index
      %moff = arith.constant 0 : index
      %stride = arith.constant 32 : index
      %soff = arith.constant 0 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %t0 = arith.muli %bid, %bdim : index
      %t = arith.addi %t0, %tid : index
      %live = arith.cmpi ult, %t, %n : index
      scf.if %live {
        %xb = arith.muli %t, %ck : index
        %xv = vector.load %x[%xb] : memref<?xf32>, vector<64xf32>
        %r = coopvec.matvec %xv as F8_E4M3, %w[%moff] matrix<F4_E2M1, 20x64, ColumnMajor, scale f8E8M0FNU block 32> stride %stride
               scales %s[%soff] : memref<?xi8>
               bias %b[%c0] as F16
               : vector<64xf32>, memref<?xi8>, memref<?xi8> -> vector<20xf32>
        %yb = arith.muli %t, %cm : index
        vector.store %r, %y[%yb] : memref<?xf32>, vector<20xf32>
      }
      gpu.return
    }
    gpu.func @nvfp4_topt_t(%x: memref<?xf16>, %w: memref<?xi8>, %s: memref<?xi8>, %b: memref<?xi8>, %y: memref<?xf16>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %ck = arith.constant 64 : index
      %cm = arith.constant 16 : index
      %moff = arith.constant 0 : index
      %soff = arith.constant 3 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %t0 = arith.muli %bid, %bdim : index
      %t = arith.addi %t0, %tid : index
      %live = arith.cmpi ult, %t, %n : index
      scf.if %live {
        %xb = arith.muli %t, %ck : index
        %xv = vector.load %x[%xb] : memref<?xf16>, vector<64xf16>
        %r = coopvec.matvec %xv as F32, %w[%moff] matrix<F4_E2M1, 16x64, TrainingOptimal, transpose, scale f8E4M3FN block 16>
               scales %s[%soff] : memref<?xi8>
               bias %b[%c0] as F32
               : vector<64xf16>, memref<?xi8>, memref<?xi8> -> vector<16xf16>
        %yb = arith.muli %t, %cm : index
        vector.store %r, %y[%yb] : memref<?xf16>, vector<16xf16>
      }
      gpu.return
    }
    gpu.func @mxfp4_odd(%x: memref<?xf32>, %w: memref<?xi8>, %s: memref<?xi8>, %y: memref<?xf32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %ck = arith.constant 37 : index
      %cm = arith.constant 12 : index
      %moff = arith.constant 0 : index
      %stride = arith.constant 32 : index
      %soff = arith.constant 0 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %t0 = arith.muli %bid, %bdim : index
      %t = arith.addi %t0, %tid : index
      %live = arith.cmpi ult, %t, %n : index
      scf.if %live {
        %xb = arith.muli %t, %ck : index
        %xv = vector.load %x[%xb] : memref<?xf32>, vector<37xf32>
        %r = coopvec.matvec %xv as F16, %w[%moff] matrix<F4_E2M1, 12x37, RowMajor, scale f8E8M0FNU block 16> stride %stride
               scales %s[%soff] : memref<?xi8>
               : vector<37xf32>, memref<?xi8> -> vector<12xf32>
        %yb = arith.muli %t, %cm : index
        vector.store %r, %y[%yb] : memref<?xf32>, vector<12xf32>
      }
      gpu.return
    }
    gpu.func @mxfp6_e2m3(%x: memref<?xf16>, %w: memref<?xi8>, %s: memref<?xi8>, %b: memref<?xi8>, %y: memref<?xf32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %ck = arith.constant 40 : index
      %cm = arith.constant 10 : index
      %moff = arith.constant 0 : index
      %stride = arith.constant 48 : index
      %soff = arith.constant 0 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %t0 = arith.muli %bid, %bdim : index
      %t = arith.addi %t0, %tid : index
      %live = arith.cmpi ult, %t, %n : index
      scf.if %live {
        %xb = arith.muli %t, %ck : index
        %xv = vector.load %x[%xb] : memref<?xf16>, vector<40xf16>
        %r = coopvec.matvec %xv as F8_E5M2, %w[%moff] matrix<F6_E2M3, 10x40, RowMajor, scale f8E8M0FNU block 32> stride %stride
               scales %s[%soff] : memref<?xi8>
               bias %b[%c0] as F16
               : vector<40xf16>, memref<?xi8>, memref<?xi8> -> vector<10xf32>
        %yb = arith.muli %t, %cm : index
        vector.store %r, %y[%yb] : memref<?xf32>, vector<10xf32>
      }
      gpu.return
    }
    gpu.func @f4_iopt(%x: memref<?xf32>, %w: memref<?xi8>, %y: memref<?xf32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %ck = arith.constant 48 : index
      %cm = arith.constant 16 : index
      %moff = arith.constant 0 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %t0 = arith.muli %bid, %bdim : index
      %t = arith.addi %t0, %tid : index
      %live = arith.cmpi ult, %t, %n : index
      scf.if %live {
        %xb = arith.muli %t, %ck : index
        %xv = vector.load %x[%xb] : memref<?xf32>, vector<48xf32>
        %r = coopvec.matvec %xv as F32, %w[%moff] matrix<F4_E2M1, 16x48, InferencingOptimal>
               : vector<48xf32>, memref<?xi8> -> vector<16xf32>
        %yb = arith.muli %t, %cm : index
        vector.store %r, %y[%yb] : memref<?xf32>, vector<16xf32>
      }
      gpu.return
    }
    gpu.func @f6_col(%x: memref<?xf16>, %w: memref<?xi8>, %y: memref<?xf16>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %ck = arith.constant 24 : index
      %cm = arith.constant 8 : index
      %moff = arith.constant 0 : index
      %stride = arith.constant 16 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %t0 = arith.muli %bid, %bdim : index
      %t = arith.addi %t0, %tid : index
      %live = arith.cmpi ult, %t, %n : index
      scf.if %live {
        %xb = arith.muli %t, %ck : index
        %xv = vector.load %x[%xb] : memref<?xf16>, vector<24xf16>
        %r = coopvec.matvec %xv as F16, %w[%moff] matrix<F6_E2M3, 8x24, ColumnMajor> stride %stride
               : vector<24xf16>, memref<?xi8> -> vector<8xf16>
        %yb = arith.muli %t, %cm : index
        vector.store %r, %y[%yb] : memref<?xf16>, vector<8xf16>
      }
      gpu.return
    }
    gpu.func @f8_f32in(%x: memref<?xf32>, %w: memref<?xi8>, %b: memref<?xi8>, %y: memref<?xf32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %ck = arith.constant 32 : index
      %cm = arith.constant 12 : index
      %moff = arith.constant 0 : index
      %stride = arith.constant 32 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %t0 = arith.muli %bid, %bdim : index
      %t = arith.addi %t0, %tid : index
      %live = arith.cmpi ult, %t, %n : index
      scf.if %live {
        %xb = arith.muli %t, %ck : index
        %xv = vector.load %x[%xb] : memref<?xf32>, vector<32xf32>
        %r = coopvec.matvec %xv as F32, %w[%moff] matrix<F8_E5M2, 12x32, RowMajor> stride %stride
               bias %b[%c0] as F32
               : vector<32xf32>, memref<?xi8>, memref<?xi8> -> vector<12xf32>
        %yb = arith.muli %t, %cm : index
        vector.store %r, %y[%yb] : memref<?xf32>, vector<12xf32>
      }
      gpu.return
    }
  }
  func.func @check_mxfp8(%x: memref<?xf32>, %w: memref<?xi8>, %s: memref<?xi8>, %b: memref<?xi8>, %n: index) -> index {
    %c0 = arith.constant 0 : index
    %ck = arith.constant 64 : index
    %cm = arith.constant 24 : index
    %moff = arith.constant 0 : index
    %stride = arith.constant 64 : index
    %soff = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %ny = arith.muli %n, %cm : index
    %y = memref.alloc(%ny) : memref<?xf32>
    %np = arith.addi %n, %c63 : index
    %grid = arith.divui %np, %c64 : index
    gpu.launch_func @kernels::@mxfp8 blocks in (%grid, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%x : memref<?xf32>, %w : memref<?xi8>, %s : memref<?xi8>, %b : memref<?xi8>, %y : memref<?xf32>, %n : index)
    %bad = scf.for %t = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
      %xb = arith.muli %t, %ck : index
      %xv = vector.load %x[%xb] : memref<?xf32>, vector<64xf32>
      %r = coopvec.matvec %xv as F32, %w[%moff] matrix<F8_E4M3, 24x64, RowMajor, scale f8E8M0FNU block 32> stride %stride
             scales %s[%soff] : memref<?xi8>
             bias %b[%c0] as F32
             : vector<64xf32>, memref<?xi8>, memref<?xi8> -> vector<24xf32>
      %yb = arith.muli %t, %cm : index
      %g = vector.load %y[%yb] : memref<?xf32>, vector<24xf32>
      %rb = arith.bitcast %r : vector<24xf32> to vector<24xi32>
      %gb = arith.bitcast %g : vector<24xf32> to vector<24xi32>
      %ne = arith.cmpi ne, %rb, %gb : vector<24xi32>
      %ne32 = arith.extui %ne : vector<24xi1> to vector<24xi32>
      %cnt = vector.reduction <add>, %ne32 : vector<24xi32> into i32
      %cnti = arith.index_cast %cnt : i32 to index
      %next = arith.addi %acc, %cnti : index
      scf.yield %next : index
    }
    memref.dealloc %y : memref<?xf32>
    return %bad : index
  }
  func.func @check_mxfp6_iopt_t(%x: memref<?xf16>, %w: memref<?xi8>, %s: memref<?xi8>, %n: index) -> index {
    %c0 = arith.constant 0 : index
    %ck = arith.constant 64 : index
    %cm = arith.constant 16 : index
    %moff = arith.constant 128 : index
    %soff = arith.constant 5 : index
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %ny = arith.muli %n, %cm : index
    %y = memref.alloc(%ny) : memref<?xf16>
    %np = arith.addi %n, %c63 : index
    %grid = arith.divui %np, %c64 : index
    gpu.launch_func @kernels::@mxfp6_iopt_t blocks in (%grid, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%x : memref<?xf16>, %w : memref<?xi8>, %s : memref<?xi8>, %y : memref<?xf16>, %n : index)
    %bad = scf.for %t = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
      %xb = arith.muli %t, %ck : index
      %xv = vector.load %x[%xb] : memref<?xf16>, vector<64xf16>
      %r = coopvec.matvec %xv as F16, %w[%moff] matrix<F6_E3M2, 16x64, InferencingOptimal, transpose, scale f8E8M0FNU block 32>
             scales %s[%soff] : memref<?xi8>
             : vector<64xf16>, memref<?xi8> -> vector<16xf16>
      %yb = arith.muli %t, %cm : index
      %g = vector.load %y[%yb] : memref<?xf16>, vector<16xf16>
      %rb = arith.bitcast %r : vector<16xf16> to vector<16xi16>
      %gb = arith.bitcast %g : vector<16xf16> to vector<16xi16>
      %ne = arith.cmpi ne, %rb, %gb : vector<16xi16>
      %ne32 = arith.extui %ne : vector<16xi1> to vector<16xi32>
      %cnt = vector.reduction <add>, %ne32 : vector<16xi32> into i32
      %cnti = arith.index_cast %cnt : i32 to index
      %next = arith.addi %acc, %cnti : index
      scf.yield %next : index
    }
    memref.dealloc %y : memref<?xf16>
    return %bad : index
  }
  func.func @check_mxfp4_col(%x: memref<?xf32>, %w: memref<?xi8>, %s: memref<?xi8>, %b: memref<?xi8>, %n: index) -> index {
    %c0 = arith.constant 0 : index
    %ck = arith.constant 64 : index
    %cm = arith.constant 20 : index
    %moff = arith.constant 0 : index
    %stride = arith.constant 32 : index
    %soff = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %ny = arith.muli %n, %cm : index
    %y = memref.alloc(%ny) : memref<?xf32>
    %np = arith.addi %n, %c63 : index
    %grid = arith.divui %np, %c64 : index
    gpu.launch_func @kernels::@mxfp4_col blocks in (%grid, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%x : memref<?xf32>, %w : memref<?xi8>, %s : memref<?xi8>, %b : memref<?xi8>, %y : memref<?xf32>, %n : index)
    %bad = scf.for %t = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
      %xb = arith.muli %t, %ck : index
      %xv = vector.load %x[%xb] : memref<?xf32>, vector<64xf32>
      %r = coopvec.matvec %xv as F8_E4M3, %w[%moff] matrix<F4_E2M1, 20x64, ColumnMajor, scale f8E8M0FNU block 32> stride %stride
             scales %s[%soff] : memref<?xi8>
             bias %b[%c0] as F16
             : vector<64xf32>, memref<?xi8>, memref<?xi8> -> vector<20xf32>
      %yb = arith.muli %t, %cm : index
      %g = vector.load %y[%yb] : memref<?xf32>, vector<20xf32>
      %rb = arith.bitcast %r : vector<20xf32> to vector<20xi32>
      %gb = arith.bitcast %g : vector<20xf32> to vector<20xi32>
      %ne = arith.cmpi ne, %rb, %gb : vector<20xi32>
      %ne32 = arith.extui %ne : vector<20xi1> to vector<20xi32>
      %cnt = vector.reduction <add>, %ne32 : vector<20xi32> into i32
      %cnti = arith.index_cast %cnt : i32 to index
      %next = arith.addi %acc, %cnti : index
      scf.yield %next : index
    }
    memref.dealloc %y : memref<?xf32>
    return %bad : index
  }
  func.func @check_nvfp4_topt_t(%x: memref<?xf16>, %w: memref<?xi8>, %s: memref<?xi8>, %b: memref<?xi8>, %n: index) -> index {
    %c0 = arith.constant 0 : index
    %ck = arith.constant 64 : index
    %cm = arith.constant 16 : index
    %moff = arith.constant 0 : index
    %soff = arith.constant 3 : index
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %ny = arith.muli %n, %cm : index
    %y = memref.alloc(%ny) : memref<?xf16>
    %np = arith.addi %n, %c63 : index
    %grid = arith.divui %np, %c64 : index
    gpu.launch_func @kernels::@nvfp4_topt_t blocks in (%grid, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%x : memref<?xf16>, %w : memref<?xi8>, %s : memref<?xi8>, %b : memref<?xi8>, %y : memref<?xf16>, %n : index)
    %bad = scf.for %t = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
      %xb = arith.muli %t, %ck : index
      %xv = vector.load %x[%xb] : memref<?xf16>, vector<64xf16>
      %r = coopvec.matvec %xv as F32, %w[%moff] matrix<F4_E2M1, 16x64, TrainingOptimal, transpose, scale f8E4M3FN block 16>
             scales %s[%soff] : memref<?xi8>
             bias %b[%c0] as F32
             : vector<64xf16>, memref<?xi8>, memref<?xi8> -> vector<16xf16>
      %yb = arith.muli %t, %cm : index
      %g = vector.load %y[%yb] : memref<?xf16>, vector<16xf16>
      %rb = arith.bitcast %r : vector<16xf16> to vector<16xi16>
      %gb = arith.bitcast %g : vector<16xf16> to vector<16xi16>
      %ne = arith.cmpi ne, %rb, %gb : vector<16xi16>
      %ne32 = arith.extui %ne : vector<16xi1> to vector<16xi32>
      %cnt = vector.reduction <add>, %ne32 : vector<16xi32> into i32
      %cnti = arith.index_cast %cnt : i32 to index
      %next = arith.addi %acc, %cnti : index
      scf.yield %next : index
    }
    memref.dealloc %y : memref<?xf16>
    return %bad : index
  }
  func.func @check_mxfp4_odd(%x: memref<?xf32>, %w: memref<?xi8>, %s: memref<?xi8>, %n: index) -> index {
    %c0 = arith.constant 0 : index
    %ck = arith.constant 37 : index
    %cm = arith.constant 12 : index
    %moff = arith.constant 0 : index
    %stride = arith.constant 32 : index
    %soff = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %ny = arith.muli %n, %cm : index
    %y = memref.alloc(%ny) : memref<?xf32>
    %np = arith.addi %n, %c63 : index
    %grid = arith.divui %np, %c64 : index
    gpu.launch_func @kernels::@mxfp4_odd blocks in (%grid, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%x : memref<?xf32>, %w : memref<?xi8>, %s : memref<?xi8>, %y : memref<?xf32>, %n : index)
    %bad = scf.for %t = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
      %xb = arith.muli %t, %ck : index
      %xv = vector.load %x[%xb] : memref<?xf32>, vector<37xf32>
      %r = coopvec.matvec %xv as F16, %w[%moff] matrix<F4_E2M1, 12x37, RowMajor, scale f8E8M0FNU block 16> stride %stride
             scales %s[%soff] : memref<?xi8>
             : vector<37xf32>, memref<?xi8> -> vector<12xf32>
      %yb = arith.muli %t, %cm : index
      %g = vector.load %y[%yb] : memref<?xf32>, vector<12xf32>
      %rb = arith.bitcast %r : vector<12xf32> to vector<12xi32>
      %gb = arith.bitcast %g : vector<12xf32> to vector<12xi32>
      %ne = arith.cmpi ne, %rb, %gb : vector<12xi32>
      %ne32 = arith.extui %ne : vector<12xi1> to vector<12xi32>
      %cnt = vector.reduction <add>, %ne32 : vector<12xi32> into i32
      %cnti = arith.index_cast %cnt : i32 to index
      %next = arith.addi %acc, %cnti : index
      scf.yield %next : index
    }
    memref.dealloc %y : memref<?xf32>
    return %bad : index
  }
  func.func @check_mxfp6_e2m3(%x: memref<?xf16>, %w: memref<?xi8>, %s: memref<?xi8>, %b: memref<?xi8>, %n: index) -> index {
    %c0 = arith.constant 0 : index
    %ck = arith.constant 40 : index
    %cm = arith.constant 10 : index
    %moff = arith.constant 0 : index
    %stride = arith.constant 48 : index
    %soff = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %ny = arith.muli %n, %cm : index
    %y = memref.alloc(%ny) : memref<?xf32>
    %np = arith.addi %n, %c63 : index
    %grid = arith.divui %np, %c64 : index
    gpu.launch_func @kernels::@mxfp6_e2m3 blocks in (%grid, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%x : memref<?xf16>, %w : memref<?xi8>, %s : memref<?xi8>, %b : memref<?xi8>, %y : memref<?xf32>, %n : index)
    %bad = scf.for %t = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
      %xb = arith.muli %t, %ck : index
      %xv = vector.load %x[%xb] : memref<?xf16>, vector<40xf16>
      %r = coopvec.matvec %xv as F8_E5M2, %w[%moff] matrix<F6_E2M3, 10x40, RowMajor, scale f8E8M0FNU block 32> stride %stride
             scales %s[%soff] : memref<?xi8>
             bias %b[%c0] as F16
             : vector<40xf16>, memref<?xi8>, memref<?xi8> -> vector<10xf32>
      %yb = arith.muli %t, %cm : index
      %g = vector.load %y[%yb] : memref<?xf32>, vector<10xf32>
      %rb = arith.bitcast %r : vector<10xf32> to vector<10xi32>
      %gb = arith.bitcast %g : vector<10xf32> to vector<10xi32>
      %ne = arith.cmpi ne, %rb, %gb : vector<10xi32>
      %ne32 = arith.extui %ne : vector<10xi1> to vector<10xi32>
      %cnt = vector.reduction <add>, %ne32 : vector<10xi32> into i32
      %cnti = arith.index_cast %cnt : i32 to index
      %next = arith.addi %acc, %cnti : index
      scf.yield %next : index
    }
    memref.dealloc %y : memref<?xf32>
    return %bad : index
  }
  func.func @check_f4_iopt(%x: memref<?xf32>, %w: memref<?xi8>, %n: index) -> index {
    %c0 = arith.constant 0 : index
    %ck = arith.constant 48 : index
    %cm = arith.constant 16 : index
    %moff = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %ny = arith.muli %n, %cm : index
    %y = memref.alloc(%ny) : memref<?xf32>
    %np = arith.addi %n, %c63 : index
    %grid = arith.divui %np, %c64 : index
    gpu.launch_func @kernels::@f4_iopt blocks in (%grid, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%x : memref<?xf32>, %w : memref<?xi8>, %y : memref<?xf32>, %n : index)
    %bad = scf.for %t = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
      %xb = arith.muli %t, %ck : index
      %xv = vector.load %x[%xb] : memref<?xf32>, vector<48xf32>
      %r = coopvec.matvec %xv as F32, %w[%moff] matrix<F4_E2M1, 16x48, InferencingOptimal>
             : vector<48xf32>, memref<?xi8> -> vector<16xf32>
      %yb = arith.muli %t, %cm : index
      %g = vector.load %y[%yb] : memref<?xf32>, vector<16xf32>
      %rb = arith.bitcast %r : vector<16xf32> to vector<16xi32>
      %gb = arith.bitcast %g : vector<16xf32> to vector<16xi32>
      %ne = arith.cmpi ne, %rb, %gb : vector<16xi32>
      %ne32 = arith.extui %ne : vector<16xi1> to vector<16xi32>
      %cnt = vector.reduction <add>, %ne32 : vector<16xi32> into i32
      %cnti = arith.index_cast %cnt : i32 to index
      %next = arith.addi %acc, %cnti : index
      scf.yield %next : index
    }
    memref.dealloc %y : memref<?xf32>
    return %bad : index
  }
  func.func @check_f6_col(%x: memref<?xf16>, %w: memref<?xi8>, %n: index) -> index {
    %c0 = arith.constant 0 : index
    %ck = arith.constant 24 : index
    %cm = arith.constant 8 : index
    %moff = arith.constant 0 : index
    %stride = arith.constant 16 : index
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %ny = arith.muli %n, %cm : index
    %y = memref.alloc(%ny) : memref<?xf16>
    %np = arith.addi %n, %c63 : index
    %grid = arith.divui %np, %c64 : index
    gpu.launch_func @kernels::@f6_col blocks in (%grid, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%x : memref<?xf16>, %w : memref<?xi8>, %y : memref<?xf16>, %n : index)
    %bad = scf.for %t = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
      %xb = arith.muli %t, %ck : index
      %xv = vector.load %x[%xb] : memref<?xf16>, vector<24xf16>
      %r = coopvec.matvec %xv as F16, %w[%moff] matrix<F6_E2M3, 8x24, ColumnMajor> stride %stride
             : vector<24xf16>, memref<?xi8> -> vector<8xf16>
      %yb = arith.muli %t, %cm : index
      %g = vector.load %y[%yb] : memref<?xf16>, vector<8xf16>
      %rb = arith.bitcast %r : vector<8xf16> to vector<8xi16>
      %gb = arith.bitcast %g : vector<8xf16> to vector<8xi16>
      %ne = arith.cmpi ne, %rb, %gb : vector<8xi16>
      %ne32 = arith.extui %ne : vector<8xi1> to vector<8xi32>
      %cnt = vector.reduction <add>, %ne32 : vector<8xi32> into i32
      %cnti = arith.index_cast %cnt : i32 to index
      %next = arith.addi %acc, %cnti : index
      scf.yield %next : index
    }
    memref.dealloc %y : memref<?xf16>
    return %bad : index
  }
  func.func @check_f8_f32in(%x: memref<?xf32>, %w: memref<?xi8>, %b: memref<?xi8>, %n: index) -> index {
    %c0 = arith.constant 0 : index
    %ck = arith.constant 32 : index
    %cm = arith.constant 12 : index
    %moff = arith.constant 0 : index
    %stride = arith.constant 32 : index
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %ny = arith.muli %n, %cm : index
    %y = memref.alloc(%ny) : memref<?xf32>
    %np = arith.addi %n, %c63 : index
    %grid = arith.divui %np, %c64 : index
    gpu.launch_func @kernels::@f8_f32in blocks in (%grid, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%x : memref<?xf32>, %w : memref<?xi8>, %b : memref<?xi8>, %y : memref<?xf32>, %n : index)
    %bad = scf.for %t = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
      %xb = arith.muli %t, %ck : index
      %xv = vector.load %x[%xb] : memref<?xf32>, vector<32xf32>
      %r = coopvec.matvec %xv as F32, %w[%moff] matrix<F8_E5M2, 12x32, RowMajor> stride %stride
             bias %b[%c0] as F32
             : vector<32xf32>, memref<?xi8>, memref<?xi8> -> vector<12xf32>
      %yb = arith.muli %t, %cm : index
      %g = vector.load %y[%yb] : memref<?xf32>, vector<12xf32>
      %rb = arith.bitcast %r : vector<12xf32> to vector<12xi32>
      %gb = arith.bitcast %g : vector<12xf32> to vector<12xi32>
      %ne = arith.cmpi ne, %rb, %gb : vector<12xi32>
      %ne32 = arith.extui %ne : vector<12xi1> to vector<12xi32>
      %cnt = vector.reduction <add>, %ne32 : vector<12xi32> into i32
      %cnti = arith.index_cast %cnt : i32 to index
      %next = arith.addi %acc, %cnti : index
      scf.yield %next : index
    }
    memref.dealloc %y : memref<?xf32>
    return %bad : index
  }
}
