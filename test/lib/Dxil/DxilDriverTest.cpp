//===- DxilDriverTest.cpp - tests of the DXIL software driver's C ABI -----===//
//
// coopvec-dxil-driver-test <suite>: runs one suite and prints one line per
// check group ("ok <what>" or "FAIL <what>: <detail>"), exit status 1 on any
// failure. Suites:
//   features    CheckFeatureSupport: tiers, property lists, PropCount.
//   destinfo    GetLinearAlgebraMatrixConversionDestinationInfo.
//   roundtrip   ConvertLinearAlgebraMatrix over every layout and type pair
//               it accepts, and the rejection of every pair it does not.
//   matvec      dx.op.matVecMul(Add) for every matrix interpretation, layout
//               and transpose against a naive product.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Runtime/Dxil.h"
#include "LinAlgCoop/Runtime/Layout.h"
#include "LinAlgCoop/Runtime/Numerics.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {
int failures = 0;

void check(bool ok, const std::string &what, const std::string &detail = "") {
  if (ok)
    return;
  ++failures;
  std::printf("FAIL %s%s%s\n", what.c_str(), detail.empty() ? "" : ": ",
              detail.c_str());
}

/// A 128-byte aligned, zeroed host buffer.
struct Buffer {
  explicit Buffer(size_t size)
      : size(size), data(static_cast<uint8_t *>(
                        std::aligned_alloc(128, (size + 127) / 128 * 128))) {
    std::memset(data, 0, (size + 127) / 128 * 128);
  }
  ~Buffer() { std::free(data); }
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  size_t size;
  uint8_t *data;
};

struct TypeInfo {
  uint32_t type;
  unsigned format;
  unsigned bytes;
  const char *name;
};

constexpr TypeInfo kTypes[] = {
    {COOPVEC_DX_DATATYPE_SINT16, COOPVEC_FMT_I16, 2, "I16"},
    {COOPVEC_DX_DATATYPE_UINT16, COOPVEC_FMT_U16, 2, "U16"},
    {COOPVEC_DX_DATATYPE_SINT32, COOPVEC_FMT_I32, 4, "I32"},
    {COOPVEC_DX_DATATYPE_UINT32, COOPVEC_FMT_U32, 4, "U32"},
    {COOPVEC_DX_DATATYPE_FLOAT16, COOPVEC_FMT_F16, 2, "F16"},
    {COOPVEC_DX_DATATYPE_FLOAT32, COOPVEC_FMT_F32, 4, "F32"},
    {COOPVEC_DX_DATATYPE_UINT8, COOPVEC_FMT_U8, 1, "U8"},
    {COOPVEC_DX_DATATYPE_SINT8, COOPVEC_FMT_I8, 1, "I8"},
    {COOPVEC_DX_DATATYPE_E4M3, COOPVEC_FMT_E4M3, 1, "E4M3"},
    {COOPVEC_DX_DATATYPE_E5M2, COOPVEC_FMT_E5M2, 1, "E5M2"},
};

const char *const kLayouts[] = {"RowMajor", "ColumnMajor", "InferencingOptimal",
                                "TrainingOptimal"};

bool isFloat(const TypeInfo &t) { return coopvecFormatIsFloat(t.format); }
bool isUnsigned(const TypeInfo &t) {
  return t.format == COOPVEC_FMT_U8 || t.format == COOPVEC_FMT_U16 ||
         t.format == COOPVEC_FMT_U32;
}

/// A value every type can hold exactly: small integers, non-negative for the
/// unsigned ones.
double sampleValue(const TypeInfo &t, uint32_t r, uint32_t c) {
  int v = int((r * 7 + c * 3) % 9) - 4;
  return isUnsigned(t) ? v + 4 : v;
}

uint32_t encode(const TypeInfo &t, double value) {
  float f = float(value);
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return uint32_t(coopvecDxilConvert(t.format, COOPVEC_FMT_F32, bits));
}

double decodeAt(const TypeInfo &t, const uint8_t *base, int64_t offset) {
  uint32_t bits = 0;
  std::memcpy(&bits, base + offset, t.bytes);
  return coopvecDecode(t.format, bits);
}

