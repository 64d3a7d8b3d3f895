//===- Dxil.h - DXIL cooperative-vector software driver (C ABI) -*- C -*-===//
//
// A host implementation of the SM 6.9 cooperative-vector DXIL operations and
// of the D3D12 API side of the feature (proposal 0029, with the numbering of
// the errata in shared/seeds/README.md). Modules lowered by
// --convert-coopvec-to-dxil run on the host once
// --coopvec-dxil-link-host-driver gave their dx.op declarations bodies that
// call the entry points below (libcoopvec_dxil_driver.so).
//
// Resources. A %dx.types.Handle holds a pointer to a CoopVecDxBuffer: the
// base address and size in bytes of a raw (byte-address) buffer. Every load
// and store is checked against it.
//
// Semantics of the shader operations (every interpretation, layout,
// transpose and stride the spec allows):
//   * The input vector's physical elements (f16, f32, i16, i32; `unsigned`
//     makes i16/i32 U16/U32) are read by the input interpretation with
//     coopvecDxilConvert (integer saturation, RTNE, ...); PackedS8x32 and
//     PackedU8x32 split each 32-bit word into four bytes, least significant
//     first. Matrix and bias elements are read as their interpretation.
//   * Element (m, k) of the M x K matrix lives where Layout.h puts element
//     (m, k) of an M x K matrix, or with transpose element (k, m) of the
//     stored K x M matrix. The optimal layouts are the project's CPU layouts
//     (InferencingOptimal: row panels; TrainingOptimal: 8x8 tiles).
//   * Where the CPU kernels (Kernels.h) accept the combination, the driver
//     calls them with a batch of one on the calling thread, so results equal
//     the CPU lowering's bit for bit. Otherwise the reference: when the
//     input, matrix and bias interpretations are all integers, products are
//     summed exactly in 64 bits and the sum is converted to the result type
//     (saturating for integers, RTNE for floats); otherwise every value is
//     taken to f32, products are formed and summed in f32 in increasing k
//     (multiply, then add), the bias is added in f32 and the sum is converted
//     to the result type with coopvecDxilConvert.
//   * Outer product: element (i, j) += a[i] * b[j], vector accumulate:
//     element i += v[i]; floats are added in f32 and rounded (RTNE,
//     saturating as coopvecDxilConvert does) to the matrix interpretation,
//     integers exactly and saturated. F16/F32 go through the kernels' CAS
//     loops; other types are serialised by one process-wide lock. Either way
//     concurrent callers lose no update.
//
// Errors. Where the spec leaves behaviour undefined (a matrix, bias or
// accumulation access outside the buffer, a misaligned offset or stride) or
// the validator would reject the call (an interpretation outside the allowed
// set, transpose of a RowMajor/ColumnMajor matrix, a length that does not
// match M or K, an unsigned flag on a float vector), the driver touches no
// memory, prints one line
//   coopvec-dxil: error: <dx.op name>: <reason naming the bound>
// to stderr, sets a sticky error flag (coopvecDxGetError) and returns (the
// result vector of a multiply is then all zero bits). With
// COOPVEC_DXIL_ABORT_ON_ERROR=1 in the environment, or after
// coopvecDxSetAbortOnError(1), it aborts after printing instead. A process
// prints one error line at most 10 times, then one line saying that further
// identical ones are only counted (the Vulkan validation layers' duplicate
// message limit). coopvec-run exits with status 1 when the flag is still set
// after the entry function returns.
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_RUNTIME_DXIL_H
#define LINALGCOOP_RUNTIME_DXIL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What a %dx.types.Handle points to on the host.
typedef struct CoopVecDxBuffer {
  uint8_t *base;
  uint64_t sizeInBytes;
} CoopVecDxBuffer;

//===----------------------------------------------------------------------===//
// Shader operations (the bodies of the dx.op functions)
//===----------------------------------------------------------------------===//
//
// Physical element types are ComponentType values of the vector element:
// 8 (f16), 9 (f32), 2 (i16), 4 (i32); signedness comes from the flags.
// `op` is the dx.op function's name, used in error messages.

