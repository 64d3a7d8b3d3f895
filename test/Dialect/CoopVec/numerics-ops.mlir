// RUN: coopvec-opt %s | coopvec-opt | FileCheck %s

// CHECK-LABEL: func @conversions
// CHECK: coopvec.convert %{{.*}} rounding rn satfinite : vector<8xf32> -> vector<8xf8E4M3FN>
// CHECK: coopvec.convert %{{.*}} rbits %{{.*}} rounding rs satfinite relu : vector<8xf32>, vector<8xi32> -> vector<8xf4E2M1FN>
// CHECK: coopvec.convert %{{.*}} rounding rp : f32 -> f8E8M0FNU
// CHECK: coopvec.convert %{{.*}} rounding rna satfinite : f32 -> tf32
// CHECK: coopvec.convert %{{.*}} rounding rz relu : vector<8xf32> -> vector<8xbf16>
// CHECK: coopvec.convert %{{.*}} rounding rn : vector<8xf8E4M3FN> -> vector<8xf16>
func.func @conversions(%x: vector<8xf32>, %r: vector<8xi32>, %s: f32) {
  %0 = coopvec.convert %x rounding rn satfinite : vector<8xf32> -> vector<8xf8E4M3FN>
  %1 = coopvec.convert %x rbits %r rounding rs satfinite relu : vector<8xf32>, vector<8xi32> -> vector<8xf4E2M1FN>
  %2 = coopvec.convert %s rounding rp : f32 -> f8E8M0FNU
  %3 = coopvec.convert %s rounding rna satfinite : f32 -> tf32
  %4 = coopvec.convert %x rounding rz relu : vector<8xf32> -> vector<8xbf16>
  %5 = coopvec.convert %0 rounding rn : vector<8xf8E4M3FN> -> vector<8xf16>
  return
}

// CHECK-LABEL: func @packs
// CHECK: coopvec.pack %{{.*}}, %{{.*}} to f4E2M1FN rounding rn satfinite : f32, f32 -> i8
// CHECK: coopvec.pack %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} to f8E4M3FN rbits %{{.*}} rounding rs satfinite : f32, f32, f32, f32 -> i32
// CHECK: coopvec.pack %{{.*}}, %{{.*}} to f8E8M0FNU rounding rz satfinite : f32, f32 -> i16
func.func @packs(%a: f32, %b: f32, %r: i32) {
  %0 = coopvec.pack %a, %b to f4E2M1FN rounding rn satfinite : f32, f32 -> i8
  %1 = coopvec.pack %a, %b, %a, %b to f8E4M3FN rbits %r rounding rs satfinite : f32, f32, f32, f32 -> i32
  %2 = coopvec.pack %a, %b to f8E8M0FNU rounding rz satfinite : f32, f32 -> i16
  return
}

// CHECK-LABEL: func @mx
// CHECK: %[[E:.*]], %[[S:.*]] = coopvec.mx_quantize %{{.*}} block 32 : vector<64xf32> -> vector<64xf6E3M2FN>, vector<2xf8E8M0FNU>
// CHECK: coopvec.mx_dequantize %[[E]], %[[S]] block 32 : vector<64xf6E3M2FN>, vector<2xf8E8M0FNU> -> vector<64xf32>
// CHECK: coopvec.mx_quantize %{{.*}} block 16 : vector<40xf32> -> vector<40xf4E2M1FN>, vector<3xf8E4M3FN>
func.func @mx(%x: vector<64xf32>, %y: vector<40xf32>) {
  %e, %s = coopvec.mx_quantize %x block 32 : vector<64xf32> -> vector<64xf6E3M2FN>, vector<2xf8E8M0FNU>
  %d = coopvec.mx_dequantize %e, %s block 32 : vector<64xf6E3M2FN>, vector<2xf8E8M0FNU> -> vector<64xf32>
  %n, %t = coopvec.mx_quantize %y block 16 : vector<40xf32> -> vector<40xf4E2M1FN>, vector<3xf8E4M3FN>
  return
}