uint32_t strideFor(uint32_t layout, uint32_t rows, uint32_t cols,
                   unsigned bytes) {
  if (layout == COOPVEC_LAYOUT_ROW_MAJOR)
    return (cols * bytes + 15) / 16 * 16 + 16; // padded, to test strides
  if (layout == COOPVEC_LAYOUT_COLUMN_MAJOR)
    return (rows * bytes + 15) / 16 * 16;
  return 0;
}

//===----------------------------------------------------------------------===//
// features
//===----------------------------------------------------------------------===//

void testFeatures() {
  check(coopvecDxGetTier() == COOPVEC_DX_TIER_1_1, "default tier is 1.1");

  CoopVecDxFeatureDataCooperativeVector data = {};
  check(coopvecDxCheckFeatureSupport(&data) == COOPVEC_DX_S_OK,
        "count query succeeds");
  check(data.MatrixVectorMulAddPropCount == 11 &&
            data.OuterProductAccPropCount == 3 &&
            data.VectorAccumulatePropCount == 2,
        "counts of tier 1.1",
        std::to_string(data.MatrixVectorMulAddPropCount) + "/" +
            std::to_string(data.OuterProductAccPropCount) + "/" +
            std::to_string(data.VectorAccumulatePropCount));

  std::vector<CoopVecDxPropertiesInference> matvec(11);
  std::vector<CoopVecDxPropertiesTraining> outer(3), accumulate(2);
  data.pMatrixVectorMulAddProperties = matvec.data();
  data.pOuterProductAccProperties = outer.data();
  data.pVectorAccumulateProperties = accumulate.data();
  check(coopvecDxCheckFeatureSupport(&data) == COOPVEC_DX_S_OK,
        "property query succeeds");
  // The minimum support set comes first, with the shipped numbers.
  const CoopVecDxPropertiesInference minimum[] = {
      {8, 8, 8, 8, 8, 1},     {8, 21, 21, 8, 8, 1}, {8, 22, 22, 8, 8, 1},
      {17, 20, 20, 4, 4, 1}, {9, 20, 20, 4, 4, 1}};
  for (size_t i = 0; i < 5; ++i)
    check(std::memcmp(&matvec[i], &minimum[i], sizeof(minimum[i])) == 0,
          "minimum support row " + std::to_string(i));
  check(outer[0].InputType == 8 && outer[0].AccumulationType == 8 &&
            outer[1].InputType == 8 && outer[1].AccumulationType == 9,
        "minimum outer-product rows");
  check(accumulate[0].InputType == 8 && accumulate[0].AccumulationType == 8,
        "minimum vector-accumulate row");

  // A larger array is fine and PropCount becomes the number written.
  std::vector<CoopVecDxPropertiesInference> big(20);
  CoopVecDxFeatureDataCooperativeVector larger = {20, big.data(), 0, nullptr,
                                                  0, nullptr};
  check(coopvecDxCheckFeatureSupport(&larger) == COOPVEC_DX_S_OK &&
            larger.MatrixVectorMulAddPropCount == 11,
        "a larger array gets PropCount = written");

  // Too small: E_INVALIDARG, nothing written.
  CoopVecDxPropertiesInference sentinel = {77, 77, 77, 77, 77, 77};
  std::vector<CoopVecDxPropertiesInference> small(3, sentinel);
  CoopVecDxFeatureDataCooperativeVector tooSmall = {3, small.data(), 0,
                                                    nullptr, 0, nullptr};
  check(coopvecDxCheckFeatureSupport(&tooSmall) == COOPVEC_DX_E_INVALIDARG,
        "a too small array fails");
  check(small[0].InputType == 77 && tooSmall.MatrixVectorMulAddPropCount == 3,
        "a failed query writes nothing");

  // Tier 1.0: no training properties, and the training ops fail.
  check(coopvecDxSetTier(COOPVEC_DX_TIER_1_0) == COOPVEC_DX_S_OK, "set tier");
  CoopVecDxFeatureDataCooperativeVector t10 = {};
  check(coopvecDxCheckFeatureSupport(&t10) == COOPVEC_DX_S_OK &&
            t10.MatrixVectorMulAddPropCount == 11 &&
            t10.OuterProductAccPropCount == 0 &&
            t10.VectorAccumulatePropCount == 0,
        "tier 1.0 counts");
  Buffer buf(256);
  CoopVecDxBuffer handle = {buf.data, buf.size};
  float v[4] = {1, 2, 3, 4};
  coopvecDxClearError();
  coopvecDxVectorAccumulate("dx.op.vectorAccumulate.v4f32", v, 4, 9, &handle,
                            0);
  check(coopvecDxGetError() == 1, "tier 1.0 rejects vectorAccumulate");
  check(coopvecDxSetTier(7) == COOPVEC_DX_E_INVALIDARG, "unknown tier");
  coopvecDxSetTier(COOPVEC_DX_TIER_1_1);
  coopvecDxClearError();
  std::printf("ok features\n");
}

