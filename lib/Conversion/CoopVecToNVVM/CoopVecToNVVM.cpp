//===- CoopVecToNVVM.cpp - coopvec.matvec in GPU kernels to NVVM ----------===//
//
// A cooperative vector is one thread's vector; a GPU driver turns a warp of
// them that share a matrix into one matrix-matrix product on tensor cores
// (seed 000). This pass emits that step for coopvec.matvec inside gpu.func:
//
//   full = activemask() == ~0 && the warp has a stage
//   same = full && vote.all(matrix pointer/offset/stride == lane 0's)
//   if same: the 32 vectors are mma.sync's B operand (lane n = column n),
//            the matrix is A, and the accumulator tiles go back to the lanes
//            (both moves through the warp's 1 KiB shared-memory stage)
//   else:    a per-lane loop in the CPU reference's order
//
// then the bias and the DXIL conversion to the result type. Fragment layouts
// are PTX ISA 9.7.14.5.8 (m16n8k16 .f16) and 9.7.14.5.10 (m16n8k32 .s8/.u8):
// with g = lane / 4 and t = lane % 4, counting 32-bit words along K (two
// f16 or four 8-bit values each) within a 16x8x(8 words) tile,
//   A: a0 = (row g, word t), a1 = (g + 8, t), a2 = (g, t + 4), a3 = (g + 8, t + 4)
//   B: b0 = (word t, column g), b1 = (word t + 4, column g)
//   C: c0, c1 = (row g, columns 2t, 2t + 1), c2, c3 = (row g + 8, same)
// so both families share one word-level plan. coopvec.convert and
// coopvec.pack are NumericsToNVVM.cpp's.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Conversion/CoopVecToNVVM/CoopVecToNVVM.h"
#include "LinAlgCoop/Conversion/DxilInputs.h"
#include "LinAlgCoop/Conversion/OptimalLayout.h"
#include "LinAlgCoop/Conversion/QuantizedInKernel.h"
#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecDialect.h"
#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecOps.h"
#include "LinAlgCoop/Dialect/CoopVec/Transforms/BatchesInKernels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::coopvec {
#define GEN_PASS_DEF_CONVERTCOOPVECTONVVM
#include "LinAlgCoop/Conversion/Passes.h.inc"
} // namespace mlir::coopvec

using namespace mlir;
using namespace mlir::coopvec;

namespace {

/// Which mma.sync the matrix feeds: m16n8k16 f16 or bf16 (f32 accumulators),
/// m16n8k32 s8/u8 (s32 accumulators) or m16n8k32 with 8-bit containers and
/// f32 accumulators (F8: e4m3/e5m2 matrices from sm_89; e3m2/e2m3/e2m1
/// matrices through kind::f8f6f4 and UE8M0 block-scaled ones through
/// kind::mxf8f6f4.block_scale on sm_120a; MXFP4/NVFP4 x fp4 inputs through
/// m16n8k64 kind::mxf4/mxf4nvf4, see Plan::packedFp4). F32 products (an F32
/// matrix, or an F16 one read by F32 inputs) have no mma.sync with the
/// reference's numerics (tf32 would round the operands): they take the per-lane
/// path only.
enum class Family { F16, Int8, F8, F32 };

/// The PTX name of an 8-bit container type of kind::f8f6f4.
StringRef f8f6f4Name(InterpKind kind) {
  switch (kind) {
  case InterpKind::F8_E5M2:
    return "e5m2";
  case InterpKind::F6_E2M3:
    return "e2m3";
  case InterpKind::F6_E3M2:
    return "e3m2";
  case InterpKind::F4_E2M1:
    return "e2m1";
  default:
    return "e4m3";
  }
}

bool isFp6(InterpKind kind) {
  return kind == InterpKind::F6_E2M3 || kind == InterpKind::F6_E3M2;
}

/// What the lowering needs to know about one supported coopvec.matvec.
struct Plan {
  Family family;
  int64_t m, k;
  /// Row-major (not transposed): rows of whole 32-bit words along K can be
  /// loaded a word at a time.
  bool rowMajor;
  bool matrixUnsigned; ///< U8 matrix.
  bool matrixF16;      ///< F32 family: the matrix is F16 (else F32).
  /// F16 family: BF16 matrix and inputs (m16n8k16.bf16), else F16.
  bool bf16 = false;
  /// F8 family: the matrix's element type (the input's is inputKind: both
  /// are one of kind::f8f6f4's e4m3, e5m2, e2m3, e3m2, e2m1).
  InterpKind matrixKind;
  /// F8 family: block scales, one per row per `scaleBlock` elements along
  /// K: UE8M0 (MX; blocks of 32, or 16 over F4_E2M1) or UE4M3 (NVFP4, blocks
  /// of 16).
  bool blockScaled = false;
  bool scaleUE4M3 = false;
  int64_t scaleBlock = 0, scalesPerRow = 0;
  /// Whether the cooperative step may use tensor cores: fp6/fp4 and
  /// block-scaled matrices have mma.sync on sm_120a only and take the
  /// per-lane path elsewhere.
  bool tensorCores = true;
  /// F8 family, sm_120a: an F4_E2M1 matrix with 32-element UE8M0 blocks
  /// (MXFP4) or 16-element UE4M3 blocks (NVFP4) read by F4_E2M1 inputs
  /// multiplies through m16n8k64 (kind::mxf4 scale_vec::2X, kind::mxf4nvf4
  /// scale_vec::4X): both fragments hold eight packed nibbles per word
  /// (element e at bits 4e..4e+3), not 8-bit containers.
  bool packedFp4 = false;
  InterpKind inputKind;
  bool inputElementsUnsigned; ///< `unsigned` on an integer input vector.
  Type inputElement, resultElement;
  bool resultUnsigned;
  std::optional<InterpKind> biasKind;

