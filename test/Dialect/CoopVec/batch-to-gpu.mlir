// RUN: coopvec-opt %s --coopvec-batch-to-gpu | FileCheck %s
// RUN: coopvec-opt %s --coopvec-batch-to-gpu=block-size=256 | FileCheck %s --check-prefix=B256
// The kernel after outlining: known_block_size from the launch, a stage per
// warp (4 x 1 KiB) and the tensor-core step in the PTX.
// RUN: coopvec-opt %s --coopvec-batch-to-gpu --gpu-kernel-outlining \
// RUN:   --coopvec-nvvm-pipeline="chip=sm_90 format=isa" \
// RUN:   | sed -e 's/\\0A/\n/g' -e 's/\\09/ /g' | FileCheck %s --check-prefix=PTX

// CHECK: module attributes {gpu.container_module}
// The sites of the run-time row checks, named as the CPU lowering does.
// CHECK-DAG: llvm.mlir.global internal constant @[[$SITE:__coopvec_gpu_site_0]]("coopvec.batch_matvec at {{.*}}batch-to-gpu.mlir:[[@LINE+69]]:3\00")
// CHECK-DAG: func.func private @coopvecCpuReportError(i32, !llvm.ptr)
// CHECK-LABEL: func.func @f16(
// CHECK-SAME: %[[X:[^:]*]]: memref<?x64xf16>, %[[W:[^:]*]]: memref<?xi8>, %[[B:[^:]*]]: memref<?xi8>, %[[OFF:[^:]*]]: index, %[[Y:[^:]*]]: memref<?x48xf32>)
// Dynamic row counts: COOPVEC_ERROR_INVALID_DIMENSIONS (-2) unless equal.
// CHECK: %[[ROWS:.*]] = memref.dim %[[X]], %{{.*}} : memref<?x64xf16>
// CHECK: %[[OUTROWS:.*]] = memref.dim %[[Y]], %{{.*}} : memref<?x48xf32>
// CHECK: %[[DIFFER:.*]] = arith.cmpi ne, %[[ROWS]], %[[OUTROWS]] : index
// CHECK: scf.if %[[DIFFER]] {
// CHECK: %[[STATUS:.*]] = arith.constant -2 : i32
// CHECK: %[[AT:.*]] = llvm.mlir.addressof @[[$SITE]] : !llvm.ptr
// CHECK: func.call @coopvecCpuReportError(%[[STATUS]], %[[AT]]) : (i32, !llvm.ptr) -> ()
// The buffers the product reads are copied to the device, the outputs only
// allocated.
// CHECK: %[[DX:.*]] = gpu.alloc  (%{{.*}}) : memref<?x64xf16>
// CHECK-NEXT: gpu.memcpy  %[[DX]], %[[X]]
// CHECK: %[[DW:.*]] = gpu.alloc  (%{{.*}}) : memref<?xi8>
// CHECK-NEXT: gpu.memcpy  %[[DW]], %[[W]]
// CHECK: %[[DB:.*]] = gpu.alloc  (%{{.*}}) : memref<?xi8>
// CHECK-NEXT: gpu.memcpy  %[[DB]], %[[B]]
// CHECK: %[[DY:.*]] = gpu.alloc  (%{{.*}}) : memref<?x48xf32>
// CHECK-NOT: gpu.memcpy
// One thread per row: ceil(rows / 128) blocks of 128, at least one.
// CHECK: %[[C128:.*]] = arith.constant 128 : index
// CHECK: %[[C127:.*]] = arith.constant 127 : index
// CHECK: %[[UP:.*]] = arith.addi %[[ROWS]], %[[C127]] : index
// CHECK: %[[BLOCKS:.*]] = arith.divui %[[UP]], %[[C128]] : index
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[GRID:.*]] = arith.maxui %[[BLOCKS]], %[[C1]] : index
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[GRID]], %{{.*}} = %[[ONE:.*]], %{{.*}} = %[[ONE]]) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C128]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]])
// CHECK: %[[FIRST:.*]] = arith.muli %[[BX]], %[[C128]] : index
// CHECK: %[[ROW:.*]] = arith.addi %[[FIRST]], %[[TX]] : index
// CHECK: %[[LIVE:.*]] = arith.cmpi ult, %[[ROW]], %[[ROWS]] : index
// CHECK: scf.if %[[LIVE]] {
// 128-byte input rows and 192-byte output rows: 16-byte aligned.
// CHECK: %[[V:.*]] = vector.load %[[DX]][%[[ROW]], %{{.*}}] {alignment = 16 : i64} : memref<?x64xf16>, vector<64xf16>
// CHECK: %[[R:.*]] = coopvec.matvec %[[V]] as F16, %[[DW]][%[[OFF]]] matrix<F16, 48x64, RowMajor> stride %{{.*}} bias %[[DB]][%{{.*}}] as F32 : vector<64xf16>, memref<?xi8>, memref<?xi8> -> vector<48xf32>
// CHECK: vector.store %[[R]], %[[DY]][%[[ROW]], %{{.*}}] {alignment = 16 : i64} : memref<?x48xf32>, vector<48xf32>
// CHECK: gpu.terminator
// The results come back, then every device buffer is freed.
// CHECK: gpu.memcpy  %[[Y]], %[[DY]]
// CHECK-NEXT: gpu.dealloc  %[[DX]]
// CHECK-NEXT: gpu.dealloc  %[[DW]]
// CHECK-NEXT: gpu.dealloc  %[[DB]]
// CHECK-NEXT: gpu.dealloc  %[[DY]]
// CHECK-NOT: coopvec.batch_matvec
// CHECK-LABEL: func.func @int8(
// CHECK: scf.if
// CHECK: func.call @coopvecCpuReportError
// 20-byte rows: 4-byte alignment.
// CHECK: vector.load {{.*}} {alignment = 4 : i64} : memref<?x5xi32>, vector<5xi32>
// CHECK: coopvec.matvec {{.*}} as PackedU8x32, {{.*}} matrix<U8, 20x20, ColumnMajor> stride {{.*}} : vector<5xi32>, memref<?xi8> -> vector<20xi32>
// CHECK: vector.store {{.*}} {alignment = 16 : i64} : memref<?x20xi32>, vector<20xi32>

