// f32 -> bf16 truncation in JIT-compiled code. On an x86 CPU without
// AVX512-BF16 LLVM calls the compiler-rt builtin __truncsfbf2, which
// Debian 12's libgcc lacks: the runtime library provides it
// (lib/Runtime/Shared/JitBuiltins.cpp); elsewhere the CPU's own
// instruction runs. Either way, the bits (as i16) by hand:
//   1 + 2^-8      a tie between 1 and 1 + 2^-7: to even, 0x3F80 = 16256
//   1 + 3 * 2^-8  a tie between 1 + 2^-7 and 1 + 2^-6: to even, 0x3F82 = 16258
//   1 + 2^-8 + 2^-20  above the tie: up, 0x3F81 = 16257
//   -2.5          exact, 0xC020 = -16352 as i16
//   3.4028235e38  (0x7F7FFFFF) rounds up into the exponent: +inf, 0x7F80 = 32640
//   -inf          0xFF80 = -128
// RUN: coopvec-run %s -e main | FileCheck %s
// CHECK: [16256, 16258, 16257, -16352, 32640, -128]
func.func @main() -> vector<6xi16> {
  %x = arith.constant dense<[0x3F808000, 0x3F818000, 0x3F808008, 0xC0200000, 0x7F7FFFFF, 0xFF800000]> : vector<6xi32>
  %f = arith.bitcast %x : vector<6xi32> to vector<6xf32>
  %b = arith.truncf %f : vector<6xf32> to vector<6xbf16>
  %i = arith.bitcast %b : vector<6xbf16> to vector<6xi16>
  return %i : vector<6xi16>
}
