//===- ReferenceInternal.h - ComponentTypes of the reference -*- C++ -*-===//

#ifndef LINALGCOOP_LIB_RUNTIME_REFERENCE_REFERENCEINTERNAL_H
#define LINALGCOOP_LIB_RUNTIME_REFERENCE_REFERENCEINTERNAL_H

#include "LinAlgCoop/Runtime/Dxil.h"
#include "LinAlgCoop/Runtime/Layout.h"

#include <cstdint>

// The reference's C ABI (Dxil.h) names element types by DXIL ComponentType
// numbers, so its table keeps the driver's namespace.
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

/// A matrix in a buffer: the checks every matrix operand passes, and its
/// element addresses.
struct MatrixRef {
  const CoopVecDxBuffer *buffer;
  uint32_t offset, layout, stride;
  uint32_t storedRows, storedCols;
  const ComponentInfo *interp;

  /// Byte offset in the buffer of stored element (r, c).
  uint64_t elementOffset(uint32_t r, uint32_t c) const {
    return offset + uint64_t(coopvecLayoutElementOffset(
                        layout, storedRows, storedCols, interp->bytes, stride,
                        r, c));
  }
};

} // namespace coopvec::dxil

#endif // LINALGCOOP_LIB_RUNTIME_REFERENCE_REFERENCEINTERNAL_H
