//===- Kernels.h - CPU cooperative-vector kernels (C ABI) ------*- C -*-===//
//
// The entry points the CPU lowering (--convert-coopvec-to-cpu) calls. Every
// function validates its arguments and returns a CoopVecStatus (Layout.h);
// nothing is written on failure. Scalar arguments mirror the DXIL operands:
// a matrix is (buffer, byte offset, interpretation, M, K, layout, transpose,
// stride), a bias (buffer, byte offset, interpretation).
//
// Batching: input vector b starts at input + b * inputStride and result
// vector b at output + b * outputStride (bytes; 0 means tightly packed).
//
// Threads: `numThreads` 0 means the default, COOPVEC_NUM_THREADS if set and
// positive, else std::thread::hardware_concurrency(). The batch (and, for
// small batches, the rows) is split among that many threads, the calling
// thread included, from one process-wide pool. A call made while another
// call is using the pool runs on its calling thread alone.
//
// ISA: the best the CPU has of "avx512" (AVX-512 F/BW/VL/DQ + VNNI: 32
// registers, vpdpbusd for 8-bit weights), "avx2" (AVX2+FMA+F16C) and
// "portable" (C++). COOPVEC_KERNELS_ISA=portable|avx2|avx512 (read once)
// caps the choice, COOPVEC_KERNELS_SCALAR=1 means portable;
// coopvecKernelsForceIsa / coopvecKernelsForcePortable override both.
//
// Numerics: float paths accumulate in f32 (FMA on AVX2/AVX-512, separate
// multiply and add in the portable path) in increasing k order, add the bias
// and round once to the output type (RTNE); AVX2 and AVX-512 give identical
// float results. Integer paths accumulate exactly in i32 (wrapping on
// overflow, which needs K > 66000 for 8-bit data), so every path gives the
// same integers. Element conversions follow CoopVecNumerics (Numerics.h);
// NaN payloads are unspecified.
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_RUNTIME_KERNELS_H
#define LINALGCOOP_RUNTIME_KERNELS_H

#include "LinAlgCoop/Runtime/Layout.h"
#include "LinAlgCoop/Runtime/ParamStructs.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Element codes of the runtime ABI: the DXIL ComponentType numbers (the
/// shipped numbering, see seeds/README.md) for the types DXIL has, 32 and up
/// for the others. In memory BF16 takes two bytes, F6_* one byte each (the
/// value in the low six bits) and I4, U4 and F4_E2M1 half a byte: two
/// adjacent stored columns share a byte, the even one in the low nibble, so
/// a 4-bit matrix is laid out as the byte matrix of its column pairs (and a
/// 4-bit bias vector stores element 2j in the low nibble of byte j).
enum CoopVecComponentType {
  COOPVEC_TYPE_I16 = 2,
  COOPVEC_TYPE_U16 = 3,
  COOPVEC_TYPE_I32 = 4,
  COOPVEC_TYPE_U32 = 5,
  COOPVEC_TYPE_F16 = 8,
  COOPVEC_TYPE_F32 = 9,
  COOPVEC_TYPE_PACKED_S8X32 = 17,
  COOPVEC_TYPE_PACKED_U8X32 = 18,
  COOPVEC_TYPE_U8 = 19,
  COOPVEC_TYPE_I8 = 20,
  COOPVEC_TYPE_F8_E4M3 = 21,
  COOPVEC_TYPE_F8_E5M2 = 22,
  COOPVEC_TYPE_BF16 = 32,
  COOPVEC_TYPE_F6_E2M3 = 33,
  COOPVEC_TYPE_F6_E3M2 = 34,
  COOPVEC_TYPE_F4_E2M1 = 35,
  COOPVEC_TYPE_I4 = 36,
  COOPVEC_TYPE_U4 = 37,
  /// Block-scale types: UE8M0 (2^(s-127), 0xFF NaN) and UE4M3 (0x7F NaN).
  COOPVEC_TYPE_UE8M0 = 38,
  COOPVEC_TYPE_UE4M3 = 39,
  /// Tenstorrent block floats (Bfp8_b, Bfp4_b): sign-magnitude data (one
  /// byte; a nibble, column pairs as I4) whose exponents, one per 16
  /// elements along K, are the matrix's block scales. Read only by the
  /// Wormhole model (the math-fidelity form of coopvecCpuMatVecMulAdd).
  COOPVEC_TYPE_BFP8 = 40,
  COOPVEC_TYPE_BFP4 = 41,
};

/// Activation applied after the bias in the fused MLP.
enum CoopVecActivation {
  COOPVEC_ACTIVATION_NONE = 0,
  COOPVEC_ACTIVATION_RELU = 1,
};

