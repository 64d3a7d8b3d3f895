// Vector conversions between 8-, 16- and 32-bit formats lower to one
// coopvecConvertBuffer call over stack buffers (the runtime's vectorized
// conversion); every other conversion, and scalars, call coopvecConvert per
// element (a vector<1024xf32> -> f8E4M3FN -> f32 round trip: JIT compile
// 72 s per element, 72 ms in bulk). Each entry converts 64 values both ways, the
// vector op and a scalar op per element, and returns how many codes differ.
// Inputs x_i = (i * i - 500) * 0.37 * 2^(i mod 13 - 6) (plus inf and NaN in
// the first two lanes) cover both signs, saturation, subnormals and ties.

// RUN: coopvec-opt %s --convert-coopvec-to-cpu | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @e4m3_rn(
// IR:         call @coopvecConvertBuffer(
// IR-NOT:     call @coopvecConvertBuffer(
// IR:         call @coopvecConvert(
// IR-LABEL: func.func @e2m1_rn(
// IR-NOT:     call @coopvecConvertBuffer(
// IR-LABEL: func.func @e4m3_first(

// RUN: coopvec-run %s -e e4m3_rn | FileCheck %s --check-prefix=ZERO
// RUN: coopvec-run %s -e e5m2_rn_relu | FileCheck %s --check-prefix=ZERO
// RUN: coopvec-run %s -e e4m3_rs | FileCheck %s --check-prefix=ZERO
// RUN: coopvec-run %s -e ue8m0_rp | FileCheck %s --check-prefix=ZERO
// RUN: coopvec-run %s -e bf16_rn | FileCheck %s --check-prefix=ZERO
// RUN: coopvec-run %s -e f16_to_e4m3 | FileCheck %s --check-prefix=ZERO
// RUN: coopvec-run %s -e e4m3_decode | FileCheck %s --check-prefix=ZERO
// RUN: coopvec-run %s -e e2m1_rn | FileCheck %s --check-prefix=ZERO
// ZERO: 0{{$}}

// The vector results themselves (so that agreeing zeros cannot pass).
// RUN: coopvec-run %s -e e4m3_first | FileCheck %s --check-prefix=FIRST
// x_0 = inf -> 448 (satfinite), x_1 = NaN, x_2 = -496 * 0.37 * 2^-4 = -11.47 -> -11,
// x_3 = -491 * 0.37 * 2^-3 = -22.7 -> -22 (rn on the 2-ULP grid of [16, 32)).
// FIRST: [448, nan, -11, -22]

func.func private @inputs() -> vector<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %init = arith.constant dense<0.0> : vector<64xf32>
  %x = scf.for %i = %c0 to %c64 step %c1 iter_args(%v = %init) -> vector<64xf32> {
    %ii = arith.index_cast %i : index to i32
    %sq = arith.muli %ii, %ii : i32
    %c500 = arith.constant 500 : i32
    %d = arith.subi %sq, %c500 : i32
    %f = arith.sitofp %d : i32 to f32
    %s = arith.constant 0.37 : f32
    %a = arith.mulf %f, %s : f32
    %c13 = arith.constant 13 : i32
    %m = arith.remui %ii, %c13 : i32
    %c6 = arith.constant 6 : i32
    %e = arith.subi %m, %c6 : i32
    %ef = arith.sitofp %e : i32 to f32
    %p = math.exp2 %ef : f32
    %y = arith.mulf %a, %p : f32
    %w = vector.insert %y, %v [%i] : f32 into vector<64xf32>
    scf.yield %w : vector<64xf32>
  }
  %inf = arith.constant 0x7F800000 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %x1 = vector.insert %inf, %x [0] : f32 into vector<64xf32>
  %x2 = vector.insert %nan, %x1 [1] : f32 into vector<64xf32>
  return %x2 : vector<64xf32>
}

// Random bits for rs: i * 2654435761 (Knuth's multiplicative hash).
func.func private @rbits() -> vector<64xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %init = arith.constant dense<0> : vector<64xi32>
  %k = arith.constant -1640531535 : i32
  %r = scf.for %i = %c0 to %c64 step %c1 iter_args(%v = %init) -> vector<64xi32> {
    %ii = arith.index_cast %i : index to i32
    %h = arith.muli %ii, %k : i32
    %w = vector.insert %h, %v [%i] : i32 into vector<64xi32>
    scf.yield %w : vector<64xi32>
  }
  return %r : vector<64xi32>
}

