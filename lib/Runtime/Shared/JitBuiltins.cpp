//===- JitBuiltins.cpp - compiler builtins that JIT-compiled code calls ---===//
//
// LLVM lowers an f32 -> bf16 truncation (`arith.truncf ... to bf16`, and the
// bf16 values it keeps in registers on x86 CPUs without AVX512-BF16) to the
// compiler-rt builtin __truncsfbf2. Debian 12's libgcc (GCC 12) does not
// have it, so JIT-compiled code that runs on such a CPU would fail to link
// ("Symbols not found: [ __truncsfbf2 ]"). The runtime library that every
// JIT session loads provides it, with compiler-rt's semantics: round to
// nearest even; a NaN stays a NaN of the same sign, quieted, keeping the
// top payload bits.
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cstring>

extern "C" __attribute__((visibility("default"))) __bf16
__truncsfbf2(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  uint16_t result;
  if ((bits & 0x7FFFFFFFu) > 0x7F800000u)
    result = uint16_t((bits >> 16) | 0x40u);
  else
    result = uint16_t((bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16);
  __bf16 out;
  std::memcpy(&out, &result, sizeof(out));
  return out;
}
