//===- Numerics.h - Low-precision formats, rounding, MX: the C ABI -*- C -*-===//
//
// The single reference semantics of every numeric conversion in coopvec:
// constant folding, the CPU lowering, the DXIL software driver and the tests
// all call these functions. Plain C ABI, no allocation; the only global state
// is the SIMD dispatch cap (coopvecNumericsCapSimd).
//
// Formats (bit patterns are returned right-aligned in a uint32_t):
//   F32, F16, BF16   IEEE-754 binary32 / binary16 / bfloat16.
//   TF32             1-8-10, stored as PTX does: an f32 bit pattern whose low
//                    13 bits are zero (LLVM's FloatTF32 is the same value
//                    shifted right by 13).
//   E4M3             OCP FP8 E4M3 (LLVM Float8E4M3FN): bias 7, no inf, NaN is
//                    S.1111.111 only (0x7F / 0xFF), max 448.
//   E5M2             OCP FP8 E5M2: IEEE-like, bias 15, inf and NaN, max 57344.
//   E2M3, E3M2       OCP FP6 (Float6E2M3FN max 7.5, Float6E3M2FN max 28):
//                    finite only, stored in the low 6 bits of a byte.
//   E2M1             OCP FP4 (Float4E2M1FN): finite only, max 6, low 4 bits.
//   UE8M0            MX scale: value 2^(e-127), 0xFF is NaN; no sign, no
//                    zero, no inf (LLVM Float8E8M0FNU).
//   UE4M3            NVFP4 scale: E4M3 with the sign bit 0 (0x7F is NaN).
//   I8 ... U32       two's-complement / unsigned integers (DXIL conversions).
//
// Conversion to a float format (coopvecConvert*), every decision:
//   * Rounding: RN ties-to-even, RNA ties-away, RZ, RM, RP exactly as IEEE-754
//     defines them on the infinitely precise input; RS (stochastic) below.
//   * Subnormal results are produced exactly (no flush-to-zero anywhere).
//   * Overflow (the rounded magnitude exceeds the largest finite value):
//       - finite-only formats (E2M3, E3M2, E2M1): always +-MAX_NORM (the OCP
//         MX spec requires clamping; PTX makes .satfinite mandatory).
//       - COOPVEC_SATFINITE: +-MAX_NORM (PTX .satfinite).
//       - otherwise IEEE-754 7.4: RN/RNA/RS and RP(+)/RM(-) give +-inf, RZ,
//         RP(-) and RM(+) give +-MAX_NORM; formats without inf (E4M3, UE4M3,
//         UE8M0) give NaN where IEEE would give inf (as LLVM's APFloat does).
//   * +-inf input: +-inf where the format has inf and SATFINITE is off;
//     +-MAX_NORM with SATFINITE or for finite-only formats; NaN for E4M3,
//     UE4M3 and UE8M0 without SATFINITE.
//   * NaN input: the canonical quiet NaN with the input's sign (IEEE formats:
//     exponent all ones, only the top mantissa bit set; E4M3: S.1111.111;
//     UE4M3 0x7F; UE8M0 0xFF). Payloads are not preserved. Finite-only
//     formats give +MAX_NORM (PTX: "NaN results are converted to positive
//     MAX_NORM" for .e2m1x2/.e2m3x2/.e3m2x2). LLVM's APFloat returns +-0 for
//     inf/NaN into FP4/FP6; this library does not follow it there.
//   * COOPVEC_RELU (PTX .relu): a negative input (including -0 and -inf)
//     gives +0; NaN gives the canonical NaN with the sign cleared (+MAX_NORM
//     for finite-only formats).
//   * Unsigned scales (UE8M0, UE4M3) convert |x|: the sign of a negative input
//     is dropped, as CUDA's __nv_cvt_float_to_e8m0 does and as PTX intends for
//     UE4M3 ("just take abs"). LLVM's APFloat instead sets the sign bit of
//     Float8E8M0FNU (-1e-30 gives 0x9b). With RELU a negative input gives the
//     conversion of +0.
//   * UE8M0 has no zero: +-0 and every magnitude that rounds below 2^-127
//     give 0x00 (2^-127), matching the CUDA reference. UE8M0 has no mantissa,
//     so RN ties (1.5 * 2^k) round up: the kept significand 1 is odd.
//   * Stochastic rounding (COOPVEC_RS, PTX .rs): with f the part of |x| below
//     the result's last place, expressed as a fraction of one ulp, and w the
//     format's random width (coopvecStochasticBits), the magnitude rounds up
//     iff floor(f * 2^w) + (rbits mod 2^w) >= 2^w. Equivalently the w random
//     bits are added to the w most significant dropped bits and the lower
//     dropped bits are discarded (truncated), as the PTX notes describe. The
//     expected result is x truncated to w bits below the last place, so the
//     bias is below 2^-w ulp. w: F16 13, TF32 13, BF16 16, every 8/6/4-bit
//     format 16. Overflow in RS follows RN.
//
// Packed forms follow the PTX cvt definition: the first operand (a) lands in
// the most significant position. x2 with RS: a uses rbits[31:16], b uses
// rbits[15:0]. x4 (fp8/fp6): a and b share rbits[31:16], e and f share
// rbits[15:0]. e2m1x4: a and b share {rbits[31:24], rbits[15:8]}, e and f
// share {rbits[23:16], rbits[7:0]} (the first byte the high byte).
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_RUNTIME_NUMERICS_H
#define LINALGCOOP_RUNTIME_NUMERICS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Number formats. The values are ABI: never renumber.
enum CoopVecFormat {
  COOPVEC_FMT_F32 = 0,
  COOPVEC_FMT_F16 = 1,
  COOPVEC_FMT_BF16 = 2,
  COOPVEC_FMT_TF32 = 3,
  COOPVEC_FMT_E4M3 = 4,
  COOPVEC_FMT_E5M2 = 5,
  COOPVEC_FMT_E2M3 = 6,
  COOPVEC_FMT_E3M2 = 7,
  COOPVEC_FMT_E2M1 = 8,
  COOPVEC_FMT_UE8M0 = 9,
  COOPVEC_FMT_UE4M3 = 10,
  COOPVEC_FMT_I8 = 16,
  COOPVEC_FMT_U8 = 17,
  COOPVEC_FMT_I16 = 18,
  COOPVEC_FMT_U16 = 19,
  COOPVEC_FMT_I32 = 20,
  COOPVEC_FMT_U32 = 21,
};