/// dx.op.matVecMul (bias == NULL) and dx.op.matVecMulAdd. Writes
/// resultCount elements of resultType to `result`.
void coopvecDxMatVecMulAdd(const char *op, void *result, uint32_t resultType,
                           uint32_t resultCount, const void *input,
                           uint32_t inputType, uint32_t inputCount,
                           uint32_t inputUnsigned, uint32_t inputInterp,
                           const CoopVecDxBuffer *matrix,
                           uint32_t matrixOffset, uint32_t matrixInterp,
                           uint32_t m, uint32_t k, uint32_t layout,
                           uint32_t transpose, uint32_t matrixStride,
                           const CoopVecDxBuffer *bias, uint32_t biasOffset,
                           uint32_t biasInterp, uint32_t outputUnsigned);

/// dx.op.outerProductAccumulate: matrix (M x N) += a * b^T, atomically.
void coopvecDxOuterProductAccumulate(const char *op, const void *a,
                                     uint32_t m, const void *b, uint32_t n,
                                     uint32_t elementType,
                                     const CoopVecDxBuffer *matrix,
                                     uint32_t matrixOffset,
                                     uint32_t matrixInterp, uint32_t layout,
                                     uint32_t matrixStride);

/// dx.op.vectorAccumulate: array[i] += input[i], atomically; the array has
/// the vector's element type.
void coopvecDxVectorAccumulate(const char *op, const void *input,
                               uint32_t count, uint32_t elementType,
                               const CoopVecDxBuffer *buffer,
                               uint32_t offset);

/// Number of errors reported since the last coopvecDxClearError (sticky).
uint32_t coopvecDxGetError(void);
void coopvecDxClearError(void);
/// Nonzero: abort after reporting an error; 0: report and continue.
void coopvecDxSetAbortOnError(int32_t abortOnError);

//===----------------------------------------------------------------------===//
// API side: CheckFeatureSupport
//===----------------------------------------------------------------------===//

/// D3D12_LINEAR_ALGEBRA_DATATYPE with the shipped (ComponentType) numbers.
enum CoopVecDxDataType {
  COOPVEC_DX_DATATYPE_SINT16 = 2,
  COOPVEC_DX_DATATYPE_UINT16 = 3,
  COOPVEC_DX_DATATYPE_SINT32 = 4,
  COOPVEC_DX_DATATYPE_UINT32 = 5,
  COOPVEC_DX_DATATYPE_FLOAT16 = 8,
  COOPVEC_DX_DATATYPE_FLOAT32 = 9,
  COOPVEC_DX_DATATYPE_SINT8_T4_PACKED = 17,
  COOPVEC_DX_DATATYPE_UINT8_T4_PACKED = 18,
  COOPVEC_DX_DATATYPE_UINT8 = 19,
  COOPVEC_DX_DATATYPE_SINT8 = 20,
  COOPVEC_DX_DATATYPE_E4M3 = 21,
  COOPVEC_DX_DATATYPE_E5M2 = 22,
};

/// D3D12_COOPERATIVE_VECTOR_TIER.
enum CoopVecDxTier {
  COOPVEC_DX_TIER_NOT_SUPPORTED = 0,
  COOPVEC_DX_TIER_1_0 = 1,
  COOPVEC_DX_TIER_1_1 = 2,
};

/// Results of the API entry points (HRESULT-like).
enum CoopVecDxResult {
  COOPVEC_DX_S_OK = 0,
  COOPVEC_DX_E_INVALIDARG = -1,
};

/// D3D12_COOPERATIVE_VECTOR_PROPERTIES_INFERENCE.
typedef struct CoopVecDxPropertiesInference {
  uint32_t InputType;
  uint32_t InputInterpretation;
  uint32_t MatrixInterpretation;
  uint32_t BiasInterpretation;
  uint32_t OutputType;
  int32_t TransposeSupported;
} CoopVecDxPropertiesInference;

/// D3D12_COOPERATIVE_VECTOR_PROPERTIES_TRAINING.
typedef struct CoopVecDxPropertiesTraining {
  uint32_t InputType;
  uint32_t AccumulationType;
} CoopVecDxPropertiesTraining;

