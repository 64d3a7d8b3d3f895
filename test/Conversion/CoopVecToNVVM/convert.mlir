// coopvec.convert, coopvec.pack and MX (de)quantization in GPU code: PTX
// cvt through NVVM's conversion ops, two elements per x2 instruction, plus
// the CPU runtime's NaN and relu rules (docs/NVIDIA.md, "Conversions").
// RUN: coopvec-opt %s --convert-coopvec-to-nvvm=chip=sm_90 | FileCheck %s
// RUN: coopvec-opt %s --coopvec-nvvm-pipeline="chip=sm_90 format=isa" \
// RUN:   | sed -e 's/\\0A/\n/g' -e 's/\\09/ /g' | FileCheck %s --check-prefix=PTX
// The Blackwell forms: fp6, fp4, ue8m0 and stochastic rounding.
// RUN: coopvec-opt %S/Inputs/convert-blackwell.mlir --convert-coopvec-to-nvvm=chip=sm_100a | FileCheck %s --check-prefix=BW
// RUN: coopvec-opt %S/Inputs/convert-blackwell.mlir --coopvec-nvvm-pipeline="chip=sm_100a format=isa" \
// RUN:   | sed -e 's/\\0A/\n/g' -e 's/\\09/ /g' | FileCheck %s --check-prefix=BWPTX

module attributes {gpu.container_module} {
  gpu.module @k {
    // CHECK-LABEL: gpu.func @fp8
    // Three f32 elements: one x2 instruction and one for the last element.
    // CHECK-COUNT-2: nvvm.convert.f32x2.to.f8x2 {{.*}} {relu = true, rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : i16(f8E4M3FN)
    // f16 sources are widened (exact), then converted; a NaN keeps the
    // source's sign.
    // CHECK: arith.extf {{.*}} : f16 to f32
    // CHECK: nvvm.convert.f32x2.to.f8x2 {{.*}} {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : i16(f8E5M2)
    // CHECK: arith.cmpf uno
    // CHECK: arith.select
    // PTX-LABEL: .entry fp8(
    // PTX: cvt.rn.satfinite.relu.e4m3x2.f32
    // PTX: cvt.rn.satfinite.e5m2x2.f32
    gpu.func @fp8(%x: vector<3xf32>, %h: vector<2xf16>, %out: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %a = coopvec.convert %x rounding rn satfinite relu : vector<3xf32> -> vector<3xf8E4M3FN>
      %b = coopvec.convert %h rounding rn satfinite : vector<2xf16> -> vector<2xf8E5M2>
      %ai = arith.bitcast %a : vector<3xf8E4M3FN> to vector<3xi8>
      %bi = arith.bitcast %b : vector<2xf8E5M2> to vector<2xi8>
      vector.store %ai, %out[%c0] : memref<?xi8>, vector<3xi8>
      vector.store %bi, %out[%c4] : memref<?xi8>, vector<2xi8>
      gpu.return
    }

    // CHECK-LABEL: gpu.func @halves
    // CHECK: nvvm.convert.f32x2.to.f16x2 {{.*}} {relu = true, rnd = #nvvm.fp_rnd_mode<rz>} : vector<2xf16>
    // CHECK: nvvm.convert.f32x2.to.bf16x2 {{.*}} {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : vector<2xbf16>
    // rm/rp have no NVVM op: one inline cvt per element; PTX does not
    // combine them with .satfinite, so an infinity becomes MAX_NORM after.
    // CHECK-COUNT-2: llvm.inline_asm "cvt.rp.f16.f32 $0, $1;", "=h,f"
    // CHECK: arith.constant 31744 : i32
    // CHECK: llvm.inline_asm "cvt.rm.bf16.f32 $0, $1;", "=h,f"
    // PTX-LABEL: .entry halves(
    // PTX: cvt.rz.relu.f16x2.f32
    // PTX: cvt.rn.satfinite.bf16x2.f32
    // PTX: cvt.rp.f16.f32
    // PTX: cvt.rm.bf16.f32
    gpu.func @halves(%x: vector<2xf32>, %s: f32, %out: memref<?xi16>) kernel {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c6 = arith.constant 6 : index
      %a = coopvec.convert %x rounding rz relu : vector<2xf32> -> vector<2xf16>
      %b = coopvec.convert %x rounding rn satfinite : vector<2xf32> -> vector<2xbf16>
      %c = coopvec.convert %x rounding rp satfinite : vector<2xf32> -> vector<2xf16>
      %d = coopvec.convert %s rounding rm : f32 -> bf16
      %ai = arith.bitcast %a : vector<2xf16> to vector<2xi16>
      %bi = arith.bitcast %b : vector<2xbf16> to vector<2xi16>
      %ci = arith.bitcast %c : vector<2xf16> to vector<2xi16>
      %di = arith.bitcast %d : bf16 to i16
      vector.store %ai, %out[%c0] : memref<?xi16>, vector<2xi16>
      vector.store %bi, %out[%c2] : memref<?xi16>, vector<2xi16>
      vector.store %ci, %out[%c4] : memref<?xi16>, vector<2xi16>
      memref.store %di, %out[%c6] : memref<?xi16>
      gpu.return
    }

    // CHECK-LABEL: gpu.func @widen
    // CHECK: nvvm.convert.f8x2.to.f16x2 {{.*}} {relu = true} : vector<2xi8>(f8E4M3FN) -> vector<2xf16>
    // CHECK: arith.extf {{.*}} : f16 to f32
    // A NaN code (S.1111.111) gives the canonical NaN, sign cleared by relu.
    // CHECK: arith.constant 127 : i32
    // CHECK: arith.constant 2143289344 : i32
    // PTX-LABEL: .entry widen(
    // PTX: cvt.rn.relu.f16x2.e4m3x2
    gpu.func @widen(%e: vector<2xf8E4M3FN>, %out: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %a = coopvec.convert %e rounding rn relu : vector<2xf8E4M3FN> -> vector<2xf32>
      vector.store %a, %out[%c0] : memref<?xf32>, vector<2xf32>
      gpu.return
    }

    // CHECK-LABEL: gpu.func @pack
    // CHECK: nvvm.convert.f32x2.to.f8x2 {{.*}} : i16(f8E5M2)
    // CHECK: arith.shli
    // CHECK: arith.ori
    // PTX-LABEL: .entry pack(
    // PTX: cvt.rn.satfinite.e5m2x2.f32
    gpu.func @pack(%a: f32, %b: f32, %out: memref<?xi16>) kernel {
      %c0 = arith.constant 0 : index
      %p = coopvec.pack %a, %b to f8E5M2 rounding rn satfinite : f32, f32 -> i16
      memref.store %p, %out[%c0] : memref<?xi16>
      gpu.return
    }

    // MX: the block's amax by integer max, the UE8M0 scale from its
    // exponent (ctlz for a subnormal amax), elements x * 2^-s through cvt.
    // CHECK-LABEL: gpu.func @mx
    // CHECK: arith.maxui
    // CHECK: llvm.intr.ctlz
    // CHECK: arith.mulf
    // CHECK: nvvm.convert.f32x2.to.f8x2 {{.*}} : i16(f8E4M3FN)
    // Dequantization: cvt back to f16, f32, times 2^(s-127).
    // CHECK: nvvm.convert.f8x2.to.f16x2
    // CHECK: arith.mulf
    // PTX-LABEL: .entry mx(
    // PTX: clz.b32
    // PTX: cvt.rn.satfinite.e4m3x2.f32
    // PTX: cvt.rn.f16x2.e4m3x2
    gpu.func @mx(%x: vector<32xf32>, %out: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %e, %s = coopvec.mx_quantize %x block 32 : vector<32xf32> -> vector<32xf8E4M3FN>, vector<1xf8E8M0FNU>
      %y = coopvec.mx_dequantize %e, %s block 32 : vector<32xf8E4M3FN>, vector<1xf8E8M0FNU> -> vector<32xf32>
      vector.store %y, %out[%c0] : memref<?xf32>, vector<32xf32>
      gpu.return
    }
  }
}