  /// Values per 32-bit word along K.
  int64_t perWord() const {
    return family == Family::F16 ? 2 : packedFp4 ? 8 : 4;
  }
  bool floatSums() const { return family != Family::Int8; }
  /// K of one mma.sync: eight words.
  int64_t tileK() const { return 8 * perWord(); }
  int64_t kTiles() const { return (k + tileK() - 1) / tileK(); }
  int64_t mTiles() const { return (m + 15) / 16; }
  bool packedInput() const {
    return inputKind == InterpKind::PackedS8x32 ||
           inputKind == InterpKind::PackedU8x32;
  }
  bool inputSigned() const {
    return inputKind == InterpKind::PackedS8x32 || inputKind == InterpKind::I8;
  }
};

/// The whole `bytes`-sized elements of the byte buffer `buffer` as a 1-D
/// memref of `element` (memref.view at byte 0).
Value viewBytesAs(OpBuilder &b, Location loc, Value buffer, Type element,
                  unsigned bytes) {
  auto type = cast<MemRefType>(buffer.getType());
  Value size = memref::DimOp::create(b, loc, buffer, 0);
  Value count = arith::DivUIOp::create(
      b, loc, size, arith::ConstantIndexOp::create(b, loc, bytes));
  auto viewType =
      MemRefType::get({ShapedType::kDynamic}, element,
                      MemRefLayoutAttrInterface(), type.getMemorySpace());
  return memref::ViewOp::create(b, loc, viewType, buffer,
                                arith::ConstantIndexOp::create(b, loc, 0),
                                ValueRange{count});
}

/// Largest M and K the lowering takes.
constexpr int64_t kMaxDim = 4096;
// Both 8-bit integer paths sum in i32: every partial sum fits.
static_assert(kMaxDim * 255 * 255 <= INT32_MAX, "i32 sums may overflow");

/// The plan for `op`, or a located error saying what the lowering lacks.
FailureOr<Plan> planMatVec(MatVecOp op, StringRef chip) {
  auto unsupported = [&](const Twine &what) {
    return op.emitOpError("is not supported by convert-coopvec-to-nvvm: ")
           << what;
  };
  if (!op->getParentOfType<gpu::GPUFuncOp>())
    return unsupported("it is not inside a gpu.func (one vector per "
                       "thread of a kernel or device function)"),
           failure();
  if (op.getFidelity())
    return unsupported("math fidelity is a Tenstorrent model with no NVVM "
                       "lowering"),
           failure();
  MatrixDescAttr desc = op.getMatrixDesc();
  // Every layout: the optimal ones are coopvec's own (Layout.h), whose
  // addresses the kernel computes as the CPU runtime and the Vulkan shaders
  // do (OptimalLayout.h); the verifier gives the strided ones a stride.
  if (!isByteBuffer(op.getMatrix()) ||
      (op.getBias() && !isByteBuffer(op.getBias())))
    return unsupported("buffers must be 1-D i8 memrefs with the identity "
                       "layout"),
           failure();

  // Rows are unrolled (the per-lane path) and so are the B fragments along
  // K: beyond this the code would take minutes to compile.
  if (desc.getRows() > kMaxDim || desc.getCols() > kMaxDim)
    return unsupported("a " + Twine(desc.getRows()) + "x" +
                       Twine(desc.getCols()) + " matrix (M and K up to " +
                       Twine(kMaxDim) + " here)"),
           failure();

  Plan plan;
  plan.m = desc.getRows();
  plan.k = desc.getCols();
  plan.rowMajor = desc.getLayout() == MatrixLayout::RowMajor;
  plan.inputKind = op.getInputInterp().getKind();
  plan.inputElementsUnsigned = op.getInputUnsigned();
  plan.inputElement = cast<VectorType>(op.getInput().getType()).getElementType();
  plan.resultElement =
      cast<VectorType>(op.getResult().getType()).getElementType();
  plan.resultUnsigned = op.getOutputUnsigned();
  if (auto bias = op.getBiasInterp())
    plan.biasKind = bias->getKind();

  // The float families: inputs of f16 or f32 elements (the verifier allows
  // no bf16 elements) read as `inputs`, f16 or f32 results, an F16 or F32
  // bias.
  auto floatFamily = [&](StringRef matrix, bool inputReadable,
                         StringRef inputs) -> FailureOr<Plan> {
    if (!inputReadable || !isa<Float16Type, Float32Type>(plan.inputElement))
      return unsupported("an " + matrix + " matrix takes " + inputs +
                         " inputs of f16 or f32 elements here"),
             failure();
    if (!isa<Float16Type, Float32Type>(plan.resultElement))
      return unsupported("an " + matrix + " matrix gives f16 or f32 results "
                         "here"),
             failure();
    if (plan.biasKind && *plan.biasKind != InterpKind::F16 &&
        *plan.biasKind != InterpKind::F32)
      return unsupported("an " + matrix + " matrix takes an F16 or F32 bias "
                         "here"),
             failure();
    return plan;
  };

  InterpKind matrixKind = desc.getInterpretation().getKind();
  if (matrixKind == InterpKind::F32 ||
      (matrixKind == InterpKind::F16 && plan.inputKind == InterpKind::F32)) {
    plan.family = Family::F32;
    plan.matrixF16 = matrixKind == InterpKind::F16;
    return floatFamily(plan.matrixF16 ? "F16" : "F32",
                       plan.inputKind == InterpKind::F32 ||
                           plan.inputKind == InterpKind::F16,
                       "F16 or F32");
  }
  if (matrixKind == InterpKind::F16) {
    plan.family = Family::F16;
    return floatFamily("F16", plan.inputKind == InterpKind::F16, "F16");
  }
  if (matrixKind == InterpKind::BF16) {
    // The F16 family's fragments with bf16 elements: m16n8k16.f32.bf16.
    // bf16.f32 (sm_80 and later); the per-lane path multiplies exactly in
    // f32 (bf16 x bf16 fits) and adds in the reference's order.
    plan.family = Family::F16;
    plan.bf16 = true;
    return floatFamily("BF16", plan.inputKind == InterpKind::BF16, "BF16");
  }
  if (matrixKind == InterpKind::I8 || matrixKind == InterpKind::U8) {
    plan.family = Family::Int8;
    plan.matrixUnsigned = matrixKind == InterpKind::U8;
    bool packed = plan.packedInput();
    bool bytes =
        plan.inputKind == InterpKind::I8 || plan.inputKind == InterpKind::U8;
    if (!(packed && plan.inputElement.isInteger(32)) &&
        !(bytes && (plan.inputElement.isF32() ||
                    plan.inputElement.isInteger(32) ||
                    plan.inputElement.isInteger(16))))
      return unsupported("an I8/U8 matrix takes PackedS8x32/PackedU8x32 "
                         "inputs (i32 words) or I8/U8 inputs (f32, i32 or "
                         "i16 elements) here"),
             failure();
    if (!plan.resultElement.isInteger(32) && !plan.resultElement.isF32())
      return unsupported("an I8/U8 matrix gives i32 or f32 results here"),
             failure();
    if (plan.biasKind &&
        !llvm::is_contained({InterpKind::I32, InterpKind::U32,
                             InterpKind::I16, InterpKind::U16},
                            *plan.biasKind))
      return unsupported("an I8/U8 matrix takes an I32, U32, I16 or U16 "
                         "bias here"),
             failure();
    return plan;
  }
  bool fp8 =
      matrixKind == InterpKind::F8_E4M3 || matrixKind == InterpKind::F8_E5M2;
  bool fp6fp4 = isFp6(matrixKind) || matrixKind == InterpKind::F4_E2M1;
  if (desc.isBlockScaled() && !fp8 && !fp6fp4)
    return unsupported("block scales on a " +
                       desc.getInterpretation().getName() +
                       " matrix (lowered here: UE8M0 scales of F8_E4M3, "
                       "F8_E5M2, F6_E2M3, F6_E3M2 and F4_E2M1 matrices)"),
           failure();
  if (fp8 || fp6fp4) {
    plan.family = Family::F8;
    plan.matrixKind = matrixKind;
    if (chip == "sm_80")
      return unsupported("8-bit float products need sm_89 or later, not " +
                         chip),
             failure();
    // The per-lane path decodes fp6/fp4 with cvt.rn.f16x2.{e2m3,e3m2,e2m1}x2
    // (sm_100a, sm_120a); mma.sync kind::f8f6f4 is sm_120a's only (llc
    // cannot select it for sm_100a).
    bool blackwell = chip == "sm_100a" || chip == "sm_120a";
    if (fp6fp4 && !blackwell)
      return unsupported("an " + desc.getInterpretation().getName() +
                         " matrix needs sm_100a or sm_120a (cvt.rn.f16x2." +
                         f8f6f4Name(matrixKind) + "x2), not " + chip),
             failure();
    // fp6/fp4 inputs: cvt.rn.satfinite.{e2m3,e3m2,e2m1}x2.f32 (sm_100a,
    // sm_120a).
    bool inputFp6Fp4 =
        isFp6(plan.inputKind) || plan.inputKind == InterpKind::F4_E2M1;
    if (inputFp6Fp4 && !blackwell)
      return unsupported(op.getInputInterp().getName() +
                         " inputs need sm_100a or sm_120a (cvt.rn.satfinite." +
                         f8f6f4Name(plan.inputKind) + "x2.f32), not " + chip),
             failure();
    if (desc.isBlockScaled()) {
      // The verifier's schemes: UE8M0 x 32 over any of the five, UE8M0 x 16
      // and UE4M3 x 16 over F4_E2M1.
      if (!op.getScales() || !isByteBuffer(op.getScales()))
        return unsupported("the scales buffer must be a 1-D i8 memref with "
                           "the identity layout"),
               failure();
      plan.blockScaled = true;
      plan.scalesPerRow = desc.getScalesPerRow();
      plan.scaleBlock = desc.getBlockSize();
      plan.scaleUE4M3 = isa<Float8E4M3FNType>(desc.getScaleType());
    }
    // kind::mxf8f6f4 scale_vec::1X takes one UE8M0 scale per row per 32
    // elements along K, which is one k-tile of m16n8k32.
    bool mx32 =
        !plan.blockScaled || (!plan.scaleUE4M3 && plan.scaleBlock == 32);
    // fp4 x fp4 with MXFP4 or NVFP4 blocks: m16n8k64 (kind::mxf4
    // scale_vec::2X, kind::mxf4nvf4 scale_vec::4X). LLVM 22 has no
    // intrinsic for 16-element UE8M0 blocks (kind::mxf4nvf4 scale_vec::4X
    // with .ue8m0): those stay on the per-lane path.
    bool nvfp4 = plan.scaleUE4M3 && plan.scaleBlock == 16;
    plan.packedFp4 = chip == "sm_120a" && plan.blockScaled &&
                     matrixKind == InterpKind::F4_E2M1 &&
                     plan.inputKind == InterpKind::F4_E2M1 && (mx32 || nvfp4);
    plan.tensorCores = (fp8 && !inputFp6Fp4 && !plan.blockScaled) ||
                       (chip == "sm_120a" && mx32) || plan.packedFp4;
    return floatFamily(desc.getInterpretation().getName(),
                       plan.inputKind == InterpKind::F8_E4M3 ||
                           plan.inputKind == InterpKind::F8_E5M2 || inputFp6Fp4,
                       "F8_E4M3/F8_E5M2/F6_E2M3/F6_E3M2/F4_E2M1");
  }
  return unsupported("matrix interpretation " +
                     desc.getInterpretation().getName() +
                     " (lowered here: F16, BF16, F32, I8, U8, F8_E4M3, "
                     "F8_E5M2, F6_E2M3, F6_E3M2, F4_E2M1)"),
         failure();
}

/// Up to this many products per lane, the per-lane path is unrolled (its
/// vectors stay in registers); beyond, each row loops along K and reads the
/// input vector from local memory. Unrolled, 3072-3840 products took 9-15 s
/// of NVPTX codegen per kernel with a dynamic stride, and an I8 40x96
/// kernel needed 255 registers and spilled (ptxas -v, sm_90); the loops
/// compile in about a second without spills (docs/NVIDIA.md).
constexpr int64_t kUnrolledProducts = 1024;
/// Up to this many (row tile, k-tile) pairs the cooperative step is
/// unrolled; beyond, it loops over row tiles (the accumulators then go
/// through local memory).
constexpr int64_t kUnrolledTiles = 64;

/// 32-bit words of shared memory per warp through which the cooperative
/// step moves the lanes' vectors into B fragments (2 x 32 lanes x 4 words
/// per k-tile) and the accumulators back to the lanes (8 rows x 32 lanes).
constexpr int64_t kStageWordsPerWarp = 256;
/// The gpu.module's memref.global of the warp stages.
constexpr StringLiteral kStageName = "__coopvec_warp_stage";

/// The threads of `func`'s blocks by its known_block_size, if it has one.
std::optional<int64_t> knownThreads(gpu::GPUFuncOp func) {
  DenseI32ArrayAttr known = func.getKnownBlockSizeAttr();
  if (!known)
    return std::nullopt;
  int64_t threads = 1;
  for (int32_t d : known.asArrayRef())
    threads *= d;
  return threads;
}

/// The warps of `func`'s blocks: from known_block_size (1 to 32 warps: the
/// pass rejects other sizes), else `fallback`.
int64_t blockWarps(gpu::GPUFuncOp func, int64_t fallback) {
  std::optional<int64_t> threads = knownThreads(func);
  if (!threads)
    return fallback;
  return std::clamp<int64_t>((*threads + 31) / 32, 1, 32);
}

/// Whether `global` can serve as the stages: a static 1-D i32 memref in
/// workgroup memory of whole stages.
bool isStage(memref::GlobalOp global) {
  MemRefType type = global.getType();
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
  return type.getRank() == 1 && type.hasStaticShape() &&
         type.getElementType().isInteger(32) && space &&
         space.getValue() == gpu::AddressSpace::Workgroup &&
         type.getNumElements() >= kStageWordsPerWarp &&
         type.getNumElements() % kStageWordsPerWarp == 0;
}

/// The stages of `device`: the existing global, else a new one of `warps`
/// warps' stages; null if the name is taken by something else.
memref::GlobalOp getOrCreateStage(OpBuilder &b, gpu::GPUModuleOp device,
                                  int64_t warps) {
  if (Operation *existing = device.lookupSymbol(kStageName)) {
    auto global = dyn_cast<memref::GlobalOp>(existing);
    return global && isStage(global) ? global : memref::GlobalOp();
  }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(device.getBody());
  auto type = MemRefType::get(
      {warps * kStageWordsPerWarp}, b.getI32Type(), MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup));
  return memref::GlobalOp::create(
      b, device.getLoc(), kStageName, b.getStringAttr("private"), type,
      b.getUnitAttr(), /*constant=*/false, b.getI64IntegerAttr(16));
}

