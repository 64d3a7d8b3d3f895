//===- CoopVecToSPIRV.cpp - coopvec in GPU kernels to SPIR-V for Vulkan ---===//
//
// A cooperative vector is one invocation's vector (DXIL/Vulkan semantics).
// Core Vulkan 1.3 has no cooperative vector instructions (those are
// SPV_NV_cooperative_vector), so each coopvec.matvec becomes a
// per-invocation loop over the rows:
//
//   xs[]  = the input, converted to what the products read (f32 values, or
//           i32 words of four 8-bit values)
//   for row in 0..M:
//     sum = 0
//     for each K step: sum += w(row, k) * xs[k]   (f32: FMul, FAdd)
//                      sum += SDot(w word, xs[j]) (8-bit: 4 products)
//     res[row] = convert(sum + bias[row])
//
// with xs[] and res[] in Function-storage arrays, and the matrix and bias
// read from byte-address storage buffers (memref<?xi8>, 8-bit access) with
// the op's byte offset and stride. A math-fidelity product runs the
// Wormhole model per row instead (WormholeArith.h); batches in kernels
// become loops of matvecs, the quantized form its own integer and f32
// loops (QuantizedEmitter). convert-gpu-to-spirv lowers the rest;
// this pass also splits the kernel's long vectors into scalars (SPIR-V
// vectors have at most four elements) and gives kernels their entry-point
// ABI and the Vulkan 1.3 target environment.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Conversion/CoopVecToSPIRV/CoopVecToSPIRV.h"
#include "LinAlgCoop/Conversion/BitConversions.h"
#include "LinAlgCoop/Conversion/DxilInputs.h"
#include "LinAlgCoop/Conversion/OptimalLayout.h"
#include "LinAlgCoop/Conversion/QuantizedInKernel.h"
#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecDialect.h"
#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecOps.h"
#include "LinAlgCoop/Dialect/CoopVec/Transforms/BatchesInKernels.h"
#include "WormholeArith.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

#include <cmath>

namespace mlir::coopvec {
#define GEN_PASS_DEF_CONVERTCOOPVECTOSPIRV
#define GEN_PASS_DEF_COOPVECNESTSPIRVMODULES
#include "LinAlgCoop/Conversion/Passes.h.inc"
} // namespace mlir::coopvec

using namespace mlir;
using namespace mlir::coopvec;

namespace {

/// The SPIR-V float op `SpirvOp` (FAdd, FSub, FMul) of `x` and `y`,
/// decorated NoContraction so that a driver cannot fuse it with another:
/// the CPU reference's roundings.
template <typename SpirvOp>
Value exactOp(OpBuilder &b, Location loc, Value x, Value y) {
  auto op = SpirvOp::create(b, loc, x.getType(), x, y);
  op->setAttr("no_contraction", b.getUnitAttr());
  return op;
}

/// SPIR-V vectors have 2, 3 or 4 elements (8 and 16 need Vector16).
constexpr int64_t kMaxVectorElements = 4;

/// Largest M and K the lowering takes.
constexpr int64_t kMaxDim = 4096;
// The 8-bit integer paths sum in i32: every partial sum fits.
static_assert(kMaxDim * 255 * 255 <= INT32_MAX, "i32 sums may overflow");

/// F32, F16, BF16 and small-float (8-, 6- and 4-bit, block-scaled or not)
/// matrices multiply f32 values (BF16, small floats and their scales
/// decoded exactly); I8/U8 matrices dot four bytes.
///
/// Wormhole is a product with a #coopvec.math_fidelity: the Tenstorrent
/// model of the CPU runtime (WormholeArith.h) on BF16, TF32 (F32) or
/// block-float (BFP8, BFP4) matrices.
enum class Family { F32, F16, BF16, SmallFloat, Int8, Wormhole };

/// What the lowering needs to know about one supported coopvec.matvec.
struct Plan {
  Family family;
  int64_t m, k;
  MatrixDescAttr desc; ///< Layout, transpose and stored shape.
  InterpKind matrixKind;
  bool matrixUnsigned;
  /// Block scales: UE8M0 (else UE4M3) scales of `scaleBlock` elements along
  /// K; `scaleBlock` is 0 without them.
  bool scaleUE8M0 = false;
  int64_t scaleBlock = 0;
  InterpKind inputKind;
  bool inputElementsUnsigned;
  Type inputElement, resultElement;
  bool resultUnsigned;
  std::optional<InterpKind> biasKind;
  /// Wormhole: the fidelity's phase count (1 to 4), BF16 (else TF32) Src
  /// operands, the Dst and L1 formats (BF16, else F32), L1 accumulation
  /// and its K block (K without one), and the block-float datum widths (8,
  /// 4; 0 for BF16/F32 operands) of the matrix and of the input.
  int64_t phases = 0;
  bool srcBf16 = false, dstBf16 = false, packBf16 = false, l1Acc = false;
  int64_t kBlock = 0;
  unsigned bfpBits = 0, inputBfpBits = 0;

