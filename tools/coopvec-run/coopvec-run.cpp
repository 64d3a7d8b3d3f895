//===- coopvec-run.cpp - JIT runner for coopvec programs ------------------===//
//
// Lowers a coopvec program with the CPU pipeline (or --pass-pipeline), JITs
// it with MLIR's ExecutionEngine against libcoopvec_runtime.so, calls the
// entry function with arguments from .npy files or inline literals, and
// prints (and optionally saves) its results.
//
// GPU programs (a gpu.container_module with gpu.modules, run from host
// functions with gpu.launch_func, gpu.alloc, gpu.memcpy, ...) need an
// NVIDIA GPU: the CUDA driver is probed first, the gpu.modules are compiled
// for the device's chip (buildGpuDevicePipeline), the host code is lowered
// by the CPU pipeline with gpu-host=true, and the JIT resolves the mgpu*
// calls in libcoopvec_cuda_runtime.so. With --gpu-api=vulkan the
// gpu.modules become SPIR-V (coopvec-vulkan-pipeline) and the mgpu* calls
// resolve in libcoopvec_vulkan_runtime.so, on any Vulkan 1.3 device. Arguments and results are host
// memrefs, as for CPU programs.
//
// Calling convention: the ExecutionEngine's packed wrapper `_mlir_<entry>`
// takes one pointer per LLVM-level argument followed by one pointer to the
// result. A memref argument expands to its descriptor fields (allocated and
// aligned pointer, offset, sizes, strides); a vector or scalar is one value.
// Several results come back as an LLVM struct.
//
//===----------------------------------------------------------------------===//

#include "Npy.h"

#include "LinAlgCoop/Conversion/CoopVecToCPU/CoopVecToCPU.h"
#include "LinAlgCoop/InitAll.h"
#include "LinAlgCoop/Runtime/CpuTarget.h"
#include "LinAlgCoop/Runtime/CudaRuntime.h"
#include "LinAlgCoop/Runtime/VulkanRuntime.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <charconv>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <thread>

using namespace mlir;
using namespace coopvecrun;
namespace cl = llvm::cl;

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

static cl::OptionCategory runCategory("coopvec-run options");

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input.mlir>"),
                                      cl::init("-"), cl::cat(runCategory));
static cl::opt<std::string>
    entryName("e", cl::desc("Entry function to run (default: main)"),
              cl::value_desc("name"), cl::init("main"), cl::cat(runCategory));
static cl::alias entryAlias("entry-point", cl::aliasopt(entryName),
                            cl::desc("Alias for -e"), cl::cat(runCategory));
static cl::list<std::string> argValues(
    "arg",
    cl::desc("Argument of the entry function, in order: a .npy file, a "
             "scalar literal (3, -1.5, 0x10, true, nan) or a list "
             "([1, 2, 3]) for a vector or a memref"),
    cl::value_desc("value"), cl::cat(runCategory));
static cl::alias argAlias("a", cl::aliasopt(argValues),
                          cl::desc("Alias for --arg"), cl::cat(runCategory));
static cl::list<std::string>
    outputFiles("o",
                cl::desc("Write result i (in order of -o) to this .npy file"),
                cl::value_desc("file.npy"), cl::cat(runCategory));
static cl::list<std::string> outArgs(
    "out-arg",
    cl::desc("After the run, write memref argument N to FILE (.npy), viewed "
             "with the dtype and shape of the .npy it was read from"),
    cl::value_desc("N=FILE"), cl::cat(runCategory));
static cl::opt<bool>
    printArgs("print-args",
              cl::desc("After the run, print every memref argument (viewed "
                       "as the .npy it was read from)"),
              cl::cat(runCategory));
static cl::opt<bool> noPrint("no-print", cl::desc("Do not print the results"),
                             cl::cat(runCategory));
static cl::opt<std::string> passPipeline(
    "pass-pipeline",
    cl::desc("Textual pass pipeline to run instead of the default CPU "
             "pipeline, e.g. 'builtin.module(coopvec-cpu-pipeline)'"),
    cl::cat(runCategory));
static cl::opt<unsigned> numThreads(
    "num-threads",
    cl::desc("Threads each kernel call may use (default pipeline only; "
             "0: the runtime's default)"),
    cl::init(1), cl::cat(runCategory));
static cl::opt<bool> sequentialLoops(
    "sequential-loops",
    cl::desc("Run scf.parallel loops on the calling thread instead of the "
             "async runtime's workers (default pipeline only)"),
    cl::cat(runCategory));
static cl::opt<bool> noBoundsChecks(
    "no-bounds-checks",
    cl::desc("Do not check buffer accesses against memref sizes (default "
             "pipeline only; an out-of-range access is then undefined "
             "behaviour)"),
    cl::cat(runCategory));
static cl::opt<std::string> entryResult(
    "entry-point-result",
    cl::desc("mlir-runner compatibility: the entry's result type (void, i32, "
             "i64, f32); checked against its signature"),
    cl::value_desc("type"), cl::cat(runCategory));
static cl::list<std::string>
    sharedLibs("shared-libs",
               cl::desc("Extra shared libraries the JIT resolves symbols in"),
               cl::CommaSeparated, cl::value_desc("lib.so"),
               cl::cat(runCategory));
static cl::opt<std::string> runtimeLib(
    "runtime-lib",
    cl::desc("Path of libcoopvec_runtime.so (default: ../lib next to this "
             "executable)"),
    cl::cat(runCategory));
static cl::opt<std::string> asyncRuntimeLib(
    "async-runtime-lib",
    cl::desc("Path of MLIR's libmlir_async_runtime.so, loaded when the "
             "lowered program calls it (parallel loops)"),
    cl::init(COOPVEC_ASYNC_RUNTIME_LIB), cl::cat(runCategory));
static cl::opt<unsigned> optLevel("O", cl::Prefix,
                                  cl::desc("LLVM optimization level (0-3)"),
                                  cl::init(2), cl::cat(runCategory));
static cl::opt<bool> timing(
    "time",
    cl::desc("Report on stderr the time spent parsing and lowering, "
             "JIT-compiling, loading the arguments, running, and printing "
             "and saving the results"),
    cl::cat(runCategory));
static cl::opt<unsigned>
    repeat("repeat", cl::desc("Call the entry this many times (for --time)"),
           cl::init(1), cl::cat(runCategory));
static cl::opt<unsigned> invocations(
    "invocations",
    cl::desc("Call the entry concurrently from this many threads with the "
             "same arguments, as GPU invocations share buffers; results are "
             "those of invocation 0"),
    cl::init(1), cl::cat(runCategory));
static cl::opt<bool>
    printLowered("print-lowered",
                 cl::desc("Print the module after the pipeline and stop (a "
                          "GPU program needs no GPU for this if "
                          "--gpu-chip is given)"),
                 cl::cat(runCategory));
static cl::opt<std::string> gpuChip(
    "gpu-chip",
    cl::desc("GPU programs: the NVIDIA chip (coopvec profile) to compile "
             "gpu.modules for: sm_80, sm_89, sm_90, sm_100a or sm_120a "
             "(default: the one whose code runs on CUDA device 0)"),
    cl::value_desc("sm_XY"), cl::cat(runCategory));
