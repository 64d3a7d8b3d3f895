//===- DxilInternal.h - shared helpers of the DXIL software driver -*- C++ -*-===//

#ifndef LINALGCOOP_LIB_RUNTIME_DXIL_DXILINTERNAL_H
#define LINALGCOOP_LIB_RUNTIME_DXIL_DXILINTERNAL_H

#include "ReferenceInternal.h"

#include <cstdint>

namespace coopvec::dxil {

/// Prints "coopvec-dxil: error: <op>: <message>" to stderr, counts the
/// error and aborts if the user asked for that.
[[gnu::format(printf, 2, 3)]] void reportError(const char *op,
                                               const char *format, ...);

/// The tier the driver currently reports.
uint32_t currentTier();

} // namespace coopvec::dxil

#endif // LINALGCOOP_LIB_RUNTIME_DXIL_DXILINTERNAL_H
