//===- ReferenceInternal.h - ComponentTypes of the reference -*- C++ -*-===//

#ifndef LINALGCOOP_LIB_RUNTIME_REFERENCE_REFERENCEINTERNAL_H
#define LINALGCOOP_LIB_RUNTIME_REFERENCE_REFERENCEINTERNAL_H

#include "LinAlgCoop/Runtime/Dxil.h"
#include "LinAlgCoop/Runtime/Layout.h"

#include <cstdint>

// The reference's C ABI (Dxil.h) names element types by DXIL ComponentType
// numbers, so its table keeps the driver's namespace.
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

/// The DXIL ComponentType `type` if it may interpret a matrix or a bias in
/// memory (the non-packed SM 6.9 set), else null.
const ComponentInfo *getMemoryComponent(uint32_t type);

/// A matrix in a buffer: the checks every matrix operand passes, and its
/// element addresses.
struct MatrixRef {
  const CoopVecDxBuffer *buffer;
  uint32_t offset, layout, stride;
  uint32_t storedRows, storedCols;
  const ComponentInfo *interp;

  /// Stored columns in layout units: column pairs for 4-bit elements.
  uint32_t unitCols() const {
    return interp->bits == 4 ? (storedCols + 1) / 2 : storedCols;
  }

  /// Byte offset in the buffer of stored element (r, c) (of the byte that
  /// holds it, for 4-bit elements).
  uint64_t elementOffset(uint32_t r, uint32_t c) const {
    return offset + uint64_t(coopvecLayoutElementOffset(
                        layout, storedRows, unitCols(), interp->bytes, stride,
                        r, interp->bits == 4 ? c / 2 : c));
  }

  /// The bits of stored element (r, c) in `interp`'s format.
  uint32_t load(uint32_t r, uint32_t c) const;
};

} // namespace coopvec::dxil

#endif // LINALGCOOP_LIB_RUNTIME_REFERENCE_REFERENCEINTERNAL_H