// B256: %[[C256:.*]] = arith.constant 256 : index
// B256: %[[C255:.*]] = arith.constant 255 : index
// B256: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %[[C256]],

// PTX: func.func @f16
// PTX: gpu.launch_func  @f16_kernel::@f16_kernel blocks in ({{.*}}) threads in ({{.*}})
// PTX: gpu.binary @f16_kernel
// PTX: .shared .align 16 .b8 __coopvec_warp_stage[4096];
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX: gpu.binary @int8_kernel
// PTX: mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32
func.func @f16(%x: memref<?x64xf16>, %w: memref<?xi8>, %b: memref<?xi8>,
               %off: index, %y: memref<?x48xf32>) {
  %c0 = arith.constant 0 : index
  %stride = arith.constant 128 : index
  coopvec.batch_matvec %x as F16, %w[%off] matrix<F16, 48x64, RowMajor> stride %stride
      bias %b[%c0] as F32 into %y
      : memref<?x64xf16>, memref<?xi8>, memref<?xi8> -> memref<?x48xf32>
  return
}

func.func @int8(%x: memref<?x5xi32>, %w: memref<?xi8>, %y: memref<?x20xi32>) {
  %c0 = arith.constant 0 : index
  %stride = arith.constant 32 : index
  coopvec.batch_matvec %x as PackedU8x32, %w[%c0] matrix<U8, 20x20, ColumnMajor> stride %stride
      into %y
      : memref<?x5xi32>, memref<?xi8> -> memref<?x20xi32>
  return
}

// Static row counts are the verifier's: no run-time check.
// CHECK-LABEL: func.func @static(
// CHECK-NOT: coopvecCpuReportError
// CHECK: gpu.launch
func.func @static(%x: memref<4x64xf16>, %w: memref<2048xi8>, %y: memref<4x16xf32>) {
  %c0 = arith.constant 0 : index
  %stride = arith.constant 128 : index
  coopvec.batch_matvec %x as F16, %w[%c0] matrix<F16, 16x64, RowMajor> stride %stride
      into %y : memref<4x64xf16>, memref<2048xi8> -> memref<4x16xf32>
  return
}


// The quantized form has no per-row matvec: each thread runs the op itself
// on one-row views of the batches and of the input-side values grouped
// along K (one row per batch row); per-tensor ones are shared.
// CHECK-LABEL: func.func @quantized(
// CHECK-SAME: %[[X:[^:]*]]: memref<?x64xi8>, %[[W:[^:]*]]: memref<?xi8>, %[[SX:[^:]*]]: memref<?x2xf32>, %[[ZX:[^:]*]]: memref<1x1xi8>, %[[Y:[^:]*]]: memref<?x16xf32>)
// CHECK: %[[DX:.*]] = gpu.alloc
// CHECK: %[[DW:.*]] = gpu.alloc
// CHECK: %[[DY:.*]] = gpu.alloc
// CHECK: %[[DZX:.*]] = gpu.alloc
// CHECK: %[[DSX:.*]] = gpu.alloc
// CHECK: gpu.launch
// CHECK: scf.if
// CHECK-DAG: %[[RX:.*]] = memref.subview %[[DX]][%[[ROW:.*]], 0] [1, 64] [1, 1] : memref<?x64xi8> to memref<1x64xi8, strided<[64, 1], offset: ?>>
// CHECK-DAG: %[[RY:.*]] = memref.subview %[[DY]][%[[ROW]], 0] [1, 16] [1, 1] : memref<?x16xf32> to memref<1x16xf32, strided<[16, 1], offset: ?>>
// CHECK-DAG: %[[RSX:.*]] = memref.subview %[[DSX]][%[[ROW]], 0] [1, 2] [1, 1] : memref<?x2xf32> to memref<1x2xf32, strided<[2, 1], offset: ?>>
// CHECK: coopvec.batch_matvec %[[RX]] as I8, %[[DW]][%{{[a-z0-9_]+}}] matrix<U8, 16x64, RowMajor> stride %{{[a-z0-9_]+}}
// CHECK-SAME: input_zero_points %[[DZX]] as I8 per_tensor
// CHECK-SAME: input_scales %[[RSX]] as F32 group 32
// CHECK-SAME: into %[[RY]]
// CHECK: gpu.terminator
// CHECK: gpu.memcpy  %[[Y]], %[[DY]]
func.func @quantized(%x: memref<?x64xi8>, %w: memref<?xi8>, %sx: memref<?x2xf32>,
                     %zx: memref<1x1xi8>, %y: memref<?x16xf32>) {
  %c0 = arith.constant 0 : index
  %stride = arith.constant 64 : index
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<U8, 16x64, RowMajor> stride %stride
      weight_zero_points %w[%c0] as U8 per_tensor : memref<?xi8>
      input_zero_points %zx as I8 per_tensor : memref<1x1xi8>
      input_scales %sx as F32 group 32 : memref<?x2xf32>
      into %y : memref<?x64xi8>, memref<?xi8> -> memref<?x16xf32>
  return
}
