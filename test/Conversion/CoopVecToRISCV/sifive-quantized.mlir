// RUN: coopvec-opt %s --convert-coopvec-to-riscv=isa=xsfvqmacc-2x8x2 | FileCheck %s
// RUN: coopvec-opt %s --coopvec-riscv-sifive-pipeline=shape=4x8x4 | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVM

// The quantized form on the SiFive isas: an I4 matrix, U8 inputs
// (sf.vqmaccsu), K = 48 cut in 12 blocks of 4 columns (the gcd of the
// groups), each packed as its own zero-padded 8-column K tile; the zero
// point terms per block in i64; the compute group of 16 columns folded
// into f32 as (f32(acc) * sx) * sw; a BF16 bias and one rounding to bf16.

// CHECK-DAG: "weight zero points out of bounds\00"
// CHECK-DAG: "weight scales out of bounds\00"
// CHECK-DAG: "input zero points have fewer rows than the batch\00"
// CHECK-DAG: "input scales have fewer rows than the batch\00"
// CHECK-DAG: "reductions have fewer rows than the batch\00"
// CHECK-LABEL: func.func @coopvec_quant(
// 13 rows in 7 A tiles of 2, 12 blocks of one 16-byte K tile each.
// CHECK: memref.alloc(%c1344) : memref<?xi8>
// A tiles: nibble k % 2 of byte k / 2, sign-extended as (v ^ 8) - 8.
// CHECK: arith.shrui %{{.*}} : i8
// CHECK: arith.andi %{{.*}}, %c15_i8
// CHECK: arith.xori %{{.*}}, %c8_i8
// CHECK: arith.subi %{{.*}}, %c8_i8
// The blocks; per block one K tile per row tile and batch chunk.
// CHECK: scf.for %[[BLK:.*]] = %{{.*}} to %c12 step
// CHECK: %[[Q0:.*]] = arith.muli %[[BLK]], %c1
// CHECK: %[[Q1:.*]] = arith.addi %[[Q0]], %c1
// CHECK: scf.for %{{.*}} = %[[Q0]] to %[[Q1]] step %{{.*}} iter_args
// CHECK: llvm.call_intrinsic "llvm.riscv.sf.vqmaccsu.2x8x2"
// CHECK: llvm.call_intrinsic "llvm.riscv.vse"
// The weight sums of the block (for the input zero points).
// CHECK: memref.store %{{.*}} : memref<?xi64>
// The reduction term at the first block of each group of 16.
// CHECK: memref.load %arg6[
// CHECK: arith.remui %{{.*}}, %c16
// CHECK: arith.select
// The compute group's end: sx (F16, decoded exactly), then sw (BF16).
// CHECK: scf.if
// CHECK: %[[ACC:.*]] = arith.sitofp %{{.*}} : i64 to f32
// CHECK: memref.load %arg5[
// CHECK: %[[SX:.*]] = arith.mulf %[[ACC]]
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> i16
// CHECK: %[[SW:.*]] = arith.mulf %[[SX]]
// CHECK: arith.addf %{{.*}}, %[[SW]] : f32
// The epilogue: + bias, then one rounding to bf16.
// CHECK: arith.addf
// CHECK: arith.bitcast %{{.*}} : i16 to bf16
// CHECK: memref.store %{{.*}}, %arg8[
// CHECK-COUNT-6: memref.dealloc

// LLVM: call <vscale x 16 x i32> @llvm.riscv.sf.vqmaccsu.4x8x4.nxv16i32.nxv8i8.nxv32i8.i64(
// LLVM: fmul float
// LLVM-NOT: fmuladd
// LLVM-NOT: @llvm.fma
// LLVM: ret void

func.func @quant(%x: memref<?x48xi8>, %w: memref<?xi8>, %zw: memref<?xi8>, %sw: memref<?xi8>, %zx: memref<?x12xi32>, %sx: memref<?x3xf16>, %red: memref<?x3xi32>, %b: memref<?xi8>, %y: memref<?x13xbf16>) {
  %c0 = arith.constant 0 : index
  %cs = arith.constant 48 : index
  coopvec.batch_matvec %x as U8, %w[%c0] matrix<I4, 13x48, RowMajor> stride %cs
      weight_zero_points %zw[%c0] as I8 group 16 : memref<?xi8>
      weight_scales %sw[%c0] as BF16 group 16 : memref<?xi8>
      input_zero_points %zx as I32 group 4 : memref<?x12xi32>
      input_scales %sx as F16 group 16 : memref<?x3xf16>
      reductions %red as I32 group 16 : memref<?x3xi32>
      bias %b[%c0] as BF16 into %y : memref<?x48xi8>, memref<?xi8>, memref<?xi8> -> memref<?x13xbf16>
  return
}
