//===- RuntimeAbi.h - The runtime ABI as the CPU lowering sees it ---------===//
//
// RuntimeFunctions.def turned into C++ tables: the LLVM-level kind of every
// parameter of every runtime function the lowering calls, and the fields of
// every parameter struct it fills. Including this header checks, at compile
// time, that the C headers agree: each prototype has the table's types at
// the LLVM level and each C struct has the natural layout of its kinds (the
// layout LLVM gives the non-packed struct the lowering builds). A mismatch
// fails to compile instead of corrupting a call at run time.
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_LIB_CONVERSION_COOPVECTOCPU_RUNTIMEABI_H
#define LINALGCOOP_LIB_CONVERSION_COOPVECTOCPU_RUNTIMEABI_H

#include "LinAlgCoop/Runtime/CpuTarget.h"
#include "LinAlgCoop/Runtime/Kernels.h"
#include "LinAlgCoop/Runtime/Layout.h"
#include "LinAlgCoop/Runtime/Numerics.h"
#include "LinAlgCoop/Runtime/ParamStructs.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace mlir::coopvec::cpu_abi {

// The lowering passes addresses as i64 and pointers as 64-bit !llvm.ptr.
static_assert(sizeof(void *) == 8, "the CPU lowering assumes 64-bit pointers");

/// Kinds of RuntimeFunctions.def (unscoped so that the table's bare names
/// resolve inside this namespace).
enum Kind : uint8_t { Void, Ptr, ConstPtr, I32, U32, I64, U64, F32, Invalid };

/// The kind with signedness and constness dropped: what LLVM sees.
constexpr Kind llvmKind(Kind kind) {
  switch (kind) {
  case ConstPtr:
    return Ptr;
  case U32:
    return I32;
  case U64:
    return I64;
  default:
    return kind;
  }
}

constexpr uint64_t kindBytes(Kind kind) {
  switch (llvmKind(kind)) {
  case Ptr:
  case I64:
    return 8;
  case I32:
  case F32:
    return 4;
  default:
    return 0;
  }
}