/// D3D12_FEATURE_DATA_COOPERATIVE_VECTOR.
typedef struct CoopVecDxFeatureDataCooperativeVector {
  uint32_t MatrixVectorMulAddPropCount;
  CoopVecDxPropertiesInference *pMatrixVectorMulAddProperties;
  uint32_t OuterProductAccPropCount;
  CoopVecDxPropertiesTraining *pOuterProductAccProperties;
  uint32_t VectorAccumulatePropCount;
  CoopVecDxPropertiesTraining *pVectorAccumulateProperties;
} CoopVecDxFeatureDataCooperativeVector;

/// The tier the driver reports (D3D12_FEATURE_D3D12_OPTIONSNN). Tier 1.1
/// unless lowered with coopvecDxSetTier.
uint32_t coopvecDxGetTier(void);
/// Makes the driver behave as a device of `tier` (for testing applications
/// against a tier 1.0 device): queries report no training properties and
/// the tier 1.1 operations fail. Returns E_INVALIDARG for unknown tiers.
int32_t coopvecDxSetTier(uint32_t tier);

/// D3D12_FEATURE_COOPERATIVE_VECTOR with the PropCount protocol: for each of
/// the three lists, a NULL array gets its count written to the PropCount; a
/// non-NULL array needs PropCount >= the available count (else the call
/// fails with E_INVALIDARG and writes nothing), receives the properties and
/// gets PropCount set to the number written.
///
/// The lists: matrix-vector, the D3D12 minimum support set plus (F32, F32,
/// F32, F32, F32), (F16, F16, F16, F32, F32), (F32, F16, F16, F16, F16),
/// (PackedU8x32, U8, U8, I32, I32), (F32, U8, U8, I32, I32) and
/// (F16, F16, F16, F16, F32 output) -- all with TransposeSupported TRUE, the
/// driver transposes every type; outer product (F16 -> F16, F16 -> F32,
/// F32 -> F32); vector accumulate (F16 -> F16, F32 -> F32). These are the
/// combinations the driver runs at kernel speed or that the spec
/// guarantees; the driver executes any valid combination when asked.
int32_t coopvecDxCheckFeatureSupport(
    CoopVecDxFeatureDataCooperativeVector *data);

//===----------------------------------------------------------------------===//
// API side: matrix conversion
//===----------------------------------------------------------------------===//

/// D3D12_LINEAR_ALGEBRA_MATRIX_CONVERSION_DEST_INFO.
typedef struct CoopVecDxMatrixConversionDestInfo {
  uint32_t DestSize; ///< [out]
  uint32_t DestLayout;
  uint32_t DestStride;
  uint32_t NumRows;
  uint32_t NumColumns;
  uint32_t DestDataType;
} CoopVecDxMatrixConversionDestInfo;

/// D3D12_LINEAR_ALGEBRA_MATRIX_CONVERSION_SRC_INFO.
typedef struct CoopVecDxMatrixConversionSrcInfo {
  uint32_t SrcSize;
  uint32_t SrcDataType;
  uint32_t SrcLayout;
  uint32_t SrcStride;
} CoopVecDxMatrixConversionSrcInfo;

/// D3D12_LINEAR_ALGEBRA_MATRIX_CONVERSION_DATA (host addresses).
typedef struct CoopVecDxMatrixConversionData {
  void *DestVA;
  const void *SrcVA;
} CoopVecDxMatrixConversionData;

/// D3D12_LINEAR_ALGEBRA_MATRIX_CONVERSION_INFO.
typedef struct CoopVecDxMatrixConversionInfo {
  CoopVecDxMatrixConversionDestInfo DestInfo;
  CoopVecDxMatrixConversionSrcInfo SrcInfo;
  CoopVecDxMatrixConversionData DataDesc;
} CoopVecDxMatrixConversionInfo;

/// GetLinearAlgebraMatrixConversionDestinationInfo: sets DestSize to the
/// bytes the matrix occupies in DestLayout/DestDataType (a multiple of 16;
/// coopvecLayoutDestinationSize). Checks the destination's valid usage
/// (stride, FP8 only in optimal layouts, a supported data type) and reports
/// violations on stderr with E_INVALIDARG.
int32_t coopvecDxGetLinearAlgebraMatrixConversionDestinationInfo(
    CoopVecDxMatrixConversionDestInfo *desc);