  bool packedInput() const {
    return inputKind == InterpKind::PackedS8x32 ||
           inputKind == InterpKind::PackedU8x32;
  }
  bool inputSigned() const {
    return inputKind == InterpKind::PackedS8x32 || inputKind == InterpKind::I8;
  }
  /// 32-bit words of four 8-bit values along K.
  int64_t words() const { return (k + 3) / 4; }
  /// Whether two matrix elements share a byte (F4_E2M1, BFP4).
  bool nibbles() const {
    return matrixKind == InterpKind::F4_E2M1 || matrixKind == InterpKind::BFP4;
  }
};

/// The bit format of a small-float matrix element.
const BitConversions::SmallFloat &smallFloatFormat(InterpKind kind) {
  switch (kind) {
  case InterpKind::F8_E5M2:
    return BitConversions::kE5M2;
  case InterpKind::F6_E2M3:
    return BitConversions::kE2M3;
  case InterpKind::F6_E3M2:
    return BitConversions::kE3M2;
  case InterpKind::F4_E2M1:
    return BitConversions::kE2M1;
  default:
    return BitConversions::kE4M3;
  }
}

bool isSmallFloat(InterpKind kind) {
  return llvm::is_contained({InterpKind::F8_E4M3, InterpKind::F8_E5M2,
                             InterpKind::F6_E2M3, InterpKind::F6_E3M2,
                             InterpKind::F4_E2M1},
                            kind);
}

bool isF8(InterpKind kind) {
  return kind == InterpKind::F8_E4M3 || kind == InterpKind::F8_E5M2;
}

/// The plan for `op`, or a located error saying what the lowering lacks.
FailureOr<Plan> planMatVec(MatVecOp op) {
  auto unsupported = [&](const Twine &what) {
    op.emitOpError("is not supported by convert-coopvec-to-spirv: ") << what;
    return failure();
  };
  if (!op->getParentOfType<gpu::GPUFuncOp>())
    return unsupported("it is not inside a gpu.func (one vector per "
                       "invocation of a kernel or device function)");
  MatrixDescAttr desc = op.getMatrixDesc();
  // Every layout: the optimal ones are coopvec's own (Layout.h), whose
  // addresses the shader computes as the CPU runtime does; the verifier
  // gives the strided ones a stride.
  if (!isByteBuffer(op.getMatrix()) ||
      (op.getBias() && !isByteBuffer(op.getBias())) ||
      (op.getScales() && !isByteBuffer(op.getScales())))
    return unsupported("buffers must be 1-D i8 memrefs with the identity "
                       "layout");
  if (desc.getRows() > kMaxDim || desc.getCols() > kMaxDim)
    return unsupported("a " + Twine(desc.getRows()) + "x" +
                       Twine(desc.getCols()) + " matrix (M and K up to " +
                       Twine(kMaxDim) + " here)");

  Plan plan;
  plan.m = desc.getRows();
  plan.k = desc.getCols();
  plan.desc = desc;
  plan.matrixKind = desc.getInterpretation().getKind();
  plan.matrixUnsigned = false;
  plan.inputKind = op.getInputInterp().getKind();
  plan.inputElementsUnsigned = op.getInputUnsigned();
  plan.inputElement = cast<VectorType>(op.getInput().getType()).getElementType();
  plan.resultElement =
      cast<VectorType>(op.getResult().getType()).getElementType();
  plan.resultUnsigned = op.getOutputUnsigned();
  if (auto bias = op.getBiasInterp())
    plan.biasKind = bias->getKind();

  auto floatFamily = [&](StringRef matrix,
                         InterpKind input) -> FailureOr<Plan> {
    std::string aMatrix = (matrix == "BF16" ? "a " : "an ") + matrix.str();
    if (plan.inputKind != input ||
        !isa<Float16Type, Float32Type>(plan.inputElement))
      return unsupported(aMatrix + " matrix takes " + matrix +
                         " inputs of f16 or f32 elements here");
    if (!isa<Float16Type, Float32Type>(plan.resultElement))
      return unsupported(aMatrix + " matrix gives f16 or f32 results here");
    if (plan.biasKind && !llvm::is_contained({InterpKind::F16, InterpKind::BF16,
                                              InterpKind::F32},
                                             *plan.biasKind))
      return unsupported(aMatrix + " matrix takes an F16, BF16 or F32 "
                                   "bias here");
    return plan;
  };

  InterpKind matrixKind = plan.matrixKind;
  if (MathFidelityAttr fidelity = op.getFidelityAttr()) {
    // The verifier's rules (verifyFidelity) leave BF16/F32 matrices with
    // inputs of their own interpretation (f16 or f32 elements) and BFP8/BFP4
    // ones (shared exponents as UE8M0 x 16 scales) with BF16 inputs, BFP8/
    // BFP4 inputs (i8 stored bytes and exponents) with BF16 or block-float
    // matrices, f32 results, and a bias in the L1 format with l1_acc.
    plan.family = Family::Wormhole;
    plan.phases = static_cast<int64_t>(fidelity.getFidelity()) + 1;
    // A block-float input (the stored bytes with an exponents vector)
    // unpacks to BF16 as a block-float matrix does.
    auto bfpBits = [](InterpKind kind) {
      return kind == InterpKind::BFP8 ? 8u : kind == InterpKind::BFP4 ? 4u : 0u;
    };
    plan.inputBfpBits = bfpBits(plan.inputKind);
    plan.srcBf16 = plan.inputKind == InterpKind::BF16 || plan.inputBfpBits;
    plan.dstBf16 = fidelity.getDst().isBF16();
    plan.packBf16 = fidelity.getL1Format().isBF16();
    plan.l1Acc = fidelity.getL1Acc();
    plan.kBlock = fidelity.getKBlock() ? fidelity.getKBlock() : plan.k;
    plan.bfpBits = bfpBits(matrixKind);
    if (plan.bfpBits)
      plan.scaleBlock = desc.getBlockSize();
    return plan;
  }
  if (isSmallFloat(matrixKind)) {
    // Block-float matrices (BFP8, BFP4) are Wormhole's and need a fidelity
    // clause, planned above: every block scale here is an MX/NVFP4 one.
    plan.family = Family::SmallFloat;
    if (desc.isBlockScaled()) {
      plan.scaleUE8M0 = isa<Float8E8M0FNUType>(desc.getScaleType());
      plan.scaleBlock = desc.getBlockSize();
    }
    if ((!isF8(plan.inputKind) && plan.inputKind != InterpKind::F16 &&
         plan.inputKind != InterpKind::F32) ||
        !isa<Float16Type, Float32Type>(plan.inputElement))
      return unsupported("an 8-, 6- or 4-bit float matrix takes F8_E4M3, "
                         "F8_E5M2, F16 or F32 inputs of f16 or f32 elements "
                         "here");
    return floatFamily("8-, 6- or 4-bit float", plan.inputKind);
  }
  if (matrixKind == InterpKind::F16) {
    plan.family = Family::F16;
    if ((plan.inputKind != InterpKind::F16 &&
         plan.inputKind != InterpKind::F32) ||
        !isa<Float16Type, Float32Type>(plan.inputElement))
      return unsupported("an F16 matrix takes F16 or F32 inputs of f16 or "
                         "f32 elements here");
    return floatFamily("F16", plan.inputKind);
  }
  if (matrixKind == InterpKind::BF16) {
    // BF16 values are exact in f32: F32 products of the DXIL-converted
    // inputs (Vulkan 1.3 has no bf16 type).
    plan.family = Family::BF16;
    return floatFamily("BF16", InterpKind::BF16);
  }
  if (matrixKind == InterpKind::F32) {
    plan.family = Family::F32;
    return floatFamily("F32", InterpKind::F32);
  }
  if (matrixKind == InterpKind::I8 || matrixKind == InterpKind::U8) {
    plan.family = Family::Int8;
    plan.matrixUnsigned = matrixKind == InterpKind::U8;
    bool bytes =
        plan.inputKind == InterpKind::I8 || plan.inputKind == InterpKind::U8;
    if (!(plan.packedInput() && plan.inputElement.isInteger(32)) &&
        !(bytes && (plan.inputElement.isF32() ||
                    plan.inputElement.isInteger(32) ||
                    plan.inputElement.isInteger(16))))
      return unsupported("an I8/U8 matrix takes PackedS8x32/PackedU8x32 "
                         "inputs (i32 words) or I8/U8 inputs (f32, i32 or "
                         "i16 elements) here");
    if (!plan.resultElement.isInteger(32) && !plan.resultElement.isF32())
      return unsupported("an I8/U8 matrix gives i32 or f32 results here");
    if (plan.biasKind &&
        !llvm::is_contained({InterpKind::I32, InterpKind::U32,
                             InterpKind::I16, InterpKind::U16},
                            *plan.biasKind))
      return unsupported("an I8/U8 matrix takes an I32, U32, I16 or U16 "
                         "bias here");
    return plan;
  }
  return unsupported("matrix interpretation " +
                     desc.getInterpretation().getName() +
                     " (lowered here: F32, F16, BF16, F8_E4M3, F8_E5M2, "
                     "F6_E2M3, F6_E3M2, F4_E2M1, I8, U8; BFP8, BFP4 with "
                     "math fidelity)");
}

/// Whether `type` is a vector SPIR-V cannot hold.
bool isLongVector(Type type) {
  auto vector = dyn_cast<VectorType>(type);
  return vector && (vector.getRank() != 1 || vector.isScalable() ||
                    vector.getNumElements() > kMaxVectorElements);
}

/// Whether `op` adds into its buffer atomically (the buffer is then bound
/// as 32-bit words).
bool isAccumulate(Operation *op) {
  return isa<VectorAccumulateOp, OuterProductAccumulateOp>(op);
}

/// Whether `use` is the buffer an accumulation adds into.
bool isAccumulatedBuffer(OpOperand &use) {
  if (auto accumulate = dyn_cast<VectorAccumulateOp>(use.getOwner()))
    return use.get() == accumulate.getBuffer();
  if (auto outer = dyn_cast<OuterProductAccumulateOp>(use.getOwner()))
    return use.get() == outer.getMatrix();
  return false;
}

/// Largest M x N outer product the lowering takes (one compare-and-swap
/// loop per element, and lavapipe ends an invocation after 65535 loop
/// iterations in all).
constexpr int64_t kMaxOuterProduct = 4096;

/// Whether `interp` is an integer matrix element the outer product adds
/// into (exactly, saturating to its range).
bool isIntegerAccumulation(InterpKind interp) {
  return llvm::is_contained({InterpKind::I8, InterpKind::U8, InterpKind::I16,
                             InterpKind::U16, InterpKind::I32, InterpKind::U32},
                            interp);
}

/// A located error for a coopvec.vector_accumulate or
/// coopvec.outer_product_accumulate the lowering does not take, or success.
LogicalResult checkAccumulate(Operation *op) {
  auto unsupported = [&](const Twine &what) {
    op->emitOpError("is not supported by convert-coopvec-to-spirv: ") << what;
    return failure();
  };
  auto func = op->getParentOfType<gpu::GPUFuncOp>();
  if (!func)
    return unsupported("it is not inside a gpu.func");
  Value buffer;
  // The verifier allows vectors of i16, i32, f16 and f32 only, and all of
  // them are lowered.
  if (auto accumulate = dyn_cast<VectorAccumulateOp>(op)) {
    buffer = accumulate.getBuffer();
  } else {
    auto outer = cast<OuterProductAccumulateOp>(op);
    MatrixDescAttr desc = outer.getMatrixDesc();
    InterpKind interp = desc.getInterpretation().getKind();
    bool floatMatrix = interp == InterpKind::F16 ||
                       interp == InterpKind::F32 ||
                       interp == InterpKind::F8_E4M3 ||
                       interp == InterpKind::F8_E5M2;
    if (!floatMatrix && !isIntegerAccumulation(interp))
      return unsupported("matrix interpretation " +
                         stringifyInterpKind(interp) +
                         " (lowered here: F16, F32, F8_E4M3, F8_E5M2, I8, U8, "
                         "I16, U16, I32, U32)");
    if (desc.getRows() * desc.getCols() > kMaxOuterProduct)
      return unsupported("a " + Twine(desc.getRows()) + "x" +
                         Twine(desc.getCols()) + " outer product (up to " +
                         Twine(kMaxOuterProduct) + " elements here)");
    buffer = outer.getMatrix();
  }
  auto arg = dyn_cast<BlockArgument>(buffer);
  if (!arg || arg.getOwner() != &func.getBody().front() ||
      !func.isKernel() || !isByteBuffer(arg))
    return unsupported("the buffer must be an argument of the kernel (it is "
                       "bound as 32-bit words for the atomics)");
  for (OpOperand &use : arg.getUses())
    if (!isAccumulatedBuffer(use))
      return unsupported("the buffer it adds to is bound as 32-bit words for "
                         "the atomics, so the kernel may only accumulate "
                         "into it (found '" +
                         use.getOwner()->getName().getStringRef() + "')");
  return success();
}

//===----------------------------------------------------------------------===//
// coopvec.batch_matvec and coopvec.mlp inside kernels
//===----------------------------------------------------------------------===//

/// The static row count of a batch op's two batches, or a located error
/// (a shader cannot read a buffer's size: MLIR 22's SPIR-V dialect has no
/// OpArrayLength). The verifier makes two static counts agree.
FailureOr<int64_t> staticRows(Operation *op, Value inputs, Value outputs) {
  auto inType = cast<MemRefType>(inputs.getType());
  auto outType = cast<MemRefType>(outputs.getType());
  int64_t rows =
      inType.isDynamicDim(0) ? outType.getDimSize(0) : inType.getDimSize(0);
  if (ShapedType::isDynamic(rows)) {
    op->emitOpError("is not supported by convert-coopvec-to-spirv: both "
                    "batches have a dynamic number of rows, and a shader "
                    "cannot read a buffer's size: give one of them a static "
                    "row count");
    return failure();
  }
  return rows;
}

/// The static row count of a batch op as an index constant before `op`, or
/// a located error (staticRows).
FailureOr<Value> staticRowsValue(Operation *op, Value inputs, Value outputs) {
  FailureOr<int64_t> rows = staticRows(op, inputs, outputs);
  if (failed(rows))
    return failure();
  OpBuilder b(op);
  return Value(arith::ConstantIndexOp::create(b, op->getLoc(), *rows));
}

/// Rewrites the quantized form of a coopvec.batch_matvec inside a kernel
/// (emitQuantizedInKernel, NoContraction f32 ops) over the batch's
/// staticRows, or reports what the lowering lacks.
LogicalResult expandQuantizedInKernel(BatchMatVecOp op) {
  std::string why = whyQuantizedNotInKernel(op);
  if (!why.empty())
    return op.emitOpError("is not supported by convert-coopvec-to-spirv: ")
           << why;
  FailureOr<Value> rows = staticRowsValue(op, op.getInputs(), op.getOutputs());
  if (failed(rows))
    return failure();
  emitQuantizedInKernel(op, *rows, exactOp<spirv::FMulOp>,
                        exactOp<spirv::FAddOp>);
  return success();
}

/// A coopvec.batch_matvec inside a kernel: a loop of matvecs over its
/// staticRows (expandBatchInKernel), or the quantized form's own loops.
LogicalResult expandSPIRVBatch(BatchMatVecOp op) {
  if (op.isQuantized())
    return expandQuantizedInKernel(op);
  FailureOr<Value> rows = staticRowsValue(op, op.getInputs(), op.getOutputs());
  if (failed(rows))
    return failure();
  expandBatchInKernel(op, *rows);
  return success();
}

/// A coopvec.mlp inside a kernel: the chain of matvecs per row over its
/// staticRows (expandMlpInKernel), requant scales read byte by byte.
LogicalResult expandSPIRVMlp(MLPOp op) {
  FailureOr<Value> rows = staticRowsValue(op, op.getInputs(), op.getOutputs());
  if (failed(rows))
    return failure();
  expandMlpInKernel(op, *rows, loadF32Bytes);
  return success();
}

//===----------------------------------------------------------------------===//
// coopvec.matvec
//===----------------------------------------------------------------------===//

/// Emits one coopvec.matvec.
class MatVecEmitter : KernelBuilder {
public:
  MatVecEmitter(OpBuilder &b, MatVecOp op, const Plan &plan, bool fma)
      : KernelBuilder{b, op.getLoc()}, op(op), plan(plan), fma(fma) {}

