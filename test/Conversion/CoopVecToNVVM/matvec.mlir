// RUN: coopvec-opt %s --convert-coopvec-to-nvvm --canonicalize | FileCheck %s
// RUN: coopvec-opt %s --convert-coopvec-to-nvvm=cooperative=false --canonicalize | FileCheck %s --check-prefix=LANE

// The cooperative step: a full warp (activemask) that has a stage in shared
// memory (its index in the block below stage-warps, 8 by default: 8 x 256
// words) and agrees on the matrix (lane 0's pointer and dynamic offset,
// shuffled and voted; the constant stride needs no check), then mma.sync
// with the lanes' vectors as B.
// CHECK: gpu.module @kernels {
// CHECK-NEXT: memref.global "private" @__coopvec_warp_stage : memref<2048xi32, #gpu.address_space<workgroup>> = uninitialized {alignment = 16 : i64}
// CHECK-LABEL: gpu.func @f16
// CHECK: %[[STAGE:.*]] = memref.get_global @__coopvec_warp_stage
// CHECK: %[[LINEAR:.*]] = arith.addi %thread_id_x,
// CHECK: %[[WARP:.*]] = arith.divui %[[LINEAR]], %c32 : index
// CHECK: %[[STAGED:.*]] = arith.cmpi ult, %[[WARP]], %c8 : index
// CHECK: %[[MASK:.*]] = llvm.call_intrinsic "llvm.nvvm.activemask"() : () -> i32
// CHECK: %[[FULL:.*]] = arith.cmpi eq, %[[MASK]], %c-1_i32
// CHECK: %[[GO:.*]] = arith.andi %[[FULL]], %[[STAGED]] : i1
// CHECK: %[[SAME:.*]] = scf.if %[[GO]] -> (i1) {
// CHECK:   memref.extract_aligned_pointer_as_index %arg1
// CHECK-COUNT-4: gpu.shuffle  idx {{.*}}, %c0_i32, %c32_i32 : i32
// CHECK-NOT: gpu.shuffle
// CHECK:   %[[ALL:.*]] = nvvm.vote.sync  all %c-1_i32, %{{.*}} -> i1
// CHECK:   scf.yield %[[ALL]] : i1
// CHECK: } else {
// CHECK:   scf.yield %false : i1
// CHECK: %[[SUMS:.*]] = scf.if %[[SAME]] -> (vector<16xf32>) {
// CHECK:   gpu.lane_id
// The B fragments through the stage: the lane's eight words of the k-tile
// (the four past K are zero), a warp barrier, the eight registers.
// CHECK-COUNT-8: memref.store {{.*}}, %[[STAGE]][{{.*}}] : memref<2048xi32, #gpu.address_space<workgroup>>
// CHECK-NEXT: nvvm.bar.warp.sync %c-1_i32 : i32
// CHECK-COUNT-8: memref.load %[[STAGE]]
// CHECK-NEXT: nvvm.bar.warp.sync %c-1_i32 : i32
// CHECK-NOT: gpu.shuffle
// CHECK:   memref.view %arg1[%c0][%{{.*}}] : memref<?xi8> to memref<?xi32>
// CHECK-COUNT-4: nvvm.mma.sync A[{{.*}}]  B[{{.*}}]  C[{{.*}}]  {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// The accumulators back to their lanes through the stage, eight rows at a
// time: eight stores (f32 bits), a barrier, eight loads, a barrier.
// CHECK-COUNT-2: arith.bitcast {{.*}} : f32 to i32
// CHECK: memref.store {{.*}}, %[[STAGE]]
// CHECK: nvvm.bar.warp.sync
// CHECK: %[[ROW0:.*]] = memref.load %[[STAGE]]
// CHECK-NEXT: arith.bitcast %[[ROW0]] : i32 to f32
// CHECK: nvvm.bar.warp.sync
// CHECK: memref.store {{.*}}, %[[STAGE]]
// CHECK: nvvm.bar.warp.sync
// CHECK: memref.load %[[STAGE]]
// CHECK: nvvm.bar.warp.sync
// CHECK-NOT: gpu.shuffle
// CHECK:   scf.yield {{.*}} : vector<16xf32>
// CHECK: } else {
// CHECK:   memref.view %arg1[%c0][%{{.*}}] : memref<?xi8> to memref<?xf16>
// CHECK:   arith.mulf
// CHECK-NEXT: arith.addf
// CHECK:   scf.yield {{.*}} : vector<16xf32>
// The bias (f32 add) and the f16 conversion with saturation after both.
// CHECK: memref.view %arg2[%c0][%{{.*}}] : memref<?xi8> to memref<?xf32>
// CHECK: arith.addf
// CHECK: arith.truncf {{.*}} : f32 to f16
// CHECK: arith.ori {{.*}}, %c31743_i32

