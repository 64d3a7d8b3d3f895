// coopvec.tile_mma with a fidelity clause runs the Wormhole matrix-unit
// model (coopvecCpuTileMmaFidelity): the accumulator is the live Dst
// register. 2x32 weights (SrcA) times 32x2 activations (SrcB) onto a 2x2
// accumulator; the only nonzero products are a = b = 1 + 2^-7 at k = 0.
// By hand: SrcA keeps 1.m[22:19] (hi) and m[18:14] (lo), SrcB 1.m[22:17]
// and m[16:13]; 2^-7 is m[16], so a = 1 + 2^-7 splits into hi 1, lo 2^-7
// on both sides. Phase 0 adds 1 (hi x hi), phase 1 2^-7 (lo(A) x hi(B)),
// phase 2 2^-7, phase 3 2^-14:
//   LoFi 1, HiFi2 1.0078125, HiFi3 1.015625, HiFi4 1.01568603515625.
// Column 1 starts from 0.5 (exact in both Dst formats). Row 1 has no
// products: 1 + 2^-20 stays in an f32 Dst and enters a bf16 Dst as 1 (RNA
// to 8 bits), -0 enters as +0. A bf16 Dst rounds 1.01568603515625 to
// 1.015625. f32 operands go through TF32, which drops m[12:0]: 1 + 2^-7 +
// 2^-12 (m[11]) multiplies as 1 + 2^-7, where the plain tile_mma (one f32
// FMA per k) keeps it: 1.0078125 * 1.008056640625 = 1.01593208...
//
// The roles: 1.03125 = 1 + 2^-5 (m[18]) is hi 1, lo 2^-5 in SrcA (the
// weights, %lhs) but hi 1.03125 in SrcB (%rhs). At LoFi, weights [1.03125,
// 1] times activations [1, 1.03125]: 1.03125 x 1 = 1, 1.03125 x 1.03125 =
// 1.03125, 1 x 1 = 1, 1 x 1.03125 = 1.03125 (swapped roles would give
// 1.03125, 1.03125, 1, 1).
// RUN: coopvec-run %s -e lofi --arg '[1.0078125, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]' --arg '[1.0078125, 1.0078125, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]' --arg '[0, 0.5, 1.00000095367431640625, -0.0]' | FileCheck %s --check-prefix=LOFI
// LOFI: [1, 1.5, 1.000001, 0]
// RUN: coopvec-run %s -e hifi2 --arg '[1.0078125, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]' --arg '[1.0078125, 1.0078125, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]' --arg '[0, 0.5, 1.00000095367431640625, -0.0]' | FileCheck %s --check-prefix=HIFI2
// HIFI2: [1.0078125, 1.5078125, 1.000001, 0]
// RUN: coopvec-run %s -e hifi3 --arg '[1.0078125, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]' --arg '[1.0078125, 1.0078125, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]' --arg '[0, 0.5, 1.00000095367431640625, -0.0]' | FileCheck %s --check-prefix=HIFI3
// HIFI3: [1.015625, 1.515625, 1.000001, 0]
// RUN: coopvec-run %s -e hifi4 --arg '[1.0078125, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]' --arg '[1.0078125, 1.0078125, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]' --arg '[0, 0.5, 1.00000095367431640625, -0.0]' | FileCheck %s --check-prefix=HIFI4
// HIFI4: [1.015686, 1.515686, 1.000001, 0]
// RUN: coopvec-run %s -e lofi_bf16 --arg '[1.0078125, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]' --arg '[1.0078125, 1.0078125, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]' --arg '[0, 0.5, 1.00000095367431640625, -0.0]' | FileCheck %s --check-prefix=LOFI-BF16
// LOFI-BF16: [1, 1.5, 1, 0]
// RUN: coopvec-run %s -e hifi4_bf16 --arg '[1.0078125, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]' --arg '[1.0078125, 1.0078125, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]' --arg '[0, 0.5, 1.00000095367431640625, -0.0]' | FileCheck %s --check-prefix=HIFI4-BF16
// HIFI4-BF16: [1.015625, 1.515625, 1, 0]
// RUN: coopvec-run %s -e hifi4_tf32 --arg '[1.00805664062, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]' --arg '[1.0078125, 1.0078125, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]' --arg '[0, 0.5, 1.00000095367431640625, -0.0]' | FileCheck %s --check-prefix=TF32
// TF32: [1.015686, 1.515686, 1.000001, 0]
// RUN: coopvec-run %s -e lofi --arg '[1.03125, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]' --arg '[1, 1.03125, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]' --arg '[0, 0, 0, 0]' | FileCheck %s --check-prefix=ROLES
// ROLES: [1, 1.03125, 1, 1.03125]
// RUN: coopvec-run %s -e plain_f32 --arg '[1.00805664062, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]' --arg '[1.0078125, 1.0078125, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]' --arg '[0, 0.5, 1.00000095367431640625, -0.0]' | FileCheck %s --check-prefix=PLAIN
// PLAIN: [1.0159321, 1.5159321, 1.000001, 0]

