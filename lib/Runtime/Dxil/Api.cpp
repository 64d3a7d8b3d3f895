//===- Api.cpp - CheckFeatureSupport and matrix conversion of the driver --===//
//
// The D3D12 API side of cooperative vectors: the tier and property-list
// queries (with the PropCount protocol) and the matrix layout/type
// conversion with the spec's valid-usage rules (see Dxil.h).
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Runtime/Dxil.h"
#include "DxilInternal.h"

#include "LinAlgCoop/Runtime/Kernels.h"
#include "LinAlgCoop/Runtime/Layout.h"
#include "LinAlgCoop/Runtime/Numerics.h"

#include <cstring>
#include <iterator>

using namespace coopvec::dxil;

namespace {
constexpr uint32_t F16 = COOPVEC_DX_DATATYPE_FLOAT16;
constexpr uint32_t F32 = COOPVEC_DX_DATATYPE_FLOAT32;
constexpr uint32_t I8 = COOPVEC_DX_DATATYPE_SINT8;
constexpr uint32_t U8 = COOPVEC_DX_DATATYPE_UINT8;
constexpr uint32_t I32 = COOPVEC_DX_DATATYPE_SINT32;
constexpr uint32_t E4M3 = COOPVEC_DX_DATATYPE_E4M3;
constexpr uint32_t E5M2 = COOPVEC_DX_DATATYPE_E5M2;
constexpr uint32_t S8x4 = COOPVEC_DX_DATATYPE_SINT8_T4_PACKED;
constexpr uint32_t U8x4 = COOPVEC_DX_DATATYPE_UINT8_T4_PACKED;

// The D3D12 minimum support set first, then what the CPU kernels run fast.
// The driver transposes every type, so TransposeSupported is TRUE.
constexpr CoopVecDxPropertiesInference kMatVec[] = {
    {F16, F16, F16, F16, F16, 1},    {F16, E4M3, E4M3, F16, F16, 1},
    {F16, E5M2, E5M2, F16, F16, 1},  {S8x4, I8, I8, I32, I32, 1},
    {F32, I8, I8, I32, I32, 1},      {F32, F32, F32, F32, F32, 1},
    {F16, F16, F16, F32, F32, 1},    {F32, F16, F16, F16, F16, 1},
    {U8x4, U8, U8, I32, I32, 1},     {F32, U8, U8, I32, I32, 1},
    {F16, F16, F16, F16, F32, 1},
};
constexpr CoopVecDxPropertiesTraining kOuterProduct[] = {
    {F16, F16}, {F16, F32}, {F32, F32}};
constexpr CoopVecDxPropertiesTraining kVectorAccumulate[] = {{F16, F16},
                                                             {F32, F32}};

/// Checks one PropCount/pProperties pair; returns the count to write.
template <typename T, size_t N>
bool checkList(uint32_t &count, T *properties, const T (&table)[N],
               uint32_t available, const char *name) {
  (void)table;
  if (properties && count < available) {
    reportError("CheckFeatureSupport",
                "%sPropCount %u is smaller than the %u available properties",
                name, count, available);
    return false;
  }
  return true;
}

template <typename T, size_t N>
void fillList(uint32_t &count, T *properties, const T (&table)[N],
              uint32_t available) {
  if (properties)
    std::memcpy(properties, table, sizeof(T) * available);
  count = available;
}

/// Whether `type` is a supported MatrixInterpretation (any property lists
/// it as a matrix).
bool isSupportedMatrixType(uint32_t type) {
  for (const CoopVecDxPropertiesInference &p : kMatVec)
    if (p.MatrixInterpretation == type)
      return true;
  return false;
}

bool isFloat8(uint32_t type) { return type == E4M3 || type == E5M2; }

/// Rank of the float types for the "lower precision" rule; 0 otherwise.
int floatRank(uint32_t type) {
  switch (type) {
  case F32: return 3;
  case F16: return 2;
  case E4M3:
  case E5M2: return 1;
  default: return 0;
  }
}

bool isStrided(uint32_t layout) {
  return layout == COOPVEC_LAYOUT_ROW_MAJOR ||
         layout == COOPVEC_LAYOUT_COLUMN_MAJOR;
}

/// Valid usage shared by a source and a destination description.
bool checkSide(const char *api, const char *side, uint32_t dataType,
               uint32_t layout, uint32_t stride, uint32_t rows, uint32_t cols,
               unsigned *bytes) {
  if (dataType != F32 && !isSupportedMatrixType(dataType)) {
    reportError(api, "%s data type %u is neither FLOAT32 nor a supported "
                     "MatrixInterpretation",
                side, dataType);
    return false;
  }
  *bytes = getComponent(dataType)->bytes;
  if (layout > COOPVEC_LAYOUT_TRAINING_OPTIMAL) {
    reportError(api, "%s layout %u is not a D3D12_LINEAR_ALGEBRA_MATRIX_LAYOUT",
                side, layout);
    return false;
  }
  if (rows == 0 || cols == 0 || rows > 65536 || cols > 65536) {
    reportError(api, "the matrix is %ux%u; rows and columns must be in "
                     "[1, 65536]",
                rows, cols);
    return false;
  }
  if (isStrided(layout)) {
    uint64_t line = uint64_t(layout == COOPVEC_LAYOUT_ROW_MAJOR ? cols : rows) *
                    *bytes;
    if (stride < line || stride % *bytes != 0) {
      reportError(api, "%s stride %u is not a multiple of the element size "
                       "(%u) at least one %s (%llu bytes) long",
                  side, stride, *bytes,
                  layout == COOPVEC_LAYOUT_ROW_MAJOR ? "row" : "column",
                  (unsigned long long)line);
      return false;
    }
  }
  return true;
}

/// Checks a destination description and returns its size (0 on error).
uint64_t checkDestination(const char *api,
                          const CoopVecDxMatrixConversionDestInfo &dest) {
  unsigned bytes;
  if (!checkSide(api, "destination", dest.DestDataType, dest.DestLayout,
                 dest.DestStride, dest.NumRows, dest.NumColumns, &bytes))
    return 0;
  if (isStrided(dest.DestLayout) && dest.DestStride % 16 != 0) {
    reportError(api, "destination stride %u is not a multiple of 16 bytes",
                dest.DestStride);
    return 0;
  }
  if (isFloat8(dest.DestDataType) && isStrided(dest.DestLayout)) {
    reportError(api, "an FP8 destination needs the InferencingOptimal or "
                     "TrainingOptimal layout");
    return 0;
  }
  uint64_t size = coopvecLayoutDestinationSize(
      dest.DestLayout, dest.NumRows, dest.NumColumns, bytes,
      isStrided(dest.DestLayout) ? dest.DestStride : 0);
  if (size == 0 || size > UINT32_MAX) {
    reportError(api, "the destination needs %llu bytes, more than a UINT "
                     "DestSize holds",
                (unsigned long long)size);
    return 0;
  }
  return size;
}

/// Bytes a source matrix occupies (exact for strided layouts).
uint64_t sourceFootprint(uint32_t layout, uint32_t rows, uint32_t cols,
                         unsigned bytes, uint32_t stride) {
  if (!isStrided(layout))
    return coopvecLayoutDestinationSize(layout, rows, cols, bytes, 0);
  bool rowMajor = layout == COOPVEC_LAYOUT_ROW_MAJOR;
  uint64_t lines = rowMajor ? rows : cols;
  uint64_t line = uint64_t(rowMajor ? cols : rows) * bytes;
  return (lines - 1) * stride + line;
}
} // namespace