  Value emit() {
    Value xs = storeInputs();
    Value results = privateArray(plan.m, plan.resultElement);
    Value exactSum;
    if (plan.family == Family::Wormhole)
      exactSum = privateArray(WormholeArith::kSumLimbs, i64());
    Value zero = index(0);
    auto rows = scf::ForOp::create(b, loc, zero, index(plan.m), index(1));
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(rows.getBody());
      Value row = rows.getInductionVar();
      Value result;
      if (plan.family == Family::Wormhole)
        result = wormholeRow(row, xs, WormholeArith{b, loc, exactSum});
      else
        result = finish(plan.family == Family::Int8 ? dotRow(row, xs)
                                                    : floatRow(row, xs),
                        row);
      memref::StoreOp::create(b, loc, result, results, row);
    }
    SmallVector<Value> elements;
    for (int64_t row = 0; row < plan.m; ++row)
      elements.push_back(
          memref::LoadOp::create(b, loc, results, ValueRange{index(row)}));
    return vector::FromElementsOp::create(
        b, loc, cast<VectorType>(op.getResult().getType()), elements);
  }

private:
  MatVecOp op;
  const Plan &plan;
  bool fma;

  /// A Function-storage array of `n` `element`s, allocated at the start of
  /// the function (where SPIR-V wants its OpVariables).
  Value privateArray(int64_t n, Type element) {
    OpBuilder::InsertionGuard guard(b);
    auto func = op->getParentOfType<gpu::GPUFuncOp>();
    b.setInsertionPointToStart(&func.getBody().front());
    auto type = MemRefType::get(
        {n}, element, MemRefLayoutAttrInterface(),
        spirv::StorageClassAttr::get(b.getContext(),
                                     spirv::StorageClass::Function));
    return memref::AllocaOp::create(b, loc, type);
  }

  Value loadBytes(Value buffer, Value at, unsigned bytes) {
    return loadBytesLittleEndian(b, loc, buffer, at, bytes);
  }

  /// Byte index of element (row, col) of `bytes` bytes of the (logical)
  /// M x K matrix; for a 4-bit matrix, of the byte of its stored column
  /// pair.
  Value elementByte(Value row, Value col, unsigned bytes) {
    return matrixElementByte(b, loc, plan.desc, op.getMatrixOffset(),
                             op.getMatrixStride(), row, col, bytes,
                             plan.nibbles());
  }

  Value dxilToF16(Value x) { return BitConversions{b, loc}.dxilToF16(x); }

  /// Input element `i` as the f32 value a float product reads: converted
  /// to the input interpretation (F32, F16, BF16, F8_E4M3 or F8_E5M2) by
  /// the DXIL rule, then widened exactly.
  Value inputFloat(int64_t i) {
    Value x = vector::ExtractOp::create(b, loc, op.getInput(), i);
    if (plan.inputKind == InterpKind::F16 && plan.inputElement.isF32())
      x = dxilToF16(x);
    if (!x.getType().isF32())
      x = arith::ExtFOp::create(b, loc, f32(), x);
    if (plan.inputKind == InterpKind::BF16) {
      BitConversions bits{b, loc};
      x = bits.bf16ToF32(bits.dxilToBF16Bits(x));
    }
    if (isF8(plan.inputKind)) {
      BitConversions bits{b, loc};
      bool e5m2 = plan.inputKind == InterpKind::F8_E5M2;
      x = bits.f8ToF32(bits.dxilToF8(x, e5m2), e5m2);
    }
    return x;
  }

  /// Input element `i` (I8/U8 of f32, i32 or i16 elements) as its exact
  /// 8-bit value in an i32, by the DXIL conversion rules; the f32 rounding
  /// steps are NoContraction.
  Value inputByteValue(int64_t i) {
    return dxilInputToByte(
        b, loc, vector::ExtractOp::create(b, loc, op.getInput(), i),
        plan.inputSigned(), plan.inputElementsUnsigned,
        [&](Value x, Value y) { return exactOp<spirv::FAddOp>(b, loc, x, y); },
        [&](Value x, Value y) { return exactOp<spirv::FSubOp>(b, loc, x, y); });
  }

  /// The input in a Function array: K f32 values, or the 32-bit words of
  /// four 8-bit values (bytes beyond K are zero).
  Value storeInputs() {
    if (plan.family == Family::Wormhole) {
      // The SrcB bits of each element: a float read as BF16 or TF32, or a
      // block-float datum (BFP4: the nibble of byte i/2, even i low)
      // decoded with its block's exponent, then unpacked.
      Value xs = privateArray(plan.k, i32());
      WormholeArith wh{b, loc, Value()};
      auto byteAt = [&](Value vector, int64_t i) -> Value {
        return arith::ExtUIOp::create(
            b, loc, i32(), vector::ExtractOp::create(b, loc, vector, i));
      };
      for (int64_t i = 0; i < plan.k; ++i) {
        Value src;
        if (plan.inputBfpBits) {
          Value datum =
              plan.inputBfpBits == 8
                  ? byteAt(op.getInput(), i)
                  : arith::ShRUIOp::create(b, loc, byteAt(op.getInput(), i / 2),
                                           int32(4 * (i % 2)));
          src = wh.unpack(wh.bfpToBits(datum,
                                       byteAt(op.getInputExponents(), i / 16),
                                       plan.inputBfpBits),
                          /*bf16=*/true);
        } else {
          src =
              wh.inputToSrc(vector::ExtractOp::create(b, loc, op.getInput(), i),
                            plan.srcBf16);
        }
        memref::StoreOp::create(b, loc, src, xs, ValueRange{index(i)});
      }
      return xs;
    }
    if (plan.family != Family::Int8) {
      Value xs = privateArray(plan.k, f32());
      for (int64_t i = 0; i < plan.k; ++i)
        memref::StoreOp::create(b, loc, inputFloat(i), xs,
                                ValueRange{index(i)});
      return xs;
    }
    Value xs = privateArray(plan.words(), i32());
    for (int64_t w = 0; w < plan.words(); ++w) {
      Value word;
      if (plan.packedInput()) {
        word = vector::ExtractOp::create(b, loc, op.getInput(), w);
        if (int64_t tail = plan.k - 4 * w; tail < 4)
          word = arith::AndIOp::create(b, loc, word,
                                       int32((int64_t(1) << (8 * tail)) - 1));
      } else {
        for (int64_t t = 0; t < 4 && 4 * w + t < plan.k; ++t) {
          Value byte = arith::AndIOp::create(
              b, loc, inputByteValue(4 * w + t), int32(255));
          if (t)
            byte = arith::ShLIOp::create(b, loc, byte, int32(8 * t));
          word = t ? Value(arith::OrIOp::create(b, loc, word, byte)) : byte;
        }
      }
      memref::StoreOp::create(b, loc, word, xs, ValueRange{index(w)});
    }
    return xs;
  }

  /// sum += w * x in the reference's order: f32 multiply, then add, each
  /// NoContraction; or one GL.Fma.
  Value multiplyAdd(Value sum, Value w, Value x) {
    if (fma)
      return spirv::GLFmaOp::create(b, loc, f32(), w, x, sum);
    return exactOp<spirv::FAddOp>(b, loc, sum,
                                  exactOp<spirv::FMulOp>(b, loc, w, x));
  }