/// ConvertLinearAlgebraMatrix: converts `count` matrices. Checks every
/// descriptor first (the spec's valid usage; DestSize at least the size the
/// query returns; SrcSize covering the source; 128-byte aligned DestVA) and
/// converts nothing if one is invalid. Types convert with coopvecDxilConvert
/// (RTNE; FP8 saturates to the largest finite value). Padding of an optimal
/// destination is zeroed; bytes between rows (columns) of a strided
/// destination are left untouched.
int32_t coopvecDxConvertLinearAlgebraMatrix(
    const CoopVecDxMatrixConversionInfo *descs, uint32_t count);

//===----------------------------------------------------------------------===//
// Reference semantics
//===----------------------------------------------------------------------===//

/// The reference matrix-vector product the driver falls back to when the
/// CPU kernels do not take a combination, for callers that checked bounds
/// themselves (the CPU target): every interpretation, layout, transpose and
/// stride, without the DXIL alignment rules. Physical types are
/// ComponentTypes (I16/U16/I32/U32 say the signedness, F16, F32); element by
/// element as described for coopvecDxMatVecMulAdd. Returns a CoopVecStatus.
int32_t coopvecReferenceMatVecMulAdd(
    void *output, uint32_t outputType, const void *input, uint32_t inputType,
    uint32_t inputInterp, const void *matrix, uint64_t matrixOffset,
    uint32_t matrixInterp, uint32_t m, uint32_t k, uint32_t layout,
    uint32_t transpose, uint32_t matrixStride, const void *bias,
    uint64_t biasOffset, uint32_t biasInterp);

/// coopvecReferenceMatVecMulAdd of a block-scaled matrix: logical element
/// (r, c) is the element times scale byte r * ceil(K / scaleBlock) +
/// c / scaleBlock of `scales + scalesOffset`, in `scaleType`
/// (COOPVEC_TYPE_UE8M0 or COOPVEC_TYPE_UE4M3); see #coopvec.matrix for the
/// schemes and the summation order. `scaleType` 0 is the unscaled product;
/// a scale type with NULL `scales` is COOPVEC_ERROR_NULL_POINTER.
int32_t coopvecReferenceBlockScaledMatVecMulAdd(
    void *output, uint32_t outputType, const void *input, uint32_t inputType,
    uint32_t inputInterp, const void *matrix, uint64_t matrixOffset,
    uint32_t matrixInterp, uint32_t m, uint32_t k, uint32_t layout,
    uint32_t transpose, uint32_t matrixStride, const void *bias,
    uint64_t biasOffset, uint32_t biasInterp, const void *scales,
    uint64_t scalesOffset, uint32_t scaleType, uint32_t scaleBlock);

/// matrix (M x N, `layout`, `matrixStride`, at `matrixOffset`) += a * b^T
/// for the combinations the kernels do not take (integer vectors, 8-bit or
/// integer accumulators): element by element, products exact for integers
/// and f32 for floats, each sum rounded (floats) or saturated (integers) to
/// the accumulator; the whole update runs under one process-wide lock shared
/// with the driver's dx.op.outerProductAccumulate, so concurrent callers
/// lose no update. Returns a CoopVecStatus.
int32_t coopvecReferenceOuterProductAccumulate(
    const void *a, const void *b, uint32_t m, uint32_t n, uint32_t elementType,
    void *matrix, uint64_t matrixOffset, uint32_t matrixInterp,
    uint32_t layout, uint32_t matrixStride);

/// array[i] += input[i] for an integer vector (I16/I32 or U16/U32), one
/// atomic add per element (wrapping, as hardware atomics do); `array` is
/// aligned to the element size. Returns a CoopVecStatus.
int32_t coopvecReferenceVectorAccumulate(const void *input, uint32_t count,
                                         uint32_t elementType, void *array);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // LINALGCOOP_RUNTIME_DXIL_H