static cl::opt<std::string> cudaRuntimeLib(
    "cuda-runtime-lib",
    cl::desc("GPU programs: path of libcoopvec_cuda_runtime.so (default: "
             "../lib next to this executable)"),
    cl::cat(runCategory));
static cl::opt<bool> probeGpu(
    "probe-gpu",
    cl::desc("Check that the CUDA driver loads and reports a GPU: print the "
             "chip of device 0 (sm_XY) and exit with 0, or say why not and "
             "exit with 1 (--gpu-api=vulkan: the Vulkan 1.3 device). Takes "
             "no input"),
    cl::cat(runCategory));
enum class GpuApi { Cuda, Vulkan };
static cl::opt<GpuApi> gpuApi(
    "gpu-api",
    cl::desc("GPU programs: what runs the gpu.modules"),
    cl::values(clEnumValN(GpuApi::Cuda, "cuda",
                          "PTX/cubin on an NVIDIA GPU through the CUDA "
                          "driver (default)"),
               clEnumValN(GpuApi::Vulkan, "vulkan",
                          "SPIR-V compute shaders on a Vulkan 1.3 device "
                          "(lavapipe included) through "
                          "libcoopvec_vulkan_runtime.so")),
    cl::init(GpuApi::Cuda), cl::cat(runCategory));
static cl::opt<std::string> vulkanRuntimeLib(
    "vulkan-runtime-lib",
    cl::desc("--gpu-api=vulkan: path of libcoopvec_vulkan_runtime.so "
             "(default: ../lib next to this executable)"),
    cl::cat(runCategory));
static cl::opt<bool> vulkanValidation(
    "vulkan-validation",
    cl::desc("--gpu-api=vulkan: run under the Khronos validation layer "
             "(also COOPVEC_VULKAN_VALIDATION=1); what it reports is printed "
             "and makes the run exit with 1"),
    cl::cat(runCategory));
static cl::list<int32_t> vulkanWorkgroupSize(
    "vulkan-workgroup-size",
    cl::desc("--gpu-api=vulkan: the workgroup size (x[,y[,z]]) of kernels "
             "whose size neither known_block_size nor constant launch sizes "
             "give (SPIR-V fixes it in the shader; launches must match it)"),
    cl::CommaSeparated, cl::cat(runCategory));
static cl::opt<bool> vulkanFma(
    "vulkan-fma",
    cl::desc("--gpu-api=vulkan: float products with GL.Fma instead of "
             "multiply then add (coopvec-vulkan-pipeline{fma=true})"),
    cl::cat(runCategory));

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

/// Whether an MLIR diagnostic already explained the failure on its line.
static bool diagnosed = false;

/// Every failure is one line on stderr and exit code 1.
[[noreturn]] static void fatal(const llvm::Twine &message) {
  llvm::outs().flush();
  llvm::errs() << "coopvec-run: error: " << message << "\n";
  llvm::errs().flush();
  std::exit(1);
}

static void exitOnError(llvm::Error error, const llvm::Twine &context = "") {
  if (!error)
    return;
  if (diagnosed) {
    llvm::consumeError(std::move(error));
    std::exit(1);
  }
  std::string message = llvm::toString(std::move(error));
  fatal(context.isTriviallyEmpty() ? llvm::Twine(message)
                                   : context + ": " + message);
}

static std::string formatLocation(Location loc) {
  if (auto fileLoc = loc->findInstanceOf<FileLineColLoc>())
    return (fileLoc.getFilename().getValue() + ":" +
            llvm::Twine(fileLoc.getLine()) + ":" +
            llvm::Twine(fileLoc.getColumn()))
        .str();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << loc;
  return text;
}

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

/// Storage of one element in memory (LLVM's layout of the lowered type).
static std::optional<unsigned> elementBytes(Type type) {
  if (type.isIndex())
    return 8;
  if (auto intType = dyn_cast<IntegerType>(type)) {
    unsigned width = intType.getWidth();
    if (width == 1 || width == 8 || width == 16 || width == 32 || width == 64)
      return std::max(1u, width / 8);
    return std::nullopt;
  }
  if (type.isF16() || type.isBF16() || type.isF32() || type.isF64())
    return type.getIntOrFloatBitWidth() / 8;
  return std::nullopt;
}

/// The NumPy dtype that holds `type` (bf16 has none).
static std::optional<std::pair<char, unsigned>> dtypeOf(Type type) {
  std::optional<unsigned> bytes = elementBytes(type);
  if (!bytes || type.isBF16())
    return std::nullopt;
  if (type.isInteger(1))
    return std::make_pair('b', 1u);
  return std::make_pair(isa<FloatType>(type) ? 'f' : 'i', *bytes);
}

static std::string dtypeName(std::pair<char, unsigned> dtype) {
  NpyHeader a;
  a.kind = dtype.first;
  a.elemBytes = dtype.second;
  return a.descr();
}

/// Whether data of dtype `have` can fill elements of dtype `want`: the same
/// kind and size; signed and unsigned integers of one size are the same
/// signless MLIR type.
static bool dtypeMatches(std::pair<char, unsigned> have,
                         std::pair<char, unsigned> want) {
  if (have.second != want.second)
    return false;
  auto isInt = [](char k) { return k == 'i' || k == 'u'; };
  return have.first == want.first || (isInt(have.first) && isInt(want.first));
}

/// Parses one literal element of `type` into its little-endian bytes.
static bool parseElement(StringRef text, Type type, uint8_t *out) {
  text = text.trim();
  unsigned bytes = *elementBytes(type);
  if (auto floatType = dyn_cast<FloatType>(type)) {
    llvm::APFloat value(floatType.getFloatSemantics());
    // Decimal text rounds once, to nearest even, to the target type.
    auto status =
        value.convertFromString(text, llvm::APFloat::rmNearestTiesToEven);
    if (!status) {
      llvm::consumeError(status.takeError());
      return false;
    }
    uint64_t raw = value.bitcastToAPInt().getZExtValue();
    std::memcpy(out, &raw, bytes);
    return true;
  }
  if (type.isInteger(1)) {
    if (text == "true" || text == "1")
      return *out = 1, true;
    if (text == "false" || text == "0")
      return *out = 0, true;
    return false;
  }
  int64_t value;
  if (text.getAsInteger(0, value)) {
    uint64_t unsignedValue;
    if (text.getAsInteger(0, unsignedValue))
      return false;
    value = static_cast<int64_t>(unsignedValue);
  }
  unsigned width = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
  // Accept the signed and the unsigned range of the width.
  if (width < 64 && (value < -(int64_t(1) << (width - 1)) ||
                     value >= (int64_t(1) << width)))
    return false;
  std::memcpy(out, &value, bytes);
  return true;
}

