//===- ParamStructs.h - Parameter structs of the runtime entry points -*- C -*-===//
//
// The C typedefs of the parameter structs declared in RuntimeFunctions.def
// (the one place their fields are listed; the CPU lowering fills the same
// list). Each wide entry point takes `const <Struct> *`, as IREE's ukernels
// take iree_uk_mmt4d_params_t: arguments are named at the call site and a
// field is added in one place.
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_RUNTIME_PARAMSTRUCTS_H
#define LINALGCOOP_RUNTIME_PARAMSTRUCTS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define COOPVEC_ABI_CTYPE_Ptr void *
#define COOPVEC_ABI_CTYPE_ConstPtr const void *
#define COOPVEC_ABI_CTYPE_I32 int32_t
#define COOPVEC_ABI_CTYPE_U32 uint32_t
#define COOPVEC_ABI_CTYPE_I64 int64_t
#define COOPVEC_ABI_CTYPE_U64 uint64_t
#define COOPVEC_ABI_CTYPE_F32 float

#define COOPVEC_ABI_STRUCT_BEGIN(Struct) typedef struct Struct {
#define COOPVEC_ABI_FIELD(Struct, Kind, name) COOPVEC_ABI_CTYPE_##Kind name;
#define COOPVEC_ABI_STRUCT_END(Struct)                                         \
  }                                                                            \
  Struct;
#include "LinAlgCoop/Runtime/RuntimeFunctions.def"

#ifdef __cplusplus
} // extern "C"
#endif

#endif // LINALGCOOP_RUNTIME_PARAMSTRUCTS_H
