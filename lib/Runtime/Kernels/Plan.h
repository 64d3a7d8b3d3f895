//===- Plan.h - Validated, decoded kernel arguments shared by both ISAs ---===//
//
// Kernels.cpp checks the C ABI arguments once and fills a plan; the ISA
// instantiations of KernelBody.inc execute one task of it. The plan is ISA
// neutral except for the AVX-512 weight kinds (VNNI, wide f32), which
// Kernels.cpp plans (with their repacked panels) only when that path runs.
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_LIB_RUNTIME_KERNELS_PLAN_H
#define LINALGCOOP_LIB_RUNTIME_KERNELS_PLAN_H

#include "LayoutMath.h"

#include <cstdint>
#include <vector>

namespace coopvec {
namespace kernels {

/// How the matrix elements are loaded into 8-lane registers.
enum class WeightKind : uint8_t {
  F32,
  F16,
  S8,
  U8,
  /// 8-bit weights pre-widened to 16 bits (MLP only): one plain load a step.
  S16,
  /// I8 / U8 weights repacked into 16-row, 4-column vpdpbusd panels
  /// (AVX-512 VNNI only; see VnniS8Weights in KernelBody.inc).
  VnniS8,
  VnniU8,
  /// F32 / F16 weights repacked as f32 into 16-row panels for 512-bit FMAs
  /// (AVX-512 only; see F32WideWeights in KernelBody.inc).
  F32Wide,
  /// I8 / U8 weights read in place from 8-row panels with vpdpbusd, for
  /// batches too small to repay a repack (AVX-512 VNNI only; see
  /// PanelVnniWeights in KernelBody.inc).
  PanelVnniS8,
  PanelVnniU8,
  /// I8 weights also repacked into 8-row panels of 4-column groups for
  /// vpmaddubsw (AVX2; `quadPanels`, see QuadS8Weights in KernelBody.inc),
  /// which batch tiles whose inputs are all in [0, 127] take; other tiles
  /// use the I8 weights as S8 does (`native`, `panels`).
  QuadS8,
};

/// What the kernels stage an input vector from.
enum class InputKind : uint8_t {
  F32,
  F16,
  F32RoundToF16,
  S8,
  U8,
  F32ToS8,
  F32ToU8,
  I32ToS8,
  I32ToU8,
  U32ToS8,
  U32ToU8,
};

enum class BiasKind : uint8_t { None, F32, F16, I32 };

enum class OutputKind : uint8_t { F32, F16, I32, I32ToF32 };

/// Rows per strip: the rows one register block covers at most (4 panels of
/// the widest, 16-row, policies), and the unit of interleaved panels.
constexpr uint32_t kStripRows = 64;

/// Columns of 8-bit panels one PanelVnni step reads (4 column pairs).
constexpr uint32_t kPanelVnniColumns = 8;

/// A matrix ready for the microkernel: panels of 8 or 16 rows (a policy's
/// kRows), `steps` column groups each, step s of panel p at
/// block.base + p * panelBytes + s * stepBytes.
///
/// Plain panels follow one another (stripBytes == 0). Interleaved panels
/// (the AVX-512 repacks) store each 64-row strip step by step, so that one
/// register block reads one contiguous run of memory per step: there
/// panelBytes is a single panel step, stepBytes the strip's four of them and
/// stripBytes the distance between strips.
struct Panels {
  const uint8_t *base = nullptr;
  uint64_t panelBytes = 0;
  uint64_t stepBytes = 0;
  uint64_t stripBytes = 0;