static std::string formatElement(Type type, const uint8_t *data) {
  unsigned bytes = *elementBytes(type);
  uint64_t raw = 0;
  std::memcpy(&raw, data, bytes);
  if (auto floatType = dyn_cast<FloatType>(type)) {
    llvm::APFloat value(floatType.getFloatSemantics(),
                        llvm::APInt(floatType.getWidth(), raw));
    if (value.isNaN())
      return "nan";
    if (value.isInfinity())
      return value.isNegative() ? "-inf" : "inf";
    // The shortest text that reads back as the same value: f16 and bf16 go
    // through f32, which holds them exactly.
    char buf[64];
    std::to_chars_result r;
    if (type.isF64()) {
      r = std::to_chars(buf, buf + sizeof(buf), value.convertToDouble());
    } else {
      bool lost;
      value.convert(llvm::APFloat::IEEEsingle(),
                    llvm::APFloat::rmNearestTiesToEven, &lost);
      r = std::to_chars(buf, buf + sizeof(buf), value.convertToFloat());
    }
    return std::string(buf, r.ptr);
  }
  if (type.isInteger(1))
    return raw ? "1" : "0";
  unsigned width = bytes * 8;
  int64_t value = width == 64 ? static_cast<int64_t>(raw)
                              : llvm::SignExtend64(raw, width);
  return std::to_string(value);
}

//===----------------------------------------------------------------------===//
// Arrays: arguments and results in memory
//===----------------------------------------------------------------------===//

/// A C-order array of MLIR elements, with the dtype it was read from (the
/// view printed and saved for byte buffers).
struct Array {
  Type elemType;
  SmallVector<int64_t> shape;
  uint8_t *data = nullptr;
  // The .npy this came from, if any: its dtype and shape over the same bytes.
  std::optional<NpyHeader> view;
};

/// Memory that lives as long as the run: 128-byte aligned (the matrix
/// alignment DXIL requires) and zero-padded to a multiple of 128 bytes.
/// Unless `zeroed` is false (the caller fills the first `bytes` itself),
/// all of it is zero.
static std::deque<std::unique_ptr<uint8_t[], void (*)(void *)>> arena;

static uint8_t *allocate(size_t bytes, bool zeroed = true) {
  size_t size = llvm::alignTo(std::max<size_t>(bytes, 1), 128);
  auto *p = static_cast<uint8_t *>(std::aligned_alloc(128, size));
  if (!p)
    fatal("out of memory allocating " + llvm::Twine(bytes) + " bytes");
  std::memset(zeroed ? p : p + bytes, 0, zeroed ? size : size - bytes);
  arena.emplace_back(p, std::free);
  return p;
}

static std::string shapeString(ArrayRef<int64_t> shape) {
  std::string s = "(";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? ", " : "") + std::to_string(d);
  return s + (shape.size() == 1 ? ",)" : ")");
}

static void printArray(llvm::raw_ostream &os, Type elemType,
                       ArrayRef<int64_t> shape, const uint8_t *data,
                       unsigned elemBytes) {
  if (shape.empty()) {
    os << formatElement(elemType, data);
    return;
  }
  int64_t inner = 1;
  for (int64_t d : shape.drop_front())
    inner *= d;
  os << "[";
  for (int64_t i = 0; i < shape[0]; ++i) {
    if (i)
      os << ", ";
    printArray(os, elemType, shape.drop_front(), data + i * inner * elemBytes,
               elemBytes);
  }
  os << "]";
}

/// The element type a .npy view's dtype stands for, for printing.
static Type viewElementType(MLIRContext *ctx, const NpyHeader &view) {
  Builder b(ctx);
  switch (view.kind) {
  case 'f':
    return view.elemBytes == 2   ? Type(b.getF16Type())
           : view.elemBytes == 4 ? Type(b.getF32Type())
                                 : Type(b.getF64Type());
  case 'b':
    return b.getI1Type();
  default:
    return b.getIntegerType(view.elemBytes * 8);
  }
}

//===----------------------------------------------------------------------===//
// Arguments
//===----------------------------------------------------------------------===//

/// The packed-call slots of one entry argument.
struct Argument {
  Type type;
  std::optional<Array> memref; // memref arguments only
  SmallVector<void *> slots;
};

static Array arrayFromNpy(unsigned index, StringRef path, Type elemType,
                          ArrayRef<int64_t> wantShape, Type argType,
                          bool isMemRef) {
  std::string what = "argument " + std::to_string(index);
  // The payload goes straight from the (mapped) file into the argument's
  // memory: the one copy of each array.
  uint8_t *data = nullptr;
  llvm::Expected<NpyHeader> npy = readNpy(path, [&](uint64_t bytes) {
    return data = allocate(bytes, /*zeroed=*/false);
  });
  if (!npy)
    exitOnError(npy.takeError(), what);
  uint64_t dataBytes = npy->dataBytes();
  std::optional<std::pair<char, unsigned>> want = dtypeOf(elemType);
  if (!want)
    fatal(what + ": no NumPy dtype holds element type " +
          llvm::Twine(llvm::StringRef(
              [&] {
                std::string s;
                llvm::raw_string_ostream os(s);
                os << argType;
                return s;
              }())));
  std::string typeText;
  llvm::raw_string_ostream typeOs(typeText);
  typeOs << argType;

  Array array;
  array.elemType = elemType;
  // A 1-D i8 memref is a byte buffer (a matrix, a bias): any array fills it
  // with its raw bytes.
  bool byteBuffer = isMemRef && elemType.isInteger(8) && wantShape.size() == 1;
  if (byteBuffer) {
    array.shape = {static_cast<int64_t>(dataBytes)};
  } else {
    if (!dtypeMatches({npy->kind, npy->elemBytes}, *want))
      fatal(what + " ('" + path + "'): dtype " + npy->descr() +
            " does not match " + typeText + " (expected " + dtypeName(*want) +
            ")");
    array.shape.assign(npy->shape.begin(), npy->shape.end());
  }
  if (array.shape.size() != wantShape.size())
    fatal(what + " ('" + path + "'): shape " + shapeString(npy->shape) +
          " does not match " + typeText + " (rank " +
          llvm::Twine(wantShape.size()) + ")");
  for (auto [have, need] : llvm::zip(array.shape, wantShape))
    if (!ShapedType::isDynamic(need) && have != need)
      fatal(what + " ('" + path + "'): shape " +
            shapeString(byteBuffer ? ArrayRef<int64_t>(array.shape)
                                   : ArrayRef<int64_t>(npy->shape)) +
            " does not match " + typeText);
  // An empty array allocated nothing: give it its own (empty) memory.
  array.data = data ? data : allocate(0);
  array.view = std::move(*npy);
  return array;
}

