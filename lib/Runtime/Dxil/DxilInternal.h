//===- DxilInternal.h - shared helpers of the DXIL software driver -*- C++ -*-===//

#ifndef LINALGCOOP_LIB_RUNTIME_DXIL_DXILINTERNAL_H
#define LINALGCOOP_LIB_RUNTIME_DXIL_DXILINTERNAL_H

#include <cstdint>

namespace coopvec::dxil {

/// What the driver and the reference semantics know of one element code
/// (CoopVecComponentType, Kernels.h).
struct ComponentInfo {
  uint32_t componentType; ///< The element code: the DXIL number where DXIL
                          ///< has one.
  unsigned format;        ///< CoopVecFormat (Numerics.h); ~0u for packed;
                          ///< I8/U8 for the 4-bit integers.
  unsigned bytes;         ///< Bytes per element in memory or registers (1 for
                          ///< the 4-bit types: the byte of a column pair).
  bool isFloat;
  bool isPacked;
  const char *name; ///< Its name ("F16", "PackedS8x32", "F4_E2M1").
  unsigned bits;    ///< Bits per element in memory: 4 for the 4-bit types.
  bool isDxil;      ///< Whether DXIL SM 6.9 has it (the driver takes it).
};

/// The DXIL ComponentType `type`, or null if DXIL SM 6.9 does not use it.
const ComponentInfo *getComponent(uint32_t type);

/// Any element code of the runtime ABI (DXIL's and the others), or null.
const ComponentInfo *getElement(uint32_t type);

/// Whether `type` may interpret a matrix or a bias in memory (the
/// non-packed SM 6.9 set).
bool isMemoryInterpretation(uint32_t type);

/// Prints "coopvec-dxil: error: <op>: <message>" to stderr, counts the
/// error and aborts if the user asked for that.
[[gnu::format(printf, 2, 3)]] void reportError(const char *op,
                                               const char *format, ...);

/// The tier the driver currently reports.
uint32_t currentTier();

} // namespace coopvec::dxil

#endif // LINALGCOOP_LIB_RUNTIME_DXIL_DXILINTERNAL_H