/// Emits one coopvec.matvec.
class MatVecEmitter {
public:
  MatVecEmitter(OpBuilder &b, MatVecOp op, const Plan &plan)
      : b(b), loc(op.getLoc()), op(op), plan(plan) {}

  /// `stageGlobal` (the gpu.module's memref.global of `stageWarps` warps'
  /// stages) is needed when `cooperative`.
  Value emit(bool cooperative, memref::GlobalOp stageGlobal = {}) {
    if (plan.blockScaled)
      scaleView = view(op.getScales(), i8(), 1);
    Value result;
    if (!cooperative || plan.family == Family::F32 || !plan.tensorCores) {
      result = perLane();
    } else {
      stage = memref::GetGlobalOp::create(b, loc, stageGlobal.getType(),
                                          stageGlobal.getSymName());
      int64_t warps =
          stageGlobal.getType().getNumElements() / kStageWordsPerWarp;
      Value warp = warpInBlock();
      stageBase =
          arith::MulIOp::create(b, loc, warp, index(kStageWordsPerWarp));
      // A block with more warps than stages (no known_block_size, more
      // than `stage-warps` warps): the warps beyond take the per-lane path.
      Value staged = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           warp, index(warps));
      Value same = warpSharesMatrix(staged);
      auto ifOp = scf::IfOp::create(b, loc, accVectorType(), same,
                                    /*withElseRegion=*/true);
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(ifOp.thenBlock());
        scf::YieldOp::create(b, loc, cooperativeStep());
        b.setInsertionPointToStart(ifOp.elseBlock());
        scf::YieldOp::create(b, loc, perLane());
      }
      result = ifOp.getResult(0);
    }
    return finish(result);
  }

