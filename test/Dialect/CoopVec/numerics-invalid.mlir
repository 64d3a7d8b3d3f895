// RUN: coopvec-opt %s -split-input-file -verify-diagnostics

// One case per PTX rule of the conversion ops.

func.func @shape(%x: vector<8xf32>) {
  // expected-error@+1 {{'coopvec.convert' op input 'vector<8xf32>' and result 'vector<4xf16>' must both be scalars or 1-D fixed-length vectors of one length}}
  %0 = coopvec.convert %x rounding rn : vector<8xf32> -> vector<4xf16>
  return
}

// -----

func.func @scalable(%x: vector<[8]xf32>) {
  // expected-error@+1 {{'coopvec.convert' op input 'vector<[8]xf32>' and result 'vector<[8]xf16>' must both be scalars or 1-D fixed-length vectors of one length}}
  %0 = coopvec.convert %x rounding rn : vector<[8]xf32> -> vector<[8]xf16>
  return
}

// -----

func.func @mx_scalable(%x: vector<[32]xf32>) {
  // expected-error@+1 {{'coopvec.mx_quantize' op operand #0 must be fixed-length vector of 32-bit float values of ranks 1, but got 'vector<[32]xf32>'}}
  %e, %s = coopvec.mx_quantize %x block 32 : vector<[32]xf32> -> vector<[32]xf8E4M3FN>, vector<1xf8E8M0FNU>
  return
}

// -----

func.func @mx_dequantize_scalable(%e: vector<[32]xf8E4M3FN>, %s: vector<1xf8E8M0FNU>) {
  // expected-error@+1 {{'coopvec.mx_dequantize' op operand #0 must be fixed-length vector of any type values, but got 'vector<[32]xf8E4M3FN>'}}
  %x = coopvec.mx_dequantize %e, %s block 32 : vector<[32]xf8E4M3FN>, vector<1xf8E8M0FNU> -> vector<32xf32>
  return
}

// -----

func.func @non_float(%x: i32) {
  // expected-error@+1 {{'coopvec.convert' op converts between float types only (f32, f16, bf16, tf32, f8E4M3FN, f8E5M2, f6E2M3FN, f6E3M2FN, f4E2M1FN, f8E8M0FNU), but got 'i32' -> 'f16'}}
  %0 = coopvec.convert %x rounding rn : i32 -> f16
  return
}

// -----

func.func @tf32_source(%x: tf32) {
  // expected-error@+1 {{'coopvec.convert' op tf32 is a conversion destination only}}
  %0 = coopvec.convert %x rounding rn : tf32 -> f16
  return
}

// -----

func.func @same_type(%x: f16) {
  // expected-error@+1 {{'coopvec.convert' op invalid conversion f16 -> f16: converts f16 to itself}}
  %0 = coopvec.convert %x rounding rn : f16 -> f16
  return
}

// -----

func.func @rs_without_bits(%x: f32) {
  // expected-error@+1 {{'coopvec.convert' op invalid conversion f32 -> e4m3: rounding rs needs random bits (rbits)}}
  %0 = coopvec.convert %x rounding rs satfinite : f32 -> f8E4M3FN
  return
}

// -----

func.func @bits_without_rs(%x: f32, %r: i32) {
  // expected-error@+1 {{'coopvec.convert' op invalid conversion f32 -> e4m3: random bits are only used by rounding rs}}
  %0 = coopvec.convert %x rbits %r rounding rn satfinite : f32, i32 -> f8E4M3FN
  return
}

// -----

func.func @bits_type(%x: vector<4xf32>, %r: vector<4xi16>) {
  // expected-error@+1 {{'coopvec.convert' op random bits must be 'vector<4xi32>' (one i32 per element), but got 'vector<4xi16>'}}
  %0 = coopvec.convert %x rbits %r rounding rs satfinite : vector<4xf32>, vector<4xi16> -> vector<4xf8E4M3FN>
  return
}

// -----

func.func @fp8_needs_satfinite(%x: f32) {
  // expected-error@+1 {{'coopvec.convert' op invalid conversion f32 -> e5m2: PTX requires satfinite for e5m2}}
  %0 = coopvec.convert %x rounding rn : f32 -> f8E5M2
  return
}

// -----

func.func @fp8_rounding(%x: f32) {
  // expected-error@+1 {{'coopvec.convert' op invalid conversion f32 -> e4m3: PTX defines e4m3 conversion only with rn or rs}}
  %0 = coopvec.convert %x rounding rz satfinite : f32 -> f8E4M3FN
  return
}

// -----

func.func @fp4_from_f16(%x: f16) {
  // expected-error@+1 {{'coopvec.convert' op invalid conversion f16 -> e2m1: PTX converts to e2m1 only from f32}}
  %0 = coopvec.convert %x rounding rn satfinite : f16 -> f4E2M1FN
  return
}

// -----

