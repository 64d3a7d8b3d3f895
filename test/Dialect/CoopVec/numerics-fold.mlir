// RUN: coopvec-opt %s -canonicalize -split-input-file | FileCheck %s

// Conversions fold through the runtime's numerics library. Expected values
// are worked out by hand from the formats' definitions; the edge cases are
// exactly those where LLVM's APFloat answers differently (noted).

// CHECK-LABEL: func @scalars
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f8E4M3FN
// CHECK-DAG: %[[MAX:.*]] = arith.constant 4.480000e+02 : f8E4M3FN
// 5.0 is a tie between 4 (even mantissa) and 6.
// CHECK-DAG: %[[TIE:.*]] = arith.constant 4.000000e+00 : f4E2M1FN
// +inf and NaN into finite-only E2M1 give +MAX_NORM (APFloat: +0).
// CHECK-DAG: %[[SAT:.*]] = arith.constant 6.000000e+00 : f4E2M1FN
// UE8M0: 3.0 rounds up to 4 (rp) or down to 2 (rz); -3.0 converts |x| (APFloat sets the sign bit).
// CHECK-DAG: %[[UP:.*]] = arith.constant 4.000000e+00 : f8E8M0FNU
// CHECK-DAG: %[[DOWN:.*]] = arith.constant 2.000000e+00 : f8E8M0FNU
// +0 has no UE8M0 encoding: 0x00 (2^-127).
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 5.877470e-39 : f8E8M0FNU
// CHECK: return %[[ONE]], %[[MAX]], %[[TIE]], %[[SAT]], %[[SAT]], %[[UP]], %[[DOWN]], %[[DOWN]], %[[ZERO]]
func.func @scalars() -> (f8E4M3FN, f8E4M3FN, f4E2M1FN, f4E2M1FN, f4E2M1FN, f8E8M0FNU, f8E8M0FNU, f8E8M0FNU, f8E8M0FNU) {
  %one = arith.constant 1.0 : f32
  %big = arith.constant 1000.0 : f32
  %five = arith.constant 5.0 : f32
  %inf = arith.constant 0x7F800000 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %three = arith.constant 3.0 : f32
  %mthree = arith.constant -3.0 : f32
  %zero = arith.constant 0.0 : f32
  %0 = coopvec.convert %one rounding rn satfinite : f32 -> f8E4M3FN
  %1 = coopvec.convert %big rounding rn satfinite : f32 -> f8E4M3FN
  %2 = coopvec.convert %five rounding rn satfinite : f32 -> f4E2M1FN
  %3 = coopvec.convert %inf rounding rn satfinite : f32 -> f4E2M1FN
  %4 = coopvec.convert %nan rounding rn satfinite : f32 -> f4E2M1FN
  %5 = coopvec.convert %three rounding rp : f32 -> f8E8M0FNU
  %6 = coopvec.convert %three rounding rz : f32 -> f8E8M0FNU
  %7 = coopvec.convert %mthree rounding rz : f32 -> f8E8M0FNU
  %8 = coopvec.convert %zero rounding rz : f32 -> f8E8M0FNU
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : f8E4M3FN, f8E4M3FN, f4E2M1FN, f4E2M1FN, f4E2M1FN, f8E8M0FNU, f8E8M0FNU, f8E8M0FNU, f8E8M0FNU
}

// -----

// 0.3 = 1.2 * 2^-2 rounds to 1.25 * 2^-2; 1e-9 underflows E4M3's smallest subnormal (2^-9).
// CHECK-LABEL: func @vector
// CHECK: arith.constant dense<[3.125000e-01, -3.125000e-01, 4.480000e+02, 0.000000e+00]> : vector<4xf8E4M3FN>
func.func @vector() -> vector<4xf8E4M3FN> {
  %v = arith.constant dense<[0.3, -0.3, 448.0, 1.0e-9]> : vector<4xf32>
  %0 = coopvec.convert %v rounding rn satfinite : vector<4xf32> -> vector<4xf8E4M3FN>
  return %0 : vector<4xf8E4M3FN>
}

// -----