  /// The block starting at `row` (a multiple of rowsPerPanel that does not
  /// cross a strip when interleaved).
  Panels at(uint32_t row, uint32_t rowsPerPanel) const {
    Panels p = *this;
    if (stripBytes)
      p.base += (row / kStripRows) * stripBytes +
                (row % kStripRows) / rowsPerPanel * panelBytes;
    else
      p.base += uint64_t(row / rowsPerPanel) * panelBytes;
    return p;
  }
};

struct MatVecPlan {
  WeightKind weights;
  uint32_t m, k;
  /// The matrix as stored: M x K, or K x M when transposed.
  const uint8_t *matrix;
  layout::LayoutParams stored;
  bool transpose;
  /// Set when the stored matrix already is in panel form (then `panels`).
  bool native;
  Panels panels;
  /// QuadS8: the vpmaddubsw panels.
  Panels quadPanels;

  const uint8_t *input;
  InputKind inputKind;
  uint64_t inputStride;
  uint32_t batch;

  const uint8_t *bias;
  BiasKind biasKind;

  uint8_t *output;
  OutputKind outputKind;
  uint64_t outputStride;

  uint32_t batchTile, numBatchTiles, rowChunk, numRowChunks;
  /// Consecutive batch tiles per task (tilesPerTaskFor in Kernels.cpp); a
  /// task is a group of tiles and one row chunk.
  uint32_t tilesPerTask = 1;