private:
  OpBuilder &b;
  Location loc;
  MatVecOp op;
  const Plan &plan;
  /// The warp stages (memref<N x i32, workgroup>) and the index of this
  /// warp's first word.
  Value stage, stageBase;
  /// The scales buffer as bytes (made before both paths, so it dominates
  /// them).
  Value scaleView;
  /// The per-lane path's scale values by (row, block), where both are
  /// constants (the unrolled path reads each scale once).
  DenseMap<std::pair<int64_t, int64_t>, Value> scaleCache;

  Type i8() { return b.getI8Type(); }
  Type i16() { return b.getI16Type(); }
  Type i32() { return b.getI32Type(); }
  Type i64() { return b.getI64Type(); }
  Type f32() { return b.getF32Type(); }
  /// The F16 family's element: f16, or bf16 for BF16.
  FloatType halfType() {
    return plan.bf16 ? FloatType(b.getBF16Type()) : FloatType(b.getF16Type());
  }
  Type accType() { return plan.floatSums() ? f32() : i32(); }
  /// The accumulators of every row, padded to whole 16-row tiles.
  VectorType accVectorType() {
    return VectorType::get({plan.mTiles() * 16}, accType());
  }

  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value int32(int64_t v) {
    return arith::ConstantIntOp::create(b, loc, i32(), v);
  }
  Value int64(int64_t v) {
    return arith::ConstantIntOp::create(b, loc, i64(), v);
  }
  Value zeroAcc() {
    return plan.floatSums()
               ? Value(arith::ConstantFloatOp::create(
                     b, loc, b.getF32Type(), APFloat(0.0f)))
               : int32(0);
  }
  Value toI32(Value indexValue) {
    return arith::IndexCastOp::create(b, loc, i32(), indexValue);
  }
  Value toIndex(Value i32Value) {
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), i32Value);
  }

  /// `buffer` (memref<?xi8>) as a memref of `element`s from byte 0.
  Value view(Value buffer, Type element, unsigned bytes) {
    return viewBytesAs(b, loc, buffer, element, bytes);
  }

  /// Index (in `bytes`-sized elements) of element (row, col) of the
  /// logical M x K matrix, in any layout; with `nibbles` (F4_E2M1), of the
  /// byte of its stored column pair.
  Value elementIndex(Value row, Value col, unsigned bytes,
                     bool nibbles = false) {
    Value at =
        matrixElementByte(b, loc, op.getMatrixDesc(), op.getMatrixOffset(),
                          op.getMatrixStride(), row, col, bytes, nibbles);
    return bytes == 1 ? at : arith::DivUIOp::create(b, loc, at, index(bytes));
  }

  /// Matrix element (row, col) as f32 (F16, F8, F32) or its exact i32
  /// value.
  Value loadWeight(Value view16or8, Value row, Value col) {
    if (plan.family == Family::F32) {
      if (!plan.matrixF16)
        return memref::LoadOp::create(b, loc, view16or8,
                                      elementIndex(row, col, 4));
      Value h =
          memref::LoadOp::create(b, loc, view16or8, elementIndex(row, col, 2));
      return arith::ExtFOp::create(b, loc, f32(), h);
    }
    if (plan.family == Family::F8) {
      Value value = decodeCode(matrixCode(view16or8, row, col),
                               op.getMatrixDesc().getInterpretation());
      if (!plan.blockScaled)
        return value;
      // Exact: a power of two times at most four significant bits (an
      // infinity where f32 overflows, NaN for the scale 0xFF).
      std::optional<int64_t> constantCol = getConstantIntValue(col);
      Value block = constantCol ? index(*constantCol / plan.scaleBlock)
                                : Value(arith::DivUIOp::create(
                                      b, loc, col, index(plan.scaleBlock)));
      return arith::MulFOp::create(b, loc, value, scaleValue(row, block));
    }
    if (plan.family == Family::F16) {
      Value h = memref::LoadOp::create(b, loc, view16or8,
                                       elementIndex(row, col, 2));
      return arith::ExtFOp::create(b, loc, f32(), h);
    }
    Value byte = memref::LoadOp::create(b, loc, view16or8,
                                        elementIndex(row, col, 1));
    if (plan.matrixUnsigned)
      return arith::ExtUIOp::create(b, loc, i32(), byte);
    return arith::ExtSIOp::create(b, loc, i32(), byte);
  }

  /// The code of element (row, col) of an F8-family matrix (`bytes`, its
  /// i8 view) in the low bits of an i32: its byte (fp8), the byte's low six
  /// bits (fp6: the upper two are ignored), or its nibble (fp4: the byte
  /// matrix of column pairs, the even column in the low nibble).
  Value matrixCode(Value bytes, Value row, Value col) {
    bool nibbles = plan.matrixKind == InterpKind::F4_E2M1;
    Value byte = arith::ExtUIOp::create(
        b, loc, i32(),
        memref::LoadOp::create(b, loc, bytes,
                               elementIndex(row, col, 1, nibbles)));
    if (nibbles)
      return arith::AndIOp::create(
          b, loc, storedNibble(b, loc, op.getMatrixDesc(), byte, row, col),
          int32(15));
    return isFp6(plan.matrixKind)
               ? Value(arith::AndIOp::create(b, loc, byte, int32(0x3f)))
               : byte;
  }

  /// `code` (a `kind` code in the low bits of an i32) in kind::f8f6f4's
  /// 8-bit container: fp8 and fp6 as they are (fp6 in the low six bits),
  /// fp4 in bits 5..2.
  Value containerOf(Value code, InterpKind kind) {
    if (kind != InterpKind::F4_E2M1)
      return code;
    return arith::ShLIOp::create(b, loc, code, int32(2));
  }

  /// The exact f32 value of `code` (an `interp` code in the low bits of an
  /// i32): cvt.rn.f16x2 of the 8-, 6- or 4-bit pair (fp6/fp4 on
  /// sm_100a/sm_120a), then widened.
  Value decodeCode(Value code, InterpretationAttr interp) {
    InterpKind kind = interp.getKind();
    if (kind == InterpKind::F8_E4M3 || kind == InterpKind::F8_E5M2)
      return decodeF8(code, kind == InterpKind::F8_E5M2);
    auto halfType = VectorType::get({2}, b.getF16Type());
    TypeAttr element = TypeAttr::get(interp.getElementType());
    Value halves;
    if (kind == InterpKind::F4_E2M1) {
      halves = NVVM::ConvertF4x2ToF16x2Op::create(
          b, loc, halfType, arith::TruncIOp::create(b, loc, i8(), code),
          b.getBoolAttr(false), element);
    } else {
      Value byte = arith::TruncIOp::create(b, loc, i8(), code);
      halves = NVVM::ConvertF6x2ToF16x2Op::create(
          b, loc, halfType,
          vector::FromElementsOp::create(b, loc, VectorType::get({2}, i8()),
                                         ValueRange{byte, byte}),
          b.getBoolAttr(false), element);
    }
    Value half = vector::ExtractOp::create(b, loc, halves, 0);
    return arith::ExtFOp::create(b, loc, f32(), half);
  }

  /// The scale byte (UE8M0 or UE4M3) of matrix row `row` and K block
  /// `block` (index values) as an i32: byte row * scalesPerRow + block after
  /// the scale offset.
  Value scaleByte(Value row, Value block) {
    Value at = arith::AddIOp::create(
        b, loc, op.getScalesOffset(),
        arith::AddIOp::create(
            b, loc,
            arith::MulIOp::create(b, loc, row, index(plan.scalesPerRow)),
            block));
    return arith::ExtUIOp::create(
        b, loc, i32(), memref::LoadOp::create(b, loc, scaleView, at));
  }

  /// The f32 value of the scale of (row, block), as coopvec.mx_dequantize
  /// reads it: UE8M0 s is 2^(s - 127) (2^-127, s = 0, an f32 subnormal),
  /// NaN for 0xFF; UE4M3 s is the E4M3 value of its low seven bits
  /// (cvt.rn.f16x2.e4m3x2, exact), NaN for 0x7F.
  Value scaleValue(Value row, Value block) {
    std::optional<int64_t> r = getConstantIntValue(row);
    std::optional<int64_t> k = getConstantIntValue(block);
    Value *cached = r && k ? &scaleCache[{*r, *k}] : nullptr;
    if (cached && *cached)
      return *cached;
    Value s = scaleByte(row, block);
    Value value;
    if (plan.scaleUE4M3) {
      value = decodeF8(arith::AndIOp::create(b, loc, s, int32(0x7f)),
                       /*e5m2=*/false);
    } else {
      auto is = [&](int64_t v) {
        return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, s,
                                     int32(v));
      };
      Value bits =
          arith::SelectOp::create(b, loc, is(0), int32(0x00400000),
                                  arith::ShLIOp::create(b, loc, s, int32(23)));
      bits = arith::SelectOp::create(b, loc, is(255), int32(0x7fc00000), bits);
      value = arith::BitcastOp::create(b, loc, f32(), bits);
    }
    if (cached)
      *cached = value;
    return value;
  }

  /// f32 -> f16 by the DXIL rule: round to nearest even, a finite value
  /// beyond the range saturates to +-65504, infinities and NaN stay. Bit
  /// tests rather than math ops or LLVM intrinsics, which
  /// convert-gpu-to-nvvm turns into libdevice calls.
  Value dxilToF16(Value x) { return dxilToHalf(x, b.getF16Type()); }

  /// The same for f16 or bf16 (`half`): BF16's largest finite magnitude is
  /// 0x7F7F.
  Value dxilToHalf(Value x, FloatType half) {
    bool bf16 = half.isBF16();
    Value rounded = arith::TruncFOp::create(b, loc, half, x);
    Value bits16 = arith::ExtUIOp::create(
        b, loc, i32(), arith::BitcastOp::create(b, loc, i16(), rounded));
    Value bits32 = arith::BitcastOp::create(b, loc, i32(), x);
    Value roundedInf = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq,
        arith::AndIOp::create(b, loc, bits16, int32(0x7fff)),
        int32(bf16 ? 0x7f80 : 0x7c00));
    Value xFinite = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ult,
        arith::AndIOp::create(b, loc, bits32, int32(0x7fffffff)),
        int32(0x7f800000));
    Value overflowed = arith::AndIOp::create(b, loc, roundedInf, xFinite);
    // The sign of the rounded value, the largest finite magnitude (f16
    // 65504).
    Value saturatedBits = arith::OrIOp::create(
        b, loc, arith::AndIOp::create(b, loc, bits16, int32(0x8000)),
        int32(bf16 ? 0x7f7f : 0x7bff));
    Value saturated = arith::BitcastOp::create(
        b, loc, half, arith::TruncIOp::create(b, loc, i16(), saturatedBits));
    return arith::SelectOp::create(b, loc, overflowed, saturated, rounded);
  }

  /// The f32 value of the 8-bit float in the low byte of `byte` (i32):
  /// cvt.rn.f16x2.{e4m3,e5m2}x2 (exact), then widened.
  Value decodeF8(Value byte, bool e5m2) {
    Value pair = arith::TruncIOp::create(
        b, loc, i16(),
        arith::OrIOp::create(
            b, loc, byte, arith::ShLIOp::create(b, loc, byte, int32(8))));
    Value halves =
        LLVM::CallIntrinsicOp::create(
            b, loc, VectorType::get({2}, b.getF16Type()),
            b.getStringAttr(e5m2 ? "llvm.nvvm.e5m2x2.to.f16x2.rn"
                                 : "llvm.nvvm.e4m3x2.to.f16x2.rn"),
            ValueRange{pair})
            .getResult(0);
    Value half = vector::ExtractOp::create(b, loc, halves, 0);
    return arith::ExtFOp::create(b, loc, f32(), half);
  }

  /// Input element `i` read as the input's 8-, 6- or 4-bit float (DXIL:
  /// round to nearest even, finite values beyond the range saturate,
  /// infinities saturate where the type has none and stay for E5M2; NaN is
  /// E4M3's NaN, E5M2's with its sign, +MAX_NORM for fp6/fp4), as its code
  /// in the low bits of an i32. cvt.rn.satfinite.{e4m3,e5m2}x2.f32 of the
  /// value twice (so the byte order does not matter); it saturates
  /// infinities, so an E5M2 infinity is put back. fp6/fp4:
  /// cvt.rn.satfinite.{e2m3,e3m2,e2m1}x2.f32, which gives +MAX_NORM for NaN
  /// as the DXIL rule does (NumericsToNVVM's coopvec.convert relies on it
  /// too); fp4 is the low nibble of inputFp4Pair's byte.
  Value inputCode(int64_t i) {
    if (plan.inputKind == InterpKind::F4_E2M1)
      return arith::AndIOp::create(
          b, loc,
          arith::ExtUIOp::create(b, loc, i32(),
                                 inputFp4Pair(i, /*second=*/false)),
          int32(15));
    Value x = inputAsF32(i);
    bool inputE5M2 = plan.inputKind == InterpKind::F8_E5M2;
    TypeAttr element = TypeAttr::get(op.getInputInterp().getElementType());
    if (isFp6(plan.inputKind)) {
      Value pair = NVVM::ConvertF32x2ToF6x2Op::create(
          b, loc, i16(), x, x, b.getBoolAttr(false), element);
      return arith::AndIOp::create(
          b, loc, arith::ExtUIOp::create(b, loc, i32(), pair), int32(0x3f));
    }
    Value pair = LLVM::CallIntrinsicOp::create(
                     b, loc, i16(),
                     b.getStringAttr(inputE5M2 ? "llvm.nvvm.ff.to.e5m2x2.rn"
                                               : "llvm.nvvm.ff.to.e4m3x2.rn"),
                     ValueRange{x, x})
                     .getResult(0);
    Value byte = arith::AndIOp::create(
        b, loc, arith::ExtUIOp::create(b, loc, i32(), pair), int32(255));
    if (!inputE5M2)
      return byte;
    Value bits = arith::BitcastOp::create(b, loc, i32(), x);
    Value isInf = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq,
        arith::AndIOp::create(b, loc, bits, int32(0x7fffffff)),
        int32(0x7f800000));
    Value inf = arith::OrIOp::create(
        b, loc,
        arith::AndIOp::create(
            b, loc, arith::ShRUIOp::create(b, loc, bits, int32(24)),
            int32(0x80)),
        int32(0x7c));
    return arith::SelectOp::create(b, loc, isInf, inf, byte);
  }

  /// Input element `i` (an f32 or f16 element) as f32, exactly.
  Value inputAsF32(int64_t i) {
    Value x = vector::ExtractOp::create(b, loc, op.getInput(), i);
    return plan.inputElement.isF32()
               ? x
               : Value(arith::ExtFOp::create(b, loc, f32(), x));
  }

  /// Input elements `i` and `i + 1` (zero when `!second`) as an e2m1x2
  /// byte: element i in the low nibble, as a packed fp4 matrix stores them.
  Value inputFp4Pair(int64_t i, bool second) {
    Value low = inputAsF32(i);
    Value high = second ? inputAsF32(i + 1)
                        : Value(arith::ConstantFloatOp::create(
                              b, loc, b.getF32Type(),
                              APFloat::getZero(APFloat::IEEEsingle())));
    return NVVM::ConvertF32x2ToF4x2Op::create(
        b, loc, i8(), high, low, b.getBoolAttr(false),
        TypeAttr::get(op.getInputInterp().getElementType()));
  }

  /// Input element `i` (static) as the value the product reads: the F16
  /// family's element (f16, or bf16 for BF16), the exact i32 for the 8-bit
  /// integer family, the f32 of the input's 8-, 6- or 4-bit float for F8,
  /// an f32 for F32.
  Value inputValue(int64_t i) {
    Value input = op.getInput();
    if (plan.family == Family::F8)
      return decodeCode(inputCode(i), op.getInputInterp());
    if (plan.family == Family::F32) {
      // The f32 of the input read as F32 (f16 elements exactly) or as F16
      // (f32 elements rounded by the DXIL rule first).
      Value x = vector::ExtractOp::create(b, loc, input, i);
      if (plan.inputKind == InterpKind::F16 && plan.inputElement.isF32())
        x = dxilToF16(x);
      return x.getType().isF32()
                 ? x
                 : Value(arith::ExtFOp::create(b, loc, f32(), x));
    }
    if (plan.family == Family::F16) {
      Value x = vector::ExtractOp::create(b, loc, input, i);
      if (plan.inputElement == halfType())
        return x;
      // f16 read as BF16 through its exact f32.
      if (!x.getType().isF32())
        x = arith::ExtFOp::create(b, loc, f32(), x);
      return dxilToHalf(x, halfType());
    }
    if (plan.packedInput()) {
      Value word = vector::ExtractOp::create(b, loc, input, i / 4);
      Value shift = int32(32 - 8 * (i % 4 + 1));
      Value high = arith::ShLIOp::create(b, loc, word, shift);
      return plan.inputSigned()
                 ? Value(arith::ShRSIOp::create(b, loc, high, int32(24)))
                 : Value(arith::ShRUIOp::create(b, loc, high, int32(24)));
    }
    // I8/U8 of f32, i32 or i16 elements (DXIL: round to nearest even,
    // saturate, NaN -> 0). NVPTX never fuses arith.addf/subf without
    // `contract`.
    return dxilInputToByte(
        b, loc, vector::ExtractOp::create(b, loc, input, i),
        plan.inputSigned(), plan.inputElementsUnsigned,
        [&](Value x, Value y) {
          return Value(arith::AddFOp::create(b, loc, x, y));
        },
        [&](Value x, Value y) {
          return Value(arith::SubFOp::create(b, loc, x, y));
        });
  }

  //===--------------------------------------------------------------------===//
  // The per-lane path
  //===--------------------------------------------------------------------===//

  /// `values` (one per row) padded with zeros to whole row tiles.
  Value padRows(ArrayRef<Value> values) {
    SmallVector<Value> all(values);
    all.resize(plan.mTiles() * 16, zeroAcc());
    return vector::FromElementsOp::create(b, loc, accVectorType(), all);
  }

  /// sum += w * x: multiply, then add, two roundings and never an fma (the
  /// reference's order; NVPTX emits mul.rn/add.rn for ops without
  /// `contract`); integers exactly in i32.
  Value multiplyAdd(Value sum, Value w, Value x) {
    if (plan.floatSums())
      return arith::AddFOp::create(b, loc, sum,
                                   arith::MulFOp::create(b, loc, w, x));
    return arith::AddIOp::create(b, loc, sum,
                                 arith::MulIOp::create(b, loc, w, x));
  }

  Value perLane() {
    // Inputs as the values multiplied: f32 or i32.
    SmallVector<Value> xs;
    for (int64_t i = 0; i < plan.k; ++i) {
      Value x = inputValue(i);
      xs.push_back(plan.family == Family::F16
                       ? Value(arith::ExtFOp::create(b, loc, f32(), x))
                       : x);
    }
    Value weights =
        plan.family == Family::F16 ? view(op.getMatrix(), halfType(), 2)
        : plan.family == Family::F32 && plan.matrixF16
            ? view(op.getMatrix(), b.getF16Type(), 2)
        : plan.family == Family::F32 ? view(op.getMatrix(), f32(), 4)
                                     : view(op.getMatrix(), i8(), 1);
    if (plan.m * plan.k <= kUnrolledProducts) {
      // Unrolled: every value stays in a register.
      SmallVector<Value> sums;
      for (int64_t row = 0; row < plan.m; ++row) {
        Value sum = zeroAcc();
        for (int64_t col = 0; col < plan.k; ++col)
          sum = multiplyAdd(sum, loadWeight(weights, index(row), index(col)),
                            xs[col]);
        sums.push_back(sum);
      }
      return padRows(sums);
    }
    // Rows unrolled, each a loop along K that reads the input from local
    // memory; the sums stay in registers.
    // One private array for the whole function (a vector indexed
    // dynamically would get a stack copy per access).
    auto arrayType = MemRefType::get({plan.k}, accType());
    Value xArray;
    {
      OpBuilder::InsertionGuard guard(b);
      auto func = op->getParentOfType<gpu::GPUFuncOp>();
      b.setInsertionPointToStart(&func.getBody().front());
      xArray = memref::AllocaOp::create(b, loc, arrayType);
    }
    for (int64_t i = 0; i < plan.k; ++i)
      memref::StoreOp::create(b, loc, xs[i], xArray, ValueRange{index(i)});
    SmallVector<Value> sums;
    for (int64_t row = 0; row < plan.m; ++row) {
      auto cols = scf::ForOp::create(b, loc, index(0), index(plan.k),
                                     index(1), ValueRange{zeroAcc()});
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(cols.getBody());
      Value col = cols.getInductionVar();
      Value x = memref::LoadOp::create(b, loc, xArray, ValueRange{col});
      scf::YieldOp::create(b, loc,
                           multiplyAdd(cols.getRegionIterArgs()[0],
                                       loadWeight(weights, index(row), col),
                                       x));
      sums.push_back(cols.getResult(0));
    }
    return padRows(sums);
  }

  //===--------------------------------------------------------------------===//
  // The cooperative step
  //===--------------------------------------------------------------------===//

  Value shuffle(Value value, Value srcLane) {
    return gpu::ShuffleOp::create(b, loc, value, srcLane, int32(32),
                                  gpu::ShuffleMode::IDX)
        .getShuffleResult();
  }

  /// bar.warp.sync of the whole warp: orders the stage's stores and loads.
  void syncWarp() { NVVM::SyncWarpOp::create(b, loc, int32(-1)); }

  /// This warp's index in its block: the linear thread index / 32 (warps
  /// are consecutive linear thread indices).
  Value warpInBlock() {
    auto dim = [&](gpu::Dimension d) {
      return gpu::BlockDimOp::create(b, loc, d).getResult();
    };
    auto id = [&](gpu::Dimension d) {
      return gpu::ThreadIdOp::create(b, loc, d).getResult();
    };
    Value yz = arith::AddIOp::create(
        b, loc, id(gpu::Dimension::y),
        arith::MulIOp::create(b, loc, dim(gpu::Dimension::y),
                              id(gpu::Dimension::z)));
    Value linear = arith::AddIOp::create(
        b, loc, id(gpu::Dimension::x),
        arith::MulIOp::create(b, loc, dim(gpu::Dimension::x), yz));
    return arith::DivUIOp::create(b, loc, linear, index(32));
  }

  /// Whether the whole warp is here, has a stage and names one matrix. The
  /// shuffles and the vote need every lane, so they run only when
  /// activemask is full (`staged` is the same in every lane of a warp).
  Value warpSharesMatrix(Value staged) {
    Value mask = LLVM::CallIntrinsicOp::create(
                     b, loc, i32(), b.getStringAttr("llvm.nvvm.activemask"),
                     ValueRange{})
                     .getResult(0);
    Value full = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, mask,
                              int32(-1)),
        staged);
    auto ifFull = scf::IfOp::create(b, loc, b.getI1Type(), full,
                                    /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifFull.thenBlock());
    Value pointer = memref::ExtractAlignedPointerAsIndexOp::create(
        b, loc, op.getMatrix());
    Value same = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
    for (Value v : SmallVector<Value>{pointer, op.getMatrixOffset(),
                                      op.getMatrixStride()}) {
      // No stride (optimal layouts), or one the same in every lane.
      if (!v || matchPattern(v, m_Constant()))
        continue;
      Value wide = arith::IndexCastUIOp::create(b, loc, i64(), v);
      Value lo = arith::TruncIOp::create(b, loc, i32(), wide);
      Value hi = arith::TruncIOp::create(
          b, loc, i32(), arith::ShRUIOp::create(b, loc, wide, int64(32)));
      for (Value half : {lo, hi}) {
        Value first = shuffle(half, int32(0));
        same = arith::AndIOp::create(
            b, loc, same,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, half,
                                  first));
      }
    }
    Value all = NVVM::VoteSyncOp::create(b, loc, b.getI1Type(), int32(-1), same,
                                         NVVM::VoteSyncKind::all);
    scf::YieldOp::create(b, loc, all);
    b.setInsertionPointToStart(ifFull.elseBlock());
    scf::YieldOp::create(
        b, loc,
        ValueRange{arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0)});
    return ifFull.getResult(0);
  }

  /// This lane's input as 32-bit words along K (8 per k-tile, zero past K).
  SmallVector<Value> inputWords() {
    int64_t count = plan.kTiles() * 8;
    SmallVector<Value> words;
    for (int64_t w = 0; w < count; ++w) {
      if (w * plan.perWord() >= plan.k) {
        words.push_back(int32(0));
        continue;
      }
      if (plan.packedInput()) {
        words.push_back(vector::ExtractOp::create(b, loc, op.getInput(), w));
        continue;
      }
      if (plan.family == Family::F16) {
        SmallVector<Value> halves;
        for (int64_t e = 0; e < 2; ++e) {
          int64_t i = w * 2 + e;
          halves.push_back(
              i < plan.k
                  ? inputValue(i)
                  : Value(arith::ConstantFloatOp::create(
                        b, loc, halfType(),
                        APFloat::getZero(halfType().getFloatSemantics()))));
        }
        Value pair = vector::FromElementsOp::create(
            b, loc, VectorType::get({2}, halfType()), halves);
        words.push_back(LLVM::BitcastOp::create(b, loc, i32(), pair));
        continue;
      }
      Value word = int32(0);
      if (plan.packedFp4) {
        // Eight nibbles: one cvt.rn.satfinite.e2m1x2.f32 per byte (its
        // second operand, the even element, goes to the low nibble).
        for (int64_t e = 0; e < 4; ++e) {
          int64_t i = w * 8 + 2 * e;
          if (i >= plan.k)
            break;
          Value byte = arith::ExtUIOp::create(b, loc, i32(),
                                              inputFp4Pair(i, i + 1 < plan.k));
          word = arith::OrIOp::create(
              b, loc, word, arith::ShLIOp::create(b, loc, byte, int32(8 * e)));
        }
        words.push_back(word);
        continue;
      }
      for (int64_t e = 0; e < 4; ++e) {
        int64_t i = w * 4 + e;
        if (i >= plan.k)
          break;
        Value byte = plan.family == Family::F8
                         ? containerOf(inputCode(i), plan.inputKind)
                         : Value(arith::AndIOp::create(b, loc, inputValue(i),
                                                       int32(255)));
        word = arith::OrIOp::create(
            b, loc, word, arith::ShLIOp::create(b, loc, byte, int32(8 * e)));
      }
      words.push_back(word);
    }
    return words;
  }

  /// Word `word` (i32, dynamic) along K of matrix row `row` (index), zero
  /// outside the M x K matrix.
  Value loadMatrixWord(Value weights, Value words, Value row, Value word) {
    Value rowInside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                            row, index(plan.m));
    Value rowClamped = arith::MinUIOp::create(b, loc, row, index(plan.m - 1));
    Value wordIndex = toIndex(word);
    if (words) {
      // Row-major with whole words: one aligned 32-bit load.
      int64_t wordsPerRow = plan.k / plan.perWord();
      Value inside = arith::AndIOp::create(
          b, loc, rowInside,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, wordIndex,
                                index(wordsPerRow)));
      Value wordClamped =
          arith::MinUIOp::create(b, loc, wordIndex, index(wordsPerRow - 1));
      Value start = arith::AddIOp::create(
          b, loc, op.getMatrixOffset(),
          arith::MulIOp::create(b, loc, rowClamped, op.getMatrixStride()));
      Value at = arith::AddIOp::create(
          b, loc, arith::DivUIOp::create(b, loc, start, index(4)),
          wordClamped);
      Value value = memref::LoadOp::create(b, loc, words, at);
      if (plan.family == Family::F8 && isFp6(plan.matrixKind))
        value = arith::AndIOp::create(b, loc, value, int32(0x3f3f3f3f));
      return arith::SelectOp::create(b, loc, inside, value, int32(0));
    }
    // Element by element.
    Value result = int32(0);
    int64_t bits = 32 / plan.perWord();
    for (int64_t e = 0; e < plan.perWord(); ++e) {
      Value col = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, wordIndex, index(plan.perWord())),
          index(e));
      Value inside = arith::AndIOp::create(
          b, loc, rowInside,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, col,
                                index(plan.k)));
      Value colClamped = arith::MinUIOp::create(b, loc, col, index(plan.k - 1));
      Value extended;
      if (plan.family == Family::F8) {
        Value code = matrixCode(weights, rowClamped, colClamped);
        extended = plan.packedFp4 ? code : containerOf(code, plan.matrixKind);
      } else {
        Value raw = memref::LoadOp::create(
            b, loc, weights,
            elementIndex(rowClamped, colClamped, plan.perWord() == 2 ? 2 : 1));
        Value rawBits =
            plan.family == Family::F16
                ? Value(arith::BitcastOp::create(b, loc, i16(), raw))
                : raw;
        extended = arith::ExtUIOp::create(b, loc, i32(), rawBits);
      }
      Value masked = arith::SelectOp::create(b, loc, inside, extended, int32(0));
      result = arith::OrIOp::create(
          b, loc, result,
          arith::ShLIOp::create(b, loc, masked, int32(bits * e)));
    }
    return result;
  }

  /// The scale byte of 1.0: UE8M0 127, UE4M3 0x38.
  int64_t unitScale() const { return plan.scaleUE4M3 ? 0x38 : 0x7f; }

  /// One mma.sync: A (4 words), B (2 words), C (4 accumulators); for a
  /// block-scaled matrix, this lane's A scale word (an i32, see tileRows).
  SmallVector<Value> mma(ArrayRef<Value> a, ArrayRef<Value> bWords,
                         ArrayRef<Value> c, Value scaleA = {}) {
    auto resultType = LLVM::LLVMStructType::getLiteral(
        b.getContext(), SmallVector<Type>(4, accType()));
    Value d;
    if (plan.family == Family::F16 && plan.bf16) {
      // MLIR's nvvm.mma.sync takes bf16 fragments as i32 words.
      d = NVVM::MmaOp::create(b, loc, resultType, a, bWords, c, {16, 8, 16},
                              std::nullopt, std::nullopt,
                              std::array<NVVM::MMATypes, 2>{
                                  NVVM::MMATypes::bf16, NVVM::MMATypes::bf16},
                              std::array<NVVM::MMALayout, 2>{
                                  NVVM::MMALayout::row, NVVM::MMALayout::col});
    } else if (plan.family == Family::F16) {
      auto pairType = VectorType::get({2}, b.getF16Type());
      auto asPairs = [&](ArrayRef<Value> words) {
        SmallVector<Value> pairs;
        for (Value w : words)
          pairs.push_back(LLVM::BitcastOp::create(b, loc, pairType, w));
        return pairs;
      };
      d = NVVM::MmaOp::create(
          b, loc, resultType, asPairs(a), asPairs(bWords), c, {16, 8, 16},
          std::nullopt, std::nullopt,
          std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::f16,
                                        NVVM::MMATypes::f16},
          std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                         NVVM::MMALayout::col});
    } else if (plan.family == Family::F8) {
      // MLIR 22's nvvm.mma.sync has no 8-bit float forms: the intrinsics.
      // e4m3/e5m2 x e4m3/e5m2 is sm_89's form; fp6/fp4 matrices are
      // kind::f8f6f4 (sm_120a); block-scaled ones kind::mxf8f6f4 with
      // scale_vec::1X (sm_120a): this lane's A scale (byte 0, thread
      // selector 0: lane 4g gives row g's scale, lane 4g + 1 row g + 8's)
      // and B's scales 1.0 (0x7F in every lane: the inputs are not scaled).
      StringRef matrix = f8f6f4Name(plan.matrixKind);
      StringRef input = f8f6f4Name(plan.inputKind);
      SmallVector<Value> operands(a);
      llvm::append_range(operands, bWords);
      llvm::append_range(operands, c);
      std::string name;
      if (plan.packedFp4) {
        // m16n8k64 over packed fp4 (sm_120a): scale_vec::2X takes bytes 0
        // and 1 of the scale word, scale_vec::4X all four (byte selector 0,
        // thread selector 0, as for scale_vec::1X). B's scales are 1.0 in
        // every byte.
        name = plan.scaleUE4M3 ? "llvm.nvvm.mma.block.scale.m16n8k64.row.col."
                                 "mxf4nvf4.scale.4x.f32.e2m1.e2m1.f32.ue4m3"
                               : "llvm.nvvm.mma.block.scale.m16n8k64.row.col."
                                 "mxf4.scale.2x.f32.e2m1.e2m1.f32.ue8m0";
        Value zero16 = arith::ConstantIntOp::create(b, loc, i16(), 0);
        llvm::append_range(operands, ValueRange{scaleA, zero16, zero16,
                                                int32(unitScale() * 0x01010101),
                                                zero16, zero16});
      } else if (plan.blockScaled) {
        name = ("llvm.nvvm.mma.block.scale.m16n8k32.row.col.mxf8f6f4.scale.1x."
                "f32." +
                matrix + "." + input + ".f32.ue8m0")
                   .str();
        Value zero16 = arith::ConstantIntOp::create(b, loc, i16(), 0);
        llvm::append_range(operands, ValueRange{scaleA, zero16, zero16,
                                                int32(0x7f), zero16, zero16});
      } else if (isFp6(plan.matrixKind) ||
                 plan.matrixKind == InterpKind::F4_E2M1 ||
                 isFp6(plan.inputKind) ||
                 plan.inputKind == InterpKind::F4_E2M1) {
        name = ("llvm.nvvm.mma.m16n8k32.row.col.kind.f8f6f4.f32." + matrix +
                "." + input + ".f32")
                   .str();
      } else {
        name = ("llvm.nvvm.mma.m16n8k32.row.col.f32." + matrix + "." + input +
                ".f32")
                   .str();
      }
      d = LLVM::CallIntrinsicOp::create(b, loc, resultType,
                                        b.getStringAttr(name), operands)
              .getResult(0);
    } else {
      auto type = [](bool isUnsigned) {
        return isUnsigned ? NVVM::MMATypes::u8 : NVVM::MMATypes::s8;
      };
      d = NVVM::MmaOp::create(
          b, loc, resultType, a, bWords, c, {16, 8, 32}, std::nullopt,
          NVVM::MMAIntOverflow::wrapped,
          std::array<NVVM::MMATypes, 2>{type(plan.matrixUnsigned),
                                        type(!plan.inputSigned())},
          std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                         NVVM::MMALayout::col});
    }
    SmallVector<Value> parts;
    for (int64_t i = 0; i < 4; ++i)
      parts.push_back(LLVM::ExtractValueOp::create(b, loc, d, i));
    return parts;
  }

  Value cooperativeStep() {
    Value lane = toI32(gpu::LaneIdOp::create(b, loc, /*upperBound=*/nullptr));
    Value g = arith::ShRUIOp::create(b, loc, lane, int32(2));
    Value t = arith::AndIOp::create(b, loc, lane, int32(3));

    // B fragments through the warp's stage: lane L needs word (8 kt + t +
    // 4 r) of lane 8 nt + g. Per k-tile, each lane stores its eight words
    // (word 4 r + w at r * 128 + w * 32 + (lane ^ 8 w)), the warp syncs, and
    // each lane loads its eight registers (word t + 4 r of lane S at r * 128
    // + t * 32 + (S ^ 8 t)). The XOR spreads both the stores and the loads
    // over the 32 banks.
    SmallVector<Value> words = inputWords();
    int64_t kTiles = plan.kTiles();
    Value laneIndex = toIndex(lane);
    Value gIndex = toIndex(g);
    Value tIndex = toIndex(t);
    auto stageAt = [&](int64_t constant, Value varying) {
      return arith::AddIOp::create(
          b, loc, stageBase,
          arith::AddIOp::create(b, loc, index(constant), varying));
    };
    SmallVector<Value> storeAt; // [r * 4 + w]
    for (int64_t r = 0; r < 2; ++r)
      for (int64_t w = 0; w < 4; ++w)
        storeAt.push_back(
            stageAt(r * 128 + w * 32,
                    arith::XOrIOp::create(b, loc, laneIndex, index(8 * w))));
    SmallVector<Value> loadAt; // [nt * 2 + r]
    Value tRows = arith::MulIOp::create(b, loc, tIndex, index(32));
    Value tSwizzle = arith::MulIOp::create(b, loc, tIndex, index(8));
    for (int64_t nt = 0; nt < 4; ++nt) {
      Value src = arith::AddIOp::create(b, loc, gIndex, index(8 * nt));
      Value at = arith::AddIOp::create(
          b, loc, tRows, arith::XOrIOp::create(b, loc, src, tSwizzle));
      for (int64_t r = 0; r < 2; ++r)
        loadAt.push_back(stageAt(r * 128, at));
    }
    // bFrag[(nt * kTiles + kt) * 2 + r]
    SmallVector<Value> bFrag(4 * kTiles * 2);
    for (int64_t kt = 0; kt < kTiles; ++kt) {
      for (int64_t i = 0; i < 8; ++i)
        memref::StoreOp::create(b, loc, words[kt * 8 + i], stage,
                                ValueRange{storeAt[i]});
      syncWarp();
      for (int64_t nt = 0; nt < 4; ++nt)
        for (int64_t r = 0; r < 2; ++r)
          bFrag[(nt * kTiles + kt) * 2 + r] = memref::LoadOp::create(
              b, loc, stage, ValueRange{loadAt[nt * 2 + r]});
      syncWarp(); // before the stage is written again
    }

    // Row-major rows of whole words: the matrix's own bytes are the A
    // registers, except fp4 in 8-bit containers (packed fp4 is as stored).
    bool wholeWords =
        plan.rowMajor && plan.k % plan.perWord() == 0 &&
        !(plan.family == Family::F8 && plan.matrixKind == InterpKind::F4_E2M1 &&
          !plan.packedFp4);
    Value wordView = wholeWords ? view(op.getMatrix(), i32(), 4) : Value();
    Value elementView =
        wholeWords ? Value()
                   : view(op.getMatrix(),
                          plan.family == Family::F16 ? Type(halfType()) : i8(),
                          plan.family == Family::F16 ? 2 : 1);

    LaneStage lanes = laneStage(t, laneIndex, gIndex, tIndex);
    auto rowTile = [&](Value mt) {
      return tileRows(mt, lanes, bFrag, elementView, wordView);
    };
    if (plan.mTiles() * plan.kTiles() <= kUnrolledTiles) {
      SmallVector<Value> rows;
      for (int64_t mt = 0; mt < plan.mTiles(); ++mt)
        llvm::append_range(rows, rowTile(index(mt)));
      return vector::FromElementsOp::create(b, loc, accVectorType(), rows);
    }
    Value init = arith::ConstantOp::create(b, loc, accVectorType(),
                                           b.getZeroAttr(accVectorType()));
    auto tiles = scf::ForOp::create(b, loc, index(0), index(plan.mTiles()),
                                    index(1), ValueRange{init});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(tiles.getBody());
    Value mt = tiles.getInductionVar();
    Value result = tiles.getRegionIterArgs()[0];
    for (auto [i, value] : llvm::enumerate(rowTile(mt))) {
      Value at = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, mt, index(16)), index(i));
      result = vector::InsertOp::create(b, loc, value, result, at);
    }
    scf::YieldOp::create(b, loc, result);
    return tiles.getResult(0);
  }

  /// This lane's place in the mma fragments (g = lane / 4, t = lane % 4)
  /// and its stage addresses for handing the accumulators back to the lanes,
  /// the same for every row tile.
  struct LaneStage {
    Value t, gIndex;
    /// Where this lane stores accumulator pair p of n-tile nt: [nt * 2 + p].
    SmallVector<Value> storeAt;
    /// Where this lane loads its column of row rr of a half tile: [rr].
    SmallVector<Value> loadAt;
  };

  /// Lane n wants D[row][n] for each row: per half of the tile (rows g and
  /// g + 8), each lane stores its accumulators (column c of row g at g * 32
  /// + (c ^ h(g)), h(g) = (g & 1) | (g & 6) << 2, which spreads one store
  /// instruction over the 32 banks), the warp syncs, and each lane loads its
  /// column of the eight rows.
  LaneStage laneStage(Value t, Value laneIndex, Value gIndex, Value tIndex) {
    LaneStage lanes{t, gIndex, {}, {}};
    auto swizzle = [&](int64_t row) { return (row & 1) | (row & 6) << 2; };
    Value hg = arith::OrIOp::create(
        b, loc, arith::AndIOp::create(b, loc, gIndex, index(1)),
        arith::ShLIOp::create(
            b, loc, arith::AndIOp::create(b, loc, gIndex, index(6)), index(2)));
    Value rowStart = arith::AddIOp::create(
        b, loc, stageBase, arith::MulIOp::create(b, loc, gIndex, index(32)));
    Value pairColumn = arith::MulIOp::create(b, loc, tIndex, index(2));
    for (int64_t nt = 0; nt < 4; ++nt)
      for (int64_t p = 0; p < 2; ++p) {
        Value column =
            arith::AddIOp::create(b, loc, pairColumn, index(8 * nt + p));
        lanes.storeAt.push_back(arith::AddIOp::create(
            b, loc, rowStart, arith::XOrIOp::create(b, loc, column, hg)));
      }
    for (int64_t rr = 0; rr < 8; ++rr)
      lanes.loadAt.push_back(arith::AddIOp::create(
          b, loc, stageBase,
          arith::AddIOp::create(
              b, loc, index(rr * 32),
              arith::XOrIOp::create(b, loc, laneIndex, index(swizzle(rr))))));
    return lanes;
  }

  /// The 16 accumulators of row tile `mt` this lane owns (its own column of
  /// the warp's product): four n-tiles of mma.sync over every k-tile, then
  /// handed back to the lanes through the stage.
  SmallVector<Value> tileRows(Value mt, const LaneStage &lanes,
                              ArrayRef<Value> bFrag, Value elementView,
                              Value wordView) {
    int64_t kTiles = plan.kTiles();
    Value t = lanes.t;
    Value row0 = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, mt, index(16)), lanes.gIndex);
    Value row1 = arith::AddIOp::create(b, loc, row0, index(8));
    // A fragments of this row tile, each k-tile's four words.
    SmallVector<SmallVector<Value>> aFrag;
    for (int64_t kt = 0; kt < kTiles; ++kt) {
      Value w0 = arith::AddIOp::create(b, loc, t, int32(kt * 8));
      Value w1 = arith::AddIOp::create(b, loc, w0, int32(4));
      aFrag.push_back(
          {loadMatrixWord(elementView, wordView, row0, w0),
           loadMatrixWord(elementView, wordView, row1, w0),
           loadMatrixWord(elementView, wordView, row0, w1),
           loadMatrixWord(elementView, wordView, row1, w1)});
    }
    // A scales of this row tile, one word per k-tile: lane 4g + h gives row
    // 16 mt + g + 8 h's (h = lane & 1; lanes 4g + 2 and 4g + 3 repeat it),
    // clamped to the matrix's rows. m16n8k32's k-tile is one 32-element
    // block (byte 0); m16n8k64's is two 32-element blocks (scale_vec::2X,
    // bytes 0 and 1) or four 16-element ones (scale_vec::4X, bytes 0..3),
    // the lower K first. A block past the row's last (K below the tile) gets
    // 1.0: its elements are zero in A and B, and a NaN scale would poison
    // the sums.
    SmallVector<Value> aScale(kTiles);
    if (plan.blockScaled) {
      Value scaleRow = arith::MinUIOp::create(
          b, loc,
          arith::AddIOp::create(
              b, loc, row0,
              arith::MulIOp::create(
                  b, loc, toIndex(arith::AndIOp::create(b, loc, t, int32(1))),
                  index(8))),
          index(plan.m - 1));
      int64_t perTile = plan.tileK() / plan.scaleBlock;
      for (int64_t kt = 0; kt < kTiles; ++kt) {
        Value word = int32(0);
        for (int64_t j = 0; j < perTile; ++j) {
          int64_t block = kt * perTile + j;
          Value byte = block < plan.scalesPerRow
                           ? scaleByte(scaleRow, index(block))
                           : int32(unitScale());
          word = arith::OrIOp::create(
              b, loc, word, arith::ShLIOp::create(b, loc, byte, int32(8 * j)));
        }
        aScale[kt] = word;
      }
    }
    // D tiles: d[nt][i].
    SmallVector<SmallVector<Value>> d;
    for (int64_t nt = 0; nt < 4; ++nt) {
      SmallVector<Value> acc(4, zeroAcc());
      for (int64_t kt = 0; kt < kTiles; ++kt) {
        Value b0 = bFrag[(nt * kTiles + kt) * 2];
        Value b1 = bFrag[(nt * kTiles + kt) * 2 + 1];
        acc = mma(aFrag[kt], {b0, b1}, acc, aScale[kt]);
      }
      d.push_back(acc);
    }
    // Back to the lanes through the stage (see laneStage).
    auto toBits = [&](Value v) {
      return plan.floatSums()
                 ? Value(arith::BitcastOp::create(b, loc, i32(), v))
                 : v;
    };
    auto fromBits = [&](Value v) {
      return plan.floatSums()
                 ? Value(arith::BitcastOp::create(b, loc, f32(), v))
                 : v;
    };
    SmallVector<Value> rows;
    for (int64_t hi = 0; hi < 2; ++hi) {
      for (int64_t nt = 0; nt < 4; ++nt)
        for (int64_t p = 0; p < 2; ++p)
          memref::StoreOp::create(b, loc, toBits(d[nt][hi * 2 + p]), stage,
                                  ValueRange{lanes.storeAt[nt * 2 + p]});
      syncWarp();
      for (int64_t rr = 0; rr < 8; ++rr)
        rows.push_back(fromBits(memref::LoadOp::create(
            b, loc, stage, ValueRange{lanes.loadAt[rr]})));
      syncWarp(); // before the stage is written again
    }
    return rows;
  }

  //===--------------------------------------------------------------------===//
  // Bias and conversion
  //===--------------------------------------------------------------------===//

  Value finish(Value sums) {
    Value biasView;
    unsigned biasBytes = 0;
    Type biasType;
    if (plan.biasKind) {
      switch (*plan.biasKind) {
      case InterpKind::F16: biasType = b.getF16Type(), biasBytes = 2; break;
      case InterpKind::F32: biasType = f32(), biasBytes = 4; break;
      case InterpKind::I16:
      case InterpKind::U16: biasType = i16(), biasBytes = 2; break;
      default: biasType = i32(), biasBytes = 4; break;
      }
      biasView = view(op.getBias(), biasType, biasBytes);
    }
    Value biasStart =
        biasView ? Value(arith::DivUIOp::create(b, loc, op.getBiasOffset(),
                                                index(biasBytes)))
                 : Value();
    SmallVector<Value> results;
    for (int64_t row = 0; row < plan.m; ++row) {
      Value sum = vector::ExtractOp::create(b, loc, sums, row);
      Value bias;
      if (biasView)
        bias = memref::LoadOp::create(
            b, loc, biasView,
            ValueRange{arith::AddIOp::create(b, loc, biasStart, index(row))});
      if (plan.floatSums()) {
        if (bias) {
          if (!biasType.isF32())
            bias = arith::ExtFOp::create(b, loc, f32(), bias);
          sum = arith::AddFOp::create(b, loc, sum, bias);
        }
        results.push_back(plan.resultElement.isF16() ? dxilToF16(sum) : sum);
        continue;
      }
      Value wide = arith::ExtSIOp::create(b, loc, i64(), sum);
      if (bias) {
        bool unsignedBias = *plan.biasKind == InterpKind::U32 ||
                            *plan.biasKind == InterpKind::U16;
        bias = unsignedBias
                   ? Value(arith::ExtUIOp::create(b, loc, i64(), bias))
                   : Value(arith::ExtSIOp::create(b, loc, i64(), bias));
        wide = arith::AddIOp::create(b, loc, wide, bias);
      }
      if (plan.resultElement.isF32()) {
        // The exact sum rounded once (cvt.rn.f32.s64), as the CPU runtime.
        results.push_back(arith::SIToFPOp::create(b, loc, f32(), wide));
        continue;
      }
      int64_t lo = plan.resultUnsigned ? 0 : INT32_MIN;
      int64_t hi = plan.resultUnsigned ? int64_t(UINT32_MAX) : INT32_MAX;
      Value clamped = arith::MinSIOp::create(
          b, loc, arith::MaxSIOp::create(b, loc, wide, int64(lo)), int64(hi));
      results.push_back(arith::TruncIOp::create(b, loc, i32(), clamped));
    }
    return vector::FromElementsOp::create(
        b, loc, cast<VectorType>(op.getResult().getType()), results);
  }
};