func.func @e4m3_rn() -> i32 {
  %x = call @inputs() : () -> vector<64xf32>
  %v = coopvec.convert %x rounding rn satfinite : vector<64xf32> -> vector<64xf8E4M3FN>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0 : i32
  %n = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> i32 {
    %xi = vector.extract %x[%i] : f32 from vector<64xf32>
    %s = coopvec.convert %xi rounding rn satfinite : f32 -> f8E4M3FN
    %vi = vector.extract %v[%i] : f8E4M3FN from vector<64xf8E4M3FN>
    %sb = arith.bitcast %s : f8E4M3FN to i8
    %vb = arith.bitcast %vi : f8E4M3FN to i8
    %ne = arith.cmpi ne, %sb, %vb : i8
    %one = arith.extui %ne : i1 to i32
    %a = arith.addi %acc, %one : i32
    scf.yield %a : i32
  }
  return %n : i32
}

func.func @e5m2_rn_relu() -> i32 {
  %x = call @inputs() : () -> vector<64xf32>
  %v = coopvec.convert %x rounding rn satfinite relu : vector<64xf32> -> vector<64xf8E5M2>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0 : i32
  %n = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> i32 {
    %xi = vector.extract %x[%i] : f32 from vector<64xf32>
    %s = coopvec.convert %xi rounding rn satfinite relu : f32 -> f8E5M2
    %vi = vector.extract %v[%i] : f8E5M2 from vector<64xf8E5M2>
    %sb = arith.bitcast %s : f8E5M2 to i8
    %vb = arith.bitcast %vi : f8E5M2 to i8
    %ne = arith.cmpi ne, %sb, %vb : i8
    %one = arith.extui %ne : i1 to i32
    %a = arith.addi %acc, %one : i32
    scf.yield %a : i32
  }
  return %n : i32
}

func.func @e4m3_rs() -> i32 {
  %x = call @inputs() : () -> vector<64xf32>
  %r = call @rbits() : () -> vector<64xi32>
  %v = coopvec.convert %x rbits %r rounding rs satfinite : vector<64xf32>, vector<64xi32> -> vector<64xf8E4M3FN>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0 : i32
  %n = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> i32 {
    %xi = vector.extract %x[%i] : f32 from vector<64xf32>
    %ri = vector.extract %r[%i] : i32 from vector<64xi32>
    %s = coopvec.convert %xi rbits %ri rounding rs satfinite : f32, i32 -> f8E4M3FN
    %vi = vector.extract %v[%i] : f8E4M3FN from vector<64xf8E4M3FN>
    %sb = arith.bitcast %s : f8E4M3FN to i8
    %vb = arith.bitcast %vi : f8E4M3FN to i8
    %ne = arith.cmpi ne, %sb, %vb : i8
    %one = arith.extui %ne : i1 to i32
    %a = arith.addi %acc, %one : i32
    scf.yield %a : i32
  }
  return %n : i32
}

func.func @ue8m0_rp() -> i32 {
  %x = call @inputs() : () -> vector<64xf32>
  %v = coopvec.convert %x rounding rp satfinite : vector<64xf32> -> vector<64xf8E8M0FNU>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0 : i32
  %n = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> i32 {
    %xi = vector.extract %x[%i] : f32 from vector<64xf32>
    %s = coopvec.convert %xi rounding rp satfinite : f32 -> f8E8M0FNU
    %vi = vector.extract %v[%i] : f8E8M0FNU from vector<64xf8E8M0FNU>
    %sb = arith.bitcast %s : f8E8M0FNU to i8
    %vb = arith.bitcast %vi : f8E8M0FNU to i8
    %ne = arith.cmpi ne, %sb, %vb : i8
    %one = arith.extui %ne : i1 to i32
    %a = arith.addi %acc, %one : i32
    scf.yield %a : i32
  }
  return %n : i32
}