  /// The byte of the block scale of weight (row, col): `row * ceil(K /
  /// block) + col / block` after the scales offset.
  Value scaleByte(Value row, Value col) {
    int64_t perRow = llvm::divideCeil(plan.k, plan.scaleBlock);
    return arith::AddIOp::create(
        b, loc, op.getScalesOffset(),
        arith::AddIOp::create(
            b, loc, arith::MulIOp::create(b, loc, row, index(perRow)),
            arith::DivUIOp::create(b, loc, col, index(plan.scaleBlock))));
  }

  /// The f32 value of the block scale of weight (row, col).
  Value blockScale(Value row, Value col) {
    Value byte = arith::ExtUIOp::create(
        b, loc, i32(), loadBytes(op.getScales(), scaleByte(row, col), 1));
    BitConversions bits{b, loc};
    return plan.scaleUE8M0 ? bits.ue8m0ToF32(byte)
                           : bits.smallFloatToF32(byte, BitConversions::kUE4M3);
  }

  /// Weight (row, col) of a float matrix as f32: a small float decoded
  /// exactly, times its block scale (exact in f32 unless it overflows to
  /// infinity, as the CPU reference's product).
  Value floatWeight(Value row, Value col) {
    if (plan.family == Family::SmallFloat) {
      Value byte = arith::ExtUIOp::create(
          b, loc, i32(), loadBytes(op.getMatrix(), elementByte(row, col, 1), 1));
      if (plan.nibbles())
        byte = storedNibble(b, loc, plan.desc, byte, row, col);
      Value w = BitConversions{b, loc}.smallFloatToF32(
          byte, smallFloatFormat(plan.matrixKind));
      if (!plan.scaleBlock)
        return w;
      return exactOp<spirv::FMulOp>(b, loc, w, blockScale(row, col));
    }
    if (plan.family == Family::BF16)
      return BitConversions{b, loc}.bf16ToF32(arith::ExtUIOp::create(
          b, loc, i32(),
          loadBytes(op.getMatrix(), elementByte(row, col, 2), 2)));
    if (plan.family == Family::F16) {
      Value bits = loadBytes(op.getMatrix(), elementByte(row, col, 2), 2);
      Value half = arith::BitcastOp::create(b, loc, b.getF16Type(), bits);
      return arith::ExtFOp::create(b, loc, f32(), half);
    }
    Value bits = loadBytes(op.getMatrix(), elementByte(row, col, 4), 4);
    return arith::BitcastOp::create(b, loc, f32(), bits);
  }

  /// sum += w(row, first + t) * xs[first + t] for t in 0..n, in order.
  Value floatSteps(Value sum, Value row, Value first, int64_t n, Value xs) {
    for (int64_t t = 0; t < n; ++t) {
      Value col =
          t ? Value(arith::AddIOp::create(b, loc, first, index(t))) : first;
      Value x = memref::LoadOp::create(b, loc, xs, ValueRange{col});
      sum = multiplyAdd(sum, floatWeight(row, col), x);
    }
    return sum;
  }

  /// The f32 sum of row `row` of a float matrix: four products per loop
  /// iteration (in order), then the rest. Fewer iterations also keep an
  /// invocation under lavapipe's limit of 65535 loop iterations.
  Value floatRow(Value row, Value xs) {
    int64_t whole = plan.k / 4 * 4;
    auto loop = scf::ForOp::create(b, loc, index(0), index(whole), index(4),
                                   ValueRange{float32(0.0f)});
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      scf::YieldOp::create(b, loc,
                           floatSteps(loop.getRegionIterArgs()[0], row,
                                      loop.getInductionVar(), 4, xs));
    }
    return floatSteps(loop.getResult(0), row, index(whole), plan.k - whole,
                      xs);
  }

  /// The weights (row, 4 word .. 4 word + n - 1) packed into an i32.
  Value matrixWord(Value row, Value word, int64_t n) {
    Value first = arith::MulIOp::create(b, loc, word, index(4));
    Value packed;
    for (int64_t t = 0; t < n; ++t) {
      Value col = t ? Value(arith::AddIOp::create(b, loc, first, index(t)))
                    : first;
      Value byte = arith::ExtUIOp::create(
          b, loc, i32(),
          loadBytes(op.getMatrix(), elementByte(row, col, 1), 1));
      if (t)
        byte = arith::ShLIOp::create(b, loc, byte, int32(8 * t));
      packed = t ? Value(arith::OrIOp::create(b, loc, packed, byte)) : byte;
    }
    return packed;
  }

  /// dot(weights, inputs) of four 8-bit pairs with the signedness of each
  /// side: SDot, UDot or SUDot (signed operand first).
  Value dot(Value weights, Value inputs) {
    auto format = spirv::PackedVectorFormatAttr::get(
        b.getContext(), spirv::PackedVectorFormat::PackedVectorFormat4x8Bit);
    bool wSigned = !plan.matrixUnsigned, xSigned = plan.inputSigned();
    if (wSigned && xSigned)
      return spirv::SDotOp::create(b, loc, i32(), weights, inputs, format);
    if (!wSigned && !xSigned)
      return spirv::UDotOp::create(b, loc, i32(), weights, inputs, format);
    if (wSigned)
      return spirv::SUDotOp::create(b, loc, i32(), weights, inputs, format);
    return spirv::SUDotOp::create(b, loc, i32(), inputs, weights, format);
  }

  /// The exact i32 sum of row `row` of an 8-bit matrix: whole words in a
  /// loop, then the partial last word.
  Value dotRow(Value row, Value xs) {
    int64_t whole = plan.k / 4, tail = plan.k % 4;
    auto loop = scf::ForOp::create(b, loc, index(0), index(whole), index(1),
                                   ValueRange{int32(0)});
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value word = loop.getInductionVar();
      Value x = memref::LoadOp::create(b, loc, xs, ValueRange{word});
      Value sum = arith::AddIOp::create(b, loc, loop.getRegionIterArgs()[0],
                                        dot(matrixWord(row, word, 4), x));
      scf::YieldOp::create(b, loc, sum);
    }
    Value sum = loop.getResult(0);
    if (tail) {
      Value word = index(whole);
      Value x = memref::LoadOp::create(b, loc, xs, ValueRange{word});
      sum = arith::AddIOp::create(b, loc, sum,
                                  dot(matrixWord(row, word, tail), x));
    }
    return sum;
  }

  /// The SrcA bits of weight (row, col) of a Wormhole product: a BF16 or
  /// F32 element, or a block-float datum decoded with its block's shared
  /// exponent (a UE8M0 x 16 scale byte) to BF16; then unpacked.
  Value wormholeWeight(WormholeArith &wh, Value row, Value col) {
    Value bits;
    if (plan.bfpBits) {
      Value datum = arith::ExtUIOp::create(
          b, loc, i32(),
          loadBytes(op.getMatrix(), elementByte(row, col, 1), 1));
      if (plan.bfpBits == 4) // bfpToBits reads the low four bits.
        datum = storedNibble(b, loc, plan.desc, datum, row, col);
      Value exponent = arith::ExtUIOp::create(
          b, loc, i32(), loadBytes(op.getScales(), scaleByte(row, col), 1));
      bits = wh.bfpToBits(datum, exponent, plan.bfpBits);
    } else if (plan.matrixKind == InterpKind::BF16) {
      bits = arith::ShLIOp::create(
          b, loc,
          arith::ExtUIOp::create(
              b, loc, i32(),
              loadBytes(op.getMatrix(), elementByte(row, col, 2), 2)),
          int32(16));
    } else {
      bits = loadBytes(op.getMatrix(), elementByte(row, col, 4), 4);
    }
    return wh.unpack(bits, plan.srcBf16);
  }

  /// An f32 bias element's bits, or a BF16 one's as f32 bits.
  Value biasBits(Value row) {
    bool bf16 = *plan.biasKind == InterpKind::BF16;
    Value at = arith::AddIOp::create(
        b, loc, op.getBiasOffset(),
        arith::MulIOp::create(b, loc, row, index(bf16 ? 2 : 4)));
    Value bits = loadBytes(op.getBias(), at, bf16 ? 2 : 4);
    if (!bf16)
      return bits;
    return arith::ShLIOp::create(
        b, loc, arith::ExtUIOp::create(b, loc, i32(), bits), int32(16));
  }

  /// Result `row` of a Wormhole product (coopvecWormholeMatmul for one
  /// output): the L1 value starts from the bias (or zero); each K block
  /// starts Dst from zero and, per 32-wide K tile and fidelity phase, adds
  /// each 16-wide chunk's exact slice products to Dst and rounds Dst to its
  /// format; the packer converts Dst to the L1 format (rounding f32 to
  /// bf16) and, with l1_acc, adds it to L1, rounded to the L1 format.
  Value wormholeRow(Value row, Value xs, WormholeArith wh) {
    auto minIndex = [&](Value x, Value y) {
      return arith::MinUIOp::create(b, loc, x, y);
    };
    Value k = index(plan.k);
    Value start = plan.biasKind ? biasBits(row) : int32(0);
    int64_t blocks = llvm::divideCeil(plan.k, plan.kBlock);
    auto blockLoop = scf::ForOp::create(b, loc, index(0), index(blocks),
                                        index(1), ValueRange{start});
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(blockLoop.getBody());
      Value k0 = arith::MulIOp::create(b, loc, blockLoop.getInductionVar(),
                                       index(plan.kBlock));
      Value k1 =
          minIndex(arith::AddIOp::create(b, loc, k0, index(plan.kBlock)), k);
      auto tiles =
          scf::ForOp::create(b, loc, k0, k1, index(32), ValueRange{int32(0)});
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(tiles.getBody());
        Value t = tiles.getInductionVar();
        Value tEnd = minIndex(arith::AddIOp::create(b, loc, t, index(32)), k1);
        auto phases = scf::ForOp::create(b, loc, index(0), index(plan.phases),
                                         index(1), tiles.getRegionIterArgs());
        {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(phases.getBody());
          Value phase = arith::IndexCastUIOp::create(b, loc, i32(),
                                                     phases.getInductionVar());
          // One MVMUL per 16-wide K half of the tile.
          auto halves = scf::ForOp::create(b, loc, t, tEnd, index(16),
                                           phases.getRegionIterArgs());
          {
            OpBuilder::InsertionGuard guard(b);
            b.setInsertionPointToStart(halves.getBody());
            Value c = halves.getInductionVar();
            Value cEnd =
                minIndex(arith::AddIOp::create(b, loc, c, index(16)), tEnd);
            wh.clear();
            wh.addDatum(halves.getRegionIterArgs()[0]);
            // Sixteen guarded terms in straight-line code (a K past the
            // chunk's end reads K = c and adds nothing), so that the
            // chunk takes no loop iteration of lavapipe's budget.
            for (int64_t t = 0; t < 16; ++t) {
              Value kk = arith::AddIOp::create(b, loc, c, index(t));
              Value live = arith::CmpIOp::create(
                  b, loc, arith::CmpIPredicate::ult, kk, cEnd);
              kk = arith::SelectOp::create(b, loc, live, kk, c);
              wh.addProduct(wormholeWeight(wh, row, kk),
                            memref::LoadOp::create(b, loc, xs, ValueRange{kk}),
                            phase, live);
            }
            scf::YieldOp::create(b, loc, wh.round(plan.dstBf16));
          }
          scf::YieldOp::create(b, loc, halves.getResults());
        }
        scf::YieldOp::create(b, loc, phases.getResults());
      }
      // The packer.
      Value datum = tiles.getResult(0);
      if (plan.packBf16 && !plan.dstBf16) {
        wh.clear();
        wh.addDatum(datum);
        datum = wh.round(/*bf16=*/true);
      }
      if (plan.l1Acc) {
        wh.clear();
        wh.addDatum(blockLoop.getRegionIterArgs()[0]);
        wh.addDatum(datum);
        datum = wh.round(plan.packBf16);
      }
      scf::YieldOp::create(b, loc, datum);
    }
    return arith::BitcastOp::create(b, loc, f32(), blockLoop.getResult(0));
  }

  /// sum + bias[row], converted to the result type.
  Value finish(Value sum, Value row) {
    Value bias;
    if (plan.biasKind) {
      unsigned bytes = 4;
      if (llvm::is_contained({InterpKind::F16, InterpKind::BF16,
                              InterpKind::I16, InterpKind::U16},
                             *plan.biasKind))
        bytes = 2;
      Value at = arith::AddIOp::create(
          b, loc, op.getBiasOffset(),
          arith::MulIOp::create(b, loc, row, index(bytes)));
      bias = loadBytes(op.getBias(), at, bytes);
      switch (*plan.biasKind) {
      case InterpKind::F16:
        bias = arith::BitcastOp::create(b, loc, b.getF16Type(), bias);
        bias = arith::ExtFOp::create(b, loc, f32(), bias);
        break;
      case InterpKind::BF16:
        bias = BitConversions{b, loc}.bf16ToF32(
            arith::ExtUIOp::create(b, loc, i32(), bias));
        break;
      case InterpKind::F32:
        bias = arith::BitcastOp::create(b, loc, f32(), bias);
        break;
      case InterpKind::U16:
      case InterpKind::U32:
        bias = arith::ExtUIOp::create(b, loc, i64(), bias);
        break;
      default:
        bias = arith::ExtSIOp::create(b, loc, i64(), bias);
        break;
      }
    }
    if (plan.family != Family::Int8) {
      if (bias)
        sum = exactOp<spirv::FAddOp>(b, loc, sum, bias);
      return plan.resultElement.isF16() ? dxilToF16(sum) : sum;
    }
    Value wide = arith::ExtSIOp::create(b, loc, i64(), sum);
    if (bias)
      wide = arith::AddIOp::create(b, loc, wide, bias);
    // An f32 result is the exact sum rounded once (OpConvertSToF).
    if (plan.resultElement.isF32())
      return arith::SIToFPOp::create(b, loc, f32(), wide);
    int64_t lo = plan.resultUnsigned ? 0 : INT32_MIN;
    int64_t hi = plan.resultUnsigned ? int64_t(UINT32_MAX) : INT32_MAX;
    Value clamped = arith::MinSIOp::create(
        b, loc, arith::MaxSIOp::create(b, loc, wide, int64(lo)), int64(hi));
    return arith::TruncIOp::create(b, loc, i32(), clamped);
  }
};

