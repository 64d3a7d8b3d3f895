// coopvec.tile_pack_dst runs the Wormhole packer model
// (coopvecCpuTilePackDstFidelity) on a 2x4 Dst tile. By hand:
//
// f32 Dst packed to bf16 (early conversion, round to nearest, ties away
// from zero, 8 significant bits): 1.01568603515625 -> 1.015625; 1 + 2^-8
// (1.00390625) is a tie -> 1.0078125 (ties-to-even would give 1);
// -(1 + 2^-8) -> -1.0078125; 1 + 2^-8 + 2^-20 -> 1.0078125; 3 stays;
// 2^-130 (a denormal) and -0 -> +0; 2^127 * (2 - 2^-23), the largest f32,
// rounds past the format -> the exponent-255 zero-mantissa pattern (inf).
// RUN: coopvec-run %s -e f32_to_bf16 --arg '[1.01568603515625, 1.00390625, -1.00390625, 1.00390721, 3, 7.34683969e-40, -0.0, 3.40282347e38]' | FileCheck %s --check-prefix=CONV
// CONV: [1.015625, 1.0078125, -1.0078125, 1.0078125, 3, 0, 0, inf]
//
// A bf16 Dst packed to f32 is exact, but a value first enters Dst as the
// FPU writes it: 1 + 2^-8 -> 1.0078125 (RNA to 8 bits), 1.01568603515625
// -> 1.015625, 2^-130 -> +0, -0 -> +0, 0.5 and -3 stay.
// RUN: coopvec-run %s -e bf16_to_f32 --arg '[1.00390625, 1.01568603515625, 7.34683969e-40, -0.0, 0.5, -3, 1.00390625, 2]' | FileCheck %s --check-prefix=HELD
// HELD: [1.0078125, 1.015625, 0, 0, 0.5, -3, 1.0078125, 2]
//
// L1 accumulation in bf16 (an f32 Dst): each datum (after the bf16
// conversion) is added to L1 and the sum rounded to bf16, ties away:
// 256 + 1 = 257 is a tie -> 258 (ties-to-even: 256); 0.5 + 1.01568603515625
// -> 0.5 + 1.015625 = 1.515625; 1 + (-1) = 0; -2 + 2^-130 -> -2.
// RUN: coopvec-run %s -e l1_bf16 --arg '[1, 1.01568603515625, -1, 7.34683969e-40, 1, 1, 1, 1]' --arg '[256, 0.5, 1, -2, 0, 0, 0, 0]' | FileCheck %s --check-prefix=L1BF16
// L1BF16: [258, 1.515625, 0, -2, 1, 1, 1, 1]
//
// L1 accumulation in f32: 2^24 + 1 is a tie -> 2^24 + 2 (ties-to-even: 2^24).
// RUN: coopvec-run %s -e l1_f32 --arg '[1, 1, 1.5, 0, 0, 0, 0, 0]' --arg '[16777216, 0, -1.5, 1, 0, 0, 0, 0]' | FileCheck %s --check-prefix=L1F32
// L1F32: [16777218, 1, 0, 1, 0, 0, 0, 0]

func.func @f32_to_bf16(%d: vector<8xf32>) -> vector<8xf32> {
  %t = vector.shape_cast %d : vector<8xf32> to vector<2x4xf32>
  %p = coopvec.tile_pack_dst %t fidelity<hifi4, dst = f32, pack = bf16> : vector<2x4xf32>
  %f = vector.shape_cast %p : vector<2x4xf32> to vector<8xf32>
  return %f : vector<8xf32>
}

func.func @bf16_to_f32(%d: vector<8xf32>) -> vector<8xf32> {
  %t = vector.shape_cast %d : vector<8xf32> to vector<2x4xf32>
  %p = coopvec.tile_pack_dst %t fidelity<lofi, dst = bf16, pack = f32> : vector<2x4xf32>
  %f = vector.shape_cast %p : vector<2x4xf32> to vector<8xf32>
  return %f : vector<8xf32>
}

func.func @l1_bf16(%d: vector<8xf32>, %l: vector<8xf32>) -> vector<8xf32> {
  %t = vector.shape_cast %d : vector<8xf32> to vector<2x4xf32>
  %a = vector.shape_cast %l : vector<8xf32> to vector<2x4xf32>
  %p = coopvec.tile_pack_dst %t acc %a fidelity<hifi2, dst = f32, pack = bf16, l1_acc> : vector<2x4xf32>
  %f = vector.shape_cast %p : vector<2x4xf32> to vector<8xf32>
  return %f : vector<8xf32>
}

func.func @l1_f32(%d: vector<8xf32>, %l: vector<8xf32>) -> vector<8xf32> {
  %t = vector.shape_cast %d : vector<8xf32> to vector<2x4xf32>
  %a = vector.shape_cast %l : vector<8xf32> to vector<2x4xf32>
  %p = coopvec.tile_pack_dst %t acc %a fidelity<hifi3, dst = f32, l1_acc> : vector<2x4xf32>
  %f = vector.shape_cast %p : vector<2x4xf32> to vector<8xf32>
  return %f : vector<8xf32>
}