  /// VNNI only: byte xor applied to the broadcast inputs (0x80 moves a
  /// signed input into u8 range, or an unsigned one into s8, for vpdpbusd)
  /// and the per-row i32 term that undoes it (-+128 * row sum), added to the
  /// bias. PanelVnni: the xor applies to the weights instead, undone by a
  /// per-vector term.
  uint8_t vnniFlip = 0;
  const int32_t *rowCorrection = nullptr;
  /// The 512-bit epilogues store whole f32 / i32 result lines with
  /// non-temporal stores: set for 64-byte aligned results too large to stay
  /// cached (see Kernels.cpp).
  bool streamOutput = false;
};

struct MlpLayerPlan {
  Panels panels;
  /// Interleaved 16-row f32 panels for F32WideWeights (AVX-512), else the
  /// 8-row form of the layer's compute type.
  bool wide = false;
  /// I8 weights in VNNI panels for VnniS8Weights (AVX-512), else widened to
  /// 16 bits in 8-row panels; flipInput: the layer's input may be negative
  /// (see ByteActivations in KernelBody.inc).
  bool vnni = false, flipInput = false;
  /// BF16 weights in vdpbf16ps panels for Bf16Weights (AVX-512 BF16), else
  /// widened to f32 like F16.
  bool bf16Panels = false;
  uint32_t m, k;
  /// Padded to a multiple of kStripRows rows, zero when the layer has no
  /// bias (for flipped VNNI inputs: plus the -128 * row sum correction).
  const float *biasF;
  const int32_t *biasI;
  bool relu;
  /// I8: the requantization scale of each row, padded like the bias; a
  /// hidden layer with ReLU stores u8 activations (unsignedOut), which the
  /// next layer reads (unsignedIn).
  const float *requant = nullptr;
  bool unsignedIn = false, unsignedOut = false;
  /// The last layer in segment form (AVX-512 VNNI or BF16 panels, at most
  /// kSegmentRows rows and kSegmentGroups 4-byte input groups; see
  /// segmentLayer in KernelBody.inc): segmentSteps 64-byte steps, lane
  /// 4 r + j of step s holding row r's input group j * segmentSteps + s
  /// (zero past the segmentGroups groups); null otherwise.
  const uint8_t *segments = nullptr;
  uint32_t segmentGroups = 0, segmentSteps = 0;
};

/// Limits of the segment form: 4 rows of 4 segments fill the 16 lanes, and
/// a vector's input groups are permuted from two 512-bit registers.
constexpr unsigned kSegmentRows = 4, kSegmentGroups = 32;

constexpr unsigned kMaxMlpLayers = 16;

struct MlpPlan {
  bool int8;
  /// BF16 weights: layer inputs are rounded to bf16 (see mlpBf16).
  bool bf16 = false;
  /// BF16 or I8 weights on AMX tiles (amx::mlpTask).
  bool amx = false;
  unsigned numLayers;
  MlpLayerPlan layers[kMaxMlpLayers];
  uint32_t maxWidth; ///< Largest layer input/output, rounded up to 2.
  const float *input;
  uint64_t inputStride;
  float *output;
  uint64_t outputStride;
  uint32_t batch, batchTile, numBatchTiles;
  /// Consecutive batch tiles per task: a task fetches its next tile's input
  /// while the current one computes (mlpTask). 1 on AMX, whose batch tile
  /// already covers several of its 128-vector batches.
  uint32_t tilesPerTask = 1;
  float inputScale;
  bool outputExp;
};

namespace portable {
void matVecTask(const MatVecPlan &plan, unsigned task);
void mlpTask(const MlpPlan &plan, unsigned task);
} // namespace portable

namespace avx2 {
void matVecTask(const MatVecPlan &plan, unsigned task);
void mlpTask(const MlpPlan &plan, unsigned task);
} // namespace avx2

namespace avx512 {
void matVecTask(const MatVecPlan &plan, unsigned task);
void mlpTask(const MlpPlan &plan, unsigned task);
/// exp of `m` floats in each of `rows` rows (strideFloats apart) at p, in
/// place, bit-identical to glibc's expf (x86_64/ExpAvx512.cpp).
void expRows(float *p, uint64_t strideFloats, uint32_t rows, uint32_t m);
} // namespace avx512

namespace avx512bf16 {
void mlpTask(const MlpPlan &plan, unsigned task);
} // namespace avx512bf16

/// Makes `buf` hold `bytes` zero bytes from a 64-byte aligned address,
/// which it returns, for repacked weights (a 64-byte load that crosses a
/// cache line costs two; Kernels.cpp).
uint8_t *zeroedLines(std::vector<uint8_t> &buf, uint64_t bytes);

/// The exp of the last layer's results of `nb` vectors at `out`, when the
/// plan asks for it (every MLP path; Kernels.cpp).
void applyOutputExp(const MlpPlan &plan, uint8_t *out, uint32_t nb);

/// The BF16 and I8 MLP on AMX tiles (x86_64/MlpAmx.cpp).
namespace amx {
/// Bytes of inputs per A/B tile row (32 bf16 or 64 s8) and of one
/// 16 x 64-byte tile.
constexpr uint32_t kAmxRowBytes = 64, kAmxTileBytes = 1024;
/// Vectors that go through the layers together (8 A tiles; their bf16
/// activations, 2 x 16 KiB for 64-wide layers, stay in L1); a task takes
/// up to 8 such batches, prefetching each next one's input.
constexpr uint32_t kAmxBatch = 128;
/// Whether the OS lets this process use the AMX tile data (asked once).
bool amxPermitted();
/// A palette-1 tile configuration (ldtilecfg's 64-byte operand): rows and
/// bytes per row of each tile register, zero for an unused one.
struct alignas(64) TileConfig {
  uint8_t palette = 1, startRow = 0;
  uint8_t reserved[14] = {};
  uint16_t colsb[16] = {};
  uint8_t rows[16] = {};
};
/// The logical M x K BF16 (elemBytes 2) or I8 (1) matrix as B tiles: per
/// block of 16 outputs and chunk of 64 bytes of inputs one tile (row i: the
/// outputs' group of 4 bytes of inputs, i.e. inputs 2i, 2i + 1 or 4i..4i+3),
/// blocks panelBytes apart, chunks stepBytes apart, zero padded.
Panels packAmxMatrix(const uint8_t *src, const layout::LayoutParams &stored,
                     bool transpose, uint32_t m, uint32_t k, uint32_t elemBytes,
                     std::vector<uint8_t> &buf);
/// One batch tile (a multiple of kAmxBatch vectors but the last) of the
/// plan, BF16 or I8 (plan.int8).
void mlpTask(const MlpPlan &plan, unsigned task);
} // namespace amx

} // namespace kernels
} // namespace coopvec

#endif // LINALGCOOP_LIB_RUNTIME_KERNELS_PLAN_H