struct MatVecToSPIRV : OpRewritePattern<MatVecOp> {
  MatVecToSPIRV(MLIRContext *context, bool fma)
      : OpRewritePattern(context), fma(fma) {}

  LogicalResult matchAndRewrite(MatVecOp op,
                                PatternRewriter &rewriter) const override {
    // The pass has reported every op planMatVec rejects.
    FailureOr<Plan> plan = [&] {
      ScopedDiagnosticHandler silence(op.getContext(),
                                      [](Diagnostic &) { return success(); });
      return planMatVec(op);
    }();
    if (failed(plan))
      return rewriter.notifyMatchFailure(op, "not supported");
    MatVecEmitter emitter(rewriter, op, *plan, fma);
    rewriter.replaceOp(op, emitter.emit());
    return success();
  }

  bool fma;
};

//===----------------------------------------------------------------------===//
// coopvec.vector_accumulate
//===----------------------------------------------------------------------===//

/// An integer matrix element of the outer product: its width, signedness
/// and range.
struct IntegerElement {
  int64_t bits, lo, hi;
  bool isSigned;

  explicit IntegerElement(InterpKind interp)
      : bits(interp == InterpKind::I8 || interp == InterpKind::U8     ? 8
             : interp == InterpKind::I16 || interp == InterpKind::U16 ? 16
                                                                      : 32),
        isSigned(interp == InterpKind::I8 || interp == InterpKind::I16 ||
                 interp == InterpKind::I32) {
    lo = isSigned ? -(int64_t(1) << (bits - 1)) : 0;
    hi = isSigned ? (int64_t(1) << (bits - 1)) - 1 : (int64_t(1) << bits) - 1;
  }

  /// The element's value from its bits (zero-extended in an i32 `field`),
  /// sign- or zero-extended to `type` (i32 or i64).
  Value value(OpBuilder &b, Location loc, Value field, Type type) const {
    Value element = bits == 32 ? field
                               : Value(arith::TruncIOp::create(
                                     b, loc, b.getIntegerType(bits), field));
    if (element.getType() == type)
      return element;
    return isSigned ? Value(arith::ExtSIOp::create(b, loc, type, element))
                    : Value(arith::ExtUIOp::create(b, loc, type, element));
  }
};

/// Atomically replaces the `bits`-wide element (8, 16 or 32) at byte
/// `address` (index) of `words` (the buffer bound as 32-bit words) with
/// `update(field)`: a memref.generic_atomic_rmw on the containing word, which
/// coopvec-convert-gpu-to-spirv turns into a compare-and-swap loop. `update`
/// gets the element's bits zero-extended to i32 and returns the new bits in
/// an i32 (bits above the element's width are ignored); the word's other
/// bytes are written back unchanged.
void atomicUpdateField(OpBuilder &b, Location loc, Value words, Value address,
                       int64_t bits,
                       function_ref<Value(BitConversions &, Value)> update) {
  BitConversions k{b, loc};
  Value word = arith::DivUIOp::create(
      b, loc, address, arith::ConstantIndexOp::create(b, loc, 4));
  auto rmw =
      memref::GenericAtomicRMWOp::create(b, loc, words, ValueRange{word});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&rmw.getRegion().front());
  Value current = rmw.getCurrentValue();
  if (bits == 32) {
    memref::AtomicYieldOp::create(b, loc, update(k, current));
    return;
  }
  // Little-endian: the element at byte (address % 4) is shifted up by 8 bits
  // a byte.
  Value shift =
      k.shl(k.band(arith::IndexCastOp::create(b, loc, k.i32, address),
                   4 - bits / 8),
            k.int32(3));
  Value mask = k.int32((int64_t(1) << bits) - 1);
  Value updated = k.band(update(k, k.band(k.shr(current, shift), mask)), mask);
  Value keep = k.band(
      current, arith::XOrIOp::create(b, loc, k.shl(mask, shift), k.int32(-1)));
  memref::AtomicYieldOp::create(b, loc, k.bor(keep, k.shl(updated, shift)));
}

/// Adds the f32 `addend` to the float of `interp` (F32, F16, F8_E4M3 or
/// F8_E5M2) at byte `address` (index) of `words` atomically
/// (atomicUpdateField: core Vulkan has no float atomics): the element
/// decoded exactly to f32, one f32 addition (no contraction), the sum
/// rounded to the element's format by the DXIL rule (dxilToF16, dxilToF8:
/// nearest even, saturating): the CPU runtime's accumulation.
void atomicAddFloat(OpBuilder &b, Location loc, Value words, Value address,
                    Value addend, InterpKind interp) {
  Type f32 = b.getF32Type();
  bool half = interp == InterpKind::F16;
  bool f8 = interp == InterpKind::F8_E4M3 || interp == InterpKind::F8_E5M2;
  bool e5m2 = interp == InterpKind::F8_E5M2;
  atomicUpdateField(
      b, loc, words, address, half ? 16 : f8 ? 8 : 32,
      [&](BitConversions &k, Value field) -> Value {
        Value old;
        if (half) {
          Value bits16 =
              arith::TruncIOp::create(b, loc, b.getI16Type(), field);
          Value oldHalf =
              arith::BitcastOp::create(b, loc, b.getF16Type(), bits16);
          old = arith::ExtFOp::create(b, loc, f32, oldHalf);
        } else if (f8) {
          old = k.f8ToF32(field, e5m2);
        } else {
          old = arith::BitcastOp::create(b, loc, f32, field);
        }
        Value sum = exactOp<spirv::FAddOp>(b, loc, old, addend);
        if (f8)
          return k.dxilToF8(sum, e5m2);
        if (!half)
          return arith::BitcastOp::create(b, loc, k.i32, sum);
        Value sumHalf = arith::BitcastOp::create(b, loc, b.getI16Type(),
                                                 k.dxilToF16(sum));
        return arith::ExtUIOp::create(b, loc, k.i32, sumHalf);
      });
}

