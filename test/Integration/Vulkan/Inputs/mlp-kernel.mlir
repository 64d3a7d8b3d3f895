// coopvec.mlp inside kernels on Vulkan (mlp-kernel.test): one invocation
// evaluates the network on a batch of 16 rows, the chain of matvecs and
// scalar code that convert-coopvec-to-spirv writes. Each @check_<case>
// launches the kernel once and compares its rows with the same coopvec.mlp
// on the host (the CPU runtime), returning the number of differing
// elements: bit for bit for the I8 network (exact sums, one f32 rounding
// per step, in the same order); for the float networks, whose sums the
// CPU's kernels take in another order, within 2^-12 absolute plus 2^-16
// relative, or 2^-12 relative where `exp` follows (GL.Exp against glibc's
// expf).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @i8(%x: memref<16x12xf32>, %w: memref<?xi8>, %b: memref<?xi8>, %s: memref<?xi8>, %q: f32, %y: memref<16x3xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c48 = arith.constant 48 : index
      %c64 = arith.constant 64 : index
      %c96 = arith.constant 96 : index
      %c128 = arith.constant 128 : index
      %c256 = arith.constant 256 : index
      %c512 = arith.constant 512 : index
      %c1024 = arith.constant 1024 : index
      coopvec.mlp %x layers [%w[%c0] matrix<I8, 16x12, RowMajor> stride %c16 bias %b[%c0] relu requant %s[%c0],
                         %w[%c256] matrix<I8, 8x16, InferencingOptimal> stride %c0 bias %b[%c64] none requant %s[%c64],
                         %w[%c512] matrix<I8, 3x8, ColumnMajor> stride %c16 bias %b[%c128] relu requant %s[%c96]]
        input_scale %q into %y
        : memref<16x12xf32>, memref<16x3xf32>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>
      gpu.return
    }
    gpu.func @f32(%x: memref<16x12xf32>, %w: memref<?xi8>, %b: memref<?xi8>, %y: memref<16x3xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c48 = arith.constant 48 : index
      %c64 = arith.constant 64 : index
      %c96 = arith.constant 96 : index
      %c128 = arith.constant 128 : index
      %c256 = arith.constant 256 : index
      %c512 = arith.constant 512 : index
      %c1024 = arith.constant 1024 : index
      coopvec.mlp %x layers [%w[%c0] matrix<F32, 16x12, RowMajor> stride %c48 bias %b[%c0] relu,
                         %w[%c1024] matrix<F32, 3x16, InferencingOptimal, transpose> stride %c0 bias %b[%c64] none]
        exp into %y
        : memref<16x12xf32>, memref<16x3xf32>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>
      gpu.return
    }
    gpu.func @f16(%x: memref<16x12xf32>, %w: memref<?xi8>, %b: memref<?xi8>, %y: memref<16x4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c48 = arith.constant 48 : index
      %c64 = arith.constant 64 : index
      %c96 = arith.constant 96 : index
      %c128 = arith.constant 128 : index
      %c256 = arith.constant 256 : index
      %c512 = arith.constant 512 : index
      %c1024 = arith.constant 1024 : index
      coopvec.mlp %x layers [%w[%c0] matrix<F16, 8x12, TrainingOptimal> stride %c0 relu,
                         %w[%c256] matrix<F16, 4x8, RowMajor> stride %c16 bias %b[%c0] none]
        into %y
        : memref<16x12xf32>, memref<16x4xf32>, memref<?xi8>, memref<?xi8>, memref<?xi8>
      gpu.return
    }
    gpu.func @bf16(%x: memref<16x12xf32>, %w: memref<?xi8>, %b: memref<?xi8>, %y: memref<16x3xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %c512 = arith.constant 512 : index
      %c1024 = arith.constant 1024 : index
      coopvec.mlp %x layers [%w[%c0] matrix<BF16, 16x12, RowMajor> stride %c32 bias %b[%c0] relu,
                         %w[%c512] matrix<BF16, 8x16, ColumnMajor> stride %c16 none,
                         %w[%c1024] matrix<BF16, 3x8, TrainingOptimal> stride %c0 bias %b[%c64] none]
        into %y
        : memref<16x12xf32>, memref<16x3xf32>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>
      gpu.return
    }
  }
  func.func @check_i8(%x: memref<?x12xf32>, %w: memref<?xi8>, %b: memref<?xi8>, %s: memref<?xi8>) -> index {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c48 = arith.constant 48 : index
    %c64 = arith.constant 64 : index
    %c96 = arith.constant 96 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %c512 = arith.constant 512 : index
    %c1024 = arith.constant 1024 : index
    %c1 = arith.constant 1 : index
    %rows = memref.dim %x, %c0 : memref<?x12xf32>
    %y = memref.alloc() : memref<16x3xf32>
    %yh = memref.alloc() : memref<16x3xf32>
    %xk = memref.cast %x : memref<?x12xf32> to memref<16x12xf32>
    %q = arith.constant 8.0 : f32
    gpu.launch_func @kernels::@i8 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%xk : memref<16x12xf32>, %w : memref<?xi8>, %b : memref<?xi8>, %s : memref<?xi8>, %q : f32, %y : memref<16x3xf32>)
    coopvec.mlp %xk layers [%w[%c0] matrix<I8, 16x12, RowMajor> stride %c16 bias %b[%c0] relu requant %s[%c0],
                         %w[%c256] matrix<I8, 8x16, InferencingOptimal> stride %c0 bias %b[%c64] none requant %s[%c64],
                         %w[%c512] matrix<I8, 3x8, ColumnMajor> stride %c16 bias %b[%c128] relu requant %s[%c96]]
        input_scale %q into %yh
      : memref<16x12xf32>, memref<16x3xf32>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>
    %bad = scf.for %r = %c0 to %c16 step %c1 iter_args(%acc = %c0) -> (index) {
      %g = vector.load %y[%r, %c0] : memref<16x3xf32>, vector<3xf32>
      %h = vector.load %yh[%r, %c0] : memref<16x3xf32>, vector<3xf32>
      %gb = arith.bitcast %g : vector<3xf32> to vector<3xi32>
      %hb = arith.bitcast %h : vector<3xf32> to vector<3xi32>
      %ne = arith.cmpi ne, %gb, %hb : vector<3xi32>
      %ne32 = arith.extui %ne : vector<3xi1> to vector<3xi32>
      %cnt = vector.reduction <add>, %ne32 : vector<3xi32> into i32
      %cnti = arith.index_cast %cnt : i32 to index
      %next = arith.addi %acc, %cnti : index
      scf.yield %next : index
    }
    memref.dealloc %y : memref<16x3xf32>
    memref.dealloc %yh : memref<16x3xf32>
    return %bad : index
  }
  func.func @check_f32(%x: memref<?x12xf32>, %w: memref<?xi8>, %b: memref<?xi8>) -> index {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c48 = arith.constant 48 : index
    %c64 = arith.constant 64 : index
    %c96 = arith.constant 96 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %c512 = arith.constant 512 : index
    %c1024 = arith.constant 1024 : index
    %c1 = arith.constant 1 : index
    %rows = memref.dim %x, %c0 : memref<?x12xf32>
    %y = memref.alloc() : memref<16x3xf32>
    %yh = memref.alloc() : memref<16x3xf32>
    %xk = memref.cast %x : memref<?x12xf32> to memref<16x12xf32>
    gpu.launch_func @kernels::@f32 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%xk : memref<16x12xf32>, %w : memref<?xi8>, %b : memref<?xi8>, %y : memref<16x3xf32>)
    coopvec.mlp %xk layers [%w[%c0] matrix<F32, 16x12, RowMajor> stride %c48 bias %b[%c0] relu,
                         %w[%c1024] matrix<F32, 3x16, InferencingOptimal, transpose> stride %c0 bias %b[%c64] none]
        exp into %yh
      : memref<16x12xf32>, memref<16x3xf32>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>
    %bad = scf.for %r = %c0 to %c16 step %c1 iter_args(%acc = %c0) -> (index) {
      %g = vector.load %y[%r, %c0] : memref<16x3xf32>, vector<3xf32>
      %h = vector.load %yh[%r, %c0] : memref<16x3xf32>, vector<3xf32>
      %rel = arith.constant dense<2.44140625e-04> : vector<3xf32>
      %abs = arith.constant dense<2.44140625e-04> : vector<3xf32>
      %d = arith.subf %g, %h : vector<3xf32>
      %ad = math.absf %d : vector<3xf32>
      %ah = math.absf %h : vector<3xf32>
      %t0 = arith.mulf %ah, %rel : vector<3xf32>
      %tol = arith.addf %t0, %abs : vector<3xf32>
      %ne = arith.cmpf ugt, %ad, %tol : vector<3xf32>
      %ne32 = arith.extui %ne : vector<3xi1> to vector<3xi32>
      %cnt = vector.reduction <add>, %ne32 : vector<3xi32> into i32
      %cnti = arith.index_cast %cnt : i32 to index
      %next = arith.addi %acc, %cnti : index
      scf.yield %next : index
    }
    memref.dealloc %y : memref<16x3xf32>
    memref.dealloc %yh : memref<16x3xf32>
    return %bad : index
  }
  func.func @check_f16(%x: memref<?x12xf32>, %w: memref<?xi8>, %b: memref<?xi8>) -> index {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c48 = arith.constant 48 : index
    %c64 = arith.constant 64 : index
    %c96 = arith.constant 96 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %c512 = arith.constant 512 : index
    %c1024 = arith.constant 1024 : index
    %c1 = arith.constant 1 : index
    %rows = memref.dim %x, %c0 : memref<?x12xf32>
    %y = memref.alloc() : memref<16x4xf32>
    %yh = memref.alloc() : memref<16x4xf32>
    %xk = memref.cast %x : memref<?x12xf32> to memref<16x12xf32>
    gpu.launch_func @kernels::@f16 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%xk : memref<16x12xf32>, %w : memref<?xi8>, %b : memref<?xi8>, %y : memref<16x4xf32>)
    coopvec.mlp %xk layers [%w[%c0] matrix<F16, 8x12, TrainingOptimal> stride %c0 relu,
                         %w[%c256] matrix<F16, 4x8, RowMajor> stride %c16 bias %b[%c0] none]
        into %yh
      : memref<16x12xf32>, memref<16x4xf32>, memref<?xi8>, memref<?xi8>, memref<?xi8>
    %bad = scf.for %r = %c0 to %c16 step %c1 iter_args(%acc = %c0) -> (index) {
      %g = vector.load %y[%r, %c0] : memref<16x4xf32>, vector<4xf32>
      %h = vector.load %yh[%r, %c0] : memref<16x4xf32>, vector<4xf32>
      %rel = arith.constant dense<1.52587890625e-05> : vector<4xf32>
      %abs = arith.constant dense<2.44140625e-04> : vector<4xf32>
      %d = arith.subf %g, %h : vector<4xf32>
      %ad = math.absf %d : vector<4xf32>
      %ah = math.absf %h : vector<4xf32>
      %t0 = arith.mulf %ah, %rel : vector<4xf32>
      %tol = arith.addf %t0, %abs : vector<4xf32>
      %ne = arith.cmpf ugt, %ad, %tol : vector<4xf32>
      %ne32 = arith.extui %ne : vector<4xi1> to vector<4xi32>
      %cnt = vector.reduction <add>, %ne32 : vector<4xi32> into i32
      %cnti = arith.index_cast %cnt : i32 to index
      %next = arith.addi %acc, %cnti : index
      scf.yield %next : index
    }
    memref.dealloc %y : memref<16x4xf32>
    memref.dealloc %yh : memref<16x4xf32>
    return %bad : index
  }
  func.func @check_bf16(%x: memref<?x12xf32>, %w: memref<?xi8>, %b: memref<?xi8>) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c512 = arith.constant 512 : index
    %c1024 = arith.constant 1024 : index
    %y = memref.alloc() : memref<16x3xf32>
    %yh = memref.alloc() : memref<16x3xf32>
    %xk = memref.cast %x : memref<?x12xf32> to memref<16x12xf32>
    gpu.launch_func @kernels::@bf16 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%xk : memref<16x12xf32>, %w : memref<?xi8>, %b : memref<?xi8>, %y : memref<16x3xf32>)
    coopvec.mlp %xk layers [%w[%c0] matrix<BF16, 16x12, RowMajor> stride %c32 bias %b[%c0] relu,
                         %w[%c512] matrix<BF16, 8x16, ColumnMajor> stride %c16 none,
                         %w[%c1024] matrix<BF16, 3x8, TrainingOptimal> stride %c0 bias %b[%c64] none]
        into %yh
      : memref<16x12xf32>, memref<16x3xf32>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>
    %bad = scf.for %r = %c0 to %c16 step %c1 iter_args(%acc = %c0) -> (index) {
      %g = vector.load %y[%r, %c0] : memref<16x3xf32>, vector<3xf32>
      %h = vector.load %yh[%r, %c0] : memref<16x3xf32>, vector<3xf32>
      %rel = arith.constant dense<1.52587890625e-05> : vector<3xf32>
      %abs = arith.constant dense<2.44140625e-04> : vector<3xf32>
      %d = arith.subf %g, %h : vector<3xf32>
      %ad = math.absf %d : vector<3xf32>
      %ah = math.absf %h : vector<3xf32>
      %t0 = arith.mulf %ah, %rel : vector<3xf32>
      %tol = arith.addf %t0, %abs : vector<3xf32>
      %ne = arith.cmpf ugt, %ad, %tol : vector<3xf32>
      %ne32 = arith.extui %ne : vector<3xi1> to vector<3xi32>
      %cnt = vector.reduction <add>, %ne32 : vector<3xi32> into i32
      %cnti = arith.index_cast %cnt : i32 to index
      %next = arith.addi %acc, %cnti : index
      scf.yield %next : index
    }
    memref.dealloc %y : memref<16x3xf32>
    memref.dealloc %yh : memref<16x3xf32>
    return %bad : index
  }
}