func.func @lofi(%l: vector<64xf32>, %r: vector<64xf32>, %acc: vector<4xf32>) -> vector<4xf32> {
  %lb = arith.truncf %l : vector<64xf32> to vector<64xbf16>
  %rb = arith.truncf %r : vector<64xf32> to vector<64xbf16>
  %a = vector.shape_cast %lb : vector<64xbf16> to vector<2x32xbf16>
  %b = vector.shape_cast %rb : vector<64xbf16> to vector<32x2xbf16>
  %c = vector.shape_cast %acc : vector<4xf32> to vector<2x2xf32>
  %y = coopvec.tile_mma %a, %b, %c fidelity<lofi, dst = f32>
      : vector<2x32xbf16>, vector<32x2xbf16> -> vector<2x2xf32>
  %f = vector.shape_cast %y : vector<2x2xf32> to vector<4xf32>
  return %f : vector<4xf32>
}

func.func @hifi2(%l: vector<64xf32>, %r: vector<64xf32>, %acc: vector<4xf32>) -> vector<4xf32> {
  %lb = arith.truncf %l : vector<64xf32> to vector<64xbf16>
  %rb = arith.truncf %r : vector<64xf32> to vector<64xbf16>
  %a = vector.shape_cast %lb : vector<64xbf16> to vector<2x32xbf16>
  %b = vector.shape_cast %rb : vector<64xbf16> to vector<32x2xbf16>
  %c = vector.shape_cast %acc : vector<4xf32> to vector<2x2xf32>
  %y = coopvec.tile_mma %a, %b, %c fidelity<hifi2, dst = f32>
      : vector<2x32xbf16>, vector<32x2xbf16> -> vector<2x2xf32>
  %f = vector.shape_cast %y : vector<2x2xf32> to vector<4xf32>
  return %f : vector<4xf32>
}

func.func @hifi3(%l: vector<64xf32>, %r: vector<64xf32>, %acc: vector<4xf32>) -> vector<4xf32> {
  %lb = arith.truncf %l : vector<64xf32> to vector<64xbf16>
  %rb = arith.truncf %r : vector<64xf32> to vector<64xbf16>
  %a = vector.shape_cast %lb : vector<64xbf16> to vector<2x32xbf16>
  %b = vector.shape_cast %rb : vector<64xbf16> to vector<32x2xbf16>
  %c = vector.shape_cast %acc : vector<4xf32> to vector<2x2xf32>
  %y = coopvec.tile_mma %a, %b, %c fidelity<hifi3, dst = f32>
      : vector<2x32xbf16>, vector<32x2xbf16> -> vector<2x2xf32>
  %f = vector.shape_cast %y : vector<2x2xf32> to vector<4xf32>
  return %f : vector<4xf32>
}