/// Rounding modes. The values are ABI: never renumber.
enum CoopVecRounding {
  COOPVEC_RND_RN = 0,  ///< to nearest, ties to even
  COOPVEC_RND_RZ = 1,  ///< toward zero
  COOPVEC_RND_RM = 2,  ///< toward -inf
  COOPVEC_RND_RP = 3,  ///< toward +inf
  COOPVEC_RND_RNA = 4, ///< to nearest, ties away from zero
  COOPVEC_RND_RS = 5,  ///< stochastic, caller-supplied random bits
};

/// Conversion flags (a bit set).
enum CoopVecConvertFlags {
  COOPVEC_CVT_SATFINITE = 1, ///< clamp overflow and inf to +-MAX_NORM
  COOPVEC_CVT_RELU = 2,      ///< negative results become +0
};

//===----------------------------------------------------------------------===//
// Format queries
//===----------------------------------------------------------------------===//

/// Storage width in bits of one element (E2M3/E3M2 report 6, E2M1 4, TF32 32).
unsigned coopvecFormatBits(unsigned format);
/// Lower-case name ("e4m3", "ue8m0", "i8", ...) or "?" for unknown values.
const char *coopvecFormatName(unsigned format);
/// 1 for the float formats F32 ... UE4M3, 0 otherwise.
int coopvecFormatIsFloat(unsigned format);
/// Bit pattern of the largest finite value (0x7E for E4M3, 0xFE for UE8M0).
uint32_t coopvecFormatMaxFinite(unsigned format);
/// Random bits COOPVEC_RND_RS consumes per element for `format` (see above).
unsigned coopvecStochasticBits(unsigned format);