//===----------------------------------------------------------------------===//
// destinfo
//===----------------------------------------------------------------------===//

void testDestInfo() {
  for (const TypeInfo &t : kTypes) {
    for (uint32_t layout = 0; layout < 4; ++layout) {
      CoopVecDxMatrixConversionDestInfo info = {0, layout, 0, 13, 21, t.type};
      info.DestStride = strideFor(layout, 13, 21, t.bytes);
      bool supported = t.type == COOPVEC_DX_DATATYPE_FLOAT32 ||
                       t.type == COOPVEC_DX_DATATYPE_FLOAT16 ||
                       t.type == COOPVEC_DX_DATATYPE_SINT8 ||
                       t.type == COOPVEC_DX_DATATYPE_UINT8 ||
                       ((t.type == COOPVEC_DX_DATATYPE_E4M3 ||
                         t.type == COOPVEC_DX_DATATYPE_E5M2) &&
                        layout >= 2);
      int32_t result =
          coopvecDxGetLinearAlgebraMatrixConversionDestinationInfo(&info);
      std::string what = std::string("destinfo ") + t.name + " " +
                         kLayouts[layout];
      if (!supported) {
        check(result == COOPVEC_DX_E_INVALIDARG, what + " is rejected");
        continue;
      }
      uint64_t expected = coopvecLayoutDestinationSize(
          layout, 13, 21, t.bytes, layout < 2 ? info.DestStride : 0);
      check(result == COOPVEC_DX_S_OK && info.DestSize == expected &&
                info.DestSize % 16 == 0,
            what, std::to_string(info.DestSize) + " vs " +
                      std::to_string(expected));
    }
  }
  CoopVecDxMatrixConversionDestInfo badStride = {0, 0, 40, 4, 4,
                                                 COOPVEC_DX_DATATYPE_FLOAT32};
  check(coopvecDxGetLinearAlgebraMatrixConversionDestinationInfo(&badStride) ==
            COOPVEC_DX_E_INVALIDARG,
        "a destination stride not a multiple of 16 is rejected");
  CoopVecDxMatrixConversionDestInfo shortStride = {0, 1, 16, 8, 4,
                                                   COOPVEC_DX_DATATYPE_FLOAT32};
  check(coopvecDxGetLinearAlgebraMatrixConversionDestinationInfo(
            &shortStride) == COOPVEC_DX_E_INVALIDARG,
        "a stride shorter than a column is rejected");
  std::printf("ok destinfo\n");
}

//===----------------------------------------------------------------------===//
// roundtrip
//===----------------------------------------------------------------------===//

int floatRank(uint32_t type) {
  switch (type) {
  case COOPVEC_DX_DATATYPE_FLOAT32: return 3;
  case COOPVEC_DX_DATATYPE_FLOAT16: return 2;
  case COOPVEC_DX_DATATYPE_E4M3:
  case COOPVEC_DX_DATATYPE_E5M2: return 1;
  default: return 0;
  }
}

bool isApiType(uint32_t type) {
  return floatRank(type) > 0 || type == COOPVEC_DX_DATATYPE_SINT8 ||
         type == COOPVEC_DX_DATATYPE_UINT8;
}