static Array arrayFromLiteral(unsigned index, StringRef text, Type elemType,
                              ArrayRef<int64_t> wantShape, Type argType) {
  std::string what = "argument " + std::to_string(index);
  std::string typeText;
  llvm::raw_string_ostream typeOs(typeText);
  typeOs << argType;
  std::string flat = text.str();
  for (char &c : flat)
    if (c == '[' || c == ']' || c == ',')
      c = ' ';
  SmallVector<StringRef> tokens;
  StringRef(flat).split(tokens, ' ', -1, /*KeepEmpty=*/false);

  Array array;
  array.elemType = elemType;
  array.shape.assign(wantShape.begin(), wantShape.end());
  if (array.shape.size() == 1 && ShapedType::isDynamic(array.shape[0]))
    array.shape[0] = tokens.size();
  int64_t count = 1;
  for (int64_t d : array.shape) {
    if (ShapedType::isDynamic(d))
      fatal(what + ": a literal cannot fill " + typeText +
            " (several dynamic dimensions); give a .npy file");
    if (llvm::MulOverflow(count, d, count))
      fatal(what + ": " + typeText + " is too large");
  }
  if (static_cast<int64_t>(tokens.size()) != count)
    fatal(what + ": literal '" + text + "' has " +
          llvm::Twine(tokens.size()) + " elements, but " + typeText +
          " needs " + llvm::Twine(count));
  unsigned bytes = *elementBytes(elemType);
  array.data = allocate(count * bytes);
  for (auto [i, token] : llvm::enumerate(tokens))
    if (!parseElement(token, elemType, array.data + i * bytes))
      fatal(what + ": '" + token + "' is not a valid " +
            llvm::Twine(llvm::StringRef([&] {
              std::string s;
              llvm::raw_string_ostream os(s);
              os << elemType;
              return s;
            }())) +
            " value");
  return array;
}

static Argument buildArgument(unsigned index, StringRef text, Type type) {
  Argument arg;
  arg.type = type;
  std::string what = "argument " + std::to_string(index);
  std::string typeText;
  llvm::raw_string_ostream typeOs(typeText);
  typeOs << type;
  bool isFile = text.ends_with(".npy");

  if (auto memrefType = dyn_cast<MemRefType>(type)) {
    if (!memrefType.getLayout().isIdentity() || !elementBytes(memrefType.getElementType()))
      fatal(what + ": unsupported argument type " + typeText +
            " (identity-layout memrefs of integers, index and f16/bf16/f32/"
            "f64 are)");
    Array array =
        isFile ? arrayFromNpy(index, text, memrefType.getElementType(),
                              memrefType.getShape(), type, /*isMemRef=*/true)
               : arrayFromLiteral(index, text, memrefType.getElementType(),
                                  memrefType.getShape(), type);
    // Descriptor: allocated, aligned, offset, sizes..., strides...
    auto *fields = reinterpret_cast<int64_t *>(
        allocate(8 * (3 + 2 * array.shape.size())));
    fields[0] = fields[1] = reinterpret_cast<intptr_t>(array.data);
    fields[2] = 0;
    size_t rank = array.shape.size();
    int64_t stride = 1;
    for (size_t d = rank; d-- > 0;) {
      fields[3 + d] = array.shape[d];
      fields[3 + rank + d] = stride;
      stride *= array.shape[d];
    }
    for (size_t i = 0; i < 3 + 2 * rank; ++i)
      arg.slots.push_back(&fields[i]);
    arg.memref = std::move(array);
    return arg;
  }
  if (auto vectorType = dyn_cast<VectorType>(type)) {
    if (vectorType.isScalable() || vectorType.getRank() != 1 ||
        !elementBytes(vectorType.getElementType()) ||
        vectorType.getElementType().isInteger(1))
      fatal(what + ": unsupported argument type " + typeText +
            " (1-D vectors of integers, index and floats are)");
    Array array =
        isFile ? arrayFromNpy(index, text, vectorType.getElementType(),
                              vectorType.getShape(), type, /*isMemRef=*/false)
               : arrayFromLiteral(index, text, vectorType.getElementType(),
                                  vectorType.getShape(), type);
    arg.slots.push_back(array.data);
    return arg;
  }
  if (!elementBytes(type))
    fatal(what + ": unsupported argument type " + typeText);
  if (isFile)
    fatal(what + ": scalar " + typeText + " takes an inline literal, not '" +
          text + "'");
  uint8_t *slot = allocate(8);
  if (!parseElement(text, type, slot))
    fatal(what + ": '" + text + "' is not a valid " + typeText + " value");
  arg.slots.push_back(slot);
  return arg;
}

//===----------------------------------------------------------------------===//
// Results
//===----------------------------------------------------------------------===//

/// Where one result lives in the value the packed wrapper stores: LLVM's
/// layout of its lowered type (x86-64 and AArch64 data layouts agree here).
struct ResultLayout {
  Type type;
  uint64_t size = 0, align = 1, offset = 0;
};

/// The length of the 1-D LLVM vectors an n-D vector lowers to (an array of
/// them); a 0-D vector is a 1-element vector.
static int64_t innerLength(VectorType type) {
  return type.getRank() ? type.getShape().back() : 1;
}

static ResultLayout layoutOf(Type type) {
  ResultLayout l;
  l.type = type;
  std::string typeText;
  llvm::raw_string_ostream os(typeText);
  os << type;
  if (auto memrefType = dyn_cast<MemRefType>(type)) {
    if (!elementBytes(memrefType.getElementType()))
      fatal("unsupported result type " + typeText);
    l.size = 8 * (3 + 2 * memrefType.getRank());
    l.align = 8;
    return l;
  }
  if (auto vectorType = dyn_cast<VectorType>(type)) {
    Type elem = vectorType.getElementType();
    if (vectorType.isScalable() || !elementBytes(elem) || elem.isInteger(1))
      fatal("unsupported result type " + typeText);
    // A vector is aligned to its size rounded up to a power of two.
    int64_t last = innerLength(vectorType);
    uint64_t inner = last * *elementBytes(elem);
    l.align = llvm::PowerOf2Ceil(inner);
    uint64_t count = vectorType.getNumElements() / last;
    l.size = count * llvm::alignTo(inner, l.align);
    return l;
  }
  std::optional<unsigned> bytes = elementBytes(type);
  if (!bytes)
    fatal("unsupported result type " + typeText);
  l.size = l.align = *bytes;
  return l;
}

/// A result as an array (a scalar has shape ()).
/// Frees the buffers that the memref results in `base` own: the program
/// allocated them (memref.alloc: malloc). A result's buffer is left alone
/// when it is an argument's (a result may return an argument),
/// memref.get_global's (allocated pointer 0xdeadbeef) or an earlier
/// result's.
static void freeMemRefResults(ArrayRef<ResultLayout> results, uint8_t *base,
                              ArrayRef<Argument> args) {
  llvm::SmallPtrSet<void *, 4> seen;
  for (const ResultLayout &l : results) {
    if (!isa<MemRefType>(l.type))
      continue;
    void *allocated = *reinterpret_cast<void **>(base + l.offset);
    if (!allocated || allocated == reinterpret_cast<void *>(0xdeadbeef) ||
        !seen.insert(allocated).second)
      continue;
    if (llvm::none_of(args, [&](const Argument &arg) {
          return arg.memref && arg.memref->data == allocated;
        }))
      std::free(allocated);
  }
}