//===----------------------------------------------------------------------===//
// Scalar conversions: one element in, bits out
//===----------------------------------------------------------------------===//

/// Converts the f32 `x` to the float format `dst` with rounding `rounding`,
/// `flags` from CoopVecConvertFlags and, for COOPVEC_RND_RS, the random bits
/// `rbits` (only the low coopvecStochasticBits(dst) bits are used). Returns
/// the right-aligned bit pattern. dst == F32 returns x unchanged (canonical
/// NaN, RELU applied). Integer `dst` formats use the DXIL float-to-integer
/// rule (coopvecDxilConvert); `rounding` and `flags` are then ignored.
uint32_t coopvecConvertF32(unsigned dst, float x, unsigned rounding,
                           unsigned flags, uint32_t rbits);

/// Same as coopvecConvertF32 for a source value of any float format given as
/// its bit pattern (F16 and BF16 sources convert exactly as their f32 value).
uint32_t coopvecConvert(unsigned dst, unsigned src, uint32_t srcBits,
                        unsigned rounding, unsigned flags, uint32_t rbits);

/// The exact value of a float-format (or integer-format) bit pattern.
/// Every format here is exactly representable in double.
double coopvecDecode(unsigned format, uint32_t bits);

/// The exact value as f32 bits (every float format of 32 bits or fewer is a
/// subset of f32 except UE8M0 0x00 = 2^-127, which is an f32 subnormal and
/// still exact). NaN gives 0x7FC00000 with the input's sign.
float coopvecDecodeToF32(unsigned format, uint32_t bits);

//===----------------------------------------------------------------------===//
// Packed forms (PTX cvt layouts)
//===----------------------------------------------------------------------===//

/// Two values packed as PTX `cvt.*.<fmt>x2.f32 d, a, b` does: a in the upper
/// half. F16/BF16 give 32 bits, E4M3/E5M2/UE8M0 16 bits, E2M3/E3M2 16 bits
/// (each element in the low 6 bits of its byte), E2M1 8 bits.
uint32_t coopvecPackX2(unsigned format, float a, float b, unsigned rounding,
                       unsigned flags, uint32_t rbits);
/// Four values as `cvt.*.<fmt>x4.f32 d, {a, b, e, f}, rbits`: a most
/// significant. E4M3/E5M2/E2M3/E3M2 give 32 bits, E2M1 16 bits.
uint32_t coopvecPackX4(unsigned format, float a, float b, float e, float f,
                       unsigned rounding, unsigned flags, uint32_t rbits);
/// Unpacks an x2 form: hi is the upper element (a), lo the lower (b).
void coopvecUnpackX2(unsigned format, uint32_t packed, float *hi, float *lo);
/// Unpacks an x4 form into out[0..3] = a, b, e, f (most significant first).
/// A format without the form (for x4 also F16 and BF16) gives the decoded
/// code 0 in every element.
void coopvecUnpackX4(unsigned format, uint32_t packed, float out[4]);

//===----------------------------------------------------------------------===//
// DXIL interpretation conversions (proposal 0029, "Conversion Rules")
//===----------------------------------------------------------------------===//

/// Converts `bits` of format `src` to format `dst` (F32, F16, BF16, E4M3,
/// E5M2 and the six integer formats; others are accepted too):
///   int -> int     saturating (clamped to the destination range).
///   float -> int   round to nearest even, saturating; NaN gives 0.
///   int -> float   round to nearest even, computed exactly from the integer
///                  (no intermediate f32 rounding).
///   float -> float round to nearest even; a finite value beyond the range
///                  gives +-MAX_NORM ("preserves the value as accurately as
///                  possible"); +-inf stays +-inf where the destination has
///                  inf and becomes +-MAX_NORM otherwise; NaN stays NaN
///                  (+MAX_NORM for finite-only formats).
/// Integer results are returned as the destination's two's-complement bits
/// zero-extended to 64 bits.
uint64_t coopvecDxilConvert(unsigned dst, unsigned src, uint64_t bits);