func.func @rs_from_f16(%x: f16, %r: i32) {
  // expected-error@+1 {{'coopvec.convert' op invalid conversion f16 -> e4m3: PTX defines rounding rs only for f32 sources}}
  %0 = coopvec.convert %x rbits %r rounding rs satfinite : f16, i32 -> f8E4M3FN
  return
}

// -----

func.func @to_f32(%x: f16) {
  // expected-error@+1 {{'coopvec.convert' op invalid conversion f16 -> f32: PTX converts to f32 only from the small formats}}
  %0 = coopvec.convert %x rounding rn : f16 -> f32
  return
}

// -----

func.func @f16_rna(%x: f32) {
  // expected-error@+1 {{'coopvec.convert' op invalid conversion f32 -> f16: PTX does not define rounding rna for f16}}
  %0 = coopvec.convert %x rounding rna : f32 -> f16
  return
}

// -----

func.func @bf16_from_f16(%x: f16) {
  // expected-error@+1 {{'coopvec.convert' op invalid conversion f16 -> bf16: PTX converts to bf16 only from f32}}
  %0 = coopvec.convert %x rounding rn : f16 -> bf16
  return
}

// -----

func.func @f16_relu(%x: f32) {
  // expected-error@+1 {{'coopvec.convert' op invalid conversion f32 -> f16: PTX defines relu for f16 only with rn, rz or rs}}
  %0 = coopvec.convert %x rounding rm relu : f32 -> f16
  return
}

// -----

func.func @tf32_rounding(%x: f32) {
  // expected-error@+1 {{'coopvec.convert' op invalid conversion f32 -> tf32: PTX defines tf32 conversion only with rna, rn or rz}}
  %0 = coopvec.convert %x rounding rp : f32 -> tf32
  return
}

// -----

func.func @tf32_relu(%x: f32) {
  // expected-error@+1 {{'coopvec.convert' op invalid conversion f32 -> tf32: PTX defines relu for tf32 only with rn or rz}}
  %0 = coopvec.convert %x rounding rna relu : f32 -> tf32
  return
}

// -----

func.func @tf32_from_bf16(%x: bf16) {
  // expected-error@+1 {{'coopvec.convert' op invalid conversion bf16 -> tf32: PTX converts to tf32 only from f32}}
  %0 = coopvec.convert %x rounding rn : bf16 -> tf32
  return
}

// -----

func.func @ue8m0_rounding(%x: f32) {
  // expected-error@+1 {{'coopvec.convert' op invalid conversion f32 -> ue8m0: PTX defines ue8m0 conversion only with rz or rp}}
  %0 = coopvec.convert %x rounding rn : f32 -> f8E8M0FNU
  return
}

// -----

func.func @ue8m0_relu(%x: f32) {
  // expected-error@+1 {{'coopvec.convert' op invalid conversion f32 -> ue8m0: PTX does not define relu for ue8m0}}
  %0 = coopvec.convert %x rounding rz relu : f32 -> f8E8M0FNU
  return
}

// -----

func.func @ue8m0_from_f16(%x: f16) {
  // expected-error@+1 {{'coopvec.convert' op invalid conversion f16 -> ue8m0: PTX converts to ue8m0 only from f32 or bf16}}
  %0 = coopvec.convert %x rounding rz : f16 -> f8E8M0FNU
  return
}

// -----

func.func @narrow_to_narrow(%x: f8E4M3FN) {
  // expected-error@+1 {{'coopvec.convert' op invalid conversion e4m3 -> e5m2: PTX converts e4m3 only to f16, bf16 or f32}}
  %0 = coopvec.convert %x rounding rn : f8E4M3FN -> f8E5M2
  return
}

// -----

func.func @widen_rounding(%x: f4E2M1FN) {
  // expected-error@+1 {{'coopvec.convert' op invalid conversion e2m1 -> f16: widening e2m1 is exact; PTX defines it with rn only}}
  %0 = coopvec.convert %x rounding rz : f4E2M1FN -> f16
  return
}

// -----

func.func @pack_count(%a: f32) {
  // expected-error@+1 {{'coopvec.pack' op packs 2 or 4 values, but got 3}}
  %0 = "coopvec.pack"(%a, %a, %a) <{format = f8E4M3FN, rounding = 0 : i32, satfinite, operandSegmentSizes = array<i32: 3, 0>}> : (f32, f32, f32) -> i16
  return
}

// -----

func.func @pack_no_form(%a: f32, %r: i32) {
  // expected-error@+1 {{'coopvec.pack' op PTX has no 'f8E8M0FNU'x4 packed form}}
  %0 = coopvec.pack %a, %a, %a, %a to f8E8M0FNU rbits %r rounding rs : f32, f32, f32, f32 -> i32
  return
}

// -----

