// coopvec.eltwise_mul runs the Wormhole ELWMUL model
// (coopvecCpuEltwiseMulFidelity): in0 (%lhs) in SrcA, in1 (%rhs) in SrcB,
// the reverse of a matmul's roles. By hand, with SrcA keeping 1.m[22:19]
// (hi) and m[18:14] (lo) and SrcB 1.m[22:17] and m[16:13] per phase:
//   1.015625 = 1 + 2^-6 (m[17]) is hi 1, lo 2^-6 in SrcA but hi 1.015625 in
//   SrcB, so at LoFi 1.015625 x 1 = 1 and 1 x 1.015625 = 1.015625; from
//   HiFi2 on (phase 1: lo(A) x hi(B)) both are 1.015625;
//   (1 + 2^-7)^2: LoFi 1, HiFi2 1.0078125, HiFi4 1.01568603515625;
//   -3 x 0.5 = -1.5 at every fidelity.
// RUN: coopvec-run %s -e lofi --arg '[1.015625, 1, 1.0078125, -3]' --arg '[1, 1.015625, 1.0078125, 0.5]' | FileCheck %s --check-prefix=LOFI
// LOFI: [1, 1.015625, 1, -1.5]
// RUN: coopvec-run %s -e hifi2 --arg '[1.015625, 1, 1.0078125, -3]' --arg '[1, 1.015625, 1.0078125, 0.5]' | FileCheck %s --check-prefix=HIFI2
// HIFI2: [1.015625, 1.015625, 1.0078125, -1.5]
// RUN: coopvec-run %s -e hifi4 --arg '[1.015625, 1, 1.0078125, -3]' --arg '[1, 1.015625, 1.0078125, 0.5]' | FileCheck %s --check-prefix=HIFI4
// HIFI4: [1.015625, 1.015625, 1.015686, -1.5]
//
// Packer: an f32 Dst packed to bf16 rounds 1.01568603515625 to 1.015625
// (RNA), then L1 accumulation adds each datum to 0.5 in bf16.
// RUN: coopvec-run %s -e l1acc --arg '[1.015625, 1, 1.0078125, -3]' --arg '[1, 1.015625, 1.0078125, 0.5]' --arg '[0.5, 0.5, 0.5, 0.5]' | FileCheck %s --check-prefix=L1ACC
// L1ACC: [1.515625, 1.515625, 1.515625, -1]
//
// f32 operands are truncated to TF32, so 1 + 2^-12 (m[11]) times 1 is 1.
// RUN: coopvec-run %s -e tf32 --arg '[1.000244140625, 1, 1, 1]' --arg '[1, 1, 1, 1]' | FileCheck %s --check-prefix=TF32
// TF32: [1, 1, 1, 1]

func.func @lofi(%l: vector<4xf32>, %r: vector<4xf32>) -> vector<4xf32> {
  %a = arith.truncf %l : vector<4xf32> to vector<4xbf16>
  %b = arith.truncf %r : vector<4xf32> to vector<4xbf16>
  %y = coopvec.eltwise_mul %a, %b fidelity<lofi, dst = f32> : vector<4xbf16> -> vector<4xf32>
  return %y : vector<4xf32>
}

func.func @hifi2(%l: vector<4xf32>, %r: vector<4xf32>) -> vector<4xf32> {
  %a = arith.truncf %l : vector<4xf32> to vector<4xbf16>
  %b = arith.truncf %r : vector<4xf32> to vector<4xbf16>
  %y = coopvec.eltwise_mul %a, %b fidelity<hifi2, dst = f32> : vector<4xbf16> -> vector<4xf32>
  return %y : vector<4xf32>
}

func.func @hifi4(%l: vector<4xf32>, %r: vector<4xf32>) -> vector<4xf32> {
  %a = arith.truncf %l : vector<4xf32> to vector<4xbf16>
  %b = arith.truncf %r : vector<4xf32> to vector<4xbf16>
  %y = coopvec.eltwise_mul %a, %b fidelity<hifi4, dst = f32> : vector<4xbf16> -> vector<4xf32>
  return %y : vector<4xf32>
}

func.func @l1acc(%l: vector<4xf32>, %r: vector<4xf32>, %c: vector<4xf32>) -> vector<4xf32> {
  %a = arith.truncf %l : vector<4xf32> to vector<4xbf16>
  %b = arith.truncf %r : vector<4xf32> to vector<4xbf16>
  %y = coopvec.eltwise_mul %a, %b acc %c fidelity<hifi4, dst = f32, pack = bf16, l1_acc>
         : vector<4xbf16> -> vector<4xf32>
  return %y : vector<4xf32>
}

func.func @tf32(%l: vector<4xf32>, %r: vector<4xf32>) -> vector<4xf32> {
  %y = coopvec.eltwise_mul %l, %r fidelity<hifi4, dst = f32> : vector<4xf32> -> vector<4xf32>
  return %y : vector<4xf32>
}