func.func @hifi4(%l: vector<64xf32>, %r: vector<64xf32>, %acc: vector<4xf32>) -> vector<4xf32> {
  %lb = arith.truncf %l : vector<64xf32> to vector<64xbf16>
  %rb = arith.truncf %r : vector<64xf32> to vector<64xbf16>
  %a = vector.shape_cast %lb : vector<64xbf16> to vector<2x32xbf16>
  %b = vector.shape_cast %rb : vector<64xbf16> to vector<32x2xbf16>
  %c = vector.shape_cast %acc : vector<4xf32> to vector<2x2xf32>
  %y = coopvec.tile_mma %a, %b, %c fidelity<hifi4, dst = f32>
      : vector<2x32xbf16>, vector<32x2xbf16> -> vector<2x2xf32>
  %f = vector.shape_cast %y : vector<2x2xf32> to vector<4xf32>
  return %f : vector<4xf32>
}

func.func @lofi_bf16(%l: vector<64xf32>, %r: vector<64xf32>, %acc: vector<4xf32>) -> vector<4xf32> {
  %lb = arith.truncf %l : vector<64xf32> to vector<64xbf16>
  %rb = arith.truncf %r : vector<64xf32> to vector<64xbf16>
  %a = vector.shape_cast %lb : vector<64xbf16> to vector<2x32xbf16>
  %b = vector.shape_cast %rb : vector<64xbf16> to vector<32x2xbf16>
  %c = vector.shape_cast %acc : vector<4xf32> to vector<2x2xf32>
  %y = coopvec.tile_mma %a, %b, %c fidelity<lofi, dst = bf16>
      : vector<2x32xbf16>, vector<32x2xbf16> -> vector<2x2xf32>
  %f = vector.shape_cast %y : vector<2x2xf32> to vector<4xf32>
  return %f : vector<4xf32>
}

func.func @hifi4_bf16(%l: vector<64xf32>, %r: vector<64xf32>, %acc: vector<4xf32>) -> vector<4xf32> {
  %lb = arith.truncf %l : vector<64xf32> to vector<64xbf16>
  %rb = arith.truncf %r : vector<64xf32> to vector<64xbf16>
  %a = vector.shape_cast %lb : vector<64xbf16> to vector<2x32xbf16>
  %b = vector.shape_cast %rb : vector<64xbf16> to vector<32x2xbf16>
  %c = vector.shape_cast %acc : vector<4xf32> to vector<2x2xf32>
  %y = coopvec.tile_mma %a, %b, %c fidelity<hifi4, dst = bf16>
      : vector<2x32xbf16>, vector<32x2xbf16> -> vector<2x2xf32>
  %f = vector.shape_cast %y : vector<2x2xf32> to vector<4xf32>
  return %f : vector<4xf32>
}

func.func @hifi4_tf32(%l: vector<64xf32>, %r: vector<64xf32>, %acc: vector<4xf32>) -> vector<4xf32> {
  %a = vector.shape_cast %l : vector<64xf32> to vector<2x32xf32>
  %b = vector.shape_cast %r : vector<64xf32> to vector<32x2xf32>
  %c = vector.shape_cast %acc : vector<4xf32> to vector<2x2xf32>
  %y = coopvec.tile_mma %a, %b, %c fidelity<hifi4, dst = f32>
      : vector<2x32xf32>, vector<32x2xf32> -> vector<2x2xf32>
  %f = vector.shape_cast %y : vector<2x2xf32> to vector<4xf32>
  return %f : vector<4xf32>
}

func.func @plain_f32(%l: vector<64xf32>, %r: vector<64xf32>, %acc: vector<4xf32>) -> vector<4xf32> {
  %a = vector.shape_cast %l : vector<64xf32> to vector<2x32xf32>
  %b = vector.shape_cast %r : vector<64xf32> to vector<32x2xf32>
  %c = vector.shape_cast %acc : vector<4xf32> to vector<2x2xf32>
  %y = coopvec.tile_mma %a, %b, %c
      : vector<2x32xf32>, vector<32x2xf32> -> vector<2x2xf32>
  %f = vector.shape_cast %y : vector<2x2xf32> to vector<4xf32>
  return %f : vector<4xf32>
}