static Array resultArray(const ResultLayout &l, uint8_t *base) {
  Array array;
  uint8_t *at = base + l.offset;
  if (auto memrefType = dyn_cast<MemRefType>(l.type)) {
    auto *fields = reinterpret_cast<int64_t *>(at);
    unsigned rank = memrefType.getRank();
    array.elemType = memrefType.getElementType();
    unsigned bytes = *elementBytes(array.elemType);
    auto *aligned = reinterpret_cast<uint8_t *>(fields[1]);
    int64_t count = 1;
    for (unsigned d = 0; d < rank; ++d) {
      array.shape.push_back(fields[3 + d]);
      count *= fields[3 + d];
    }
    // Gather through the strides into C order.
    array.data = allocate(count * bytes);
    for (int64_t i = 0; i < count; ++i) {
      int64_t rest = i, element = fields[2];
      for (unsigned d = rank; d-- > 0;) {
        element += (rest % array.shape[d]) * fields[3 + rank + d];
        rest /= array.shape[d];
      }
      std::memcpy(array.data + i * bytes, aligned + element * bytes, bytes);
    }
    return array;
  }
  if (auto vectorType = dyn_cast<VectorType>(l.type)) {
    array.elemType = vectorType.getElementType();
    array.shape.assign(vectorType.getShape().begin(),
                       vectorType.getShape().end());
    unsigned bytes = *elementBytes(array.elemType);
    int64_t last = innerLength(vectorType);
    uint64_t inner = last * bytes;
    uint64_t rows = vectorType.getNumElements() / last;
    array.data = allocate(vectorType.getNumElements() * bytes);
    for (uint64_t r = 0; r < rows; ++r)
      std::memcpy(array.data + r * inner,
                  at + r * llvm::alignTo(inner, l.align), inner);
    return array;
  }
  array.elemType = l.type;
  array.data = at;
  return array;
}

/// Saves `array` as a .npy file, with the dtype and shape it was read with
/// if it came from one.
static void saveArray(StringRef path, const Array &array) {
  NpyHeader header;
  if (array.view) {
    header = *array.view;
  } else {
    std::optional<std::pair<char, unsigned>> dtype = dtypeOf(array.elemType);
    if (!dtype)
      fatal("no NumPy dtype holds the element type of a result to save");
    header.kind = dtype->first;
    header.elemBytes = dtype->second;
    header.shape = array.shape;
  }
  exitOnError(writeNpy(path, header,
                       ArrayRef<uint8_t>(array.data, header.dataBytes())));
}

static void printArrayValue(llvm::raw_ostream &os, MLIRContext *ctx,
                            const Array &array) {
  if (array.view) {
    printArray(os, viewElementType(ctx, *array.view), array.view->shape,
               array.data, array.view->elemBytes);
    return;
  }
  printArray(os, array.elemType, array.shape, array.data,
             *elementBytes(array.elemType));
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

/// Prints each diagnostic as one line: `file:line:col: error: message`.
static void installDiagnosticPrinter(MLIRContext &context) {
  context.getDiagEngine().registerHandler([](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Note)
      return success();
    const char *kind = diag.getSeverity() == DiagnosticSeverity::Error
                           ? "error"
                       : diag.getSeverity() == DiagnosticSeverity::Warning
                           ? "warning"
                           : "remark";
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      diagnosed = true;
    llvm::outs().flush();
    llvm::errs() << "coopvec-run: " << formatLocation(diag.getLocation())
                 << ": " << kind << ": " << diag.str() << "\n";
    return success();
  });
}

/// The runtime reports a failed kernel status and then calls this: the run
/// stops with exit code 1 like every other error.
static void onRuntimeError(int32_t, const char *) {
  std::fflush(stdout);
  std::_Exit(1);
}