/// Packed interpretations are bitcasts: element i of PackedS8x32 /
/// PackedU8x32 is byte i of the 32-bit word, least significant byte first.
void coopvecDxilUnpackS8x32(uint32_t packed, int32_t out[4]);
void coopvecDxilUnpackU8x32(uint32_t packed, int32_t out[4]);

//===----------------------------------------------------------------------===//
// Bulk conversions (vectorized when the CPU allows)
//===----------------------------------------------------------------------===//
//
// Element storage in buffers: F32/TF32 4 bytes, F16/BF16 2 bytes, every 8-
// and 6-bit format one byte per element (6-bit values in the low bits),
// E2M1 two elements per byte with element 2i in the low nibble and 2i+1 in
// the high nibble (what cvt.e2m1x2 d, x[2i+1], x[2i] produces; an odd count
// leaves the last high nibble 0).

/// Converts n f32 values. For COOPVEC_RND_RS, rbits holds one random word per
/// element (rbits may be null otherwise). Bit-identical to coopvecConvertF32.
void coopvecConvertF32Buffer(unsigned dst, const float *src, void *out,
                             size_t n, unsigned rounding, unsigned flags,
                             const uint32_t *rbits);
/// Converts n values of float format `src` (F16, BF16 or F32 storage).
void coopvecConvertBuffer(unsigned dst, unsigned src, const void *in,
                          void *out, size_t n, unsigned rounding,
                          unsigned flags, const uint32_t *rbits);
/// Decodes n values of any float format to f32 (exact).
void coopvecDecodeBuffer(unsigned src, const void *in, float *out, size_t n);

/// SIMD levels of the bulk entry points (every level gives bit-identical
/// results; the levels exist for speed and so that tests can compare them).
enum CoopVecNumericsSimd {
  COOPVEC_NUMERICS_SCALAR_PATH = 0, ///< the portable scalar loop
  COOPVEC_NUMERICS_AVX2 = 1,        ///< AVX2, FMA, F16C: 8 lanes
  COOPVEC_NUMERICS_AVX512 = 2,      ///< AVX-512 F/BW/VL: 16 lanes
};

/// Caps the SIMD level the bulk entry points may use at `level` (a
/// CoopVecNumericsSimd; the best level the CPU has below the cap is taken);
/// -1 restores the start-up cap, read once from the environment:
/// COOPVEC_NUMERICS_ISA=scalar|avx2|avx512, or COOPVEC_NUMERICS_SCALAR=1.
void coopvecNumericsCapSimd(int level);
/// Forces the portable scalar path (nonzero: coopvecNumericsCapSimd(0)) or
/// restores the start-up cap (0: coopvecNumericsCapSimd(-1)).
void coopvecNumericsForceScalar(int force);
/// The level bulk entry points currently use (a CoopVecNumericsSimd; 0 on
/// the scalar path, so it reads as "SIMD in use" too).
int coopvecNumericsUsingSimd(void);
/// "scalar", "avx2" or "avx512": the name of a CoopVecNumericsSimd level.
const char *coopvecNumericsSimdName(int level);