// relu clears negatives; widening back to f32 is exact.
// CHECK-LABEL: func @relu_and_widen
// CHECK: arith.constant dense<[0.000000e+00, 1.500000e+00]> : vector<2xf32>
func.func @relu_and_widen() -> vector<2xf32> {
  %v = arith.constant dense<[-2.0, 1.4]> : vector<2xf32>
  %0 = coopvec.convert %v rounding rn satfinite relu : vector<2xf32> -> vector<2xf4E2M1FN>
  %1 = coopvec.convert %0 rounding rn : vector<2xf4E2M1FN> -> vector<2xf32>
  return %1 : vector<2xf32>
}

// -----

// Stochastic rounding: 1.25 lies a quarter ulp above 1 in E2M1 (ulp 0.5 at
// 1.0, so the fraction is 0.5 ulp: 2^15 of 2^16). Random bits below 2^15
// truncate to 1.0, bits from 2^15 on round up to 1.5.
// CHECK-LABEL: func @stochastic
// CHECK: arith.constant dense<[1.000000e+00, 1.500000e+00]> : vector<2xf4E2M1FN>
func.func @stochastic() -> vector<2xf4E2M1FN> {
  %v = arith.constant dense<1.25> : vector<2xf32>
  %r = arith.constant dense<[32767, 32768]> : vector<2xi32>
  %0 = coopvec.convert %v rbits %r rounding rs satfinite : vector<2xf32>, vector<2xi32> -> vector<2xf4E2M1FN>
  return %0 : vector<2xf4E2M1FN>
}

// -----

// PTX packing: the first operand is the high nibble: 1.0 is 0x2, -0.5 is 0x9.
// CHECK-LABEL: func @pack
// CHECK: arith.constant 41 : i8
func.func @pack() -> i8 {
  %a = arith.constant 1.0 : f32
  %b = arith.constant -0.5 : f32
  %0 = coopvec.pack %a, %b to f4E2M1FN rounding rn satfinite : f32, f32 -> i8
  return %0 : i8
}

// -----

// One MX block: amax 2 gives the shared exponent floor(log2 2) - emax(E4M3 = 8) = -7,
// so elements are 2^7 and 2^8; dequantization restores the input exactly.
// CHECK-LABEL: func @mx
// CHECK-DAG: %[[E:.*]] = arith.constant dense<[1.280000e+02, {{(1.280000e\+02, )+}}2.560000e+02]> : vector<32xf8E4M3FN>
// CHECK-DAG: %[[S:.*]] = arith.constant dense<7.812500e-03> : vector<1xf8E8M0FNU>
// CHECK-DAG: %[[D:.*]] = arith.constant dense<[1.000000e+00, {{(1.000000e\+00, )+}}2.000000e+00]> : vector<32xf32>
// CHECK: return %[[E]], %[[S]], %[[D]]
func.func @mx() -> (vector<32xf8E4M3FN>, vector<1xf8E8M0FNU>, vector<32xf32>) {
  %x = arith.constant dense<[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 2.0]> : vector<32xf32>
  %e, %s = coopvec.mx_quantize %x block 32 : vector<32xf32> -> vector<32xf8E4M3FN>, vector<1xf8E8M0FNU>
  %d = coopvec.mx_dequantize %e, %s block 32 : vector<32xf8E4M3FN>, vector<1xf8E8M0FNU> -> vector<32xf32>
  return %e, %s, %d : vector<32xf8E4M3FN>, vector<1xf8E8M0FNU>, vector<32xf32>
}

// -----

// NVFP4: amax 6 gives the UE4M3 scale 6 / 6 = 1; 3.0 and -0.5 are E2M1 values.
// CHECK-LABEL: func @nvfp4
// CHECK-DAG: arith.constant dense<[6.000000e+00, 3.000000e+00, -5.000000e-01, {{.*}}]> : vector<16xf4E2M1FN>
// CHECK-DAG: arith.constant dense<1.000000e+00> : vector<1xf8E4M3FN>
func.func @nvfp4() -> (vector<16xf4E2M1FN>, vector<1xf8E4M3FN>) {
  %x = arith.constant dense<[6.0, 3.0, -0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]> : vector<16xf32>
  %e, %s = coopvec.mx_quantize %x block 16 : vector<16xf32> -> vector<16xf4E2M1FN>, vector<1xf8E4M3FN>
  return %e, %s : vector<16xf4E2M1FN>, vector<1xf8E4M3FN>
}