/// Rewrites a coopvec.batch_matvec or coopvec.mlp in device code into what
/// it means there: the thread runs it on every row of its batch, one
/// coopvec.matvec per row and layer (BatchesInKernels.h), which the matvec
/// pattern then lowers with its own rules; the quantized form as its own
/// integer and f32 loops (QuantizedInKernel.h). A batch's rows are the smaller
/// of its two batches' (a kernel cannot report the CPU runtime's
/// row-count error; the verifier compares static counts). Requant scales
/// are read through an f32 view of their byte buffer.
LogicalResult expandBatchForNVVM(Operation *op) {
  auto unsupported = [&](const Twine &what) {
    return op->emitOpError("is not supported by convert-coopvec-to-nvvm: ")
           << what;
  };
  if (!op->getParentOfType<gpu::GPUFuncOp>())
    return unsupported("it is not inside a gpu.func (the thread runs the "
                       "batch's rows)");
  auto batch = dyn_cast<BatchMatVecOp>(op);
  auto mlp = dyn_cast<MLPOp>(op);
  bool quantized = batch && batch.isQuantized();
  if (quantized) {
    std::string why = whyQuantizedNotInKernel(batch);
    if (!why.empty())
      return unsupported(why);
  }
  Value inputs = batch ? batch.getInputs() : mlp.getInputs();
  Value outputs = batch ? batch.getOutputs() : mlp.getOutputs();
  OpBuilder b(op);
  Location loc = op->getLoc();
  auto rowsOf = [&](Value batchValue) -> Value {
    auto type = cast<MemRefType>(batchValue.getType());
    if (!type.isDynamicDim(0))
      return arith::ConstantIndexOp::create(b, loc, type.getDimSize(0));
    return memref::DimOp::create(b, loc, batchValue, 0);
  };
  Value rows = arith::MinUIOp::create(b, loc, rowsOf(inputs), rowsOf(outputs));
  if (quantized) {
    // arith f32 ops without `contract`: NVPTX's mul.rn/add.rn.
    emitQuantizedInKernel(
        batch, rows,
        [](OpBuilder &b, Location loc, Value x, Value y) -> Value {
          return arith::MulFOp::create(b, loc, x, y);
        },
        [](OpBuilder &b, Location loc, Value x, Value y) -> Value {
          return arith::AddFOp::create(b, loc, x, y);
        });
    return success();
  }
  if (batch) {
    expandBatchInKernel(batch, rows);
    return success();
  }
  // One f32 view per requant buffer, made where its first scale is read
  // (the row loop's body, before every later read).
  DenseMap<Value, Value> views;
  expandMlpInKernel(
      mlp, rows, [&](OpBuilder &b, Location loc, Value buffer, Value at) {
        Value &scales = views[buffer];
        if (!scales)
          scales = viewBytesAs(b, loc, buffer, b.getF32Type(), 4);
        Value i = arith::DivUIOp::create(
            b, loc, at, arith::ConstantIndexOp::create(b, loc, 4));
        return Value(memref::LoadOp::create(b, loc, scales, ValueRange{i}));
      });
  return success();
}

