// coopvec.batch_matvec inside kernels on Vulkan (batch-kernel.test): the
// invocation multiplies every row of its batch, a loop of matvecs after
// convert-coopvec-to-spirv. Each @check_<case> launches the kernel once (one
// invocation: the whole batch) and compares its rows bit for bit with the
// same batch_matvec on the host (the CPU runtime), returning the number of
// differing elements. The kernels' batches have 16 rows, static in the
// input, the output or both (a shader cannot read a buffer's size).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @f16(%x: memref<16x24xf32>, %w: memref<?xi8>, %b: memref<?xi8>, %y: memref<?x8xf16>) kernel {
      %c0 = arith.constant 0 : index
      %stride = arith.constant 48 : index
      coopvec.batch_matvec %x as F16, %w[%c0] matrix<F16, 8x24, RowMajor> stride %stride
          bias %b[%c0] as F16 into %y
          : memref<16x24xf32>, memref<?xi8>, memref<?xi8> -> memref<?x8xf16>
      gpu.return
    }
    gpu.func @i8(%x: memref<?x6xi32>, %w: memref<?xi8>, %b: memref<?xi8>, %y: memref<16x12xi32>) kernel {
      %c0 = arith.constant 0 : index
      coopvec.batch_matvec %x as PackedS8x32, %w[%c0] matrix<I8, 12x24, InferencingOptimal, transpose>
          bias %b[%c0] as I32 into %y
          : memref<?x6xi32>, memref<?xi8>, memref<?xi8> -> memref<16x12xi32>
      gpu.return
    }
    gpu.func @mxfp4(%x: memref<16x64xf16>, %w: memref<?xi8>, %s: memref<?xi8>, %y: memref<16x8xf32>) kernel {
      %c0 = arith.constant 0 : index
      %stride = arith.constant 16 : index
      coopvec.batch_matvec %x as F16, %w[%c0] matrix<F4_E2M1, 8x64, ColumnMajor, scale f8E8M0FNU block 32> stride %stride
          scales %s[%c0] : memref<?xi8> into %y
          : memref<16x64xf16>, memref<?xi8> -> memref<16x8xf32>
      gpu.return
    }
    gpu.func @bfp8(%x: memref<16x48xf32>, %w: memref<?xi8>, %s: memref<?xi8>, %b: memref<?xi8>, %y: memref<16x8xf32>) kernel {
      %c0 = arith.constant 0 : index
      %stride = arith.constant 48 : index
      coopvec.batch_matvec %x as BF16, %w[%c0] matrix<BFP8, 8x48, RowMajor, scale f8E8M0FNU block 16> stride %stride
          scales %s[%c0] : memref<?xi8> bias %b[%c0] as F32 fidelity<hifi2, dst = bf16, pack = f32, l1_acc, k_block = 32> into %y
          : memref<16x48xf32>, memref<?xi8>, memref<?xi8> -> memref<16x8xf32>
      gpu.return
    }
  }
  func.func @check_f16(%x: memref<?x24xf32>, %w: memref<?xi8>, %b: memref<?xi8>) -> index {
    %c0 = arith.constant 0 : index
    %stride = arith.constant 48 : index
    %c1 = arith.constant 1 : index
    %rows = memref.dim %x, %c0 : memref<?x24xf32>
    %y = memref.alloc(%rows) : memref<?x8xf16>
    %yh = memref.alloc(%rows) : memref<?x8xf16>
    %xk = memref.cast %x : memref<?x24xf32> to memref<16x24xf32>
    %yk = memref.cast %y : memref<?x8xf16> to memref<?x8xf16>
    gpu.launch_func @kernels::@f16 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%xk : memref<16x24xf32>, %w : memref<?xi8>, %b : memref<?xi8>, %yk : memref<?x8xf16>)
    coopvec.batch_matvec %x as F16, %w[%c0] matrix<F16, 8x24, RowMajor> stride %stride
        bias %b[%c0] as F16 into %yh
        : memref<?x24xf32>, memref<?xi8>, memref<?xi8> -> memref<?x8xf16>
    %bad = scf.for %r = %c0 to %rows step %c1 iter_args(%acc = %c0) -> (index) {
      %g = vector.load %y[%r, %c0] : memref<?x8xf16>, vector<8xf16>
      %h = vector.load %yh[%r, %c0] : memref<?x8xf16>, vector<8xf16>
      %gb = arith.bitcast %g : vector<8xf16> to vector<8xi16>
      %hb = arith.bitcast %h : vector<8xf16> to vector<8xi16>
      %ne = arith.cmpi ne, %gb, %hb : vector<8xi16>
      %ne32 = arith.extui %ne : vector<8xi1> to vector<8xi32>
      %cnt = vector.reduction <add>, %ne32 : vector<8xi32> into i32
      %cnti = arith.index_cast %cnt : i32 to index
      %next = arith.addi %acc, %cnti : index
      scf.yield %next : index
    }
    memref.dealloc %y : memref<?x8xf16>
    memref.dealloc %yh : memref<?x8xf16>
    return %bad : index
  }
  func.func @check_i8(%x: memref<?x6xi32>, %w: memref<?xi8>, %b: memref<?xi8>) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %rows = memref.dim %x, %c0 : memref<?x6xi32>
    %y = memref.alloc(%rows) : memref<?x12xi32>
    %yh = memref.alloc(%rows) : memref<?x12xi32>
    %xk = memref.cast %x : memref<?x6xi32> to memref<?x6xi32>
    %yk = memref.cast %y : memref<?x12xi32> to memref<16x12xi32>
    gpu.launch_func @kernels::@i8 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%xk : memref<?x6xi32>, %w : memref<?xi8>, %b : memref<?xi8>, %yk : memref<16x12xi32>)
    coopvec.batch_matvec %x as PackedS8x32, %w[%c0] matrix<I8, 12x24, InferencingOptimal, transpose>
        bias %b[%c0] as I32 into %yh
        : memref<?x6xi32>, memref<?xi8>, memref<?xi8> -> memref<?x12xi32>
    %bad = scf.for %r = %c0 to %rows step %c1 iter_args(%acc = %c0) -> (index) {
      %g = vector.load %y[%r, %c0] : memref<?x12xi32>, vector<12xi32>
      %h = vector.load %yh[%r, %c0] : memref<?x12xi32>, vector<12xi32>
      %ne = arith.cmpi ne, %g, %h : vector<12xi32>
      %ne32 = arith.extui %ne : vector<12xi1> to vector<12xi32>
      %cnt = vector.reduction <add>, %ne32 : vector<12xi32> into i32
      %cnti = arith.index_cast %cnt : i32 to index
      %next = arith.addi %acc, %cnti : index
      scf.yield %next : index
    }
    memref.dealloc %y : memref<?x12xi32>
    memref.dealloc %yh : memref<?x12xi32>
    return %bad : index
  }
  func.func @check_mxfp4(%x: memref<?x64xf16>, %w: memref<?xi8>, %s: memref<?xi8>) -> index {
    %c0 = arith.constant 0 : index
    %stride = arith.constant 16 : index
    %c1 = arith.constant 1 : index
    %rows = memref.dim %x, %c0 : memref<?x64xf16>
    %y = memref.alloc(%rows) : memref<?x8xf32>
    %yh = memref.alloc(%rows) : memref<?x8xf32>
    %xk = memref.cast %x : memref<?x64xf16> to memref<16x64xf16>
    %yk = memref.cast %y : memref<?x8xf32> to memref<16x8xf32>
    gpu.launch_func @kernels::@mxfp4 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%xk : memref<16x64xf16>, %w : memref<?xi8>, %s : memref<?xi8>, %yk : memref<16x8xf32>)
    coopvec.batch_matvec %x as F16, %w[%c0] matrix<F4_E2M1, 8x64, ColumnMajor, scale f8E8M0FNU block 32> stride %stride
        scales %s[%c0] : memref<?xi8> into %yh
        : memref<?x64xf16>, memref<?xi8> -> memref<?x8xf32>
    %bad = scf.for %r = %c0 to %rows step %c1 iter_args(%acc = %c0) -> (index) {
      %g = vector.load %y[%r, %c0] : memref<?x8xf32>, vector<8xf32>
      %h = vector.load %yh[%r, %c0] : memref<?x8xf32>, vector<8xf32>
      %gb = arith.bitcast %g : vector<8xf32> to vector<8xi32>
      %hb = arith.bitcast %h : vector<8xf32> to vector<8xi32>
      %ne = arith.cmpi ne, %gb, %hb : vector<8xi32>
      %ne32 = arith.extui %ne : vector<8xi1> to vector<8xi32>
      %cnt = vector.reduction <add>, %ne32 : vector<8xi32> into i32
      %cnti = arith.index_cast %cnt : i32 to index
      %next = arith.addi %acc, %cnti : index
      scf.yield %next : index
    }
    memref.dealloc %y : memref<?x8xf32>
    memref.dealloc %yh : memref<?x8xf32>
    return %bad : index
  }
  func.func @check_bfp8(%x: memref<?x48xf32>, %w: memref<?xi8>, %s: memref<?xi8>, %b: memref<?xi8>) -> index {
    %c0 = arith.constant 0 : index
    %stride = arith.constant 48 : index
    %c1 = arith.constant 1 : index
    %rows = memref.dim %x, %c0 : memref<?x48xf32>
    %y = memref.alloc(%rows) : memref<?x8xf32>
    %yh = memref.alloc(%rows) : memref<?x8xf32>
    %xk = memref.cast %x : memref<?x48xf32> to memref<16x48xf32>
    %yk = memref.cast %y : memref<?x8xf32> to memref<16x8xf32>
    gpu.launch_func @kernels::@bfp8 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%xk : memref<16x48xf32>, %w : memref<?xi8>, %s : memref<?xi8>, %b : memref<?xi8>, %yk : memref<16x8xf32>)
    coopvec.batch_matvec %x as BF16, %w[%c0] matrix<BFP8, 8x48, RowMajor, scale f8E8M0FNU block 16> stride %stride
        scales %s[%c0] : memref<?xi8> bias %b[%c0] as F32 fidelity<hifi2, dst = bf16, pack = f32, l1_acc, k_block = 32> into %yh
        : memref<?x48xf32>, memref<?xi8>, memref<?xi8> -> memref<?x8xf32>
    %bad = scf.for %r = %c0 to %rows step %c1 iter_args(%acc = %c0) -> (index) {
      %g = vector.load %y[%r, %c0] : memref<?x8xf32>, vector<8xf32>
      %h = vector.load %yh[%r, %c0] : memref<?x8xf32>, vector<8xf32>
      %gb = arith.bitcast %g : vector<8xf32> to vector<8xi32>
      %hb = arith.bitcast %h : vector<8xf32> to vector<8xi32>
      %ne = arith.cmpi ne, %gb, %hb : vector<8xi32>
      %ne32 = arith.extui %ne : vector<8xi1> to vector<8xi32>
      %cnt = vector.reduction <add>, %ne32 : vector<8xi32> into i32
      %cnti = arith.index_cast %cnt : i32 to index
      %next = arith.addi %acc, %cnti : index
      scf.yield %next : index
    }
    memref.dealloc %y : memref<?x8xf32>
    memref.dealloc %yh : memref<?x8xf32>
    return %bad : index
  }
}
