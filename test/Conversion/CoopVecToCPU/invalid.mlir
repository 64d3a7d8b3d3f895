// RUN: coopvec-opt %s --convert-coopvec-to-cpu --split-input-file -verify-diagnostics

func.func @strided_byte_buffer(%x: vector<4xf32>, %w: memref<?xi8, strided<[2]>>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'coopvec.matvec' op byte buffer 'memref<?xi8, strided<[2]>>' must have unit stride for the CPU runtime}}
  %y = coopvec.matvec %x as F32, %w[%c0] matrix<F32, 4x4, TrainingOptimal>
         : vector<4xf32>, memref<?xi8, strided<[2]>> -> vector<4xf32>
  return %y : vector<4xf32>
}

// -----

// The numerics ops (conversions, MX) have no CPU lowering yet.
func.func @numerics(%x: vector<8xf32>) -> vector<8xf8E4M3FN> {
  // expected-error@+1 {{'coopvec.convert' op is not supported by the CPU target yet}}
  %a = coopvec.convert %x rounding rn satfinite : vector<8xf32> -> vector<8xf8E4M3FN>
  return %a : vector<8xf8E4M3FN>
}