struct MatVecToNVVM : OpRewritePattern<MatVecOp> {
  MatVecToNVVM(MLIRContext *context, StringRef chip, bool cooperative,
               int64_t stageWarps)
      : OpRewritePattern(context), chip(chip.str()), cooperative(cooperative),
        stageWarps(stageWarps) {}

  LogicalResult matchAndRewrite(MatVecOp op,
                                PatternRewriter &rewriter) const override {
    // The pass has reported every op planMatVec rejects.
    FailureOr<Plan> plan = [&] {
      ScopedDiagnosticHandler silence(op.getContext(),
                                      [](Diagnostic &) { return success(); });
      return planMatVec(op, chip);
    }();
    if (failed(plan))
      return rewriter.notifyMatchFailure(op, "not supported");
    memref::GlobalOp stageGlobal;
    if (cooperative) {
      auto func = op->getParentOfType<gpu::GPUFuncOp>();
      auto device = func->getParentOfType<gpu::GPUModuleOp>();
      if (!device)
        return rewriter.notifyMatchFailure(op, "not in a gpu.module");
      stageGlobal =
          getOrCreateStage(rewriter, device, blockWarps(func, stageWarps));
      if (!stageGlobal)
        return rewriter.notifyMatchFailure(op, "the stage's name is taken");
    }
    MatVecEmitter emitter(rewriter, op, *plan);
    rewriter.replaceOp(op, emitter.emit(cooperative, stageGlobal));
    return success();
  }