//===----------------------------------------------------------------------===//
// OCP MX block quantization
//===----------------------------------------------------------------------===//
//
// MX (OCP Microscaling v1.0): blocks of COOPVEC_MX_BLOCK = 32 values share one
// UE8M0 scale X = 2^s. Element formats: E4M3, E5M2, E2M3, E3M2, E2M1.
// Choices where the spec leaves room:
//   * s = floor(log2(amax)) - emax(elem), amax = max |v| of the block,
//     emax = 8 (E4M3), 15 (E5M2), 2 (E2M3), 4 (E3M2), 2 (E2M1); computed from
//     the exact exponent of amax (subnormal amax included), then clamped to
//     [-127, 127]. No rounding of the scale upward ("floor" as in the spec).
//   * Elements: v / X (exact: X is a power of two) rounded to nearest even
//     and saturated to +-MAX_NORM of the element format (amax / X can reach
//     2^(emax+1), beyond MAX_NORM: those values clamp, as the spec says).
//   * All-zero block (+-0 only): scale 0x00 (2^-127), elements +-0 (the sign
//     of each zero is kept).
//   * A block containing NaN or +-inf: scale 0xFF (NaN) and every element
//     code 0; it dequantizes to all NaN (the spec: a NaN scale makes the
//     whole block NaN; element codes are then don't-care, we define them 0).
//   * A final partial block (n not a multiple of 32) is quantized over its
//     own elements.
// Dequantization: decode(elem) * 2^(scale-127) rounded to f32 (RN; only
// possible rounding is f32 underflow/overflow); scale 0xFF gives NaN.
//
// NVFP4: blocks of COOPVEC_NVFP4_BLOCK = 16 E2M1 values with a UE4M3 scale:
//   * scale = UE4M3(amax / 6) rounded to nearest even with satfinite (the
//     quotient is computed in double; the final rounding is correctly
//     rounded because a non-dyadic quotient cannot be a UE4M3 tie).
//   * elements = E2M1(v / decode(scale)), RN + satfinite, the exact quotient
//     (not v times a rounded reciprocal), correctly rounded for the same
//     reason. If the scale decodes to 0 (amax / 6 rounds to 0) the elements
//     are +-0 (sign kept).
//   * NaN or +-inf in a block: scale 0x7F (NaN), element codes 0.
//   * The per-tensor f32 scale of NVIDIA's recipe is left to the caller
//     (divide the input by it before quantizing).

enum { COOPVEC_MX_BLOCK = 32, COOPVEC_NVFP4_BLOCK = 16 };

/// Shared UE8M0 scale of one block of `count` values for element `elem`.
uint8_t coopvecMxBlockScale(unsigned elem, const float *block, size_t count);
/// One element of an MX block: v / 2^(scale-127), RN + satfinite, into
/// `elem`. scale 0xFF gives 0.
uint32_t coopvecMxQuantizeElement(unsigned elem, float v, uint8_t scale);
/// Quantizes n values: `elems` uses the bulk storage rules above (E2M1
/// packed two per byte), `scales` receives ceil(n / 32) bytes.
void coopvecMxQuantize(unsigned elem, const float *src, size_t n, void *elems,
                       uint8_t *scales);
/// Inverse of coopvecMxQuantize.
void coopvecMxDequantize(unsigned elem, const void *elems,
                         const uint8_t *scales, size_t n, float *dst);

/// UE4M3 scale of one NVFP4 block.
uint8_t coopvecNvfp4BlockScale(const float *block, size_t count);
/// NVFP4 quantization: `elems` packed E2M1 (two per byte), `scales`
/// ceil(n / 16) UE4M3 bytes.
void coopvecNvfp4Quantize(const float *src, size_t n, uint8_t *elems,
                          uint8_t *scales);
void coopvecNvfp4Dequantize(const uint8_t *elems, const uint8_t *scales,
                            size_t n, float *dst);