/// Adds the i64 `addend` to the integer of `interp` (I8, U8, I16, U16, I32
/// or U32) at byte `address` (index) of `words` atomically
/// (atomicUpdateField): the element, sign- or zero-extended to i64, plus the
/// addend (|addend| < 2^62, so the i64 sum is exact), saturated to the
/// element's range when `saturate` (the CPU runtime's outer-product
/// accumulation), else wrapped (its vector accumulation, like a hardware
/// atomic add).
void atomicAddInteger(OpBuilder &b, Location loc, Value words, Value address,
                      Value addend, InterpKind interp, bool saturate) {
  Type i64 = b.getI64Type();
  IntegerElement e(interp);
  auto int64 = [&](int64_t v) {
    return Value(arith::ConstantIntOp::create(b, loc, i64, v));
  };
  atomicUpdateField(
      b, loc, words, address, e.bits,
      [&](BitConversions &k, Value field) -> Value {
        Value sum =
            arith::AddIOp::create(b, loc, e.value(b, loc, field, i64), addend);
        if (saturate)
          sum = arith::MinSIOp::create(
              b, loc, arith::MaxSIOp::create(b, loc, sum, int64(e.lo)),
              int64(e.hi));
        return arith::TruncIOp::create(b, loc, k.i32, sum);
      });
}

/// Adds the f32 `addend` into the integer element of `interp` at byte
/// `address` of `words` as the CPU runtime adds a float product into an
/// integer matrix (accumulateLocked): the element converted to f32 (nearest
/// even), plus the addend in one f32 addition, back by DXIL's rule (nearest
/// even, saturated to the element's range, NaN 0), with a compare-and-swap
/// loop. The additions carry NoContraction: without it a driver may fold
/// (a + 2^23) - 2^23 to a (NIR's inexact algebra).
void atomicAddFloatToInteger(OpBuilder &b, Location loc, Value words,
                             Value address, Value addend, InterpKind interp) {
  IntegerElement e(interp);
  Type f32 = b.getF32Type(), i32 = b.getI32Type();
  auto constant = [&](double v) {
    return Value(
        arith::ConstantFloatOp::create(b, loc, b.getF32Type(), APFloat(float(v))));
  };
  atomicUpdateField(
      b, loc, words, address, e.bits,
      [&](BitConversions &k, Value field) -> Value {
        Value old = e.value(b, loc, field, i32);
        Value oldF = e.isSigned
                         ? Value(arith::SIToFPOp::create(b, loc, f32, old))
                         : Value(arith::UIToFPOp::create(b, loc, f32, old));
        Value sum = exactOp<spirv::FAddOp>(b, loc, oldF, addend);
        // Nearest even: |sum| + 2^23 - 2^23 below 2^23 (exact there), the
        // value itself above (already an integer); the sign put back.
        Value magnitude = spirv::GLFAbsOp::create(b, loc, f32, sum);
        Value rounded = exactOp<spirv::FSubOp>(
            b, loc, exactOp<spirv::FAddOp>(b, loc, magnitude, constant(0x1p23)),
            constant(0x1p23));
        rounded = arith::SelectOp::create(
            b, loc,
            arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, magnitude,
                                  constant(0x1p23)),
            rounded, magnitude);
        rounded = arith::SelectOp::create(
            b, loc,
            arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, sum,
                                  constant(0)),
            arith::NegFOp::create(b, loc, rounded), rounded);
        // Saturated: lo is exact in f32; hi of a 32-bit element is not, so
        // the conversion takes at most the largest f32 below 2^31 (2^32)
        // and a value at or above hi + 1 gives hi.
        double top = double(e.hi) + 1;
        Value below = constant(e.bits == 32 ? top - top / (1 << 24) : e.hi);
        Value bounded = arith::MinimumFOp::create(
            b, loc, arith::MaximumFOp::create(b, loc, rounded, constant(e.lo)),
            below);
        Value value = e.isSigned
                          ? Value(arith::FPToSIOp::create(b, loc, i32, bounded))
                          : Value(arith::FPToUIOp::create(b, loc, i32, bounded));
        if (e.bits == 32)
          value = arith::SelectOp::create(
              b, loc,
              arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, rounded,
                                    constant(top)),
              arith::ConstantIntOp::create(b, loc, i32, e.hi), value);
        return arith::SelectOp::create(
            b, loc,
            arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, sum, sum),
            arith::ConstantIntOp::create(b, loc, i32, 0), value);
      });
}

/// The f32 value of a float vector element (f16 widened exactly).
Value floatElement(OpBuilder &b, Location loc, Value vector, int64_t i) {
  Value x = vector::ExtractOp::create(b, loc, vector, i);
  if (!x.getType().isF32())
    x = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
  return x;
}

/// Element i of the vector goes to byte offset + i * size of the buffer,
/// which the pass has retyped to memref<?xi32> (the kernel argument is bound
/// as 32-bit words): i32 elements with one relaxed device-scope AtomicIAdd
/// each, i16 elements (which wrap, as the CPU runtime's 16-bit atomic adds
/// do) and floats with a compare-and-swap loop each on the containing word
/// (atomicAddInteger, atomicAddFloat).
struct VectorAccumulateToSPIRV : OpRewritePattern<VectorAccumulateOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(VectorAccumulateOp op,
                                PatternRewriter &rewriter) const override {
    auto words = dyn_cast<MemRefType>(op.getBuffer().getType());
    if (!words || !words.getElementType().isInteger(32))
      return rewriter.notifyMatchFailure(op, "buffer not bound as words");
    Location loc = op.getLoc();
    auto type = cast<VectorType>(op.getInput().getType());
    Type element = type.getElementType();
    int64_t size = element.getIntOrFloatBitWidth() / 8;
    for (int64_t i = 0; i < type.getNumElements(); ++i) {
      Value address = arith::AddIOp::create(
          rewriter, loc, op.getOffset(),
          arith::ConstantIndexOp::create(rewriter, loc, i * size));
      if (element.isInteger(32)) {
        Value at = arith::DivUIOp::create(
            rewriter, loc, address,
            arith::ConstantIndexOp::create(rewriter, loc, 4));
        Value value = vector::ExtractOp::create(rewriter, loc, op.getInput(), i);
        memref::AtomicRMWOp::create(rewriter, loc, arith::AtomicRMWKind::addi,
                                    value, op.getBuffer(), ValueRange{at});
        continue;
      }
      if (element.isInteger(16)) {
        Value value = arith::ExtSIOp::create(
            rewriter, loc, rewriter.getI64Type(),
            vector::ExtractOp::create(rewriter, loc, op.getInput(), i));
        atomicAddInteger(rewriter, loc, op.getBuffer(), address, value,
                         InterpKind::I16, /*saturate=*/false);
        continue;
      }
      atomicAddFloat(rewriter, loc, op.getBuffer(), address,
                     floatElement(rewriter, loc, op.getInput(), i),
                     element.isF16() ? InterpKind::F16 : InterpKind::F32);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// matrix[i][j] += a[i] * b[j]: the vectors go to Function-storage arrays
/// (f32 for float vectors, i64 for integer ones), two loops visit the
/// elements, and each adds its product with a compare-and-swap loop into the
/// element at offset + i * stride + j * size (RowMajor), offset + j *
/// stride + i * size (ColumnMajor) or Layout.h's offset of (i, j) in an
/// optimal layout (matrixElementByte), as the CPU runtime does: a float
/// product is one f32 multiplication (no contraction) added in f32 into an
/// F16, F32, F8_E4M3 or F8_E5M2 element (atomicAddFloat); an integer product
/// is exact in i64 and added exactly into an integer element, saturating
/// (atomicAddInteger), or rounded once to f32 (nearest even) and added in
/// f32 into a float one; a float product goes into an integer element
/// through f32 (atomicAddFloatToInteger).
struct OuterProductToSPIRV : OpRewritePattern<OuterProductAccumulateOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(OuterProductAccumulateOp op,
                                PatternRewriter &rewriter) const override {
    auto words = dyn_cast<MemRefType>(op.getMatrix().getType());
    if (!words || !words.getElementType().isInteger(32))
      return rewriter.notifyMatchFailure(op, "buffer not bound as words");
    Location loc = op.getLoc();
    MatrixDescAttr desc = op.getMatrixDesc();
    InterpKind interp = desc.getInterpretation().getKind();
    bool integerMatrix = isIntegerAccumulation(interp);
    bool integerVectors =
        isa<IntegerType>(op.getLhs().getType().getElementType());
    Type arrayElement =
        integerVectors ? Type(rewriter.getI64Type()) : rewriter.getF32Type();
    auto index = [&](int64_t v) {
      return Value(arith::ConstantIndexOp::create(rewriter, loc, v));
    };
    auto toArray = [&](Value vector) {
      auto type = cast<VectorType>(vector.getType());
      Value array;
      {
        OpBuilder::InsertionGuard guard(rewriter);
        auto func = op->getParentOfType<gpu::GPUFuncOp>();
        rewriter.setInsertionPointToStart(&func.getBody().front());
        array = memref::AllocaOp::create(
            rewriter, loc,
            MemRefType::get(
                {type.getNumElements()}, arrayElement,
                MemRefLayoutAttrInterface(),
                spirv::StorageClassAttr::get(rewriter.getContext(),
                                             spirv::StorageClass::Function)));
      }
      for (int64_t i = 0; i < type.getNumElements(); ++i) {
        Value element =
            integerVectors
                ? Value(arith::ExtSIOp::create(
                      rewriter, loc, arrayElement,
                      vector::ExtractOp::create(rewriter, loc, vector, i)))
                : floatElement(rewriter, loc, vector, i);
        memref::StoreOp::create(rewriter, loc, element, array,
                                ValueRange{index(i)});
      }
      return array;
    };
    Value as = toArray(op.getLhs()), bs = toArray(op.getRhs());
    int64_t size = desc.getInterpretation().getStorageBits() / 8;
    auto rows = scf::ForOp::create(rewriter, loc, index(0),
                                   index(desc.getRows()), index(1));
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(rows.getBody());
      Value i = rows.getInductionVar();
      auto cols = scf::ForOp::create(rewriter, loc, index(0),
                                     index(desc.getCols()), index(1));
      rewriter.setInsertionPointToStart(cols.getBody());
      Value j = cols.getInductionVar();
      Value a = memref::LoadOp::create(rewriter, loc, as, ValueRange{i});
      Value b = memref::LoadOp::create(rewriter, loc, bs, ValueRange{j});
      Value product;
      if (integerVectors) {
        product = arith::MulIOp::create(rewriter, loc, a, b);
      } else {
        product = exactOp<spirv::FMulOp>(rewriter, loc, a, b);
      }
      Value address =
          matrixElementByte(rewriter, loc, desc, op.getMatrixOffset(),
                            op.getMatrixStride(), i, j, size,
                            /*nibbles=*/false);
      if (integerMatrix && integerVectors)
        atomicAddInteger(rewriter, loc, op.getMatrix(), address, product,
                         interp, /*saturate=*/true);
      else if (integerMatrix)
        atomicAddFloatToInteger(rewriter, loc, op.getMatrix(), address,
                                product, interp);
      else
        atomicAddFloat(rewriter, loc, op.getMatrix(), address,
                       integerVectors
                           ? Value(arith::SIToFPOp::create(
                                 rewriter, loc, rewriter.getF32Type(), product))
                           : product,
                       interp);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Long vectors to scalars
//===----------------------------------------------------------------------===//

/// The indices of element `i` of a 1-D vector access at `indices`.
SmallVector<Value> elementIndices(OpBuilder &b, Location loc,
                                  ValueRange indices, int64_t i) {
  SmallVector<Value> at(indices);
  if (i)
    at.back() = arith::AddIOp::create(
        b, loc, at.back(), arith::ConstantIndexOp::create(b, loc, i));
  return at;
}

/// vector.load of a 1-D vector: one load per element. (Short vectors too:
/// MemRefToSPIRV would load them through a pointer bitcast, which Vulkan's
/// logical addressing forbids.)
struct ScalarizeVectorLoad : OpRewritePattern<vector::LoadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::LoadOp op,
                                PatternRewriter &rewriter) const override {
    VectorType type = op.getVectorType();
    if (type.getRank() != 1 || type.isScalable())
      return failure();
    SmallVector<Value> elements;
    for (int64_t i = 0; i < type.getNumElements(); ++i)
      elements.push_back(memref::LoadOp::create(
          rewriter, op.getLoc(), op.getBase(),
          elementIndices(rewriter, op.getLoc(), op.getIndices(), i)));
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, type, elements);
    return success();
  }
};