// No stage without the cooperative step.
// LANE-NOT: __coopvec_warp_stage
// LANE-LABEL: gpu.func @f16
// LANE-NOT: nvvm.mma.sync
// LANE-NOT: activemask
// LANE: arith.mulf
// LANE-NOT: math.fma
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @f16(%x: vector<8xf16>, %w: memref<?xi8>, %b: memref<?xi8>,
                  %off: index, %y: memref<?xf16>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 16 : index
      %r = coopvec.matvec %x as F16, %w[%off] matrix<F16, 16x8, RowMajor> stride %s
             bias %b[%c0] as F32
             : vector<8xf16>, memref<?xi8>, memref<?xi8> -> vector<16xf16>
      vector.store %r, %y[%c0] : memref<?xf16>, vector<16xf16>
      gpu.return
    }

// Packed signed input, unsigned matrix: m16n8k32 u8 x s8 with wrapping s32
// accumulators; the per-lane path multiplies exact i32 values. The dynamic
// stride is compared too (pointer and stride: four shuffles).
// CHECK-LABEL: gpu.func @int8
// CHECK: memref.get_global @__coopvec_warp_stage
// CHECK-COUNT-4: gpu.shuffle  idx {{.*}}, %c0_i32, %c32_i32 : i32
// CHECK: nvvm.vote.sync
// CHECK: nvvm.mma.sync A[{{.*}}]  B[{{.*}}]  C[{{.*}}]  {intOverflowBehavior = #nvvm.mma_int_overflow<wrapped>, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<u8>, multiplicandBPtxType = #nvvm.mma_type<s8>, shape = #nvvm.shape<m = 16, n = 8, k = 32>} : (i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK: %[[P:.*]] = arith.muli
// CHECK: arith.addi {{.*}}%[[P]]
// The I32 bias in i64, saturated to i32.
// CHECK: arith.extsi {{.*}} : i32 to i64
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: arith.trunci {{.*}} : i64 to i32
    gpu.func @int8(%x: vector<8xi32>, %w: memref<?xi8>, %b: memref<?xi8>,
                   %s: index, %y: memref<?xi32>) kernel {
      %c0 = arith.constant 0 : index
      %r = coopvec.matvec %x as PackedS8x32, %w[%c0] matrix<U8, 16x32, RowMajor> stride %s
             bias %b[%c0] as I32
             : vector<8xi32>, memref<?xi8>, memref<?xi8> -> vector<16xi32>
      vector.store %r, %y[%c0] : memref<?xi32>, vector<16xi32>
      gpu.return
    }

// The per-lane path unrolls up to 1024 products (32x32: no loop, no local
// array); beyond (32x33), the input goes to one private array at the
// function's entry and each row loops along K, reading it.
// LANE-LABEL: gpu.func @f32_unrolled
// LANE-NOT: memref.alloca
// LANE-NOT: scf.for
// LANE: arith.mulf
// LANE-NOT: scf.for
// LANE: gpu.return
// LANE-LABEL: gpu.func @f32_k_loops
// LANE: %[[XS:.*]] = memref.alloca() : memref<33xf32>
// LANE-COUNT-33: memref.store {{.*}}, %[[XS]][%{{.*}}] : memref<33xf32>
// LANE: scf.for %[[COL:.*]] = %c0 to %c33 step %c1 iter_args
// LANE: memref.load %[[XS]][%[[COL]]] : memref<33xf32>
// LANE: arith.mulf
// LANE-NEXT: arith.addf
// LANE-COUNT-31: scf.for
// LANE-NOT: scf.for
// LANE: gpu.return
    gpu.func @f32_unrolled(%x: vector<32xf32>, %w: memref<?xi8>, %y: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 128 : index
      %r = coopvec.matvec %x as F32, %w[%c0] matrix<F32, 32x32, RowMajor> stride %s
             : vector<32xf32>, memref<?xi8> -> vector<32xf32>
      vector.store %r, %y[%c0] : memref<?xf32>, vector<32xf32>
      gpu.return
    }
    gpu.func @f32_k_loops(%x: vector<33xf32>, %w: memref<?xi8>, %y: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 144 : index
      %r = coopvec.matvec %x as F32, %w[%c0] matrix<F32, 32x33, RowMajor> stride %s
             : vector<33xf32>, memref<?xi8> -> vector<32xf32>
      vector.store %r, %y[%c0] : memref<?xf32>, vector<32xf32>
      gpu.return
    }
  }

// Host code is not the NVVM lowering's.
// CHECK-LABEL: func.func @host
// CHECK: coopvec.matvec
  func.func @host(%x: vector<8xf16>, %w: memref<?xi8>) -> vector<16xf32> {
    %c0 = arith.constant 0 : index
    %s = arith.constant 16 : index
    %r = coopvec.matvec %x as F16, %w[%c0] matrix<F16, 16x8, RowMajor> stride %s
           : vector<8xf16>, memref<?xi8> -> vector<16xf32>
    return %r : vector<16xf32>
  }
}
