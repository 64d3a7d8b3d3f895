//===- coopvec-dxil-fuzzer.cpp - the DXIL software driver's entry points --===//
//
// Decodes one call of the driver (Dxil.h) from the input: a shader operation
// (matVecMul(Add), outerProductAccumulate, vectorAccumulate) or an API
// function (CheckFeatureSupport, the conversion destination query,
// ConvertLinearAlgebraMatrix), with arbitrary sizes, offsets, strides,
// layouts, interpretations and tiers. Every buffer is allocated at exactly
// the size the call is told, so AddressSanitizer reports any access beyond
// it. Checks the documented error contract: a call that reports an error
// (coopvecDxGetError, E_INVALIDARG) writes no memory but a zeroed result
// vector; one that succeeds keeps the API's postconditions; integer
// products equal the reference semantics.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Runtime/Dxil.h"
#include "LinAlgCoop/Runtime/Kernels.h"
#include "LinAlgCoop/Runtime/Layout.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

namespace {

[[noreturn, gnu::format(printf, 1, 2)]] void fail(const char *format, ...) {
  va_list args;
  va_start(args, format);
  std::fputs("coopvec-dxil-fuzzer: ", stderr);
  std::vfprintf(stderr, format, args);
  std::fputc('\n', stderr);
  va_end(args);
  std::abort();
}

/// A heap block of exactly `size` bytes at a 128-byte aligned address, with
/// the bytes taken from the input.
struct Buffer {
  uint8_t *data = nullptr;
  size_t size = 0;
  Buffer() = default;
  Buffer(FuzzedDataProvider &in, size_t size) : size(size) {
    if (posix_memalign(reinterpret_cast<void **>(&data), 128, size ? size : 1))
      std::abort();
    std::vector<uint8_t> bytes = in.ConsumeBytes<uint8_t>(size);
    if (!bytes.empty())
      std::memcpy(data, bytes.data(), bytes.size());
    std::memset(data + bytes.size(), 0x5A, size - bytes.size());
  }
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  ~Buffer() { std::free(data); }
  std::vector<uint8_t> snapshot() const {
    return std::vector<uint8_t>(data, data + size);
  }
};

constexpr uint32_t kComponentTypes[] = {
    COOPVEC_TYPE_I16,          COOPVEC_TYPE_U16,          COOPVEC_TYPE_I32,
    COOPVEC_TYPE_U32,          COOPVEC_TYPE_F16,          COOPVEC_TYPE_F32,
    COOPVEC_TYPE_PACKED_S8X32, COOPVEC_TYPE_PACKED_U8X32, COOPVEC_TYPE_U8,
    COOPVEC_TYPE_I8,           COOPVEC_TYPE_F8_E4M3,      COOPVEC_TYPE_F8_E5M2};
constexpr uint32_t kPhysicalTypes[] = {COOPVEC_TYPE_F16, COOPVEC_TYPE_F32,
                                       COOPVEC_TYPE_I16, COOPVEC_TYPE_I32};

/// Mostly a valid value from `table`, sometimes any 32-bit value.
template <size_t N>
uint32_t pickType(FuzzedDataProvider &in, const uint32_t (&table)[N]) {
  uint8_t choice = in.ConsumeIntegral<uint8_t>();
  if (choice < 240)
    return table[choice % N];
  return choice == 255 ? in.ConsumeIntegral<uint32_t>() : choice - 240;
}

/// A dimension: mostly small, sometimes at or past the 65536 limit.
uint32_t pickDim(FuzzedDataProvider &in) {
  uint8_t choice = in.ConsumeIntegral<uint8_t>();
  if (choice < 248)
    return choice % 80;
  return choice == 255 ? in.ConsumeIntegral<uint32_t>()
                       : 65536u + (choice - 252);
}

/// An offset or stride: mostly a small multiple of 16, sometimes anything.
uint32_t pickBytes(FuzzedDataProvider &in) {
  uint8_t choice = in.ConsumeIntegral<uint8_t>();
  if (choice < 200)
    return uint32_t(choice) * 16;
  if (choice < 250)
    return in.ConsumeIntegralInRange<uint32_t>(0, 4096);
  return in.ConsumeIntegral<uint32_t>();
}

uint32_t pickLayout(FuzzedDataProvider &in) {
  uint8_t choice = in.ConsumeIntegral<uint8_t>();
  return choice < 250 ? choice % 4 : in.ConsumeIntegral<uint32_t>();
}

unsigned physicalBytes(uint32_t type) {
  return type == COOPVEC_TYPE_F16 || type == COOPVEC_TYPE_I16 ? 2 : 4;
}

bool isIntegerInterp(uint32_t type) {
  switch (type) {
  case COOPVEC_TYPE_I16:
  case COOPVEC_TYPE_U16:
  case COOPVEC_TYPE_I32:
  case COOPVEC_TYPE_U32:
  case COOPVEC_TYPE_PACKED_S8X32:
  case COOPVEC_TYPE_PACKED_U8X32:
  case COOPVEC_TYPE_U8:
  case COOPVEC_TYPE_I8:
    return true;
  default:
    return false;
  }
}

/// The physical ComponentType the reference takes (signedness folded in).
uint32_t referenceType(uint32_t type, uint32_t isUnsigned) {
  if (type == COOPVEC_TYPE_I16 && isUnsigned)
    return COOPVEC_TYPE_U16;
  if (type == COOPVEC_TYPE_I32 && isUnsigned)
    return COOPVEC_TYPE_U32;
  return type;
}

void fuzzMatVec(FuzzedDataProvider &in) {
  uint32_t resultType = pickType(in, kPhysicalTypes);
  uint32_t inputType = pickType(in, kPhysicalTypes);
  uint32_t inputUnsigned = in.ConsumeIntegralInRange<uint32_t>(0, 1);
  uint32_t outputUnsigned = in.ConsumeIntegralInRange<uint32_t>(0, 1);
  uint32_t inputInterp = pickType(in, kComponentTypes);
  uint32_t matrixInterp = pickType(in, kComponentTypes);
  uint32_t biasInterp = pickType(in, kComponentTypes);
  uint32_t m = pickDim(in), k = pickDim(in);
  // Usually the counts the product needs, sometimes others.
  bool packed = inputInterp == COOPVEC_TYPE_PACKED_S8X32 ||
                inputInterp == COOPVEC_TYPE_PACKED_U8X32;
  uint32_t resultCount = m, inputCount = packed ? (k + 3) / 4 : k;
  if (in.ConsumeIntegralInRange<int>(0, 15) == 0) {
    resultCount = in.ConsumeIntegralInRange<uint32_t>(0, 80);
    inputCount = in.ConsumeIntegralInRange<uint32_t>(0, 80);
  }
  if (resultCount > 80 || inputCount > 80)
    return; // register vectors of the sizes a shader can have
  uint32_t layout = pickLayout(in);
  uint32_t transpose = in.ConsumeIntegralInRange<uint32_t>(0, 1);
  uint32_t stride = pickBytes(in), matrixOffset = pickBytes(in);
  bool hasBias = in.ConsumeBool();
  uint32_t biasOffset = pickBytes(in);
  size_t matrixSize = in.ConsumeIntegralInRange<size_t>(0, 1 << 16);
  size_t biasSize = in.ConsumeIntegralInRange<size_t>(0, 1024);
  unsigned outBytes = physicalBytes(resultType);
  Buffer input(in, size_t(inputCount) * physicalBytes(inputType));
  Buffer matrix(in, matrixSize), bias(in, biasSize);
  Buffer result(in, size_t(resultCount) * outBytes);
  CoopVecDxBuffer matrixHandle{matrix.data, matrix.size};
  CoopVecDxBuffer biasHandle{bias.data, bias.size};
  std::vector<uint8_t> matrixBefore = matrix.snapshot();
  std::vector<uint8_t> biasBefore = bias.snapshot();

  coopvecDxClearError();
  coopvecDxMatVecMulAdd(
      "dx.op.matVecMulAdd", result.data, resultType, resultCount, input.data,
      inputType, inputCount, inputUnsigned, inputInterp, &matrixHandle,
      matrixOffset, matrixInterp, m, k, layout, transpose, stride,
      hasBias ? &biasHandle : nullptr, biasOffset, biasInterp, outputUnsigned);
  if (matrix.snapshot() != matrixBefore || bias.snapshot() != biasBefore)
    fail("matVecMulAdd wrote into its matrix or bias buffer");
  bool known = resultType == COOPVEC_TYPE_F16 ||
               resultType == COOPVEC_TYPE_F32 ||
               resultType == COOPVEC_TYPE_I16 || resultType == COOPVEC_TYPE_I32;
  if (coopvecDxGetError()) {
    if (!known)
      return;
    for (size_t i = 0; i < result.size; ++i)
      if (result.data[i])
        fail("matVecMulAdd reported an error but left result byte %zu "
             "nonzero",
             i);
    return;
  }
  // Integer products are exact in the reference; the kernels must agree.
  if (!isIntegerInterp(inputInterp) || !isIntegerInterp(matrixInterp) ||
      (hasBias && !isIntegerInterp(biasInterp)) ||
      resultType == COOPVEC_TYPE_F16 || resultType == COOPVEC_TYPE_F32)
    return;
  Buffer expected(in, result.size);
  int32_t status = coopvecReferenceMatVecMulAdd(
      expected.data, referenceType(resultType, outputUnsigned), input.data,
      referenceType(inputType, inputUnsigned), inputInterp, matrix.data,
      matrixOffset, matrixInterp, m, k, layout, transpose, stride,
      hasBias ? bias.data : nullptr, biasOffset, biasInterp);
  if (status != COOPVEC_OK)
    fail("the reference rejected a %ux%u product the driver ran (status %d)", m,
         k, status);
  if (std::memcmp(expected.data, result.data, result.size) != 0)
    fail("matVecMulAdd of a %ux%u integer product (input %u as %u, matrix "
         "%u, layout %u%s, bias %s) differs from the reference",
         m, k, inputType, inputInterp, matrixInterp, layout,
         transpose ? " transposed" : "", hasBias ? "yes" : "no");
}

void fuzzOuterProduct(FuzzedDataProvider &in) {
  uint32_t elementType = pickType(in, kPhysicalTypes);
  uint32_t matrixInterp = pickType(in, kComponentTypes);
  uint32_t m = pickDim(in), n = pickDim(in);
  if (m > 80 || n > 80)
    m = n = 0; // still exercise the dimension check
  uint32_t layout = pickLayout(in);
  uint32_t stride = pickBytes(in), offset = pickBytes(in);
  size_t matrixSize = in.ConsumeIntegralInRange<size_t>(0, 1 << 16);
  Buffer a(in, size_t(m) * physicalBytes(elementType));
  Buffer b(in, size_t(n) * physicalBytes(elementType));
  Buffer matrix(in, matrixSize);
  CoopVecDxBuffer handle{matrix.data, matrix.size};
  std::vector<uint8_t> before = matrix.snapshot();
  coopvecDxClearError();
  coopvecDxOuterProductAccumulate("dx.op.outerProductAccumulate", a.data, m,
                                  b.data, n, elementType, &handle, offset,
                                  matrixInterp, layout, stride);
  if (coopvecDxGetError() && matrix.snapshot() != before)
    fail("outerProductAccumulate reported an error but wrote the matrix");
}

void fuzzVectorAccumulate(FuzzedDataProvider &in) {
  uint32_t elementType = pickType(in, kPhysicalTypes);
  uint32_t count = in.ConsumeIntegralInRange<uint32_t>(0, 80);
  uint32_t offset = pickBytes(in);
  size_t arraySize = in.ConsumeIntegralInRange<size_t>(0, 4096);
  Buffer input(in, size_t(count) * physicalBytes(elementType));
  Buffer array(in, arraySize);
  CoopVecDxBuffer handle{array.data, array.size};
  std::vector<uint8_t> before = array.snapshot();
  coopvecDxClearError();
  coopvecDxVectorAccumulate(in.ConsumeBool() ? "dx.op.vectorAccumulate"
                                             : nullptr,
                            input.data, count, elementType, &handle, offset);
  if (coopvecDxGetError() && array.snapshot() != before)
    fail("vectorAccumulate reported an error but wrote the array");
}

void fuzzCheckFeatureSupport(FuzzedDataProvider &in) {
  CoopVecDxFeatureDataCooperativeVector data{};
  std::vector<CoopVecDxPropertiesInference> matvec(
      in.ConsumeIntegralInRange<size_t>(0, 16));
  std::vector<CoopVecDxPropertiesTraining> outer(
      in.ConsumeIntegralInRange<size_t>(0, 4));
  std::vector<CoopVecDxPropertiesTraining> accumulate(
      in.ConsumeIntegralInRange<size_t>(0, 4));
  data.MatrixVectorMulAddPropCount = in.ConsumeIntegral<uint32_t>() % 20;
  data.OuterProductAccPropCount = in.ConsumeIntegral<uint32_t>() % 6;
  data.VectorAccumulatePropCount = in.ConsumeIntegral<uint32_t>() % 6;
  // A non-null array is as long as its PropCount says.
  if (in.ConsumeBool()) {
    matvec.resize(data.MatrixVectorMulAddPropCount);
    data.pMatrixVectorMulAddProperties = matvec.data();
  }
  if (in.ConsumeBool()) {
    outer.resize(data.OuterProductAccPropCount);
    data.pOuterProductAccProperties = outer.data();
  }
  if (in.ConsumeBool()) {
    accumulate.resize(data.VectorAccumulatePropCount);
    data.pVectorAccumulateProperties = accumulate.data();
  }
  CoopVecDxFeatureDataCooperativeVector before = data;
  int32_t hr = coopvecDxCheckFeatureSupport(&data);
  if (hr != COOPVEC_DX_S_OK && hr != COOPVEC_DX_E_INVALIDARG)
    fail("CheckFeatureSupport returned %d", hr);
  if (hr == COOPVEC_DX_E_INVALIDARG &&
      std::memcmp(&before, &data, sizeof(data)) != 0)
    fail("a failed CheckFeatureSupport changed the feature data");
  if (hr == COOPVEC_DX_S_OK &&
      (data.MatrixVectorMulAddPropCount > before.MatrixVectorMulAddPropCount &&
       before.pMatrixVectorMulAddProperties))
    fail("CheckFeatureSupport wrote more properties than PropCount allows");
  (void)coopvecDxCheckFeatureSupport(nullptr);
}

CoopVecDxMatrixConversionDestInfo consumeDest(FuzzedDataProvider &in) {
  CoopVecDxMatrixConversionDestInfo d{};
  d.DestSize = pickBytes(in);
  d.DestLayout = pickLayout(in);
  d.DestStride = pickBytes(in);
  d.NumRows = pickDim(in);
  d.NumColumns = pickDim(in);
  d.DestDataType = pickType(in, kComponentTypes);
  return d;
}

void fuzzDestinationInfo(FuzzedDataProvider &in) {
  CoopVecDxMatrixConversionDestInfo d = consumeDest(in);
  CoopVecDxMatrixConversionDestInfo before = d;
  int32_t hr = coopvecDxGetLinearAlgebraMatrixConversionDestinationInfo(&d);
  if (hr == COOPVEC_DX_E_INVALIDARG) {
    if (std::memcmp(&before, &d, sizeof(d)) != 0)
      fail("a failed destination query changed the descriptor");
    return;
  }
  if (hr != COOPVEC_DX_S_OK)
    fail("the destination query returned %d", hr);
  if (d.DestSize == 0 || d.DestSize % 16 != 0)
    fail("the destination query returned DestSize %u, not a positive "
         "multiple of 16",
         d.DestSize);
  (void)coopvecDxGetLinearAlgebraMatrixConversionDestinationInfo(nullptr);
}

void fuzzConvertMatrix(FuzzedDataProvider &in) {
  uint32_t count = in.ConsumeIntegralInRange<uint32_t>(0, 3);
  std::vector<CoopVecDxMatrixConversionInfo> descs(count);
  std::vector<std::unique_ptr<Buffer>> buffers;
  for (CoopVecDxMatrixConversionInfo &info : descs) {
    info.DestInfo = consumeDest(in);
    // Usually the size the query answers, so that conversions run.
    CoopVecDxMatrixConversionDestInfo query = info.DestInfo;
    if (in.ConsumeBool() &&
        coopvecDxGetLinearAlgebraMatrixConversionDestinationInfo(&query) ==
            COOPVEC_DX_S_OK)
      info.DestInfo.DestSize = query.DestSize;
    info.SrcInfo.SrcSize = pickBytes(in);
    info.SrcInfo.SrcDataType = pickType(in, kComponentTypes);
    info.SrcInfo.SrcLayout = pickLayout(in);
    info.SrcInfo.SrcStride = pickBytes(in);
    if (info.DestInfo.DestSize > (1u << 20) ||
        info.SrcInfo.SrcSize > (1u << 20))
      return;
    auto dest = std::make_unique<Buffer>(in, info.DestInfo.DestSize);
    auto src = std::make_unique<Buffer>(in, info.SrcInfo.SrcSize);
    uint8_t where = in.ConsumeIntegral<uint8_t>();
    info.DataDesc.DestVA = where == 1 ? nullptr : dest->data + (where == 2);
    info.DataDesc.SrcVA = where == 3 ? nullptr : src->data;
    buffers.push_back(std::move(dest));
    buffers.push_back(std::move(src));
  }
  std::vector<std::vector<uint8_t>> before;
  for (const std::unique_ptr<Buffer> &buffer : buffers)
    before.push_back(buffer->snapshot());
  int32_t hr = coopvecDxConvertLinearAlgebraMatrix(
      in.ConsumeBool() || !count ? descs.data() : nullptr, count);
  if (hr == COOPVEC_DX_E_INVALIDARG) {
    for (size_t i = 0; i < buffers.size(); ++i)
      if (buffers[i]->snapshot() != before[i])
        fail("a failed ConvertLinearAlgebraMatrix wrote memory");
    return;
  }
  if (hr != COOPVEC_DX_S_OK)
    fail("ConvertLinearAlgebraMatrix returned %d", hr);
  for (size_t i = 1; i < buffers.size(); i += 2)
    if (buffers[i]->snapshot() != before[i])
      fail("ConvertLinearAlgebraMatrix wrote into a source matrix");
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  coopvecDxSetAbortOnError(0);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FuzzedDataProvider in(data, size);
  // The tier is process state: every input sets it, so that each input runs
  // the same way alone or in a corpus.
  uint32_t tier = in.ConsumeIntegralInRange<uint32_t>(0, 7);
  int32_t hr = coopvecDxSetTier(tier <= 2 ? tier : COOPVEC_DX_TIER_1_1);
  if (hr != COOPVEC_DX_S_OK)
    fail("coopvecDxSetTier(%u) returned %d", tier, hr);
  if (coopvecDxSetTier(3 + tier) != COOPVEC_DX_E_INVALIDARG ||
      coopvecDxGetTier() != (tier <= 2 ? tier : COOPVEC_DX_TIER_1_1))
    fail("coopvecDxSetTier accepted an unknown tier");
  switch (in.ConsumeIntegralInRange<unsigned>(0, 7)) {
  case 0:
  case 1:
  case 2:
    fuzzMatVec(in);
    break;
  case 3:
    fuzzOuterProduct(in);
    break;
  case 4:
    fuzzVectorAccumulate(in);
    break;
  case 5:
    fuzzCheckFeatureSupport(in);
    break;
  case 6:
    fuzzDestinationInfo(in);
    break;
  default:
    fuzzConvertMatrix(in);
    break;
  }
  return 0;
}