/// vector.store of a 1-D vector: one store per element.
struct ScalarizeVectorStore : OpRewritePattern<vector::StoreOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::StoreOp op,
                                PatternRewriter &rewriter) const override {
    VectorType type = op.getVectorType();
    if (type.getRank() != 1 || type.isScalable())
      return failure();
    Location loc = op.getLoc();
    for (int64_t i = 0; i < type.getNumElements(); ++i) {
      Value element =
          vector::ExtractOp::create(rewriter, loc, op.getValueToStore(), i);
      memref::StoreOp::create(rewriter, loc, element, op.getBase(),
                              elementIndices(rewriter, loc, op.getIndices(), i));
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// An elementwise op (arith, math) on long 1-D vectors: the op per element.
struct ScalarizeElementwise : RewritePattern {
  ScalarizeElementwise(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!OpTrait::hasElementwiseMappableTraits(op) || op->getNumResults() != 1 ||
        op->getNumRegions() != 0)
      return failure();
    auto type = dyn_cast<VectorType>(op->getResult(0).getType());
    if (!type || !isLongVector(type) || type.getRank() != 1 ||
        type.isScalable())
      return failure();
    Location loc = op->getLoc();
    SmallVector<Value> elements;
    for (int64_t i = 0; i < type.getNumElements(); ++i) {
      SmallVector<Value> operands;
      for (Value operand : op->getOperands())
        operands.push_back(
            isa<VectorType>(operand.getType())
                ? Value(vector::ExtractOp::create(rewriter, loc, operand, i))
                : operand);
      OperationState state(loc, op->getName(), operands,
                           TypeRange{type.getElementType()}, op->getAttrs());
      elements.push_back(rewriter.create(state)->getResult(0));
    }
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, type, elements);
    return success();
  }
};

/// vector.insert of a scalar at a static position into a from_elements.
struct FoldInsertIntoFromElements : OpRewritePattern<vector::InsertOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::InsertOp op,
                                PatternRewriter &rewriter) const override {
    auto from = op.getDest().getDefiningOp<vector::FromElementsOp>();
    if (!from || !isLongVector(op.getType()) || op.hasDynamicPosition() ||
        op.getStaticPosition().size() != 1 ||
        isa<VectorType>(op.getValueToStore().getType()))
      return failure();
    SmallVector<Value> elements(from.getElements());
    elements[op.getStaticPosition()[0]] = op.getValueToStore();
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, op.getType(),
                                                        elements);
    return success();
  }
};

/// The Vulkan 1.3 target environment: SPIR-V 1.6 and what core Vulkan 1.3
/// devices (lavapipe included) offer for these kernels.
spirv::TargetEnvAttr vulkan13TargetEnv(MLIRContext *context) {
  using spirv::Capability;
  using spirv::Extension;
  auto triple = spirv::VerCapExtAttr::get(
      spirv::Version::V_1_6,
      {Capability::Shader, Capability::Int8, Capability::Int16,
       Capability::Int64, Capability::Float16,
       Capability::StorageBuffer8BitAccess,
       Capability::StorageBuffer16BitAccess, Capability::DotProduct,
       Capability::DotProductInputAll, Capability::DotProductInput4x8BitPacked},
      {Extension::SPV_KHR_storage_buffer_storage_class,
       Extension::SPV_KHR_8bit_storage, Extension::SPV_KHR_16bit_storage,
       Extension::SPV_KHR_integer_dot_product},
      context);
  return spirv::TargetEnvAttr::get(
      triple, spirv::getDefaultResourceLimits(context), spirv::ClientAPI::Vulkan);
}