  std::string chip;
  bool cooperative;
  int64_t stageWarps;
};

struct ConvertCoopVecToNVVMPass
    : coopvec::impl::ConvertCoopVecToNVVMBase<ConvertCoopVecToNVVMPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    static constexpr StringLiteral kChips[] = {"sm_80", "sm_89", "sm_90",
                                               "sm_100a", "sm_120a"};
    if (!llvm::is_contained(kChips, chip)) {
      module.emitError("convert-coopvec-to-nvvm: unknown chip '")
          << chip << "' (expected sm_80, sm_89, sm_90, sm_100a or sm_120a)";
      return signalPassFailure();
    }
    // Device code only: coopvec ops in host code are the host pipeline's.
    // Batches in device code first become loops of matvecs.
    bool failedAny = false;
    module.walk([&](gpu::GPUModuleOp device) {
      SmallVector<Operation *> batches;
      device.walk([&](Operation *op) {
        if (isa<BatchMatVecOp, MLPOp>(op))
          batches.push_back(op);
      });
      for (Operation *op : batches)
        failedAny |= failed(expandBatchForNVVM(op));
    });
    if (failedAny)
      return signalPassFailure();
    module.walk([&](gpu::GPUModuleOp device) {
      device.walk([&](Operation *op) {
        if (auto matvec = dyn_cast<MatVecOp>(op)) {
          failedAny |= failed(planMatVec(matvec, chip));
        } else if (isa<ConvertOp, PackOp, MXQuantizeOp, MXDequantizeOp>(op)) {
          failedAny |= failed(checkNumericsForNVVM(op, chip));
        } else if (isa<CoopVecDialect>(op->getDialect())) {
          op->emitOpError("is not supported by convert-coopvec-to-nvvm yet "
                          "(lowered here: coopvec.matvec, "
                          "coopvec.batch_matvec, coopvec.mlp, "
                          "coopvec.convert, coopvec.pack, "
                          "coopvec.mx_quantize, coopvec.mx_dequantize)");
          failedAny = true;
        }
      });
    });
    if (failedAny)
      return signalPassFailure();
    if (stageWarps < 1 || stageWarps > 32) {
      module.emitError("convert-coopvec-to-nvvm: stage-warps must be 1 to 32, "
                       "not ")
          << static_cast<int64_t>(stageWarps);
      return signalPassFailure();
    }
    // One stage global per gpu.module, for the largest block of a function
    // with a matvec, before the patterns run.
    if (cooperative) {
      OpBuilder b(&getContext());
      module.walk([&](gpu::GPUModuleOp device) {
        int64_t warps = 0;
        // Once per function with a matvec (planMatVec put every matvec
        // inside a gpu.func).
        device.walk([&](gpu::GPUFuncOp func) {
          bool hasMatVec =
              func.walk([](MatVecOp) { return WalkResult::interrupt(); })
                  .wasInterrupted();
          if (!hasMatVec)
            return;
          std::optional<int64_t> threads = knownThreads(func);
          if (threads && (*threads < 1 || *threads > 1024)) {
            func.emitOpError("has a known_block_size of ")
                << *threads
                << " threads; convert-coopvec-to-nvvm takes 1 to 1024";
            failedAny = true;
            return;
          }
          warps = std::max(warps, blockWarps(func, stageWarps));
        });
        if (warps && !getOrCreateStage(b, device, warps)) {
          device.lookupSymbol(kStageName)->emitOpError("uses the name @")
              << kStageName
              << ", which convert-coopvec-to-nvvm reserves for the "
                 "cooperative step's stages (a static 1-D i32 memref.global "
                 "in workgroup memory of whole 256-word stages)";
          failedAny = true;
        }
      });
      if (failedAny)
        return signalPassFailure();
    }
    FrozenRewritePatternSet patterns = [&] {
      RewritePatternSet set(&getContext());
      populateCoopVecToNVVMPatterns(set, chip, cooperative, stageWarps);
      populateCoopVecNumericsToNVVMPatterns(set);
      return FrozenRewritePatternSet(std::move(set));
    }();
    SmallVector<gpu::GPUModuleOp> devices(module.getOps<gpu::GPUModuleOp>());
    for (gpu::GPUModuleOp device : devices)
      walkAndApplyPatterns(device, patterns);
  }
};

} // namespace

void mlir::coopvec::populateCoopVecToNVVMPatterns(RewritePatternSet &patterns,
                                                  StringRef chip,
                                                  bool cooperative,
                                                  int64_t stageWarps) {
  patterns.add<MatVecToNVVM>(patterns.getContext(), chip, cooperative,
                             stageWarps);
}