/// Batched matrix-vector multiply-add: for b in [0, batch)
///   output[b] = convert(W * interpret(input[b]) + bias)
/// W is M x K; with `transpose` the buffer holds the K x M matrix W^T in
/// `layout` (DXIL allows that only for the optimal layouts; the kernels accept
/// it for all four). `bias` may be NULL (plain multiply).
///
/// Supported combinations (inputType = physical element, inputInterp = how it
/// is read):
///   float: matrixInterp F32 or F16; input (F32,F32), (F16,F16), (F16,F32)
///          or (F32,F16) (the input is rounded to f16 first); bias F32 or
///          F16; output F32 or F16.
///   int:   matrixInterp I8 or U8; input (I8,I8)/(U8,U8) byte arrays,
///          (U32|I32, PackedS8x32|PackedU8x32) 4 bytes per word, (F32, I8|U8)
///          RTNE saturating, NaN -> 0, or (I32|U32, I8|U8) saturating; bias
///          I32; output I32, or F32 (exact sum rounded RTNE).
/// On AVX-512, batches of 16 and more repack the matrix once (16-row f32
/// panels, or VNNI panels for I8/U8); the calling thread keeps the repack
/// and reuses it while the matrix bytes, layout and types are unchanged
/// (compared by content, so weights updated in place are repacked).
int32_t coopvecMatVecMulAdd(
    void *output, uint32_t outputType, uint64_t outputStride,
    const void *input, uint32_t inputType, uint32_t inputInterp,
    uint64_t inputStride, uint32_t batch, const void *matrix,
    uint64_t matrixOffset, uint32_t matrixInterp, uint32_t m, uint32_t k,
    uint32_t layout, uint32_t transpose, uint32_t matrixStride,
    const void *bias, uint64_t biasOffset, uint32_t biasInterp,
    uint32_t numThreads);

/// coopvecMatVecMulAdd without a bias.
int32_t coopvecMatVecMul(void *output, uint32_t outputType,
                         uint64_t outputStride, const void *input,
                         uint32_t inputType, uint32_t inputInterp,
                         uint64_t inputStride, uint32_t batch,
                         const void *matrix, uint64_t matrixOffset,
                         uint32_t matrixInterp, uint32_t m, uint32_t k,
                         uint32_t layout, uint32_t transpose,
                         uint32_t matrixStride, uint32_t numThreads);

/// One layer of the fused MLP, CoopVecMlpLayer (ParamStructs.h, fields in
/// RuntimeFunctions.def): out = act(W * in + bias), W outputs x inputs;
/// weightsInterp F32, F16, BF16 or I8 (the same for every layer), bias NULL
/// or F32/F16 (float weights) or I32 (I8 weights), activation a
/// CoopVecActivation, requantScale or requantScales/requantScalesOffset for
/// I8 only (see below).

/// Fused multi-layer perceptron over a batch of f32 vectors:
///   h0 = input[b]; h(l+1) = act_l(W_l h_l + bias_l); output[b] = h(L)
/// optionally followed by exp() per output element. The batch is tiled so
/// that a tile's activations stay in L1/L2 between layers. F32 weights in
/// InferencingOptimal are read in place by the 8-row kernels; other weights,
/// and on AVX-512 every float layer of 16 rows or more (16-row panels), are
/// put into compute form once per call (F16 widened to f32: exact, so
/// results equal the F16 matvec; I8 widened to 16 bits, or on AVX-512 VNNI
/// repacked into vpdpbusd panels with 8-bit activations, or AMX tiles: same
/// results).
///
/// BF16 weights multiply layer inputs rounded to bf16 (the input vectors and
/// every hidden layer's outputs, by the DXIL rule: RTNE, finite overflow to
/// +-MAX_NORM); products are exact in f32, sums are f32 in an order that
/// depends on the path: AMX tiles (tdpbf16ps) on CPUs with AMX-BF16,
/// vdpbf16ps on AMD CPUs with AVX-512 BF16 (Intel CPUs run it at half their
/// f32 FMA rate), else the F32 path on the widened weights; the AMX and
/// vdpbf16ps paths read subnormal bf16 operands as zero.
/// COOPVEC_MLP_BF16=amx, =vdpbf16ps or =f32 picks one (a path the CPU lacks
/// falls back to f32). Every path stays within f32 summation error of the
/// exact sums of the same products (test/Runtime/Kernels/mlp.test).
///
/// I8 weights (symmetric; scales per layer or per row, chosen by the
/// caller):
///   q0         = sat_s8(rtne(input * inputScale))
///   acc_l      = W_l q_l + bias_l                      (exact i32)
///   q(l+1)[r]  = sat(rtne(act_l(acc_l[r]) * s_l[r]))   (hidden: u8 [0, 255]
///                                                       after a ReLU, else s8)
///   output[r]  = act_L(acc_L[r]) * s_L[r]              (last, f32)
/// with every product rounded to f32 and s_l[r] the layer's requantScales[r]
/// (M f32 at requantScales + requantScalesOffset) or, when requantScales is
/// NULL, its requantScale. With quantization scales that map values to
/// integers (integer = value * scale: inputScale for the input, a_l for
/// layer l's input, w_l[r] for row r of W_l), s_l[r] = a_(l+1) / (w_l[r] *
/// a_l) for hidden layers and 1 / (w_L[r] * a_L) for the last; bias_l is in
/// accumulator units (bias * w_l[r] * a_l). NaN activations quantize to 0.
/// Every path gives these results to the bit: AMX tiles (tdpbssd) on CPUs with
/// AMX-INT8, vpdpbusd on AVX-512 VNNI, else vpmaddwd on 16-bit activations;
/// COOPVEC_MLP_I8=vpdpbusd keeps a CPU with AMX off the tiles.
///
/// exp() is the C library's expf; with glibc, AVX-512 CPUs evaluate glibc's
/// algorithm 16 lanes at a time by the same double-precision steps (the
/// same floats, to the bit).
int32_t coopvecMlpForward(float *output, uint64_t outputStride,
                          const float *input, uint64_t inputStride,
                          uint32_t batch, const CoopVecMlpLayer *layers,
                          uint32_t numLayers, float inputScale,
                          uint32_t outputExp, uint32_t numThreads);