func.func @pack_width(%a: f32) {
  // expected-error@+1 {{'coopvec.pack' op 'f4E2M1FN'x2 packs into i8, but the result is 'i16'}}
  %0 = coopvec.pack %a, %a to f4E2M1FN rounding rn satfinite : f32, f32 -> i16
  return
}

// -----

func.func @pack_x4_needs_rs(%a: f32) {
  // expected-error@+1 {{'coopvec.pack' op PTX defines the x4 forms only with rounding rs}}
  %0 = coopvec.pack %a, %a, %a, %a to f8E4M3FN rounding rn satfinite : f32, f32, f32, f32 -> i32
  return
}

// -----

func.func @pack_x2_rs(%a: f32, %r: i32) {
  // expected-error@+1 {{'coopvec.pack' op PTX defines 'f8E5M2'x2 without rounding rs; use the x4 form}}
  %0 = coopvec.pack %a, %a to f8E5M2 rbits %r rounding rs satfinite : f32, f32 -> i16
  return
}

// -----

func.func @pack_rule(%a: f32) {
  // expected-error@+1 {{'coopvec.pack' op invalid conversion f32 -> e2m3: PTX requires satfinite for e2m3}}
  %0 = coopvec.pack %a, %a to f6E2M3FN rounding rn : f32, f32 -> i16
  return
}

// -----

func.func @mx_elements(%x: vector<32xf32>) {
  // expected-error@+1 {{'coopvec.mx_quantize' op MX elements must be f8E4M3FN, f8E5M2, f6E2M3FN, f6E3M2FN or f4E2M1FN, but got 'f16'}}
  %e, %s = coopvec.mx_quantize %x block 32 : vector<32xf32> -> vector<32xf16>, vector<1xf8E8M0FNU>
  return
}

// -----

func.func @mx_block(%x: vector<32xf32>) {
  // expected-error@+1 {{'coopvec.mx_quantize' op OCP MX (UE8M0 scales) uses blocks of 32, but got 16}}
  %e, %s = coopvec.mx_quantize %x block 16 : vector<32xf32> -> vector<32xf8E4M3FN>, vector<2xf8E8M0FNU>
  return
}

// -----

func.func @nvfp4_elements(%x: vector<32xf32>) {
  // expected-error@+1 {{'coopvec.mx_quantize' op UE4M3 (f8E4M3FN) scales are NVFP4's and need f4E2M1FN elements, but got 'f8E4M3FN'}}
  %e, %s = coopvec.mx_quantize %x block 16 : vector<32xf32> -> vector<32xf8E4M3FN>, vector<2xf8E4M3FN>
  return
}

// -----

func.func @nvfp4_block(%x: vector<32xf32>) {
  // expected-error@+1 {{'coopvec.mx_quantize' op NVFP4 (UE4M3 scales) uses blocks of 16, but got 32}}
  %e, %s = coopvec.mx_quantize %x block 32 : vector<32xf32> -> vector<32xf4E2M1FN>, vector<1xf8E4M3FN>
  return
}

// -----

func.func @scale_type(%x: vector<32xf32>) {
  // expected-error@+1 {{'coopvec.mx_quantize' op scales must be f8E8M0FNU (OCP MX UE8M0) or f8E4M3FN (NVFP4 UE4M3), but got 'i8'}}
  %e, %s = coopvec.mx_quantize %x block 32 : vector<32xf32> -> vector<32xf8E4M3FN>, vector<1xi8>
  return
}

// -----

func.func @scale_count(%x: vector<40xf32>) {
  // expected-error@+1 {{'coopvec.mx_quantize' op has 1 scales, but 40 values in blocks of 32 need 2}}
  %e, %s = coopvec.mx_quantize %x block 32 : vector<40xf32> -> vector<40xf8E4M3FN>, vector<1xf8E8M0FNU>
  return
}

// -----

func.func @element_count(%x: vector<32xf32>) {
  // expected-error@+1 {{'coopvec.mx_quantize' op has 16 elements for 32 values}}
  %e, %s = coopvec.mx_quantize %x block 32 : vector<32xf32> -> vector<16xf8E4M3FN>, vector<1xf8E8M0FNU>
  return
}

// -----

func.func @block_positive(%x: vector<32xf32>) {
  // expected-error@+1 {{'coopvec.mx_quantize' op attribute 'block_size' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  %e, %s = coopvec.mx_quantize %x block 0 : vector<32xf32> -> vector<32xf8E4M3FN>, vector<1xf8E8M0FNU>
  return
}

// -----

func.func @dequantize_rank(%e: vector<32xf8E4M3FN>, %s: vector<1x1xf8E8M0FNU>) {
  // expected-error@+1 {{'coopvec.mx_dequantize' op elements and scales must be 1-D vectors}}
  %0 = coopvec.mx_dequantize %e, %s block 32 : vector<32xf8E4M3FN>, vector<1x1xf8E8M0FNU> -> vector<32xf32>
  return
}