struct ConvertCoopVecToSPIRVPass
    : coopvec::impl::ConvertCoopVecToSPIRVBase<ConvertCoopVecToSPIRVPass> {
  using Base::Base;

  /// The workgroup size of `kernel`: known_block_size, else the constant
  /// block size all its launches agree on, else the option.
  FailureOr<SmallVector<int32_t, 3>> workgroupSizeOf(ModuleOp module,
                                                     gpu::GPUModuleOp device,
                                                     gpu::GPUFuncOp kernel) {
    if (std::optional<ArrayRef<int32_t>> known = kernel.getKnownBlockSize())
      return SmallVector<int32_t, 3>(*known);
    std::optional<SmallVector<int32_t, 3>> fromLaunches;
    bool disagree = false, dynamic = false;
    module.walk([&](gpu::LaunchFuncOp launch) {
      if (launch.getKernelModuleName() != device.getNameAttr() ||
          launch.getKernelName() != kernel.getNameAttr())
        return;
      SmallVector<int32_t, 3> size;
      for (Value dim : {launch.getBlockSizeX(), launch.getBlockSizeY(),
                        launch.getBlockSizeZ()}) {
        APInt value;
        if (!matchPattern(dim, m_ConstantInt(&value))) {
          dynamic = true;
          return;
        }
        size.push_back(int32_t(value.getSExtValue()));
      }
      if (fromLaunches && *fromLaunches != size)
        disagree = true;
      fromLaunches = size;
    });
    if (fromLaunches && !dynamic && !disagree)
      return *fromLaunches;
    if (!workgroupSize.empty()) {
      SmallVector<int32_t, 3> size(workgroupSize.begin(), workgroupSize.end());
      size.resize(3, 1);
      return size;
    }
    kernel.emitError("convert-coopvec-to-spirv: the workgroup size of this "
                     "kernel is fixed in SPIR-V, and neither "
                     "known_block_size nor its gpu.launch_func ops (")
        << (disagree ? "they differ" : dynamic ? "not constant" : "none")
        << ") nor the workgroup-size option give it";
    return failure();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    if (workgroupSize.size() > 3 ||
        llvm::any_of(workgroupSize, [](int32_t v) { return v < 1; })) {
      module.emitError("convert-coopvec-to-spirv: workgroup-size takes one "
                       "to three positive sizes");
      return signalPassFailure();
    }
    SmallVector<gpu::GPUModuleOp> devices(module.getOps<gpu::GPUModuleOp>());

    // Device code only: coopvec ops in host code are the host pipeline's.
    // Batches in kernels first become loops of matvecs (the quantized
    // form, its own loops).
    bool failedAny = false;
    for (gpu::GPUModuleOp device : devices) {
      SmallVector<Operation *> batches;
      device.walk([&](Operation *op) {
        if (isa<BatchMatVecOp, MLPOp>(op))
          batches.push_back(op);
      });
      for (Operation *op : batches)
        if (auto batch = dyn_cast<BatchMatVecOp>(op))
          failedAny |= failed(expandSPIRVBatch(batch));
        else
          failedAny |= failed(expandSPIRVMlp(cast<MLPOp>(op)));
    }
    if (failedAny)
      return signalPassFailure();
    for (gpu::GPUModuleOp device : devices)
      device.walk([&](Operation *op) {
        if (auto matvec = dyn_cast<MatVecOp>(op))
          failedAny |= failed(planMatVec(matvec));
        else if (isAccumulate(op))
          failedAny |= failed(checkAccumulate(op));
        else if (isa<CoopVecDialect>(op->getDialect())) {
          op->emitOpError("is not supported by convert-coopvec-to-spirv yet "
                          "(lowered here: coopvec.matvec, "
                          "coopvec.batch_matvec, coopvec.mlp, "
                          "coopvec.vector_accumulate, "
                          "coopvec.outer_product_accumulate)");
          failedAny = true;
        }
      });
    if (failedAny)
      return signalPassFailure();

    // Buffers that vector_accumulate adds to are bound as 32-bit words: the
    // kernel argument becomes memref<?xi32>, and each launch passes a view
    // of the whole words of its byte buffer.
    for (gpu::GPUModuleOp device : devices)
      for (auto kernel : device.getOps<gpu::GPUFuncOp>()) {
        Block &entry = kernel.getBody().front();
        SmallVector<Type> inputs(kernel.getArgumentTypes());
        SmallVector<unsigned> retyped;
        for (BlockArgument arg : entry.getArguments()) {
          auto bytes = dyn_cast<MemRefType>(arg.getType());
          if (!bytes || arg.use_empty() ||
              !llvm::all_of(arg.getUses(), isAccumulatedBuffer))
            continue;
          auto words = MemRefType::get({ShapedType::kDynamic},
                                       IntegerType::get(context, 32),
                                       MemRefLayoutAttrInterface(),
                                       bytes.getMemorySpace());
          arg.setType(words);
          inputs[arg.getArgNumber()] = words;
          retyped.push_back(arg.getArgNumber());
        }
        if (retyped.empty())
          continue;
        kernel.setFunctionType(
            FunctionType::get(context, inputs, kernel.getResultTypes()));
        module.walk([&](gpu::LaunchFuncOp launch) {
          if (launch.getKernelModuleName() != device.getNameAttr() ||
              launch.getKernelName() != kernel.getNameAttr())
            return;
          OpBuilder b(launch);
          Location loc = launch.getLoc();
          for (unsigned position : retyped) {
            Value buffer = launch.getKernelOperands()[position];
            if (!isByteBuffer(buffer)) {
              launch.emitOpError("argument ")
                  << position << " is a buffer that the kernel accumulates "
                  << "into, bound as 32-bit words: pass a memref<?xi8> "
                     "with the identity layout";
              failedAny = true;
              continue;
            }
            Value size = memref::DimOp::create(b, loc, buffer, 0);
            Value count = arith::DivUIOp::create(
                b, loc, size, arith::ConstantIndexOp::create(b, loc, 4));
            auto viewType = MemRefType::get(
                {ShapedType::kDynamic}, b.getI32Type(),
                MemRefLayoutAttrInterface(),
                cast<MemRefType>(buffer.getType()).getMemorySpace());
            Value view = memref::ViewOp::create(
                b, loc, viewType, buffer,
                arith::ConstantIndexOp::create(b, loc, 0), ValueRange{count});
            launch.getKernelOperandsMutable()
                .slice(position, 1)
                .assign(view);
          }
        });
      }
    if (failedAny)
      return signalPassFailure();

    {
      RewritePatternSet set(context);
      populateCoopVecToSPIRVPatterns(set, fma);
      FrozenRewritePatternSet patterns(std::move(set));
      for (gpu::GPUModuleOp device : devices)
        walkAndApplyPatterns(device, patterns);
    }
    {
      RewritePatternSet set(context);
      populateScalarizeLongVectorsPatterns(set);
      FrozenRewritePatternSet patterns(std::move(set));
      for (gpu::GPUModuleOp device : devices)
        if (failed(applyPatternsGreedily(device, patterns))) {
          device.emitError("convert-coopvec-to-spirv: splitting long vectors "
                           "did not converge");
          return signalPassFailure();
        }
    }
    // What is left of a long vector cannot be lowered: the first such op
    // of each module is reported (the rest are usually its uses).
    for (gpu::GPUModuleOp device : devices)
      device.walk<WalkOrder::PreOrder>([&](Operation *op) {
        auto isLong = [](Value v) { return isLongVector(v.getType()); };
        if (!llvm::any_of(op->getResults(), isLong) &&
            !llvm::any_of(op->getOperands(), isLong))
          return WalkResult::advance();
        op->emitOpError("uses a vector of more than ")
            << kMaxVectorElements
            << " elements that convert-coopvec-to-spirv cannot split into "
               "scalars (SPIR-V vectors have at most 4): index it with "
               "constants, and keep it out of loop-carried values and "
               "function signatures";
        failedAny = true;
        return WalkResult::interrupt();
      });
    if (failedAny)
      return signalPassFailure();

    // Entry-point ABI and target environment.
    for (gpu::GPUModuleOp device : devices) {
      for (auto kernel : device.getOps<gpu::GPUFuncOp>()) {
        if (!kernel.isKernel() ||
            kernel->hasAttr(spirv::getEntryPointABIAttrName()))
          continue;
        FailureOr<SmallVector<int32_t, 3>> size =
            workgroupSizeOf(module, device, kernel);
        if (failed(size)) {
          failedAny = true;
          continue;
        }
        kernel->setAttr(spirv::getEntryPointABIAttrName(),
                        spirv::getEntryPointABIAttr(context, *size));
      }
      // The environment goes into the targets (gpu-module-to-binary
      // serializes for it) and into `spirv.target_env`, where the upstream
      // SPIR-V conversions (convert-math-to-spirv, ...) look it up.
      auto env = device->getAttrOfType<spirv::TargetEnvAttr>(
          spirv::getTargetEnvAttrName());
      ArrayRef<Attribute> existing = device.getTargetsAttr()
                                         ? device.getTargetsAttr().getValue()
                                         : ArrayRef<Attribute>();
      auto inTargets = llvm::find_if(existing,
                                     llvm::IsaPred<spirv::TargetEnvAttr>);
      if (!env)
        env = inTargets != existing.end()
                  ? cast<spirv::TargetEnvAttr>(*inTargets)
                  : vulkan13TargetEnv(context);
      device->setAttr(spirv::getTargetEnvAttrName(), env);
      if (inTargets == existing.end()) {
        SmallVector<Attribute> targets(existing);
        targets.push_back(env);
        device.setTargetsAttr(ArrayAttr::get(context, targets));
      }
    }
    if (failedAny)
      signalPassFailure();
  }
};

struct CoopVecNestSPIRVModulesPass
    : coopvec::impl::CoopVecNestSPIRVModulesBase<CoopVecNestSPIRVModulesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    for (auto spirvModule :
         llvm::make_early_inc_range(module.getOps<spirv::ModuleOp>())) {
      std::optional<StringRef> name = spirvModule.getName();
      if (!name || !name->starts_with("__spv__"))
        continue;
      auto device =
          symbols.lookup<gpu::GPUModuleOp>(name->drop_front(strlen("__spv__")));
      if (!device)
        continue;
      // spirv-update-vce keeps the least version the ops need; Vulkan binds
      // storage buffers through the entry point's interface from 1.4 on.
      spirv::TargetEnvAttr env = spirv::lookupTargetEnv(spirvModule);
      std::optional<spirv::VerCapExtAttr> triple =
          spirvModule.getVceTriple();
      if (env && triple && triple->getVersion() < env.getVersion())
        spirvModule.setVceTripleAttr(spirv::VerCapExtAttr::get(
            env.getVersion(), llvm::to_vector(triple->getCapabilities()),
            llvm::to_vector(triple->getExtensions()), &getContext()));
      spirvModule->moveBefore(device.getBody(), device.getBody()->begin());
    }
  }
};

} // namespace

void mlir::coopvec::populateCoopVecToSPIRVPatterns(RewritePatternSet &patterns,
                                                   bool fma) {
  patterns.add<MatVecToSPIRV>(patterns.getContext(), fma);
  patterns.add<VectorAccumulateToSPIRV, OuterProductToSPIRV>(
      patterns.getContext());
}

void mlir::coopvec::populateScalarizeLongVectorsPatterns(
    RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  // vector.extract folds through from_elements, broadcasts and constants,
  // so those need no pattern (and one would fight the folders that build
  // them back).
  patterns.add<ScalarizeVectorLoad, ScalarizeVectorStore, ScalarizeElementwise,
               FoldInsertIntoFromElements>(context);
  vector::ExtractOp::getCanonicalizationPatterns(patterns, context);
  vector::FromElementsOp::getCanonicalizationPatterns(patterns, context);
}