/// Outer-product accumulate over a batch:
///   matrix += sum_b a[b] * b[b]^T        (M x N, in `layout`/`stride`)
/// a/b physical types F16 or F32; matrixInterp F16 or F32. Products and the
/// batch sum are formed in f32, then each element is added with one atomic
/// read-modify-write: a compare-and-swap loop on the aligned 32-bit word that
/// holds it (an f16 pair whose two halves both change is updated in one CAS),
/// rounding the f32 sum to the accumulator type (RTNE). Concurrent callers
/// (any threads) accumulating into the same buffer never lose an update.
/// The matrix must be 2-byte (F16) / 4-byte (F32) aligned.
int32_t coopvecOuterProductAccumulate(
    const void *a, uint32_t aType, uint64_t aStride, const void *b,
    uint32_t bType, uint64_t bStride, uint32_t batch, uint32_t m, uint32_t n,
    void *matrix, uint64_t matrixOffset, uint32_t matrixInterp,
    uint32_t layout, uint32_t matrixStride, uint32_t numThreads);

/// Vector accumulate over a batch: buffer[i] += sum_b input[b][i], i < n,
/// with the same atomic scheme as coopvecOuterProductAccumulate.
/// inputType F16 or F32; accumInterp F16 or F32.
int32_t coopvecVectorAccumulate(const void *input, uint32_t inputType,
                                uint64_t inputStride, uint32_t batch,
                                uint32_t n, void *buffer, uint64_t offset,
                                uint32_t accumInterp, uint32_t numThreads);

/// Forces the portable kernels (1), the best available (0), or back to the
/// environment's choice (-1). Affects later calls from any thread.
void coopvecKernelsForcePortable(int32_t mode);

/// Forces the kernels of `isa` ("portable", "avx2", "avx512", or "best")
/// for later calls from any thread, or with NULL returns to the
/// environment's choice. Returns COOPVEC_OK, COOPVEC_ERROR_INVALID_ARGUMENT
/// for an unknown name or COOPVEC_ERROR_UNSUPPORTED_TYPE when the CPU lacks
/// the ISA (the selection is then unchanged).
int32_t coopvecKernelsForceIsa(const char *isa);

/// "avx512", "avx2" or "portable": the path the next call takes.
const char *coopvecKernelsIsa(void);

/// The entry of the per-CPU tuning table the kernels apply: "zen3", "zen4",
/// "zen5", "intel" or "generic" (choices such as non-temporal result stores
/// that measured best on that kind of CPU; lib/Runtime/Kernels/Kernels.cpp).
/// Detected once from the CPU, or named by COOPVEC_CPU_TUNING.
const char *coopvecKernelsCpuTuning(void);

/// Applies the tuning entry `name` to later calls from any thread, or with
/// NULL returns to the detected (or COOPVEC_CPU_TUNING's) one. Returns
/// COOPVEC_OK or COOPVEC_ERROR_INVALID_ARGUMENT for an unknown name (the
/// tuning is then unchanged). Results are the same bits under every entry.
int32_t coopvecKernelsForceCpuTuning(const char *name);

/// The thread count `numThreads == 0` resolves to.
uint32_t coopvecKernelsDefaultThreads(void);

/// Calls of fewer than `work` multiply-adds (or accumulated products) run
/// on the calling thread whatever `numThreads` asks: waking a helper costs
/// more than such a call. 0 lets every call use the pool (tests of the task
/// split); a negative value restores the default, 2^18. Affects later calls
/// from any thread.
void coopvecKernelsSetParallelThreshold(int64_t work);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // LINALGCOOP_RUNTIME_KERNELS_H