extern "C" int32_t coopvecDxCheckFeatureSupport(
    CoopVecDxFeatureDataCooperativeVector *data) {
  if (!data) {
    reportError("CheckFeatureSupport", "the feature data pointer is null");
    return COOPVEC_DX_E_INVALIDARG;
  }
  uint32_t tier = currentTier();
  uint32_t matvec = tier >= COOPVEC_DX_TIER_1_0 ? std::size(kMatVec) : 0;
  uint32_t outer = tier >= COOPVEC_DX_TIER_1_1 ? std::size(kOuterProduct) : 0;
  uint32_t accumulate =
      tier >= COOPVEC_DX_TIER_1_1 ? std::size(kVectorAccumulate) : 0;
  // Check all three lists before writing any, so a failed call changes
  // nothing.
  if (!checkList(data->MatrixVectorMulAddPropCount,
                 data->pMatrixVectorMulAddProperties, kMatVec, matvec,
                 "MatrixVectorMulAdd") ||
      !checkList(data->OuterProductAccPropCount,
                 data->pOuterProductAccProperties, kOuterProduct, outer,
                 "OuterProductAcc") ||
      !checkList(data->VectorAccumulatePropCount,
                 data->pVectorAccumulateProperties, kVectorAccumulate,
                 accumulate, "VectorAccumulate"))
    return COOPVEC_DX_E_INVALIDARG;
  fillList(data->MatrixVectorMulAddPropCount,
           data->pMatrixVectorMulAddProperties, kMatVec, matvec);
  fillList(data->OuterProductAccPropCount, data->pOuterProductAccProperties,
           kOuterProduct, outer);
  fillList(data->VectorAccumulatePropCount, data->pVectorAccumulateProperties,
           kVectorAccumulate, accumulate);
  return COOPVEC_DX_S_OK;
}

extern "C" int32_t coopvecDxGetLinearAlgebraMatrixConversionDestinationInfo(
    CoopVecDxMatrixConversionDestInfo *desc) {
  const char *api = "GetLinearAlgebraMatrixConversionDestinationInfo";
  if (!desc) {
    reportError(api, "the descriptor pointer is null");
    return COOPVEC_DX_E_INVALIDARG;
  }
  uint64_t size = checkDestination(api, *desc);
  if (size == 0)
    return COOPVEC_DX_E_INVALIDARG;
  desc->DestSize = uint32_t(size);
  return COOPVEC_DX_S_OK;
}