func.func @bf16_rn() -> i32 {
  %x = call @inputs() : () -> vector<64xf32>
  %v = coopvec.convert %x rounding rn : vector<64xf32> -> vector<64xbf16>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0 : i32
  %n = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> i32 {
    %xi = vector.extract %x[%i] : f32 from vector<64xf32>
    %s = coopvec.convert %xi rounding rn : f32 -> bf16
    %vi = vector.extract %v[%i] : bf16 from vector<64xbf16>
    %sb = arith.bitcast %s : bf16 to i16
    %vb = arith.bitcast %vi : bf16 to i16
    %ne = arith.cmpi ne, %sb, %vb : i16
    %one = arith.extui %ne : i1 to i32
    %a = arith.addi %acc, %one : i32
    scf.yield %a : i32
  }
  return %n : i32
}

// An f16 source (the inputs rounded to f16 first).
func.func @f16_to_e4m3() -> i32 {
  %x32 = call @inputs() : () -> vector<64xf32>
  %x = arith.truncf %x32 : vector<64xf32> to vector<64xf16>
  %v = coopvec.convert %x rounding rn satfinite : vector<64xf16> -> vector<64xf8E4M3FN>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0 : i32
  %n = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> i32 {
    %xi = vector.extract %x[%i] : f16 from vector<64xf16>
    %s = coopvec.convert %xi rounding rn satfinite : f16 -> f8E4M3FN
    %vi = vector.extract %v[%i] : f8E4M3FN from vector<64xf8E4M3FN>
    %sb = arith.bitcast %s : f8E4M3FN to i8
    %vb = arith.bitcast %vi : f8E4M3FN to i8
    %ne = arith.cmpi ne, %sb, %vb : i8
    %one = arith.extui %ne : i1 to i32
    %a = arith.addi %acc, %one : i32
    scf.yield %a : i32
  }
  return %n : i32
}

// Decoding 8-bit codes back to f32 (bulk too), with -NaN (0xFF) in lane 5.
func.func @e4m3_decode() -> i32 {
  %x = call @inputs() : () -> vector<64xf32>
  %v0 = coopvec.convert %x rounding rn satfinite : vector<64xf32> -> vector<64xf8E4M3FN>
  %negnan = arith.constant 0xFF : f8E4M3FN
  %v = vector.insert %negnan, %v0 [5] : f8E4M3FN into vector<64xf8E4M3FN>
  %d = coopvec.convert %v rounding rn : vector<64xf8E4M3FN> -> vector<64xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0 : i32
  %n = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> i32 {
    %vi = vector.extract %v[%i] : f8E4M3FN from vector<64xf8E4M3FN>
    %s = coopvec.convert %vi rounding rn : f8E4M3FN -> f32
    %di = vector.extract %d[%i] : f32 from vector<64xf32>
    %sb = arith.bitcast %s : f32 to i32
    %db = arith.bitcast %di : f32 to i32
    %ne = arith.cmpi ne, %sb, %db : i32
    %one = arith.extui %ne : i1 to i32
    %a = arith.addi %acc, %one : i32
    scf.yield %a : i32
  }
  return %n : i32
}

// E2M1 codes are nibble-packed in the runtime's buffers: per element.
func.func @e2m1_rn() -> i32 {
  %x = call @inputs() : () -> vector<64xf32>
  %v = coopvec.convert %x rounding rn satfinite : vector<64xf32> -> vector<64xf4E2M1FN>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0 : i32
  %n = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> i32 {
    %xi = vector.extract %x[%i] : f32 from vector<64xf32>
    %s = coopvec.convert %xi rounding rn satfinite : f32 -> f4E2M1FN
    %vi = vector.extract %v[%i] : f4E2M1FN from vector<64xf4E2M1FN>
    %sb = arith.bitcast %s : f4E2M1FN to i4
    %vb = arith.bitcast %vi : f4E2M1FN to i4
    %ne = arith.cmpi ne, %sb, %vb : i4
    %one = arith.extui %ne : i1 to i32
    %a = arith.addi %acc, %one : i32
    scf.yield %a : i32
  }
  return %n : i32
}

func.func @e4m3_first() -> vector<4xf32> {
  %x = call @inputs() : () -> vector<64xf32>
  %v = coopvec.convert %x rounding rn satfinite : vector<64xf32> -> vector<64xf8E4M3FN>
  %head = vector.extract_strided_slice %v {offsets = [0], sizes = [4], strides = [1]} : vector<64xf8E4M3FN> to vector<4xf8E4M3FN>
  %f = coopvec.convert %head rounding rn : vector<4xf8E4M3FN> -> vector<4xf32>
  return %f : vector<4xf32>
}
