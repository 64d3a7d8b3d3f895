//===- DxilInternal.h - shared helpers of the DXIL software driver -*- C++ -*-===//

#ifndef LINALGCOOP_LIB_RUNTIME_DXIL_DXILINTERNAL_H
#define LINALGCOOP_LIB_RUNTIME_DXIL_DXILINTERNAL_H

#include <cstdint>

namespace coopvec::dxil {

/// What the driver knows of one DXIL ComponentType.
struct ComponentInfo {
  uint32_t componentType; ///< DXIL ComponentType number.
  unsigned format;        ///< CoopVecFormat (Numerics.h); ~0u for packed.
  unsigned bytes;         ///< Bytes per element in memory or registers.
  bool isFloat;
  bool isPacked;
  const char *name; ///< The ComponentType's name ("F16", "PackedS8x32").
};

/// The ComponentType `type`, or null if DXIL SM 6.9 does not use it.
const ComponentInfo *getComponent(uint32_t type);

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
