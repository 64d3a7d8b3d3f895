// The PTX of both paths (gpu-module-to-binary format=isa, split at its
// escaped newlines).
// RUN: coopvec-opt %s --coopvec-nvvm-pipeline="chip=sm_80 format=isa" \
// RUN:   | sed -e 's/\\0A/\n/g' -e 's/\\09/ /g' | FileCheck %s
// RUN: coopvec-opt %s --coopvec-nvvm-pipeline="chip=sm_80 format=isa cooperative=false" \
// RUN:   | sed -e 's/\\0A/\n/g' -e 's/\\09/ /g' | FileCheck %s --check-prefix=LANE

// CHECK: .version 8.7
// CHECK: .target sm_80
// The warp stages: 8 warps x 1 KiB (no known_block_size).
// CHECK: .shared .align 16 .b8 __coopvec_warp_stage[8192];
// CHECK-LABEL: .entry f16(
// CHECK: activemask.b32
// CHECK: shfl.sync.idx.b32 {{.*}}, 0, 31, -1;
// CHECK: vote.sync.all.pred
// CHECK: st.shared.b32
// CHECK: bar.warp.sync -1;
// CHECK: ld.shared.b32
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK: st.shared.b32
// CHECK: bar.warp.sync -1;
// CHECK: ld.shared.b32
// The per-lane products: mul then add, each rounded (never fma).
// CHECK: mul.rn.f32
// CHECK-NEXT: add.rn.f32
// CHECK: cvt.rn.f16.f32
// CHECK-LABEL: .entry int8(
// CHECK: mma.sync.aligned.m16n8k32.row.col.s32.s8.u8.s32
// CHECK: mul.lo.s32
// CHECK: st.global.b32
// The optimal layouts take the same tensor-core step, their A fragments
// read element by element (Layout.h's addresses: no whole-word loads).
// CHECK-LABEL: .entry f16_iopt(
// CHECK: vote.sync.all.pred
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-LABEL: .entry int8_topt_t(
// CHECK: vote.sync.all.pred
// CHECK: mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32
// BF16 (sm_80 and later): the F16 step with bf16 fragments. f32 inputs are
// rounded to bf16 (cvt.rn.bf16.f32: nearest even; a finite value that
// became an infinity, 0x7F80, is saturated to +-0x7F7F), whole words of the
// row-major matrix.
// CHECK-LABEL: .entry bf16(
// CHECK: vote.sync.all.pred
// CHECK: cvt.rn.bf16.f32
// CHECK: setp.eq.b16 {{.*}}, 32640;
// CHECK: ld.global.b32
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// CHECK: mul.rn.f32
// CHECK-NEXT: add.rn.f32

// LANE-NOT: .shared
// LANE-LABEL: .entry f16(
// LANE-NOT: mma.sync
// LANE-NOT: fma.rn.f32
// LANE: mul.rn.f32
// LANE-LABEL: .entry int8(
// LANE-NOT: mma.sync
// LANE: ret;
// LANE-LABEL: .entry f16_iopt(
// LANE-NOT: mma.sync
// LANE-LABEL: .entry int8_topt_t(
// LANE-NOT: mma.sync
// LANE-LABEL: .entry bf16(
// LANE-NOT: mma.sync
// LANE: mul.rn.f32
// LANE-NOT: mma.sync
// LANE: ret;
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @f16(%xs: memref<?xf16>, %w: memref<?xi8>, %y: memref<?xf16>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 128 : index
      %x = vector.load %xs[%c0] : memref<?xf16>, vector<64xf16>
      %r = coopvec.matvec %x as F16, %w[%c0] matrix<F16, 32x64, RowMajor> stride %s
             : vector<64xf16>, memref<?xi8> -> vector<32xf16>
      vector.store %r, %y[%c0] : memref<?xf16>, vector<32xf16>
      gpu.return
    }
    gpu.func @int8(%xs: memref<?xi32>, %w: memref<?xi8>, %b: memref<?xi8>,
                   %y: memref<?xi32>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 64 : index
      %x = vector.load %xs[%c0] : memref<?xi32>, vector<16xi32>
      %r = coopvec.matvec %x as PackedU8x32, %w[%c0] matrix<I8, 16x64, RowMajor> stride %s
             bias %b[%c0] as I32
             : vector<16xi32>, memref<?xi8>, memref<?xi8> -> vector<16xi32>
      vector.store %r, %y[%c0] : memref<?xi32>, vector<16xi32>
      gpu.return
    }
    gpu.func @f16_iopt(%xs: memref<?xf16>, %w: memref<?xi8>, %y: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %x = vector.load %xs[%c0] : memref<?xf16>, vector<40xf16>
      %r = coopvec.matvec %x as F16, %w[%c0] matrix<F16, 24x40, InferencingOptimal>
             : vector<40xf16>, memref<?xi8> -> vector<24xf32>
      vector.store %r, %y[%c0] : memref<?xf32>, vector<24xf32>
      gpu.return
    }
    gpu.func @int8_topt_t(%xs: memref<?xi32>, %w: memref<?xi8>, %y: memref<?xi32>) kernel {
      %c0 = arith.constant 0 : index
      %x = vector.load %xs[%c0] : memref<?xi32>, vector<9xi32>
      %r = coopvec.matvec %x as PackedS8x32, %w[%c0] matrix<I8, 20x36, TrainingOptimal, transpose>
             : vector<9xi32>, memref<?xi8> -> vector<20xi32>
      vector.store %r, %y[%c0] : memref<?xi32>, vector<20xi32>
      gpu.return
    }
    gpu.func @bf16(%xs: memref<?xf32>, %w: memref<?xi8>, %b: memref<?xi8>, %y: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 96 : index
      %x = vector.load %xs[%c0] : memref<?xf32>, vector<48xf32>
      %r = coopvec.matvec %x as BF16, %w[%c0] matrix<BF16, 16x48, RowMajor> stride %s
             bias %b[%c0] as F32
             : vector<48xf32>, memref<?xi8>, memref<?xi8> -> vector<16xf32>
      vector.store %r, %y[%c0] : memref<?xf32>, vector<16xf32>
      gpu.return
    }
  }
}