/// Whether the spec's valid usage allows converting `from` to `to`.
bool pairAccepted(const TypeInfo &from, const TypeInfo &to, uint32_t toLayout,
                  uint32_t fromLayout) {
  if (!isApiType(from.type) || !isApiType(to.type))
    return false;
  auto fp8 = [](uint32_t t) { return floatRank(t) == 1; };
  if (fp8(to.type) && toLayout < 2)
    return false;
  (void)fromLayout;
  if (from.type == to.type)
    return true;
  int hi = std::max(floatRank(from.type), floatRank(to.type));
  int lo = std::min(floatRank(from.type), floatRank(to.type));
  return hi >= 2 && lo >= 1 && lo < hi;
}

int32_t convert(const TypeInfo &from, uint32_t fromLayout, const Buffer &src,
                uint32_t rows, uint32_t cols, const TypeInfo &to,
                uint32_t toLayout, Buffer &dst, uint32_t *dstSize) {
  CoopVecDxMatrixConversionInfo info = {};
  info.DestInfo = {0, toLayout, strideFor(toLayout, rows, cols, to.bytes),
                   rows, cols, to.type};
  if (coopvecDxGetLinearAlgebraMatrixConversionDestinationInfo(
          &info.DestInfo) != COOPVEC_DX_S_OK)
    return COOPVEC_DX_E_INVALIDARG;
  *dstSize = info.DestInfo.DestSize;
  info.SrcInfo = {uint32_t(src.size), from.type, fromLayout,
                  strideFor(fromLayout, rows, cols, from.bytes)};
  info.DataDesc = {dst.data, src.data};
  return coopvecDxConvertLinearAlgebraMatrix(&info, 1);
}