/// Whether the lowered module calls MLIR's async runtime (what
/// convert-async-to-llvm emits for async-parallel-for's tasks; the
/// mlirAsyncRuntim prefix also covers its mlirAsyncRuntimGetNumWorkerThreads).
static bool callsAsyncRuntime(ModuleOp module) {
  WalkResult found = module.walk([](LLVM::CallOp call) {
    std::optional<StringRef> callee = call.getCallee();
    return callee && callee->starts_with("mlirAsyncRuntim")
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return found.wasInterrupted();
}

/// LLVM's x86 instruction selection fails with an LLVM ERROR (its store
/// splitting overflows) on vectors of more than this many elements.
static constexpr int64_t kMaxCodegenVectorElements = 32768;

/// Reports, at its op, a vector in the lowered module that LLVM cannot
/// compile, before the JIT would abort on it.
static LogicalResult checkVectorSizes(ModuleOp module) {
  WalkResult result = module.walk([](Operation *op) {
    for (TypeRange types : {TypeRange(op->getOperandTypes()),
                            TypeRange(op->getResultTypes())})
      for (Type type : types)
        if (auto vectorType = dyn_cast<VectorType>(type);
            vectorType &&
            vectorType.getNumElements() > kMaxCodegenVectorElements) {
          op->emitError() << type << " has " << vectorType.getNumElements()
                          << " elements; LLVM's code generator takes at most "
                          << kMaxCodegenVectorElements
                          << " per vector (use a memref)";
          return WalkResult::interrupt();
        }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// `given`, or the library `name` in ../lib next to this executable.
static std::string findLibrary(const char *argv0, StringRef given,
                               StringRef name) {
  if (!given.empty())
    return given.str();
  static int anchor;
  std::string exe = llvm::sys::fs::getMainExecutable(argv0, &anchor);
  llvm::SmallString<256> path(llvm::sys::path::parent_path(exe));
  llvm::sys::path::append(path, "..", "lib", name);
  return std::string(path);
}

static std::string findRuntimeLibrary(const char *argv0) {
  return findLibrary(argv0, runtimeLib, "libcoopvec_runtime.so");
}

//===----------------------------------------------------------------------===//
// GPU programs
//===----------------------------------------------------------------------===//

/// Whether `module` has gpu.launch regions, which gpu-kernel-outlining turns
/// into kernels first.
static bool hasInlineKernels(ModuleOp module) {
  return module
      .walk([](gpu::LaunchOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

/// Whether `module` is a GPU program: kernels in gpu.modules (or already
/// compiled to gpu.binary) that its host code launches, or gpu.launch
/// regions.
static bool isGpuProgram(ModuleOp module) {
  if (module->hasAttr(gpu::GPUDialect::getContainerModuleAttrName()))
    return true;
  return !module.getOps<gpu::GPUModuleOp>().empty() ||
         !module.getOps<gpu::BinaryOp>().empty() || hasInlineKernels(module);
}

/// The device-side pipeline: every gpu.module compiled for `chip` into a
/// gpu.binary holding a cubin, leaving the host code as it is.
/// The device side of a GPU program: coopvec-nvvm-pipeline (the profile
/// check, convert-coopvec-to-nvvm, convert-gpu-to-nvvm, a cubin by ptxas).
static std::string buildGpuDevicePipeline(StringRef chip) {
  return ("coopvec-nvvm-pipeline{chip=" + chip + " format=bin}").str();
}

/// The Vulkan runtime's entry points, loaded from its library.
struct VulkanRuntime {
  decltype(&coopvecVulkanProbe) probe = nullptr;
  decltype(&coopvecVulkanEnableValidation) enableValidation = nullptr;
  decltype(&coopvecVulkanValidationMessages) validationMessages = nullptr;
  decltype(&coopvecVulkanSetErrorPrefix) setErrorPrefix = nullptr;
};

/// Loads libcoopvec_vulkan_runtime.so into the process (where the JIT finds
/// its mgpu* functions too) and resolves its own functions.
static VulkanRuntime loadVulkanRuntime(const std::string &path) {
  if (!llvm::sys::fs::exists(path))
    fatal("cannot find the Vulkan runtime library '" + path +
          "' (use --vulkan-runtime-lib; it is built where CMake finds "
          "Vulkan)");
  std::string error;
  llvm::sys::DynamicLibrary library =
      llvm::sys::DynamicLibrary::getPermanentLibrary(path.c_str(), &error);
  if (!library.isValid())
    fatal("cannot load the Vulkan runtime library '" + path + "': " + error);
  VulkanRuntime runtime;
  runtime.probe = reinterpret_cast<decltype(runtime.probe)>(
      library.getAddressOfSymbol("coopvecVulkanProbe"));
  runtime.enableValidation =
      reinterpret_cast<decltype(runtime.enableValidation)>(
          library.getAddressOfSymbol("coopvecVulkanEnableValidation"));
  runtime.validationMessages =
      reinterpret_cast<decltype(runtime.validationMessages)>(
          library.getAddressOfSymbol("coopvecVulkanValidationMessages"));
  runtime.setErrorPrefix = reinterpret_cast<decltype(runtime.setErrorPrefix)>(
      library.getAddressOfSymbol("coopvecVulkanSetErrorPrefix"));
  if (!runtime.probe || !runtime.enableValidation ||
      !runtime.validationMessages || !runtime.setErrorPrefix)
    fatal("'" + path + "' is not the coopvec Vulkan runtime library");
  runtime.setErrorPrefix("coopvec-run: ");
  return runtime;
}

/// The coopvec NVIDIA profile whose cubin runs on a device of compute
/// capability sm_<major><minor>: a cubin runs on later minor versions of its
/// major one, an arch-specific (`a`) one only on its own.
static FailureOr<std::string> profileForDevice(int major, int minor) {
  int cc = major * 10 + minor;
  if (cc >= 80 && cc < 89)
    return std::string("sm_80");
  if (cc == 89)
    return std::string("sm_89");
  if (major == 9)
    return std::string("sm_90");
  if (cc == 100)
    return std::string("sm_100a");
  if (cc == 120)
    return std::string("sm_120a");
  return failure();
}

/// The CUDA runtime's probing entry points, loaded from its library.
struct CudaRuntime {
  decltype(&coopvecCudaProbe) probe = nullptr;
  decltype(&coopvecCudaComputeCapability) computeCapability = nullptr;
  decltype(&coopvecCudaSetErrorPrefix) setErrorPrefix = nullptr;
};

/// Loads libcoopvec_cuda_runtime.so into the process (where the JIT finds
/// its mgpu* functions too) and resolves its probing functions.
static CudaRuntime loadCudaRuntime(const std::string &path) {
  if (!llvm::sys::fs::exists(path))
    fatal("cannot find the CUDA runtime library '" + path +
          "' (use --cuda-runtime-lib)");
  std::string error;
  llvm::sys::DynamicLibrary library =
      llvm::sys::DynamicLibrary::getPermanentLibrary(path.c_str(), &error);
  if (!library.isValid())
    fatal("cannot load the CUDA runtime library '" + path + "': " + error);
  CudaRuntime runtime;
  runtime.probe = reinterpret_cast<decltype(runtime.probe)>(
      library.getAddressOfSymbol("coopvecCudaProbe"));
  runtime.computeCapability =
      reinterpret_cast<decltype(runtime.computeCapability)>(
          library.getAddressOfSymbol("coopvecCudaComputeCapability"));
  runtime.setErrorPrefix = reinterpret_cast<decltype(runtime.setErrorPrefix)>(
      library.getAddressOfSymbol("coopvecCudaSetErrorPrefix"));
  if (!runtime.probe || !runtime.computeCapability || !runtime.setErrorPrefix)
    fatal("'" + path + "' is not the coopvec CUDA runtime library");
  runtime.setErrorPrefix("coopvec-run: ");
  return runtime;
}

/// The profile (sm_80, sm_89, sm_90, sm_100a, sm_120a) whose code runs on
/// CUDA device 0, or why there is none.
static FailureOr<std::string> probeGpuChip(const CudaRuntime &runtime,
                                           std::string &reason) {
  char message[1024];
  int major = 0, minor = 0;
  if (runtime.probe(message, sizeof(message)) ||
      runtime.computeCapability(0, &major, &minor, message, sizeof(message))) {
    reason = message;
    return failure();
  }
  FailureOr<std::string> profile = profileForDevice(major, minor);
  if (failed(profile))
    reason = "device 0 is sm_" + std::to_string(major) +
             std::to_string(minor) +
             ", which no coopvec NVIDIA profile (sm_80, sm_89, sm_90, "
             "sm_100a, sm_120a) targets; --gpu-chip names one";
  return profile;
}

/// Whether `chip` names an NVIDIA architecture as NVPTX spells it: sm_XY,
/// with an optional a/f suffix (sm_90a).
static bool isChipName(StringRef chip) {
  if (!chip.consume_front("sm_"))
    return false;
  if (!chip.consume_back("a"))
    chip.consume_back("f");
  unsigned version;
  return !chip.empty() && llvm::all_of(chip, llvm::isDigit) &&
         !chip.getAsInteger(10, version) && version >= 20;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  mlir::coopvec::registerAllPasses();
  cl::HideUnrelatedOptions(runCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "coopvec JIT runner\n\n"
      "Lowers a coopvec program with --coopvec-cpu-pipeline (or "
      "--pass-pipeline), JITs it against libcoopvec_runtime.so and runs the "
      "entry function:\n"
      "  coopvec-run prog.mlir -e mlp --arg w.npy --arg x.npy --arg 3 -o y.npy\n"
      "Memref arguments come from .npy files (dtype and static dimensions "
      "are checked; a 1-D i8 memref takes any array as raw bytes) or inline "
      "lists; vectors from lists or .npy files; scalars from literals.\n"
      "GPU programs (gpu.container_module) run on CUDA device 0: their "
      "gpu.modules are compiled for its chip (or --gpu-chip), the host code "
      "calls libcoopvec_cuda_runtime.so, which loads the CUDA driver "
      "(libcuda.so.1); without a driver or a GPU coopvec-run says so and "
      "exits with 1. With --gpu-api=vulkan they become SPIR-V compute "
      "shaders run through libcoopvec_vulkan_runtime.so on a Vulkan 1.3 "
      "device (lavapipe on a CPU-only machine).\n");

  if (probeGpu && gpuApi == GpuApi::Vulkan) {
    VulkanRuntime runtime = loadVulkanRuntime(findLibrary(
        argv[0], vulkanRuntimeLib, "libcoopvec_vulkan_runtime.so"));
    char message[1024];
    if (runtime.probe(message, sizeof(message)))
      fatal(message);
    llvm::outs() << message << "\n";
    return 0;
  }
  if (probeGpu) {
    CudaRuntime runtime =
        loadCudaRuntime(findLibrary(argv[0], cudaRuntimeLib,
                                    "libcoopvec_cuda_runtime.so"));
    std::string reason;
    FailureOr<std::string> chip = probeGpuChip(runtime, reason);
    if (failed(chip))
      fatal(reason);
    llvm::outs() << *chip << "\n";
    return 0;
  }

  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  DialectRegistry registry;
  mlir::coopvec::registerAllDialects(registry);
  // GPU programs: #nvvm.target serializes gpu.modules; gpu.binary and
  // gpu.launch_func translate to the mgpu* calls.
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerAllToLLVMIRTranslations(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  installDiagnosticPrinter(context);

  // Parse and find the entry before lowering: its signature in terms of
  // memrefs and vectors drives argument checking.
  std::string errorMessage;
  auto sourceFile = openInputFile(inputFile, &errorMessage);
  if (!sourceFile)
    fatal(errorMessage);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(sourceFile), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;
  auto entry = module->lookupSymbol<func::FuncOp>(entryName);
  if (!entry || entry.isExternal())
    fatal("no function @" + entryName + " with a body in '" + inputFile + "'");
  FunctionType signature = entry.getFunctionType();

  // A GPU program needs the driver and a GPU before anything else is done,
  // unless it is only lowered for a chip that --gpu-chip names.
  bool gpuProgram = isGpuProgram(*module);
  std::string chip = gpuChip;
  std::string gpuRuntimePath;
  std::optional<VulkanRuntime> vulkan;
  bool onVulkan = gpuApi == GpuApi::Vulkan;
  if (!chip.empty() && (onVulkan || !isChipName(chip)))
    fatal("--gpu-chip=" + chip + (onVulkan ? " is for --gpu-api=cuda"
                                           : " is not an NVIDIA chip name "
                                             "like sm_80"));
  if (gpuProgram && onVulkan) {
    gpuRuntimePath = findLibrary(argv[0], vulkanRuntimeLib,
                                 "libcoopvec_vulkan_runtime.so");
    vulkan = loadVulkanRuntime(gpuRuntimePath);
    if (vulkanValidation)
      vulkan->enableValidation(1);
    char message[1024];
    // --print-lowered needs no device: SPIR-V is the same for all.
    if (!printLowered && vulkan->probe(message, sizeof(message)))
      fatal("'" + inputFile + "' is a GPU program (gpu.container_module), "
            "but no Vulkan device can run it: " + message);
  } else if (gpuProgram && !(printLowered && !chip.empty())) {
    gpuRuntimePath =
        findLibrary(argv[0], cudaRuntimeLib, "libcoopvec_cuda_runtime.so");
    CudaRuntime runtime = loadCudaRuntime(gpuRuntimePath);
    std::string reason;
    FailureOr<std::string> deviceChip = probeGpuChip(runtime, reason);
    if (failed(deviceChip))
      fatal("'" + inputFile + "' is a GPU program (gpu.container_module), "
            "but no NVIDIA GPU can run it: " + reason +
            (printLowered ? "; --gpu-chip=sm_XY lowers it without one" : ""));
    if (chip.empty())
      chip = *deviceChip;
  }

  if (!entryResult.empty()) {
    StringRef want = entryResult;
    bool ok = want == "void"
                  ? signature.getNumResults() == 0
                  : signature.getNumResults() == 1 &&
                        ((want == "i32" && signature.getResult(0).isInteger(32)) ||
                         (want == "i64" && signature.getResult(0).isInteger(64)) ||
                         (want == "f32" && signature.getResult(0).isF32()));
    if (want != "void" && want != "i32" && want != "i64" && want != "f32")
      fatal("--entry-point-result=" + want + " is not one of void, i32, i64, "
            "f32");
    if (!ok)
      fatal("--entry-point-result=" + want + ", but @" + entryName +
            " returns " + std::to_string(signature.getNumResults()) +
            " result(s) of other types");
  }
  if (argValues.size() != signature.getNumInputs())
    fatal("@" + entryName + " takes " + llvm::Twine(signature.getNumInputs()) +
          " argument(s), but " + llvm::Twine(argValues.size()) +
          " were given (--arg)");
  if (outputFiles.size() > signature.getNumResults())
    fatal(llvm::Twine(outputFiles.size()) + " output file(s) (-o), but @" +
          entryName + " has " + llvm::Twine(signature.getNumResults()) +
          " result(s)");
  if (invocations == 0 || repeat == 0)
    fatal("--invocations and --repeat must be at least 1");

  using Clock = std::chrono::steady_clock;
  Clock::time_point parsed = Clock::now();
  std::vector<Argument> args;
  args.reserve(signature.getNumInputs());
  for (auto [i, type] : llvm::enumerate(signature.getInputs()))
    args.push_back(buildArgument(i, argValues[i], type));
  Clock::time_point loaded = Clock::now();

  SmallVector<std::pair<unsigned, std::string>> argOutputs;
  for (StringRef spec : outArgs) {
    auto [indexText, path] = spec.split('=');
    unsigned index;
    if (indexText.getAsInteger(10, index) || path.empty())
      fatal("--out-arg=" + spec + " is not N=FILE");
    if (index >= args.size() || !args[index].memref)
      fatal("--out-arg=" + spec + ": argument " + indexText +
            " is not a memref argument");
    argOutputs.emplace_back(index, path.str());
  }

  // Results: one value, or an LLVM struct of them.
  SmallVector<ResultLayout> results;
  uint64_t resultSize = 0, resultAlign = 1;
  for (Type type : signature.getResults()) {
    ResultLayout l = layoutOf(type);
    l.offset = llvm::alignTo(resultSize, l.align);
    resultSize = l.offset + l.size;
    resultAlign = std::max(resultAlign, l.align);
    results.push_back(l);
  }

  // Lower.
  PassManager pm(&context);
  if (!passPipeline.empty()) {
    std::string pipelineError;
    llvm::raw_string_ostream errorStream(pipelineError);
    // "builtin.module(...)" names the anchor that `pm` already has; a bare
    // list of passes is added to it directly.
    StringRef text = StringRef(passPipeline).trim();
    LogicalResult parsed = failure();
    if (text.starts_with("builtin.module(")) {
      FailureOr<OpPassManager> anchored = parsePassPipeline(text, errorStream);
      if (succeeded(anchored)) {
        static_cast<OpPassManager &>(pm) = std::move(*anchored);
        parsed = success();
      }
    } else {
      parsed = parsePassPipeline(text, pm, errorStream);
    }
    if (failed(parsed))
      fatal("invalid --pass-pipeline: " +
            StringRef(pipelineError).trim().split('\n').first);
  } else {
    // gpu.launch regions become gpu.launch_func of outlined kernels.
    if (gpuProgram && hasInlineKernels(*module))
      pm.addPass(createGpuKernelOutliningPass());
    if (gpuProgram && onVulkan) {
      mlir::coopvec::CoopVecVulkanPipelineOptions vulkanOptions;
      vulkanOptions.fma = vulkanFma;
      SmallVector<int32_t> workgroupSize(vulkanWorkgroupSize.begin(),
                                         vulkanWorkgroupSize.end());
      vulkanOptions.workgroupSize = workgroupSize;
      mlir::coopvec::buildCoopVecVulkanPipeline(pm, vulkanOptions);
    } else if (gpuProgram) {
      std::string pipelineError;
      llvm::raw_string_ostream errorStream(pipelineError);
      if (failed(parsePassPipeline(buildGpuDevicePipeline(chip), pm,
                                   errorStream)))
        fatal("the GPU device pipeline is invalid: " +
              StringRef(pipelineError).trim().split('\n').first);
    }
    mlir::coopvec::CoopVecCPUPipelineOptions options;
    options.numThreads = numThreads;
    options.boundsChecks = !noBoundsChecks;
    options.parallelLoops = !sequentialLoops;
    options.gpuHost = gpuProgram;
    mlir::coopvec::buildCoopVecCPUPipeline(pm, options);
  }
  Clock::time_point lowerStart = Clock::now();
  if (failed(pm.run(*module))) {
    // The failing pass reported why, one line per diagnostic.
    if (diagnosed)
      return 1;
    fatal("the pass pipeline failed on '" + inputFile + "'");
  }
  if (printLowered) {
    module->print(llvm::outs());
    return 0;
  }
  Clock::time_point lowered = Clock::now();

  // JIT.
  if (failed(checkVectorSizes(*module)))
    return 1;
  std::string runtimePath = findRuntimeLibrary(argv[0]);
  if (!llvm::sys::fs::exists(runtimePath))
    fatal("cannot find the runtime library '" + runtimePath +
          "' (use --runtime-lib)");
  SmallVector<StringRef> libs{runtimePath};
  if (gpuProgram)
    libs.push_back(gpuRuntimePath);
  for (const std::string &lib : sharedLibs) {
    if (!llvm::sys::fs::exists(lib))
      fatal("cannot find shared library '" + lib + "' (--shared-libs)");
    libs.push_back(lib);
  }
  // Parallel loops lowered by async-parallel-for call MLIR's async runtime
  // (unless --shared-libs already names it, as mlir-runner users do).
  bool asyncGiven = llvm::any_of(sharedLibs, [](const std::string &lib) {
    return llvm::sys::path::filename(lib).starts_with("libmlir_async_runtime");
  });
  if (!asyncGiven && callsAsyncRuntime(*module)) {
    if (asyncRuntimeLib.empty() || !llvm::sys::fs::exists(asyncRuntimeLib))
      fatal("the program runs parallel loops on MLIR's async runtime, but "
            "its library '" + asyncRuntimeLib +
            "' is missing (use --async-runtime-lib or --sequential-loops)");
    libs.push_back(asyncRuntimeLib);
  }
  if (optLevel > 3)
    fatal("-O" + llvm::Twine(optLevel) + " is not an optimization level (0-3)");
  auto transformer = makeOptimizingTransformer(optLevel, /*sizeLevel=*/0,
                                               /*targetMachine=*/nullptr);
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = transformer;
  engineOptions.jitCodeGenOptLevel =
      static_cast<llvm::CodeGenOptLevel>(optLevel.getValue());
  engineOptions.sharedLibPaths = libs;
  auto engine = ExecutionEngine::create(*module, engineOptions);
  if (!engine)
    exitOnError(engine.takeError(), "cannot JIT '" + inputFile + "'");
  if (auto *setHandler = reinterpret_cast<void (*)(CoopVecCpuErrorHandler)>(
          llvm::sys::DynamicLibrary::SearchForAddressOfSymbol(
              "coopvecCpuSetErrorHandler")))
    setHandler(onRuntimeError);
  // Run the global constructors: a GPU program's load its kernels
  // (gpu.binary).
  (*engine)->initialize();
  auto function = (*engine)->lookupPacked(entryName);
  if (!function)
    exitOnError(function.takeError(), "cannot find the JIT-compiled @" +
                                          entryName);
  Clock::time_point compiled = Clock::now();

  // Run.
  SmallVector<void *> packed;
  for (Argument &arg : args)
    packed.append(arg.slots.begin(), arg.slots.end());
  SmallVector<uint8_t *> resultStorage;
  for (unsigned i = 0; i < invocations; ++i)
    resultStorage.push_back(allocate(std::max<uint64_t>(resultSize, 8)));
  auto invoke = [&](unsigned invocation) {
    SmallVector<void *> call(packed);
    if (!results.empty())
      call.push_back(resultStorage[invocation]);
    for (unsigned r = 0; r < repeat; ++r) {
      (*function)(call.data());
      if (r + 1 < repeat && !results.empty())
        freeMemRefResults(results, resultStorage[invocation], args);
    }
  };
  if (invocations == 1) {
    invoke(0);
  } else {
    std::vector<std::thread> threads;
    for (unsigned i = 0; i < invocations; ++i)
      threads.emplace_back(invoke, i);
    for (std::thread &t : threads)
      t.join();
  }
  Clock::time_point finished = Clock::now();

  // Report.
  for (auto [i, l] : llvm::enumerate(results)) {
    Array array = resultArray(l, resultStorage[0]);
    if (!noPrint) {
      printArrayValue(llvm::outs(), &context, array);
      llvm::outs() << "\n";
    }
    if (i < outputFiles.size())
      saveArray(outputFiles[i], array);
  }
  if (printArgs)
    for (auto [i, arg] : llvm::enumerate(args))
      if (arg.memref) {
        llvm::outs() << "arg " << i << ": ";
        printArrayValue(llvm::outs(), &context, *arg.memref);
        llvm::outs() << "\n";
      }
  for (auto &[index, path] : argOutputs)
    saveArray(path, *args[index].memref);
  llvm::outs().flush();
  if (!results.empty())
    for (uint8_t *storage : resultStorage)
      freeMemRefResults(results, storage, args);
  Clock::time_point reported = Clock::now();
  // The DXIL software driver (host-driver=true) reports invalid calls and
  // goes on, as a GPU would; a run that leaves its sticky error flag set
  // failed.
  bool dxilErrors = false;
  if (auto *getError = reinterpret_cast<uint32_t (*)()>(
          llvm::sys::DynamicLibrary::SearchForAddressOfSymbol(
              "coopvecDxGetError")))
    dxilErrors = getError() != 0;
  if (timing) {
    using ms = std::chrono::duration<double, std::milli>;
    llvm::errs() << llvm::format(
        "coopvec-run: parse+lower: %.3f ms, JIT: %.3f ms, arguments: %.3f ms, "
        "run: %.3f ms (%u call(s) x %u invocation(s)), results: %.3f ms\n",
        ms((parsed - start) + (lowered - lowerStart)).count(),
        ms(compiled - lowered).count(), ms(loaded - parsed).count(),
        ms(finished - compiled).count(), repeat.getValue(),
        invocations.getValue(), ms(reported - finished).count());
  }
  // So does one the Vulkan validation layer reported on (the runtime
  // printed each message).
  unsigned validationMessages = vulkan ? vulkan->validationMessages() : 0;
  if (validationMessages)
    llvm::errs() << "coopvec-run: error: the Vulkan validation layer reported "
                 << validationMessages << " message(s)\n";
  return dxilErrors || validationMessages ? 1 : 0;
}
