// RUN: coopvec-opt %s --convert-coopvec-to-nvvm --canonicalize | FileCheck %s
// In the PTX, F32 products per lane with two roundings each (no fma), the I8
// layers' exact sums rounded once to f32, s8 and u8 inputs on tensor cores,
// BF16 layers on tensor cores.
// RUN: coopvec-opt %s --coopvec-nvvm-pipeline="chip=sm_90 format=isa" \
// RUN:   | sed -e 's/\\0A/\n/g' -e 's/\\09/ /g' | FileCheck %s --check-prefix=PTX

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // A batch in a kernel: the thread multiplies every row, as many as the
    // smaller batch has (dynamic here), one coopvec.matvec per row.
    // CHECK-LABEL: gpu.func @batch
    // CHECK-DAG: %[[IN:.*]] = memref.dim %arg0, %c0 : memref<?x32xf16>
    // CHECK-DAG: %[[OUT:.*]] = memref.dim %arg2, %c0 : memref<?x16xf32>
    // CHECK: %[[ROWS:.*]] = arith.minui %[[IN]], %[[OUT]] : index
    // CHECK: scf.for %[[ROW:.*]] = %c0 to %[[ROWS]] step %c1 {
    // CHECK:   vector.load %arg0[%[[ROW]], %c0] : memref<?x32xf16>, vector<32xf16>
    // CHECK:   llvm.call_intrinsic "llvm.nvvm.activemask"
    // CHECK:   nvvm.mma.sync
    // CHECK:   vector.store %{{.*}}, %arg2[%[[ROW]], %c0] : memref<?x16xf32>, vector<16xf32>
    gpu.func @batch(%x: memref<?x32xf16>, %w: memref<?xi8>, %y: memref<?x16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      coopvec.batch_matvec %x as F16, %w[%c0] matrix<F16, 16x32, RowMajor> stride %c64
          into %y : memref<?x32xf16>, memref<?xi8> -> memref<?x16xf32>
      gpu.return
    }

    // An I8 network: the row times input_scale, read as I8 by the first
    // layer; each layer's exact sum plus the I32 bias rounded once to f32,
    // ReLU (x > 0 ? x : 0), times the row's requant scale (read through an
    // f32 view of the byte buffer); the hidden layer's values read as U8
    // by the next.
    // CHECK-LABEL: gpu.func @mlp_i8
    // CHECK: scf.for
    // CHECK: arith.mulf %{{.*}}, %arg4 : f32
    // CHECK: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<s8>, multiplicandBPtxType = #nvvm.mma_type<s8>, shape = #nvvm.shape<m = 16, n = 8, k = 32>
    // CHECK: arith.sitofp %{{.*}} : i64 to f32
    // CHECK: memref.view %arg3[%c0][%{{.*}}] : memref<?xi8> to memref<?xf32>
    // CHECK-NOT: memref.view %arg3
    // CHECK: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<s8>, multiplicandBPtxType = #nvvm.mma_type<u8>, shape = #nvvm.shape<m = 16, n = 8, k = 32>
    // CHECK: vector.store %{{.*}}, %arg5[%{{.*}}, %c0] : memref<4x3xf32>, vector<3xf32>
    gpu.func @mlp_i8(%x: memref<4x12xf32>, %w: memref<?xi8>, %b: memref<?xi8>, %s: memref<?xi8>, %q: f32, %y: memref<4x3xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %c256 = arith.constant 256 : index
      coopvec.mlp %x layers [%w[%c0] matrix<I8, 16x12, RowMajor> stride %c16 bias %b[%c0] relu requant %s[%c0],
                         %w[%c256] matrix<I8, 3x16, RowMajor> stride %c16 bias %b[%c64] none requant %s[%c64]]
        input_scale %q into %y
        : memref<4x12xf32>, memref<4x3xf32>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>
      gpu.return
    }

    // A float network reads F32 activations: F16 weights times F32 inputs
    // have no mma.sync with the reference's numerics, so every layer takes
    // the per-lane path; exp at the end.
    // CHECK-LABEL: gpu.func @mlp_f16
    // CHECK-NOT: nvvm.mma.sync
    // CHECK: math.exp
    // CHECK: gpu.return
    gpu.func @mlp_f16(%x: memref<2x8xf32>, %w: memref<?xi8>, %b: memref<?xi8>, %y: memref<2x4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c512 = arith.constant 512 : index
      coopvec.mlp %x layers [%w[%c0] matrix<F16, 8x8, RowMajor> stride %c16 bias %b[%c0] relu,
                         %w[%c512] matrix<F16, 4x8, ColumnMajor> stride %c16 none]
        exp into %y
        : memref<2x8xf32>, memref<2x4xf32>, memref<?xi8>, memref<?xi8>, memref<?xi8>
      gpu.return
    }

    // A BF16 network: each layer a BF16 matvec whose input (the row, then
    // the activation) is read as BF16, so the tensor-core step takes it
    // (m16n8k16.bf16); the F32 bias and the ReLU as for F16 networks.
    // CHECK-LABEL: gpu.func @mlp_bf16
    // CHECK: arith.truncf %{{.*}} : f32 to bf16
    // CHECK: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<bf16>
    // CHECK: arith.cmpf ogt
    // CHECK: arith.truncf %{{.*}} : f32 to bf16
    // CHECK: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<bf16>
    // CHECK: gpu.return
    gpu.func @mlp_bf16(%x: memref<2x16xf32>, %w: memref<?xi8>, %b: memref<?xi8>, %y: memref<2x8xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %c1024 = arith.constant 1024 : index
      coopvec.mlp %x layers [%w[%c0] matrix<BF16, 16x16, RowMajor> stride %c32 bias %b[%c0] relu,
                         %w[%c1024] matrix<BF16, 8x16, ColumnMajor> stride %c32 none]
        into %y
        : memref<2x16xf32>, memref<2x8xf32>, memref<?xi8>, memref<?xi8>, memref<?xi8>
      gpu.return
    }

    // An F32 matrix: per lane only, f32 loads of the weights, the f16 input
    // read as F32 exactly.
    // CHECK-LABEL: gpu.func @f32_matrix
    // CHECK-NOT: nvvm.mma.sync
    // CHECK: arith.extf %{{.*}} : f16 to f32
    // CHECK: memref.view %arg1[%c0][%{{.*}}] : memref<?xi8> to memref<?xf32>
    // CHECK: gpu.return
    gpu.func @f32_matrix(%x: vector<8xf16>, %w: memref<?xi8>, %y: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %r = coopvec.matvec %x as F32, %w[%c0] matrix<F32, 4x8, RowMajor> stride %c32
             : vector<8xf16>, memref<?xi8> -> vector<4xf32>
      vector.store %r, %y[%c0] : memref<?xf32>, vector<4xf32>
      gpu.return
    }
  }
}

// PTX-LABEL: .entry batch(
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-LABEL: .entry mlp_i8(
// PTX-DAG: mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32
// PTX-DAG: cvt.rn.f32.s64
// PTX-DAG: mma.sync.aligned.m16n8k32.row.col.s32.s8.u8.s32
// PTX-LABEL: .entry mlp_f16(
// PTX-NOT: mma.sync
// PTX-NOT: fma.rn.f32
// PTX: mul.rn.f32
// PTX: add.rn.f32
// PTX-NOT: mma.sync
// PTX: ex2.approx
// PTX-LABEL: .entry mlp_bf16(
// PTX: cvt.rn.bf16.f32
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX-LABEL: .entry f32_matrix(
// PTX-NOT: mma.sync
// PTX-NOT: fma.rn.f32
// PTX: mul.rn.f32
// PTX: add.rn.f32