/// The LLVM-level kind of a C type (Invalid for types the ABI does not use).
template <typename T> constexpr Kind kindOfCType() {
  if constexpr (std::is_void_v<T>)
    return Void;
  else if constexpr (std::is_pointer_v<T>)
    return Ptr;
  else if constexpr (std::is_same_v<T, float>)
    return F32;
  else if constexpr (std::is_integral_v<T> && sizeof(T) == 4)
    return I32;
  else if constexpr (std::is_integral_v<T> && sizeof(T) == 8)
    return I64;
  else
    return Invalid;
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

/// One runtime function: its symbol and the kinds of its result and
/// parameters.
struct FunctionInfo {
  const char *name;
  Kind result;
  llvm::ArrayRef<Kind> params;
};

/// The functions of RuntimeFunctions.def, by name: RuntimeFn::coopvecCpuCheckRange.
enum class RuntimeFn : unsigned {
#define COOPVEC_ABI_FUNCTION(name, ReturnKind, ...) name,
#include "LinAlgCoop/Runtime/RuntimeFunctions.def"
};

namespace detail {
#define COOPVEC_ABI_FUNCTION(name, ReturnKind, ...)                            \
  inline constexpr Kind name##Params[] = {__VA_ARGS__};
#include "LinAlgCoop/Runtime/RuntimeFunctions.def"

/// Whether the C function type R(A...) has the table's kinds at the LLVM
/// level.
template <typename R, typename... A, size_t N>
constexpr bool matchesSignature(R (*)(A...), Kind result,
                                const Kind (&params)[N]) {
  constexpr Kind actual[] = {kindOfCType<A>()..., Invalid};
  if (kindOfCType<R>() != llvmKind(result) || N != sizeof...(A))
    return false;
  for (size_t i = 0; i < N; ++i)
    if (actual[i] != llvmKind(params[i]))
      return false;
  return true;
}
} // namespace detail

inline constexpr FunctionInfo kFunctions[] = {
#define COOPVEC_ABI_FUNCTION(name, ReturnKind, ...)                            \
  {#name, ReturnKind, detail::name##Params},
#include "LinAlgCoop/Runtime/RuntimeFunctions.def"
};

inline const FunctionInfo &getFunctionInfo(RuntimeFn fn) {
  return kFunctions[static_cast<unsigned>(fn)];
}

// Each C prototype in the headers against the table.
#define COOPVEC_ABI_FUNCTION(name, ReturnKind, ...)                            \
  static_assert(detail::matchesSignature(&::name, ReturnKind,                  \
                                         detail::name##Params),                \
                "C prototype of " #name                                        \
                " differs from RuntimeFunctions.def");
#include "LinAlgCoop/Runtime/RuntimeFunctions.def"

//===----------------------------------------------------------------------===//
// Parameter structs
//===----------------------------------------------------------------------===//

struct FieldInfo {
  const char *name;
  Kind kind;
};

/// Byte offset of field `index` (or, for index == size, the padded size)
/// of a non-packed struct of `fields`: each field at the next multiple of its
/// size (its alignment for every kind here), the struct padded to its
/// largest alignment. LLVM lays out a non-packed struct this way for x86-64
/// and riscv64 data layouts.
template <size_t N>
constexpr uint64_t naturalOffset(const FieldInfo (&fields)[N], size_t index) {
  uint64_t offset = 0, align = 1;
  for (size_t i = 0; i < N; ++i) {
    uint64_t bytes = kindBytes(fields[i].kind);
    offset = (offset + bytes - 1) / bytes * bytes;
    if (i == index)
      return offset;
    offset += bytes;
    align = bytes > align ? bytes : align;
  }
  return (offset + align - 1) / align * align;
}

/// The fields of a parameter struct: AbiStruct<CoopVecMatVecParams>::Field
/// names them (Field::bias), fields() lists them in memory order.
template <typename Struct> struct AbiStruct;

#define COOPVEC_ABI_STRUCT_BEGIN(Struct)                                       \
  template <> struct AbiStruct<::Struct> {                                     \
    static constexpr const char *name = #Struct;                               \
    enum class Field : unsigned {
#define COOPVEC_ABI_FIELD(Struct, Kind, name) name,
#define COOPVEC_ABI_STRUCT_END(Struct)                                         \
  }                                                                            \
  ;                                                                            \
  static llvm::ArrayRef<FieldInfo> fields();                                   \
  }                                                                            \
  ;
#include "LinAlgCoop/Runtime/RuntimeFunctions.def"

namespace detail {
#define COOPVEC_ABI_STRUCT_BEGIN(Struct)                                       \
  inline constexpr FieldInfo Struct##Fields[] = {
#define COOPVEC_ABI_FIELD(Struct, Kind, name) {#name, Kind},
#define COOPVEC_ABI_STRUCT_END(Struct)                                         \
  }                                                                            \
  ;
#include "LinAlgCoop/Runtime/RuntimeFunctions.def"
} // namespace detail

#define COOPVEC_ABI_STRUCT_BEGIN(Struct)                                       \
  inline llvm::ArrayRef<FieldInfo> AbiStruct<::Struct>::fields() {             \
    return detail::Struct##Fields;                                             \
  }
#include "LinAlgCoop/Runtime/RuntimeFunctions.def"

// Each C struct against the layout of the LLVM struct the lowering fills.
#define COOPVEC_ABI_FIELD(Struct, Kind, name)                                  \
  static_assert(                                                               \
      offsetof(::Struct, name) ==                                              \
              naturalOffset(detail::Struct##Fields,                            \
                            unsigned(AbiStruct<::Struct>::Field::name)) &&     \
          sizeof(::Struct::name) == kindBytes(Kind),                           \
      "field " #name " of " #Struct " is not where the lowering stores it");
#define COOPVEC_ABI_STRUCT_END(Struct)                                         \
  static_assert(sizeof(::Struct) ==                                            \
                    naturalOffset(detail::Struct##Fields,                      \
                                  std::size(detail::Struct##Fields)),          \
                "size of " #Struct " differs from the lowering's struct");
#include "LinAlgCoop/Runtime/RuntimeFunctions.def"

} // namespace mlir::coopvec::cpu_abi

#endif // LINALGCOOP_LIB_CONVERSION_COOPVECTOCPU_RUNTIMEABI_H