//===----------------------------------------------------------------------===//
// Tenstorrent Wormhole math fidelity
//===----------------------------------------------------------------------===//
//
// A bit-exact functional model of the Wormhole B0 matrix unit (FPU) and
// packer, per tt-isa-documentation (MVMUL, ELWMUL, SrcA/SrcB, Dst, packer
// format conversion) and the tt-llk loop structure; docs/WormholeFidelity.md
// gives the sources, every reading taken and what is unverified.
//
// Operand roles. The multipliers take 5 significand bits of SrcA and 7 of
// SrcB per fidelity phase. A matmul computes Dst += SrcB @ SrcA with in0
// (the left, activation operand) unpacked to SrcB and in1 (the right, weight
// operand) to SrcA; an element-wise multiply computes Dst += SrcA * SrcB with
// in0 in SrcA and in1 in SrcB. The same call (a, b) therefore slices `a`
// 7+4 bits in a matmul and 5+5 bits in an element-wise multiply.
//
// Unpacker. Operands are f32 values as they sit in L1 (bf16, bfp8/4/2 and
// tf32 data are exact f32 values). The unpacker truncates them to the Src
// format (BF16: 7 mantissa bits, TF32: 10) and flushes denormals to zero.
// Exponent 255 is not special: the matrix unit reads it as (1+m) * 2^128.
//
// Slices of a Src significand 1.m (m the 23-bit f32 mantissa field, e the
// exponent):                       SrcA                 SrcB
//   hi (phase 0, 2 for A; 0, 1 for B)  1.m[22:19]          1.m[22:17]
//   lo (phase 1, 3 for A; 2, 3 for B)  m[18:14]            m[16:13]
// The TF32 LSB (m[13]) is never consumed from SrcA. Phase p multiplies
// A.(p & 1 ? lo : hi) by B.(p & 2 ? lo : hi); fidelity LoFi runs phase 0,
// HiFi2 phases 0-1, HiFi3 0-2, HiFi4 0-3.
//
// Dst. Every MVMUL adds the exact sum of its 16 slice products (one 16-wide
// k chunk) to Dst and rounds the result once to the Dst format, FP32
// (fp32_dest_acc_en) or BF16 (Float16_b), to nearest with ties away from
// zero, at the format's precision with an unbounded exponent. A result
// below 2^-126 becomes +0, zeros are +0 (the FPU never writes -0 or
// denormals), a result of 2^128 or more gives the exponent-255
// zero-mantissa pattern (+-inf as f32). An element-wise multiply rounds
// after each phase the same way.
//
// Loop order (tt-llk llk_math_matmul.h): for each 32-wide K tile, for each
// fidelity phase, the 16-wide K halves in order (B0A0 then B1A2 for output
// face 0, ...). Dst is zeroed before the first K tile of a block.
//
// Packer. Dst FP32 to L1 BF16 rounds to nearest, ties away (the early format
// conversion); every other supported pair is exact. With packer L1
// accumulation the packed datum is added to the L1 value in the L1 format:
// L1 = RNA_L1format(L1 + datum), with the Dst flush rules.

enum CoopVecFidelity {
  COOPVEC_FIDELITY_LOFI = 0,
  COOPVEC_FIDELITY_HIFI2 = 1,
  COOPVEC_FIDELITY_HIFI3 = 2,
  COOPVEC_FIDELITY_HIFI4 = 3,
};

/// One compute-kernel configuration (tt-metal's WormholeComputeKernelConfig
/// plus the data formats). Formats are CoopVecFormat values.
typedef struct CoopVecWormholeConfig {
  unsigned fidelity;   ///< CoopVecFidelity
  unsigned srcFormat;  ///< Src register format: COOPVEC_FMT_BF16 or _TF32
  unsigned dstFormat;  ///< Dst: COOPVEC_FMT_F32 (fp32_dest_acc_en) or _BF16
  unsigned packFormat; ///< L1 output (and L1 accumulation) format: F32, BF16
  unsigned l1Acc;      ///< packer_l1_acc: nonzero accumulates onto the output
} CoopVecWormholeConfig;

/// Status of the Wormhole entry points.
enum CoopVecWormholeStatus {
  COOPVEC_WH_OK = 0,
  COOPVEC_WH_INVALID_CONFIG = 1, ///< a field out of range or a format pair
                                 ///< the hardware does not support
  COOPVEC_WH_INVALID_BLOCK = 2,  ///< kBlock not a multiple of 32, or K split
                                 ///< into blocks without L1 accumulation
};

