// RUN: coopvec-opt %s --coopvec-batch-to-gpu | FileCheck %s
// The kernel after outlining, through the NVIDIA pipeline: each layer of
// the I8 network on tensor cores (s8 inputs, then u8 after the ReLU).
// RUN: coopvec-opt %s --coopvec-batch-to-gpu --gpu-kernel-outlining \
// RUN:   --coopvec-nvvm-pipeline="chip=sm_90 format=isa" \
// RUN:   | sed -e 's/\\0A/\n/g' -e 's/\\09/ /g' | FileCheck %s --check-prefix=PTX

// A host coopvec.mlp becomes one launch of a thread per row that runs the
// network's chain of matvecs on its row. Every buffer is copied once,
// however many operands name it (here one buffer holds weights, biases and
// requant scales).
// CHECK-LABEL: func.func @i8(
// CHECK-SAME: %[[X:[^:]*]]: memref<?x12xf32>, %[[P:[^:]*]]: memref<?xi8>, %[[Q:[^:]*]]: f32, %[[Y:[^:]*]]: memref<?x3xf32>)
// CHECK: %[[DX:.*]] = gpu.alloc  (%{{.*}}) : memref<?x12xf32>
// CHECK-NEXT: gpu.memcpy  %[[DX]], %[[X]]
// CHECK: %[[DP:.*]] = gpu.alloc  (%{{.*}}) : memref<?xi8>
// CHECK-NEXT: gpu.memcpy  %[[DP]], %[[P]]
// CHECK: %[[DY:.*]] = gpu.alloc  (%{{.*}}) : memref<?x3xf32>
// CHECK-NOT: gpu.alloc
// CHECK-NOT: gpu.memcpy
// CHECK: gpu.launch
// 48-byte rows: 16-byte aligned loads; 12-byte result rows: 4-byte aligned.
// CHECK: %[[V:.*]] = vector.load %[[DX]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<?x12xf32>, vector<12xf32>
// The row times the input scale, read as I8; the exact sum plus bias as f32.
// CHECK: arith.mulf %{{.*}}, %[[Q]] : f32
// CHECK: %[[L0:.*]] = coopvec.matvec %{{.*}} as I8, %[[DP]][%{{.*}}] matrix<I8, 16x12, RowMajor> stride %{{.*}} bias %[[DP]][%{{.*}}] as I32 : vector<12xf32>, memref<?xi8>, memref<?xi8> -> vector<16xf32>
// ReLU, then the row's requant scale (four bytes, little-endian).
// CHECK: arith.cmpf ogt
// CHECK: arith.select
// CHECK: memref.load %[[DP]]
// CHECK: arith.bitcast %{{.*}} : i32 to f32
// CHECK: arith.mulf
// After a ReLU the next layer reads U8.
// CHECK: coopvec.matvec %{{.*}} as U8, %[[DP]][%{{.*}}] matrix<I8, 3x16, ColumnMajor> stride %{{.*}} bias %[[DP]][%{{.*}}] as I32 : vector<16xf32>, memref<?xi8>, memref<?xi8> -> vector<3xf32>
// CHECK: math.exp
// CHECK: vector.store %{{.*}}, %[[DY]][%{{.*}}, %{{.*}}] {alignment = 4 : i64} : memref<?x3xf32>, vector<3xf32>
// CHECK: gpu.terminator
// CHECK: gpu.memcpy  %[[Y]], %[[DY]]
// CHECK-NEXT: gpu.dealloc  %[[DX]]
// CHECK-NEXT: gpu.dealloc  %[[DP]]
// CHECK-NEXT: gpu.dealloc  %[[DY]]
// CHECK-NOT: coopvec.mlp

// PTX: gpu.binary @i8_kernel
// PTX-DAG: mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32
// PTX-DAG: mma.sync.aligned.m16n8k32.row.col.s32.s8.u8.s32
// PTX-DAG: cvt.rn.f32.s64
func.func @i8(%x: memref<?x12xf32>, %p: memref<?xi8>, %q: f32, %y: memref<?x3xf32>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c512 = arith.constant 512 : index
  %c1024 = arith.constant 1024 : index
  %c1088 = arith.constant 1088 : index
  %c1536 = arith.constant 1536 : index
  %c1600 = arith.constant 1600 : index
  coopvec.mlp %x layers [%p[%c0] matrix<I8, 16x12, RowMajor> stride %c16 bias %p[%c1024] relu requant %p[%c1536],
                         %p[%c512] matrix<I8, 3x16, ColumnMajor> stride %c16 bias %p[%c1088] none requant %p[%c1600]]
    input_scale %q exp into %y
    : memref<?x12xf32>, memref<?x3xf32>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>
  return
}

// A BF16 network launches the same way: each layer a BF16 matvec reading
// its input (the row, then the hidden values) as BF16; on NVIDIA, bf16
// tensor cores.
// CHECK-LABEL: func.func @bf16(
// CHECK: gpu.launch
// CHECK: coopvec.matvec %{{.*}} as BF16, %{{.*}}[%{{.*}}] matrix<BF16, 16x12, RowMajor> stride %{{.*}} bias %{{.*}}[%{{.*}}] as F32 : vector<12xf32>, memref<?xi8>, memref<?xi8> -> vector<16xf32>
// CHECK: arith.cmpf ogt
// CHECK: arith.select
// CHECK: coopvec.matvec %{{.*}} as BF16, %{{.*}}[%{{.*}}] matrix<BF16, 3x16, RowMajor> stride %{{.*}} : vector<16xf32>, memref<?xi8> -> vector<3xf32>
// CHECK-NOT: math.exp
// CHECK: gpu.terminator
// CHECK-NOT: coopvec.mlp

// PTX: gpu.binary @bf16_kernel
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
func.func @bf16(%x: memref<?x12xf32>, %p: memref<?xi8>, %y: memref<?x3xf32>) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c512 = arith.constant 512 : index
  %c1024 = arith.constant 1024 : index
  coopvec.mlp %x layers [%p[%c0] matrix<BF16, 16x12, RowMajor> stride %c32 bias %p[%c1024] relu,
                         %p[%c512] matrix<BF16, 3x16, RowMajor> stride %c32 none]
    into %y : memref<?x12xf32>, memref<?x3xf32>, memref<?xi8>, memref<?xi8>, memref<?xi8>
  return
}