void testRoundTrip() {
  const uint32_t rows = 11, cols = 19;
  unsigned pairs = 0, rejected = 0;
  for (const TypeInfo &from : kTypes) {
    if (!isApiType(from.type))
      continue;
    for (uint32_t fromLayout = 0; fromLayout < 4; ++fromLayout) {
      if (floatRank(from.type) == 1 && fromLayout < 2)
        continue; // FP8 sources are made by this API: optimal only.
      // The source: sampleValue in `from`, written element by element.
      uint32_t fromStride = strideFor(fromLayout, rows, cols, from.bytes);
      Buffer src(coopvecLayoutDestinationSize(fromLayout, rows, cols,
                                              from.bytes, fromStride));
      for (uint32_t r = 0; r < rows; ++r)
        for (uint32_t c = 0; c < cols; ++c) {
          uint32_t bits = encode(from, sampleValue(from, r, c));
          std::memcpy(src.data + coopvecLayoutElementOffset(
                                     fromLayout, rows, cols, from.bytes,
                                     fromStride, r, c),
                      &bits, from.bytes);
        }
      for (const TypeInfo &to : kTypes) {
        for (uint32_t toLayout = 0; toLayout < 4; ++toLayout) {
          std::string what = std::string("convert ") + from.name + " " +
                             kLayouts[fromLayout] + " -> " + to.name + " " +
                             kLayouts[toLayout];
          Buffer mid(8192);
          uint32_t midSize = 0;
          coopvecDxSetAbortOnError(0);
          int32_t result = convert(from, fromLayout, src, rows, cols, to,
                                   toLayout, mid, &midSize);
          if (!pairAccepted(from, to, toLayout, fromLayout)) {
            check(result == COOPVEC_DX_E_INVALIDARG, what + " is rejected");
            ++rejected;
            continue;
          }
          check(result == COOPVEC_DX_S_OK, what + " succeeds");
          // Every element has its value (sample values are exact in every
          // type of the pair) ...
          uint32_t toStride = strideFor(toLayout, rows, cols, to.bytes);
          bool valuesOk = true;
          for (uint32_t r = 0; r < rows && valuesOk; ++r)
            for (uint32_t c = 0; c < cols && valuesOk; ++c)
              valuesOk = decodeAt(to, mid.data,
                                  coopvecLayoutElementOffset(
                                      toLayout, rows, cols, to.bytes,
                                      toStride, r, c)) ==
                         sampleValue(from, r, c);
          check(valuesOk, what + " values");
          // ... and converting back gives the source bytes.
          Buffer back(src.size);
          uint32_t backSize = 0;
          Buffer midCopy(midSize);
          std::memcpy(midCopy.data, mid.data, midSize);
          result = convert(to, toLayout, midCopy, rows, cols, from,
                           fromLayout, back, &backSize);
          bool same = result == COOPVEC_DX_S_OK;
          for (uint32_t r = 0; r < rows && same; ++r)
            for (uint32_t c = 0; c < cols && same; ++c) {
              int64_t off = coopvecLayoutElementOffset(
                  fromLayout, rows, cols, from.bytes, fromStride, r, c);
              same = std::memcmp(back.data + off, src.data + off,
                                 from.bytes) == 0;
            }
          check(same, what + " round trip");
          ++pairs;
        }
      }
    }
  }
  // Valid usage of the call itself: sizes, alignment, overlap.
  Buffer src(256), dst(512);
  CoopVecDxMatrixConversionInfo info = {};
  info.DestInfo = {0, COOPVEC_LAYOUT_INFERENCING_OPTIMAL, 0, 4, 4,
                   COOPVEC_DX_DATATYPE_FLOAT16};
  check(coopvecDxGetLinearAlgebraMatrixConversionDestinationInfo(
            &info.DestInfo) == COOPVEC_DX_S_OK,
        "destination info for the call checks");
  info.SrcInfo = {64, COOPVEC_DX_DATATYPE_FLOAT32, COOPVEC_LAYOUT_ROW_MAJOR,
                  16};
  info.DataDesc = {dst.data, src.data};
  check(coopvecDxConvertLinearAlgebraMatrix(&info, 1) == COOPVEC_DX_S_OK,
        "a valid conversion");
  CoopVecDxMatrixConversionInfo bad = info;
  bad.DestInfo.DestSize -= 16;
  check(coopvecDxConvertLinearAlgebraMatrix(&bad, 1) ==
            COOPVEC_DX_E_INVALIDARG,
        "DestSize below the query's size");
  bad = info;
  bad.SrcInfo.SrcSize = 48;
  check(coopvecDxConvertLinearAlgebraMatrix(&bad, 1) ==
            COOPVEC_DX_E_INVALIDARG,
        "SrcSize below the source footprint");
  bad = info;
  bad.DataDesc.DestVA = dst.data + 64;
  check(coopvecDxConvertLinearAlgebraMatrix(&bad, 1) ==
            COOPVEC_DX_E_INVALIDARG,
        "DestVA not 128-byte aligned");
  bad = info;
  bad.DataDesc.SrcVA = dst.data + 16;
  check(coopvecDxConvertLinearAlgebraMatrix(&bad, 1) ==
            COOPVEC_DX_E_INVALIDARG,
        "overlapping buffers");
  // One invalid descriptor in a batch converts nothing.
  CoopVecDxMatrixConversionInfo batch[2] = {info, bad};
  std::memset(dst.data, 0xAB, dst.size);
  check(coopvecDxConvertLinearAlgebraMatrix(batch, 2) ==
                COOPVEC_DX_E_INVALIDARG &&
            dst.data[0] == 0xAB,
        "an invalid batch converts nothing");

  coopvecDxClearError();
  std::printf("ok roundtrip: %u accepted conversions round-trip, %u "
              "rejected\n",
              pairs, rejected);
}

//===----------------------------------------------------------------------===//
// matvec
//===----------------------------------------------------------------------===//

