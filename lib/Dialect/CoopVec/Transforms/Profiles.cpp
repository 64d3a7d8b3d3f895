//===- Profiles.cpp - builtin support profiles as data --------------------===//
//
// Every builtin target as a table: the D3D12 minimum support set per tier,
// the CPU this compiler runs on, NVIDIA SMs (PTX 8.7 mma.sync shapes and
// types), two RISC-V int8 matrix extensions and Vulkan 1.3. Adding a target
// means adding a table here; the checking pass does not change.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Dialect/CoopVec/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

using namespace mlir;
using namespace mlir::coopvec;

namespace {
using I = InterpKind;

struct Tile {
  int64_t m, n, k;
};

/// A family of matrix rows: every (input pair) x matrix x result (x bias)
/// combination; without `biases` the result type is also the bias (the C
/// of an MMA).
struct MatVecGroup {
  ArrayRef<std::pair<I, I>> inputs; // (physical input, input interpretation)
  ArrayRef<I> matrices;
  ArrayRef<I> results;
  bool transpose;
  ArrayRef<Tile> tiles;
  ArrayRef<I> biases = {};
};

struct AccumRow {
  I input, accumulation;
};

/// The whole description of one builtin profile.
struct ProfileTable {
  StringRef name, kind, arch;
  SupportTier tier;
  ArrayRef<StringRef> features;
  ArrayRef<MatVecGroup> matvec;
  ArrayRef<AccumRow> outerProduct, vectorAccumulate;
  bool fp8OptimalOnly, outerProductTrainingOptimalOnly;
};

//===----------------------------------------------------------------------===//
// D3D12: the SM 6.9 minimum support set; transpose is never guaranteed.
//===----------------------------------------------------------------------===//

constexpr std::pair<I, I> kF16In[] = {{I::F16, I::F16}};
constexpr std::pair<I, I> kF16ReadAsE4M3[] = {{I::F16, I::F8_E4M3}};
constexpr std::pair<I, I> kF16ReadAsE5M2[] = {{I::F16, I::F8_E5M2}};
constexpr std::pair<I, I> kPackedS8[] = {{I::PackedS8x32, I::I8}};
constexpr std::pair<I, I> kF32ReadAsI8[] = {{I::F32, I::I8}};
constexpr I kF16[] = {I::F16}, kF32[] = {I::F32}, kI8[] = {I::I8},
            kI32[] = {I::I32}, kE4M3[] = {I::F8_E4M3}, kE5M2[] = {I::F8_E5M2};

constexpr MatVecGroup kD3D12MatVec[] = {
    {kF16In, kF16, kF16, false, {}},
    {kF16ReadAsE4M3, kE4M3, kF16, false, {}},
    {kF16ReadAsE5M2, kE5M2, kF16, false, {}},
    {kPackedS8, kI8, kI32, false, {}},
    {kF32ReadAsI8, kI8, kI32, false, {}},
};
constexpr AccumRow kD3D12OuterProduct[] = {{I::F16, I::F16}, {I::F16, I::F32}};
constexpr AccumRow kD3D12VectorAccumulate[] = {{I::F16, I::F16}};

//===----------------------------------------------------------------------===//
// NVPTX: mma.sync shapes (m, n, k) and types of PTX 8.7. Inputs are given
// as the vectors that reach them: f16 as is, or f32 read as the narrower
// type (the conversion precedes the MMA); 8-bit integers also packed.
//===----------------------------------------------------------------------===//

constexpr std::pair<I, I> kNvF16In[] = {{I::F16, I::F16}, {I::F32, I::F16}};
constexpr std::pair<I, I> kNvBF16In[] = {{I::F16, I::BF16}, {I::F32, I::BF16}};
constexpr std::pair<I, I> kNvInt8In[] = {{I::PackedS8x32, I::I8},
                                         {I::PackedU8x32, I::U8},
                                         {I::F32, I::I8},
                                         {I::F32, I::U8}};
constexpr std::pair<I, I> kNvInt4In[] = {{I::F32, I::I4}, {I::F32, I::U4}};
constexpr std::pair<I, I> kNvFp8In[] = {{I::F16, I::F8_E4M3},
                                        {I::F16, I::F8_E5M2},
                                        {I::F32, I::F8_E4M3},
                                        {I::F32, I::F8_E5M2}};
constexpr std::pair<I, I> kNvF8F6F4In[] = {
    {I::F16, I::F8_E4M3}, {I::F16, I::F8_E5M2}, {I::F32, I::F8_E4M3},
    {I::F32, I::F8_E5M2}, {I::F32, I::F6_E2M3}, {I::F32, I::F6_E3M2},
    {I::F32, I::F4_E2M1}};
constexpr I kF16F32[] = {I::F16, I::F32}, kBF16[] = {I::BF16},
            kInt8[] = {I::I8, I::U8}, kInt4[] = {I::I4, I::U4},
            kFp8[] = {I::F8_E4M3, I::F8_E5M2},
            kF8F6F4[] = {I::F8_E4M3, I::F8_E5M2, I::F6_E2M3, I::F6_E3M2,
                         I::F4_E2M1};

constexpr Tile kTilesF16[] = {{16, 8, 16}, {16, 8, 8}};
constexpr Tile kTilesInt8[] = {{16, 8, 32}, {16, 8, 16}, {8, 8, 16}};
constexpr Tile kTilesInt4[] = {{16, 8, 64}, {16, 8, 32}, {8, 8, 32}};
constexpr Tile kTilesFp8[] = {{16, 8, 32}};
// tcgen05.mma (cta_group::1): M 64 or 128, N from 8 to 256; the extremes.
constexpr Tile kTilesTcgen05F16[] = {{128, 256, 16}, {64, 8, 16}};
constexpr Tile kTilesTcgen05F8F6F4[] = {{128, 256, 32}, {64, 8, 32}};

// s32 accumulators give i32 results (saturated with the bias) or the exact
// sum rounded once to f32 (what coopvec.mlp's I8 layers scale); the bias is
// read as 16 or 32 bits and added exactly.
constexpr I kNvIntResults[] = {I::I32, I::F32};
constexpr I kNvIntBiases[] = {I::I32, I::U32, I::I16, I::U16};

// F32 products (F32 matrices, F16 ones read by F32 inputs): no mma.sync
// (tf32 would round the operands), so no tiles: FMA-free per-thread loops
// (convert-coopvec-to-nvvm's per-lane path) with f16/f32 results and biases.
constexpr std::pair<I, I> kNvF32In[] = {
    {I::F32, I::F32}, {I::F16, I::F32}, {I::F32, I::F16}};
constexpr std::pair<I, I> kNvReadAsF32[] = {{I::F32, I::F32}, {I::F16, I::F32}};

// sm_80 and later: f16 (f16 or f32 accumulators), bf16, s8/u8 (mixed
// signs), s4/u4; F32 products. Every row transposes: the kernels read an
// optimal-layout matrix element by element at Layout.h's addresses
// (convert-coopvec-to-nvvm), so a transposed one is only other addresses.
#define NV_BASE_ROWS                                                           \
  {kNvF16In, kF16, kF16F32, true, kTilesF16},                                  \
      {kNvF32In, kF32, kF16F32, true, {}, kF16F32},                            \
      {kNvReadAsF32, kF16, kF16F32, true, {}, kF16F32},                        \
      {kNvBF16In, kBF16, kF16F32, true, kTilesF16},                            \
      {kNvInt8In, kInt8, kNvIntResults, true, kTilesInt8, kNvIntBiases}, {     \
    kNvInt4In, kInt4, kI32, true, kTilesInt4                                   \
  }
constexpr MatVecGroup kSm80MatVec[] = {NV_BASE_ROWS};
// sm_89 and later: e4m3/e5m2 (mixed) with f32 accumulators.
#define NV_FP8_ROWS                                                            \
  { kNvFp8In, kFp8, kF32, true, kTilesFp8 }
constexpr MatVecGroup kSm89MatVec[] = {NV_BASE_ROWS, NV_FP8_ROWS};
// sm_100a: mma.sync as sm_90, and tcgen05.mma kind::f16 / kind::f8f6f4.
constexpr MatVecGroup kSm100aMatVec[] = {
    NV_BASE_ROWS,
    NV_FP8_ROWS,
    {kNvF16In, kF16, kF16F32, true, kTilesTcgen05F16},
    {kNvF8F6F4In, kF8F6F4, kF32, true, kTilesTcgen05F8F6F4}};
// sm_120a: mma.sync kind::f8f6f4 m16n8k32 (mixed a/b types, f16 or f32
// accumulators); the block-scaled kinds are the features mma.block_scale.*.
constexpr MatVecGroup kSm120aMatVec[] = {
    NV_BASE_ROWS, {kNvF8F6F4In, kF8F6F4, kF16F32, true, kTilesFp8}};
#undef NV_BASE_ROWS
#undef NV_FP8_ROWS

// red.global.add: f32, f16 (and f16x2), s32/u32.
constexpr AccumRow kNvOuterProduct[] = {
    {I::F16, I::F16}, {I::F16, I::F32}, {I::F32, I::F32}};
constexpr AccumRow kNvVectorAccumulate[] = {
    {I::F16, I::F16}, {I::F32, I::F32}, {I::I32, I::I32}, {I::U32, I::U32}};

constexpr StringRef kSm80Features[] = {"mma.sync", "batch_matvec", "mlp",
                                       "convert",  "pack",         "bf16",
                                       "tf32",     "mma.tf32",     "quantized"};
// MX block quantization with fp8 elements needs only the fp8 cvt: the UE8M0
// scales are integer arithmetic (convert-coopvec-to-nvvm), so sm_89 lists
// "mx" and "e8m0"; fp6/fp4 elements still need those features. For the same
// reason it lists "block_scale": a block-scaled fp8 matrix is multiplied per
// lane (each element times 2^(s-127); no mma.block_scale before sm_120a).
constexpr StringRef kSm89Features[] = {
    "mma.sync", "batch_matvec", "mlp",      "convert", "pack",
    "bf16",     "tf32",         "mma.tf32", "fp8",     "mx",
    "e8m0",     "block_scale",  "quantized"};
// clang-format off
constexpr StringRef kSm100aFeatures[] = {
    "mma.sync", "tcgen05", "mma.f8f6f4", "block_scale", "mma.block_scale",
    "mma.block_scale.mxf8f6f4", "mma.block_scale.mxf4",
    "mma.block_scale.mxf4nvf4", "batch_matvec", "mlp", "convert", "pack",
    "mx", "bf16", "tf32", "mma.tf32", "fp8", "fp6", "fp4", "e8m0",
    "quantized"};
constexpr StringRef kSm120aFeatures[] = {
    "mma.sync", "mma.f8f6f4", "block_scale", "mma.block_scale",
    "mma.block_scale.mxf8f6f4", "mma.block_scale.mxf4",
    "mma.block_scale.mxf4nvf4", "batch_matvec", "mlp", "convert", "pack",
    "mx", "bf16", "tf32", "mma.tf32", "fp8", "fp6", "fp4", "e8m0",
    "quantized"};
// clang-format on

//===----------------------------------------------------------------------===//
// RISC-V: int32 += int8 x int8 tiles (every sign combination: vqmacc,
// vqmaccu, vqmaccsu, vqmaccus). The vendors name tiles M x K x N; here they
// are (m, n, k): SiFive's 4x8x4 is (4, 4, 8) and 2x8x2 is (2, 2, 8).
//===----------------------------------------------------------------------===//

constexpr Tile kTilesNuclei[] = {{4, 4, 4}};
constexpr Tile kTilesSiFive[] = {{4, 4, 8}, {2, 2, 8}};
constexpr MatVecGroup kNucleiMatVec[] = {
    {kNvInt8In, kInt8, kI32, false, kTilesNuclei}};
constexpr MatVecGroup kSiFiveMatVec[] = {
    {kNvInt8In, kInt8, kI32, false, kTilesSiFive}};
// "quantized": the quantized form of batch_matvec (both lowerings take it).
constexpr StringRef kNucleiFeatures[] = {"rvv", "xxlvqmacc", "batch_matvec",
                                         "mlp", "quantized"};
constexpr StringRef kSiFiveFeatures[] = {
    "rvv", "xsfvqmaccqoq", "xsfvqmaccdod", "batch_matvec", "mlp", "quantized"};

//===----------------------------------------------------------------------===//
// Vulkan 1.3 core: integer dot product (packed 4x8-bit), shaderFloat16,
// 8/16-bit storage; integer atomics only (float atomics are an extension,
// so float accumulation is a compare-and-swap loop).
// A shader reads a matrix in any order, so transpose is fine.
//===----------------------------------------------------------------------===//

constexpr std::pair<I, I> kVkF32In[] = {{I::F32, I::F32}, {I::F16, I::F32}};
constexpr std::pair<I, I> kVkF16In[] = {{I::F16, I::F16}, {I::F32, I::F16}};
constexpr std::pair<I, I> kVkS8In[] = {
    {I::PackedS8x32, I::I8}, {I::F32, I::I8}, {I::F32, I::U8}};
constexpr std::pair<I, I> kPackedU8[] = {{I::PackedU8x32, I::U8}};
constexpr I kU8[] = {I::U8}, kU32[] = {I::U32};
// 8-bit products are SDot, UDot or SUDot (either side signed), so every
// signedness pairing is native.
// Integer biases are read as 16 or 32 bits and added exactly; the exact
// sum is an i32 (saturated) or rounded once to f32 (a quantized layer's
// accumulator, what coopvec.mlp's I8 layers scale).
constexpr I kVkIntBiases[] = {I::I32, I::U32, I::I16, I::U16};
constexpr I kVkIntResults[] = {I::I32, I::F32};
// 8-, 6- and 4-bit floats have no Vulkan 1.3 type: inputs are converted
// and weights (and their block scales: MX UE8M0, NVFP4 UE4M3) decoded in
// integer code, products in f32.
constexpr std::pair<I, I> kVkSmallFloatIn[] = {
    {I::F16, I::F8_E4M3}, {I::F32, I::F8_E4M3}, {I::F16, I::F8_E5M2},
    {I::F32, I::F8_E5M2}, {I::F16, I::F16},     {I::F32, I::F16},
    {I::F32, I::F32},     {I::F16, I::F32}};
constexpr I kVkSmallFloat[] = {I::F8_E4M3, I::F8_E5M2, I::F6_E2M3, I::F6_E3M2,
                               I::F4_E2M1};
// Math fidelity: the Wormhole model in integer code (the CPU's bits): BF16
// matrices and BFP8/BFP4 ones (shared exponents as UE8M0 x 16 scales) with
// inputs read as BF16, F32 ones (TF32) in the F32 row; f32 results, the
// bias (the L1 start, in the packer format) F32 or BF16. A BF16 bias is
// exact in f32, so F32 products without fidelity take it too.
constexpr std::pair<I, I> kVkBF16In[] = {{I::F32, I::BF16}, {I::F16, I::BF16}};
constexpr I kVkBfp[] = {I::BFP8, I::BFP4};
constexpr I kVkFidelityBiases[] = {I::F32, I::BF16};
// Block-float inputs (stored bytes with exponents) against BF16 and
// block-float matrices.
constexpr std::pair<I, I> kVkBfpIn[] = {{I::I8, I::BFP8}, {I::I8, I::BFP4}};
constexpr I kVkBF16OrBfp[] = {I::BF16, I::BFP8, I::BFP4};
constexpr MatVecGroup kVulkanMatVec[] = {
    {kVkF32In, kF32, kF32, true, {}, kVkFidelityBiases},
    {kVkF16In, kF16, kF16F32, true, {}},
    {kVkF32In, kF16, kF16F32, true, {}, kF16F32},
    {kVkSmallFloatIn, kVkSmallFloat, kF16F32, true, {}, kF16F32},
    {kVkS8In, kI8, kVkIntResults, true, {}, kVkIntBiases},
    {kVkS8In, kU8, kVkIntResults, true, {}, kVkIntBiases},
    {kPackedU8, kU8, kU32, true, {}, kVkIntBiases},
    {kPackedU8, kI8, kI32, true, {}, kVkIntBiases},
    {kVkBF16In, kBF16, kF32, true, {}, kVkFidelityBiases},
    {kVkBF16In, kVkBfp, kF32, true, {}, kVkFidelityBiases},
    {kVkBfpIn, kVkBF16OrBfp, kF32, true, {}, kVkFidelityBiases},
};
// 32-bit integers with OpAtomicIAdd; 16-bit integers and floats with a
// compare-and-swap loop on the 32-bit word (core Vulkan 1.3 has no float
// atomics and no 16-bit ones): an f32, or one i16/f16 half.
constexpr AccumRow kVulkanVectorAccumulate[] = {
    {I::I32, I::I32}, {I::U32, I::U32}, {I::I16, I::I16},
    {I::U16, I::U16}, {I::F16, I::F16}, {I::F32, I::F32}};
// Every element with a compare-and-swap loop on its word: float vectors
// into F16/F32; integer vectors (exact products) into 8-, 16- and 32-bit
// integers (saturating) or F16/F32.
constexpr AccumRow kVulkanOuterProduct[] = {
    {I::F16, I::F16}, {I::F16, I::F32}, {I::F32, I::F32}, {I::F32, I::F16},
    {I::F16, I::I8},  {I::F16, I::U8},  {I::F16, I::I16}, {I::F16, I::U16},
    {I::F16, I::I32}, {I::F16, I::U32}, {I::F32, I::I8},  {I::F32, I::U8},
    {I::F32, I::I16}, {I::F32, I::U16}, {I::F32, I::I32}, {I::F32, I::U32},
    {I::F16, I::F8_E4M3}, {I::F16, I::F8_E5M2}, {I::F32, I::F8_E4M3},
    {I::F32, I::F8_E5M2}, {I::I16, I::F8_E4M3}, {I::I16, I::F8_E5M2},
    {I::I32, I::F8_E4M3}, {I::I32, I::F8_E5M2},
    {I::I16, I::I8},  {I::I16, I::U8},  {I::I16, I::I16}, {I::I16, I::U16},
    {I::I16, I::I32}, {I::I16, I::U32}, {I::I16, I::F16}, {I::I16, I::F32},
    {I::I32, I::I8},  {I::I32, I::U8},  {I::I32, I::I16}, {I::I32, I::U16},
    {I::I32, I::I32}, {I::I32, I::U32}, {I::I32, I::F16}, {I::I32, I::F32}};
// Block scales: UE8M0 ("e8m0") and UE4M3 (an "fp8" type) scale bytes; a
// batch_matvec or mlp in a kernel is a loop of matvecs, the quantized form
// of batch_matvec ("quantized") integer and f32 code in the reference's
// order; math fidelity and block floats ("bfp") as the rows above say.
constexpr StringRef kVulkanFeatures[] = {"int_dot_product",
                                         "float16",
                                         "storage8",
                                         "storage16",
                                         "convert",
                                         "pack",
                                         "block_scale",
                                         "e8m0",
                                         "fp8",
                                         "batch_matvec",
                                         "mlp",
                                         "math_fidelity",
                                         "bfp",
                                         "quantized"};

//===----------------------------------------------------------------------===//
// Tenstorrent Wormhole B0: the matrix unit multiplies in0 8x16 (8 activation
// rows) by in1 16x16 per cycle and fidelity phase, i.e. (m, n, k) = (16
// output columns, 8 vectors, 16); BF16 operands, or F32 truncated to TF32;
// Dst f32 or bf16 and the packer's formats per #coopvec.math_fidelity, the
// results f32, the bias (the L1 start) f32 or bf16. The CPU runs the same ops through the Wormhole model.
//===----------------------------------------------------------------------===//

constexpr std::pair<I, I> kWhBF16In[] = {{I::F32, I::BF16},
                                         {I::F16, I::BF16}};
constexpr std::pair<I, I> kWhTF32In[] = {{I::F32, I::F32}, {I::F16, I::F32}};
// The engine's step first (the cycle report counts it), then tt-metal's
// 32x32 tile with K 32: the fidelity phases loop inside a 32-wide K tile,
// so --coopvec-tile takes the second for a product with fidelity.
constexpr Tile kWhTiles[] = {{16, 8, 16}, {32, 32, 32}};
// The bias is the L1 accumulator's start, in the packer format.
constexpr I kWhBiases[] = {I::F32, I::BF16};
// Block-float matrices (shared exponents as block scales) unpack to BF16;
// they have no tiled form (tile_pack takes no block scales), so no tiles:
// the cycle report counts them in engine steps.
constexpr I kWhBfp[] = {I::BFP8, I::BFP4};
// Block-float activations (in0 tiles of Bfp8_b/Bfp4_b: the stored bytes in
// i8 elements, exponents along K) unpack to BF16 too, with BF16 or
// block-float matrices; no tiled form either.
constexpr std::pair<I, I> kWhBfpIn[] = {{I::I8, I::BFP8}, {I::I8, I::BFP4}};
constexpr I kWhBF16OrBfp[] = {I::BF16, I::BFP8, I::BFP4};
constexpr MatVecGroup kWormholeMatVec[] = {
    {kWhBF16In, kBF16, kF32, true, kWhTiles, kWhBiases},
    {kWhTF32In, kF32, kF32, true, kWhTiles, kWhBiases},
    {kWhBF16In, kWhBfp, kF32, true, {}, kWhBiases},
    {kWhBfpIn, kWhBF16OrBfp, kF32, true, {}, kWhBiases},
};
// tile_mma: the tiled form (tile_pack, tile_mma, tile_pack_dst) that
// --coopvec-tile makes of fidelity products.
constexpr StringRef kWormholeFeatures[] = {
    "math_fidelity", "batch_matvec", "bf16", "tf32", "bfp", "tile_mma"};

constexpr ProfileTable kTables[] = {
    {"d3d12-tier1.0", "d3d12", "", SupportTier::Tier1_0, {}, kD3D12MatVec,
     {}, {}, true, true},
    {"d3d12-tier1.1", "d3d12", "", SupportTier::Tier1_1, {}, kD3D12MatVec,
     kD3D12OuterProduct, kD3D12VectorAccumulate, true, true},
    {"sm_80", "nvptx", "sm_80", SupportTier::Tier1_1, kSm80Features,
     kSm80MatVec, kNvOuterProduct, kNvVectorAccumulate, false, false},
    {"sm_89", "nvptx", "sm_89", SupportTier::Tier1_1, kSm89Features,
     kSm89MatVec, kNvOuterProduct, kNvVectorAccumulate, false, false},
    {"sm_90", "nvptx", "sm_90", SupportTier::Tier1_1, kSm89Features,
     kSm89MatVec, kNvOuterProduct, kNvVectorAccumulate, false, false},
    {"sm_100a", "nvptx", "sm_100a", SupportTier::Tier1_1, kSm100aFeatures,
     kSm100aMatVec, kNvOuterProduct, kNvVectorAccumulate, false, false},
    {"sm_120a", "nvptx", "sm_120a", SupportTier::Tier1_1, kSm120aFeatures,
     kSm120aMatVec, kNvOuterProduct, kNvVectorAccumulate, false, false},
    {"rv64-nuclei-xxlvqmacc", "riscv", "rv64gcv_xxlvqmacc",
     SupportTier::Tier1_1, kNucleiFeatures, kNucleiMatVec, {}, {}, false,
     false},
    {"rv64-sifive-xsfvqmacc", "riscv", "rv64gcv_xsfvqmaccqoq_xsfvqmaccdod",
     SupportTier::Tier1_1, kSiFiveFeatures, kSiFiveMatVec, {}, {}, false,
     false},
    {"vulkan1.3", "vulkan", "vulkan1.3", SupportTier::Tier1_1,
     kVulkanFeatures, kVulkanMatVec, kVulkanOuterProduct,
     kVulkanVectorAccumulate, false, false},
    {"wormhole-b0", "tenstorrent", "wormhole_b0", SupportTier::Tier1_1,
     kWormholeFeatures, kWormholeMatVec, {}, {}, false, false},
};

constexpr StringRef kProfileNames[] = {
    "d3d12-tier1.0", "d3d12-tier1.1", "cpu-host", "sm_80",
    "sm_89", "sm_90", "sm_100a", "sm_120a",
    "rv64-nuclei-xxlvqmacc", "rv64-sifive-xsfvqmacc", "vulkan1.3",
    "wormhole-b0"};

InterpretationAttr interp(MLIRContext *ctx, I kind) {
  return InterpretationAttr::get(ctx, kind);
}

ArrayAttr buildAccum(Builder &b, ArrayRef<AccumRow> rows) {
  SmallVector<Attribute> attrs;
  for (const AccumRow &row : rows)
    attrs.push_back(AccumSupportAttr::get(b.getContext(),
                                          interp(b.getContext(), row.input),
                                          interp(b.getContext(),
                                                 row.accumulation)));
  return b.getArrayAttr(attrs);
}

ArrayAttr buildFeatures(Builder &b, ArrayRef<StringRef> features) {
  return features.empty() ? ArrayAttr() : b.getStrArrayAttr(features);
}

ProfileAttr buildTable(MLIRContext *ctx, const ProfileTable &table) {
  Builder b(ctx);
  SmallVector<Attribute> matvec;
  for (const MatVecGroup &group : table.matvec) {
    ArrayAttr tiles;
    if (!group.tiles.empty())
      tiles = b.getArrayAttr(llvm::map_to_vector(
          group.tiles, [&](const Tile &t) -> Attribute {
            return b.getDenseI64ArrayAttr({t.m, t.n, t.k});
          }));
    for (auto [input, inputInterp] : group.inputs)
      for (I matrix : group.matrices)
        for (I result : group.results)
          for (I bias : group.biases.empty() ? ArrayRef<I>(result)
                                             : group.biases)
            matvec.push_back(MatVecSupportAttr::get(
                ctx, interp(ctx, input), interp(ctx, inputInterp),
                interp(ctx, matrix), interp(ctx, bias), interp(ctx, result),
                group.transpose, tiles));
  }
  auto str = [&](StringRef s) { return s.empty() ? StringAttr() : b.getStringAttr(s); };
  return ProfileAttr::get(
      ctx, b.getStringAttr(table.name), str(table.kind), str(table.arch),
      table.tier, buildFeatures(b, table.features), b.getArrayAttr(matvec),
      buildAccum(b, table.outerProduct), buildAccum(b, table.vectorAccumulate),
      table.fp8OptimalOnly, table.outerProductTrainingOptimalOnly);
}

/// What this CPU's target runs: every combination the ops' verifiers
/// accept (the vectorized kernels where they exist, the reference semantics
/// for the rest), batching, fusion, conversions and MX; with the host CPU
/// and the ISA features the kernels choose between.
ProfileAttr buildCpuHost(MLIRContext *ctx) {
  Builder b(ctx);
  SmallVector<StringRef> features = {
      "batch_matvec", "mlp",           "convert", "pack",
      "mx",           "block_scale",   "bf16",    "tf32",
      "fp8",          "fp6",           "fp4",     "e8m0",
      "tile_mma",     "math_fidelity", "bfp",     "quantized"};
  // The feature bits the runtime's kernel levels test (Kernels/*/Isa.cpp).
  static constexpr StringRef kIsaFeatures[] = {
      "avx2",     "fma",        "f16c",       "avx512f",
      "avx512bw", "avx512vnni", "avx512bf16", "amx-tile",
      "amx-bf16", "amx-int8",   "v"};
  llvm::StringMap<bool> host = llvm::sys::getHostCPUFeatures();
  SmallVector<std::string> isa;
  for (StringRef feature : kIsaFeatures)
    if (host.lookup(feature))
      isa.push_back(("+" + feature).str());
  for (const std::string &f : isa)
    features.push_back(f);
  auto any = MatVecSupportAttr::get(ctx, {}, {}, {}, {}, {},
                                    /*transpose=*/true, ArrayAttr());
  auto anyAccum = AccumSupportAttr::get(ctx, {}, {});
  std::string arch =
      (llvm::Triple(llvm::sys::getProcessTriple()).getArchName() + ":" +
       llvm::sys::getHostCPUName())
          .str();
  return ProfileAttr::get(
      ctx, b.getStringAttr("cpu-host"), b.getStringAttr("cpu"),
      b.getStringAttr(arch), SupportTier::Tier1_1,
      b.getStrArrayAttr(features), b.getArrayAttr({any}),
      b.getArrayAttr({anyAccum}), b.getArrayAttr({anyAccum}),
      /*fp8OptimalOnly=*/false, /*outerProductTrainingOptimalOnly=*/false);
}
} // namespace

ArrayRef<StringRef> mlir::coopvec::getBuiltinProfileNames() {
  return kProfileNames;
}

ProfileAttr mlir::coopvec::getBuiltinProfile(MLIRContext *ctx,
                                             StringRef name) {
  if (name == "cpu-host")
    return buildCpuHost(ctx);
  for (const ProfileTable &table : kTables)
    if (table.name == name)
      return buildTable(ctx, table);
  return {};
}

ProfileAttr mlir::coopvec::resolveProfile(Attribute attr) {
  if (auto profile = dyn_cast_or_null<ProfileAttr>(attr))
    return profile;
  if (auto name = dyn_cast_or_null<StringAttr>(attr))
    return getBuiltinProfile(name.getContext(), name.getValue());
  return {};
}