// BW: nvvm.convert.f32x2.to.f6x2 {{.*}} : i16(f6E2M3FN)
// BW: nvvm.convert.f32x2.to.f4x2 {{.*}} {relu = true} : i8(f4E2M1FN)
// BW: nvvm.convert.f32x2.to.f8x2 {{.*}} {rnd = #nvvm.fp_rnd_mode<rp>} : i16(f8E8M0FNU)
// BW: nvvm.convert.f6x2.to.f16x2 {{.*}} : vector<2xi8>(f6E3M2FN) -> vector<2xf16>
// BW: nvvm.convert.f4x2.to.f16x2 {{.*}} : i8(f4E2M1FN) -> vector<2xf16>
// BW: nvvm.convert.f8x2.to.bf16x2 {{.*}} : vector<2xi8>(f8E8M0FNU) -> vector<2xbf16>
// BW: nvvm.convert.f32x2.to.f16x2 {{.*}} {rnd = #nvvm.fp_rnd_mode<rs>, sat = #nvvm.sat_mode<satfinite>} : vector<2xf16>
// Two elements per x4 instruction (a and e), each with its own 16 random bits.
// BW: nvvm.convert.f32x4.to.f8x4 {{.*}} {relu = true} : vector<4xf32> -> vector<4xi8>(f8E5M2)
// BW: nvvm.convert.f32x4.to.f4x4 {{.*}} : vector<4xf32> -> i16(f4E2M1FN)
// BWPTX: .target sm_100a
// BWPTX-DAG: cvt.rn.satfinite.e2m3x2.f32
// BWPTX-DAG: cvt.rn.satfinite.relu.e2m1x2.f32
// BWPTX-DAG: cvt.rp.ue8m0x2.f32
// BWPTX-DAG: cvt.rn.f16x2.e3m2x2
// BWPTX-DAG: cvt.rn.f16x2.e2m1x2
// BWPTX-DAG: cvt.rn.bf16x2.ue8m0x2
// BWPTX-DAG: cvt.rs.satfinite.f16x2.f32
// BWPTX-DAG: cvt.rs.relu.satfinite.e5m2x4.f32
// BWPTX-DAG: cvt.rs.satfinite.e2m1x4.f32