/// Validates `cfg`: fidelity 0-3, srcFormat BF16/TF32, dstFormat F32/BF16,
/// packFormat F32/BF16.
int coopvecWormholeCheckConfig(const CoopVecWormholeConfig *cfg);

/// The unpacker: `x` (an f32 value in L1) as the Src register holds it.
float coopvecWormholeUnpack(float x, unsigned srcFormat);

/// The unpacker's block-float decode (tt-isa-documentation
/// FloatBitPatterns.md, BFP8ToBF16): one `bits`-wide (8, 4 or 2)
/// sign-magnitude datum, right-aligned, with its block's shared exponent,
/// as the BF16 value (an f32) that lands in SrcA/SrcB. Magnitude zero with
/// the sign set decodes to the BF16 -inf pattern, which the matrix unit
/// reads as -2^128. Returns NaN for another `bits`.
float coopvecWormholeBfpToFloat(uint8_t datum, uint8_t sharedExp,
                                unsigned bits);

/// C[m x n] = pack(A[m x k] @ B[k x n]), row-major, A = in0 (SrcB), B = in1
/// (SrcA). K is accumulated in Dst in blocks of kBlock elements (a multiple
/// of 32; 0 means all of K in one block, as a matmul without L1 accumulation
/// does); each block is packed to `c`, which with cfg->l1Acc is accumulated
/// onto (the caller zeroes `c` to start a fresh sum; c holds values of
/// cfg->packFormat). Splitting K (kBlock < k) requires cfg->l1Acc. Any m,
/// n, k: a partial tile behaves as the zero-padded tile the unpacker loads.
int coopvecWormholeMatmul(const CoopVecWormholeConfig *cfg, const float *a,
                          const float *b, float *c, size_t m, size_t n,
                          size_t k, size_t kBlock);

/// One matrix-unit step onto a live Dst, as coopvec.tile_mma with a
/// fidelity clause: dst[m x n] += srcA[m x k] @ srcB[k x n], row-major,
/// with `srcA` (the weights) in SrcA and `srcB` (the activations) in SrcB.
/// Each dst value first enters Dst as the FPU writes it (rounded to
/// cfg->dstFormat, +0 below 2^-126, the exponent-255 pattern from 2^128 on:
/// an inf or NaN reads as such a magnitude); then for each 32-wide K tile
/// and phase the 16-wide halves are added and Dst rounded, as in
/// coopvecWormholeMatmul; the result is the Dst value (no packer: the
/// packing and L1 fields of `cfg` are not used). k must be a multiple of 32.
int coopvecWormholeTileMma(const CoopVecWormholeConfig *cfg, const float *srcA,
                           const float *srcB, float *dst, size_t m, size_t n,
                           size_t k);

/// The packer on Dst values: l1[i] = pack(dst[i]) for i < n, each dst[i]
/// first taken as Dst holds it (rounded to cfg->dstFormat as the FPU writes
/// it); with cfg->l1Acc the datum is accumulated onto l1[i] (values of
/// cfg->packFormat), as coopvecWormholeMatmul packs each K block. The
/// fidelity and srcFormat fields only need to be valid.
int coopvecWormholePack(const CoopVecWormholeConfig *cfg, const float *dst,
                        float *l1, size_t n);

/// c[i] = pack(a[i] * b[i]) for i < n: ELWMUL with a = in0 (SrcA) and
/// b = in1 (SrcB), Dst zeroed first; with cfg->l1Acc the datum is
/// accumulated onto c[i].
int coopvecWormholeEltwiseMul(const CoopVecWormholeConfig *cfg,
                              const float *a, const float *b, float *c,
                              size_t n);

/// One ELWMUL element into a zeroed FP32 Dst, TF32 sources, no packer:
/// the (srcA, srcB) product after `fidelity`'s phases, as Dst holds it.
float coopvecWormholeMul(float srcA, float srcB, unsigned fidelity);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // LINALGCOOP_RUNTIME_NUMERICS_H