namespace {
/// Checks one conversion descriptor completely.
bool checkConversion(const CoopVecDxMatrixConversionInfo &info) {
  const char *api = "ConvertLinearAlgebraMatrix";
  const CoopVecDxMatrixConversionDestInfo &dest = info.DestInfo;
  const CoopVecDxMatrixConversionSrcInfo &src = info.SrcInfo;
  uint64_t destSize = checkDestination(api, dest);
  if (destSize == 0)
    return false;
  unsigned srcBytes;
  if (!checkSide(api, "source", src.SrcDataType, src.SrcLayout, src.SrcStride,
                 dest.NumRows, dest.NumColumns, &srcBytes))
    return false;
  if (src.SrcDataType != dest.DestDataType) {
    int hi = std::max(floatRank(src.SrcDataType), floatRank(dest.DestDataType));
    int lo = std::min(floatRank(src.SrcDataType), floatRank(dest.DestDataType));
    if (hi < 2 || lo == 0 || lo >= hi) {
      reportError(api, "converting data type %u to %u: one side must be "
                       "FLOAT32 or FLOAT16 and the other a lower-precision "
                       "float type",
                  src.SrcDataType, dest.DestDataType);
      return false;
    }
  }
  if (dest.DestSize < destSize) {
    reportError(api, "DestSize %u is smaller than the %llu bytes "
                     "GetLinearAlgebraMatrixConversionDestinationInfo "
                     "returns",
                dest.DestSize, (unsigned long long)destSize);
    return false;
  }
  uint64_t srcNeeded =
      sourceFootprint(src.SrcLayout, dest.NumRows, dest.NumColumns, srcBytes,
                      src.SrcStride);
  if (src.SrcSize < srcNeeded) {
    reportError(api, "SrcSize %u is smaller than the %llu bytes the source "
                     "matrix occupies",
                src.SrcSize, (unsigned long long)srcNeeded);
    return false;
  }
  if (!info.DataDesc.DestVA || !info.DataDesc.SrcVA) {
    reportError(api, "DestVA or SrcVA is null");
    return false;
  }
  if (reinterpret_cast<uintptr_t>(info.DataDesc.DestVA) % 128 != 0) {
    reportError(api, "DestVA is not 128-byte aligned");
    return false;
  }
  const uint8_t *s = static_cast<const uint8_t *>(info.DataDesc.SrcVA);
  const uint8_t *d = static_cast<const uint8_t *>(info.DataDesc.DestVA);
  if (s < d + dest.DestSize && d < s + src.SrcSize) {
    reportError(api, "the source and destination buffers overlap");
    return false;
  }
  return true;
}

void convert(const CoopVecDxMatrixConversionInfo &info) {
  const CoopVecDxMatrixConversionDestInfo &dest = info.DestInfo;
  const CoopVecDxMatrixConversionSrcInfo &src = info.SrcInfo;
  const ComponentInfo *from = getComponent(src.SrcDataType);
  const ComponentInfo *to = getComponent(dest.DestDataType);
  uint32_t srcStride = isStrided(src.SrcLayout) ? src.SrcStride : 0;
  uint32_t dstStride = isStrided(dest.DestLayout) ? dest.DestStride : 0;
  if (from == to) {
    (void)coopvecLayoutConvert(info.DataDesc.DestVA, dest.DestSize,
                               dest.DestLayout, dstStride, info.DataDesc.SrcVA,
                               src.SrcSize, src.SrcLayout, srcStride,
                               dest.NumRows, dest.NumColumns, to->bytes);
    return;
  }
  auto *out = static_cast<uint8_t *>(info.DataDesc.DestVA);
  auto *in = static_cast<const uint8_t *>(info.DataDesc.SrcVA);
  if (!isStrided(dest.DestLayout))
    std::memset(out, 0, dest.DestSize); // padding is zero
  for (uint32_t r = 0; r < dest.NumRows; ++r) {
    for (uint32_t c = 0; c < dest.NumColumns; ++c) {
      int64_t srcOff =
          coopvecLayoutElementOffset(src.SrcLayout, dest.NumRows,
                                     dest.NumColumns, from->bytes, srcStride,
                                     r, c);
      int64_t dstOff =
          coopvecLayoutElementOffset(dest.DestLayout, dest.NumRows,
                                     dest.NumColumns, to->bytes, dstStride, r,
                                     c);
      uint32_t bits = 0;
      std::memcpy(&bits, in + srcOff, from->bytes);
      uint32_t converted =
          uint32_t(coopvecDxilConvert(to->format, from->format, bits));
      std::memcpy(out + dstOff, &converted, to->bytes);
    }
  }
}
} // namespace

extern "C" int32_t
coopvecDxConvertLinearAlgebraMatrix(const CoopVecDxMatrixConversionInfo *descs,
                                    uint32_t count) {
  if (!descs && count) {
    reportError("ConvertLinearAlgebraMatrix", "the descriptor array is null");
    return COOPVEC_DX_E_INVALIDARG;
  }
  for (uint32_t i = 0; i < count; ++i)
    if (!checkConversion(descs[i]))
      return COOPVEC_DX_E_INVALIDARG;
  for (uint32_t i = 0; i < count; ++i)
    convert(descs[i]);
  return COOPVEC_DX_S_OK;
}