void testMatVec() {
  const uint32_t m = 9, k = 6;
  unsigned cases = 0;
  for (const TypeInfo &t : kTypes) {
    for (uint32_t layout = 0; layout < 4; ++layout) {
      for (uint32_t transpose = 0; transpose < 2; ++transpose) {
        if (transpose && layout < 2)
          continue;
        uint32_t storedRows = transpose ? k : m, storedCols = transpose ? m : k;
        uint32_t stride = strideFor(layout, storedRows, storedCols, t.bytes);
        Buffer matrix(coopvecLayoutDestinationSize(layout, storedRows,
                                                   storedCols, t.bytes,
                                                   stride));
        for (uint32_t r = 0; r < m; ++r)
          for (uint32_t c = 0; c < k; ++c) {
            uint32_t bits = encode(t, sampleValue(t, r, c));
            int64_t off = transpose
                              ? coopvecLayoutElementOffset(layout, k, m,
                                                           t.bytes, stride, c,
                                                           r)
                              : coopvecLayoutElementOffset(layout, m, k,
                                                           t.bytes, stride, r,
                                                           c);
            std::memcpy(matrix.data + off, &bits, t.bytes);
          }
        // The bias, in I32 (integer matrices) or F32; the f32 input read
        // with the matrix's own interpretation.
        Buffer bias(64);
        bool floatPath = isFloat(t);
        uint32_t biasType = floatPath ? 9 : 4;
        for (uint32_t r = 0; r < m; ++r) {
          float fb = float(r) - 3;
          int32_t ib = int32_t(r) - 3;
          std::memcpy(bias.data + r * 4, floatPath ? (void *)&fb : (void *)&ib,
                      4);
        }
        std::vector<float> x(k);
        for (uint32_t c = 0; c < k; ++c)
          x[c] = isUnsigned(t) ? float(c) : float(int(c) - 2);
        std::vector<float> out(m);
        CoopVecDxBuffer mh = {matrix.data, matrix.size};
        CoopVecDxBuffer bh = {bias.data, bias.size};
        coopvecDxMatVecMulAdd("test", out.data(), 9, m, x.data(), 9, k, 0,
                              t.type, &mh, 0, t.type, m, k, layout, transpose,
                              stride, &bh, 0, biasType, 0);
        bool ok = coopvecDxGetError() == 0;
        for (uint32_t r = 0; r < m && ok; ++r) {
          double expected = double(r) - 3;
          for (uint32_t c = 0; c < k; ++c)
            expected += sampleValue(t, r, c) * double(x[c]);
          ok = out[r] == float(expected);
        }
        check(ok, std::string("matvec ") + t.name + " " + kLayouts[layout] +
                      (transpose ? " transpose" : ""));
        ++cases;
      }
    }
  }
  // Packed input: [1, -2, 3, -4, 5, -6] against the I8 RowMajor matrix.
  Buffer matrix(64);
  int8_t rows[2][16] = {{1, 1, 1, 1, 1, 1}, {1, 0, 1, 0, 1, 0}};
  std::memcpy(matrix.data, rows, 32);
  int8_t bytes[8] = {1, -2, 3, -4, 5, -6, 0x7F, 0x7F}; // tail ignored
  int32_t words[2];
  std::memcpy(words, bytes, 8);
  int32_t out[2];
  CoopVecDxBuffer mh = {matrix.data, matrix.size};
  coopvecDxMatVecMulAdd("test", out, 4, 2, words, 4, 2, 0, 17, &mh, 0, 20, 2,
                        6, 0, 0, 16, nullptr, 0, 0, 0);
  check(out[0] == -3 && out[1] == 9, "packed S8x32 with K = 6");
  check(coopvecDxGetError() == 0, "no error reported");

  // An invalid call leaves the result all zero bits, also when the only
  // fault is the unsigned flag on a float result.
  float fout[2] = {1.0f, 2.0f};
  float fin[6] = {};
  coopvecDxMatVecMulAdd("test", fout, 9, 2, fin, 9, 6, 0, 9, &mh, 0, 20, 2, 6,
                        0, 0, 16, nullptr, 0, 0, /*outputUnsigned=*/1);
  check(coopvecDxGetError() == 1, "unsigned f32 result reported");
  check(fout[0] == 0.0f && fout[1] == 0.0f && !std::signbit(fout[0]),
        "unsigned f32 result zeroed");
  coopvecDxClearError();
  std::printf("ok matvec: %u interpretation/layout/transpose cases\n", cases);
}
} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s features|destinfo|roundtrip|matvec\n",
                 argv[0]);
    return 2;
  }
  std::string suite = argv[1];
  if (suite == "features")
    testFeatures();
  else if (suite == "destinfo")
    testDestInfo();
  else if (suite == "roundtrip")
    testRoundTrip();
  else if (suite == "matvec")
    testMatVec();
  else {
    std::fprintf(stderr, "unknown suite '%s'\n", suite.c_str());
    return 2;
  }
  return failures ? 1 : 0;
}
