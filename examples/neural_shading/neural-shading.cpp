//===- neural-shading.cpp - Frames, images and PSNR of the neural shader --===//
//
// The host side of examples/neural_shading: writes the per-pixel feature
// matrix the network (shade_frame.mlir) consumes, renders the analytic
// reference image, turns the network's radiance into an image and measures
// its PSNR, and evaluates the network with plain scalar C++ so that the
// trained weights can be judged independently of the compiler.
//
//   neural-shading features    --width W --height H -o features.npy
//                              [--rgb-buffer rgb.npy]
//   neural-shading reference   --width W --height H -o reference.png
//   neural-shading compare     --width W --height H --rgb network.npy
//                              --reference reference.png -o neural.png
//                              [--min-psnr DB]
//   neural-shading cpu-network --weights DIR --width W --height H
//                              [--precision f32|f16|bf16|i8] -o network.npy
//
// cpu-network --precision i8 reads the integer network train.py --i8 writes
// (weights_i8/: int8 weights, int32 biases, per-row requantization scales,
// the input scale) and evaluates coopvec.mlp's I8 arithmetic.
//
// Images are 8-bit sRGB PNGs written with libpng; both images go through the
// same encoding (Scene.h: encodeSrgb), so the PSNR compares like with like.
// Every failure is one line on stderr and exit status 1.
//
//===----------------------------------------------------------------------===//

#include "Npy.h"
#include "Scene.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <png.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

using namespace neural_shading;
using coopvecrun::NpyArray;
using llvm::StringRef;
using llvm::Twine;

//===----------------------------------------------------------------------===//
// Errors and options
//===----------------------------------------------------------------------===//

[[noreturn]] static void fatal(const Twine &message) {
  llvm::outs().flush();
  llvm::errs() << "neural-shading: error: " << message << "\n";
  llvm::errs().flush();
  std::exit(1);
}

static const char *const kUsage =
    "usage: neural-shading <command> [options]\n"
    "  features    --width W --height H -o features.npy "
    "[--rgb-buffer rgb.npy]\n"
    "  reference   --width W --height H -o reference.png\n"
    "  compare     --width W --height H --rgb network.npy "
    "--reference reference.png -o neural.png [--min-psnr DB]\n"
    "  cpu-network --weights DIR --width W --height H "
    "[--precision f32|f16|bf16|i8] -o network.npy\n";

/// `--name value` pairs of one command; each command lists the names it
/// accepts and the ones it requires.
class Options {
public:
  Options(StringRef command, llvm::ArrayRef<StringRef> allowed,
          llvm::ArrayRef<StringRef> required, int argc, char **argv)
      : command(command) {
    for (int i = 2; i < argc; ++i) {
      StringRef name = argv[i];
      if (!llvm::is_contained(allowed, name))
        fatal(command + ": unknown option '" + name + "'");
      if (i + 1 == argc)
        fatal(command + ": option '" + name + "' needs a value");
      if (!values.try_emplace(name, argv[++i]).second)
        fatal(command + ": option '" + name + "' given twice");
    }
    for (StringRef name : required)
      if (!values.count(name))
        fatal(command + ": missing option '" + name + "'");
  }

  bool has(StringRef name) const { return values.count(name); }
  StringRef get(StringRef name) const { return values.lookup(name); }

  /// A frame dimension: an integer in [1, 16384].
  unsigned dimension(StringRef name) const {
    unsigned value;
    if (get(name).getAsInteger(10, value) || value == 0 || value > 16384)
      fatal(command + ": " + name + " must be an integer in [1, 16384], got '" +
            get(name) + "'");
    return value;
  }

private:
  StringRef command;
  llvm::StringMap<StringRef> values;
};

struct Frame {
  unsigned width, height;
  size_t pixels() const { return size_t(width) * height; }
};

static Frame frameOptions(const Options &options) {
  return {options.dimension("--width"), options.dimension("--height")};
}

//===----------------------------------------------------------------------===//
// Files
//===----------------------------------------------------------------------===//

static void writeNpyOrDie(StringRef path, const std::vector<float> &values,
                          llvm::ArrayRef<int64_t> shape) {
  NpyArray array;
  array.kind = 'f';
  array.elemBytes = 4;
  array.shape.assign(shape.begin(), shape.end());
  array.data.resize(values.size() * sizeof(float));
  std::memcpy(array.data.data(), values.data(), array.data.size());
  if (llvm::Error error = coopvecrun::writeNpy(path, array))
    fatal(llvm::toString(std::move(error)));
}

static std::string shapeString(llvm::ArrayRef<int64_t> shape) {
  std::string s = "(";
  for (int64_t d : shape)
    s += std::to_string(d) + (shape.size() == 1 ? "," : ", ");
  if (shape.size() > 1)
    s.resize(s.size() - 2);
  return s + ")";
}

/// Reads a C-order little-endian f32 array of exactly `shape` (the .npy
/// reader itself checks the magic, version, header, fortran_order and that
/// the payload size matches the shape).
static std::vector<float> readNpyOrDie(StringRef path,
                                       llvm::ArrayRef<int64_t> shape) {
  llvm::Expected<NpyArray> array = coopvecrun::readNpy(path);
  if (!array)
    fatal(llvm::toString(array.takeError()));
  if (array->kind != 'f' || array->elemBytes != 4)
    fatal("'" + path + "': dtype is '" + array->descr() +
          "', expected '<f4' (float32)");
  if (llvm::ArrayRef<int64_t>(array->shape) != shape)
    fatal("'" + path + "': shape is " + shapeString(array->shape) +
          ", expected " + shapeString(shape));
  std::vector<float> values(array->data.size() / sizeof(float));
  std::memcpy(values.data(), array->data.data(), array->data.size());
  return values;
}

/// Reads a C-order array of `kind` ('i' or 'f') elements of T of exactly
/// `shape` (the integer network's files).
template <class T>
static std::vector<T> readNpyAsOrDie(StringRef path, char kind,
                                     llvm::ArrayRef<int64_t> shape) {
  llvm::Expected<NpyArray> array = coopvecrun::readNpy(path);
  if (!array)
    fatal(llvm::toString(array.takeError()));
  NpyArray expected;
  expected.kind = kind;
  expected.elemBytes = sizeof(T);
  if (array->kind != kind || array->elemBytes != sizeof(T))
    fatal("'" + path + "': dtype is '" + array->descr() + "', expected '" +
          expected.descr() + "'");
  if (llvm::ArrayRef<int64_t>(array->shape) != shape)
    fatal("'" + path + "': shape is " + shapeString(array->shape) +
          ", expected " + shapeString(shape));
  std::vector<T> values(array->data.size() / sizeof(T));
  std::memcpy(values.data(), array->data.data(), array->data.size());
  return values;
}

/// The shape of an f32 .npy file, for weights whose sizes are read first.
static llvm::SmallVector<int64_t> npyShapeOrDie(StringRef path) {
  llvm::Expected<NpyArray> array = coopvecrun::readNpy(path);
  if (!array)
    fatal(llvm::toString(array.takeError()));
  return array->shape;
}

/// Writes 8-bit sRGB pixels, row by row, with libpng's simplified API.
static void writePngOrDie(StringRef path, Frame frame,
                          const std::vector<uint8_t> &rgb) {
  png_image image;
  std::memset(&image, 0, sizeof(image));
  image.version = PNG_IMAGE_VERSION;
  image.width = frame.width;
  image.height = frame.height;
  image.format = PNG_FORMAT_RGB;
  std::string file = path.str();
  if (!png_image_write_to_file(&image, file.c_str(), /*convert_to_8bit=*/0,
                               rgb.data(), /*row_stride=*/0,
                               /*colormap=*/nullptr))
    fatal("'" + path + "': cannot write PNG: " + image.message);
}

/// Reads a PNG of exactly `frame`'s size as 8-bit RGB (libpng converts other
/// colour types; an alpha channel is composited onto black).
static std::vector<uint8_t> readPngOrDie(StringRef path, Frame frame) {
  png_image image;
  std::memset(&image, 0, sizeof(image));
  image.version = PNG_IMAGE_VERSION;
  std::string file = path.str();
  if (!png_image_begin_read_from_file(&image, file.c_str()))
    fatal("'" + path + "': cannot read PNG: " + image.message);
  if (image.width != frame.width || image.height != frame.height) {
    png_image_free(&image);
    fatal("'" + path + "': image is " + Twine(image.width) + "x" +
          Twine(image.height) + ", expected " + Twine(frame.width) + "x" +
          Twine(frame.height));
  }
  image.format = PNG_FORMAT_RGB;
  std::vector<uint8_t> rgb(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, /*background=*/nullptr, rgb.data(),
                             /*row_stride=*/0, /*colormap=*/nullptr))
    fatal("'" + path + "': cannot read PNG: " + image.message);
  return rgb;
}

static std::vector<uint8_t> encodeImage(const std::vector<float> &linearRgb) {
  std::vector<uint8_t> rgb(linearRgb.size());
  for (size_t i = 0; i < rgb.size(); ++i)
    rgb[i] = encodeSrgb(linearRgb[i]);
  return rgb;
}

//===----------------------------------------------------------------------===//
// The scalar network
//===----------------------------------------------------------------------===//

namespace {

/// One dense layer, y = W x + b, W row-major M x K.
struct Layer {
  unsigned rows, cols;
  std::vector<float> weights, bias;

  void apply(const float *x, float *y) const {
    for (unsigned r = 0; r < rows; ++r) {
      float sum = bias[r];
      for (unsigned c = 0; c < cols; ++c)
        sum += weights[size_t(r) * cols + c] * x[c];
      y[r] = sum;
    }
  }
};

/// f16 emulation: every stored value (weights, biases, inputs, each layer's
/// output) rounded to nearest even f16, the products summed in f32 (the
/// D3D12 minimum support set, F16 throughout).
float roundToHalf(float value) {
  return static_cast<float>(static_cast<_Float16>(value));
}

/// bf16 emulation, the arithmetic of a BF16 coopvec.mlp: weights and every
/// layer's input (the features, the hidden activations) rounded to nearest
/// even bf16, biases, sums and outputs f32.
float roundToBf16(float value) {
  llvm::APFloat v(value);
  bool losesInfo;
  v.convert(llvm::APFloat::BFloat(), llvm::APFloat::rmNearestTiesToEven,
            &losesInfo);
  v.convert(llvm::APFloat::IEEEsingle(), llvm::APFloat::rmNearestTiesToEven,
            &losesInfo);
  return v.convertToFloat();
}

enum class Precision { F32, F16, BF16, I8 };

/// One layer of the I8 network: q_out[r] = act(W q + b)[r] * scale[r].
struct IntLayer {
  unsigned rows, cols;
  std::vector<int8_t> weights;
  std::vector<int32_t> bias;
  std::vector<float> scale;
};

/// floatToS8 / floatToU8 of the runtime: round to nearest even, saturate
/// to [lo, hi], NaN to 0.
int32_t quantize(float value, int32_t lo, int32_t hi) {
  if (std::isnan(value))
    return 0;
  float r = std::nearbyint(value);
  return r < float(lo) ? lo : r > float(hi) ? hi : int32_t(r);
}

} // namespace

/// Loads `dir`/wI.npy and bI.npy: W is M x `cols` (M taken from the file,
/// or `rows` if non-zero), b has M elements.
static Layer loadLayer(StringRef dir, unsigned index, unsigned rows,
                       unsigned cols) {
  llvm::SmallString<256> wPath(dir), bPath(dir);
  llvm::sys::path::append(wPath, "w" + Twine(index) + ".npy");
  llvm::sys::path::append(bPath, "b" + Twine(index) + ".npy");
  if (rows == 0) {
    llvm::SmallVector<int64_t> shape = npyShapeOrDie(wPath);
    if (shape.size() != 2 || shape[0] < 1 || shape[0] > 4096)
      fatal("'" + wPath + "': shape is " + shapeString(shape) +
            ", expected (M, " + Twine(cols) + ") with M in [1, 4096]");
    rows = shape[0];
  }
  return Layer{rows, cols, readNpyOrDie(wPath, {int64_t(rows), int64_t(cols)}),
               readNpyOrDie(bPath, {int64_t(rows)})};
}

/// Loads `dir`/wI.npy (int8, M x `cols`), bI.npy (int32) and sI.npy
/// (float32), M from the file or `rows` if non-zero.
static IntLayer loadIntLayer(StringRef dir, unsigned index, unsigned rows,
                             unsigned cols) {
  auto path = [&](StringRef name) {
    llvm::SmallString<256> p(dir);
    llvm::sys::path::append(p, name + Twine(index) + ".npy");
    return std::string(p);
  };
  std::string w = path("w");
  if (rows == 0) {
    llvm::SmallVector<int64_t> shape = npyShapeOrDie(w);
    if (shape.size() != 2 || shape[0] < 1 || shape[0] > 4096)
      fatal("'" + w + "': shape is " + shapeString(shape) + ", expected (M, " +
            Twine(cols) + ") with M in [1, 4096]");
    rows = shape[0];
  }
  return IntLayer{
      rows, cols,
      readNpyAsOrDie<int8_t>(w, 'i', {int64_t(rows), int64_t(cols)}),
      readNpyAsOrDie<int32_t>(path("b"), 'i', {int64_t(rows)}),
      readNpyAsOrDie<float>(path("s"), 'f', {int64_t(rows)})};
}

/// The I8 network of weights_i8/: the features times input_scale quantized
/// to s8, each layer's exact integer sum plus bias, ReLU, times the row's
/// scale (f32), rounded to u8 after a ReLU; the last layer's products are
/// the log radiance (coopvecMlpForward's I8 scheme).
static std::vector<float> evaluateIntNetwork(StringRef weightsDir,
                                             Frame frame) {
  IntLayer l0 = loadIntLayer(weightsDir, 0, 0, kNumFeatures);
  IntLayer l1 = loadIntLayer(weightsDir, 1, 0, l0.rows);
  IntLayer l2 = loadIntLayer(weightsDir, 2, 3, l1.rows);
  llvm::SmallString<256> scalePath(weightsDir);
  llvm::sys::path::append(scalePath, "input_scale.npy");
  float inputScale = readNpyAsOrDie<float>(scalePath, 'f', {1})[0];

  std::vector<float> rgb(frame.pixels() * 3);
  for (unsigned y = 0; y < frame.height; ++y)
    for (unsigned x = 0; x < frame.width; ++x) {
      PixelSample sample = shadePixel(x, y, frame.width, frame.height);
      std::vector<int32_t> q(kNumFeatures);
      for (unsigned i = 0; i < kNumFeatures; ++i)
        q[i] = quantize(sample.features[i] * inputScale, -128, 127);
      float *out = &rgb[(size_t(y) * frame.width + x) * 3];
      for (const IntLayer *layer : {&l0, &l1, &l2}) {
        bool last = layer == &l2;
        std::vector<int32_t> next(layer->rows);
        for (unsigned r = 0; r < layer->rows; ++r) {
          int64_t acc = layer->bias[r];
          for (unsigned c = 0; c < layer->cols; ++c)
            acc += int64_t(layer->weights[size_t(r) * layer->cols + c]) * q[c];
          // The runtime's i32 sum wraps; then the ReLU.
          int32_t sum = int32_t(uint32_t(uint64_t(acc)));
          if (last) {
            out[r] = std::exp(float(sum) * layer->scale[r]);
            continue;
          }
          next[r] = quantize(float(std::max(sum, 0)) * layer->scale[r], 0, 255);
        }
        q = std::move(next);
      }
    }
  return rgb;
}

static std::vector<float> evaluateNetwork(StringRef weightsDir, Frame frame,
                                          Precision precision) {
  if (precision == Precision::I8)
    return evaluateIntNetwork(weightsDir, frame);
  bool half = precision == Precision::F16;
  bool bf16 = precision == Precision::BF16;
  // features -> hidden0 -> hidden1 -> 3; the hidden sizes come from w0, w1.
  Layer l0 = loadLayer(weightsDir, 0, 0, kNumFeatures);
  Layer l1 = loadLayer(weightsDir, 1, 0, l0.rows);
  Layer l2 = loadLayer(weightsDir, 2, 3, l1.rows);
  if (half)
    for (Layer *layer : {&l0, &l1, &l2}) {
      for (float &w : layer->weights)
        w = roundToHalf(w);
      for (float &b : layer->bias)
        b = roundToHalf(b);
    }
  if (bf16)
    for (Layer *layer : {&l0, &l1, &l2})
      for (float &w : layer->weights)
        w = roundToBf16(w);

  std::vector<float> rgb(frame.pixels() * 3);
  std::vector<float> h0(l0.rows), h1(l1.rows);
  for (unsigned y = 0; y < frame.height; ++y)
    for (unsigned x = 0; x < frame.width; ++x) {
      PixelSample sample = shadePixel(x, y, frame.width, frame.height);
      float *out = &rgb[(size_t(y) * frame.width + x) * 3];
      auto roundIfHalf = [&](float *values, unsigned n) {
        if (half)
          for (unsigned i = 0; i < n; ++i)
            values[i] = roundToHalf(values[i]);
      };
      // A layer's input as it reads it.
      auto roundIfBf16 = [&](float *values, unsigned n) {
        if (bf16)
          for (unsigned i = 0; i < n; ++i)
            values[i] = roundToBf16(values[i]);
      };
      roundIfHalf(sample.features, kNumFeatures);
      roundIfBf16(sample.features, kNumFeatures);
      l0.apply(sample.features, h0.data());
      roundIfHalf(h0.data(), l0.rows);
      for (float &v : h0)
        v = std::max(v, 0.0f);
      roundIfBf16(h0.data(), l0.rows);
      l1.apply(h0.data(), h1.data());
      roundIfHalf(h1.data(), l1.rows);
      for (float &v : h1)
        v = std::max(v, 0.0f);
      roundIfBf16(h1.data(), l1.rows);
      l2.apply(h1.data(), out);
      roundIfHalf(out, 3);
      for (unsigned c = 0; c < 3; ++c)
        out[c] = std::exp(out[c]);
      roundIfHalf(out, 3);
    }
  return rgb;
}

//===----------------------------------------------------------------------===//
// Commands
//===----------------------------------------------------------------------===//

static int runFeatures(int argc, char **argv) {
  Options options("features", {"--width", "--height", "-o", "--rgb-buffer"},
                  {"--width", "--height", "-o"}, argc, argv);
  Frame frame = frameOptions(options);
  std::vector<float> features(frame.pixels() * kNumFeatures);
  for (unsigned y = 0; y < frame.height; ++y)
    for (unsigned x = 0; x < frame.width; ++x) {
      PixelSample sample = shadePixel(x, y, frame.width, frame.height);
      std::memcpy(&features[(size_t(y) * frame.width + x) * kNumFeatures],
                  sample.features, sizeof(sample.features));
    }
  writeNpyOrDie(options.get("-o"), features,
                {int64_t(frame.pixels()), kNumFeatures});
  // The output argument of shade_frame.mlir: coopvec-run reads every memref
  // argument from a .npy file, so the frame's result needs a file to start
  // from. Zeros, so that pixels the program fails to write show as black.
  if (options.has("--rgb-buffer"))
    writeNpyOrDie(options.get("--rgb-buffer"),
                  std::vector<float>(frame.pixels() * 3, 0.0f),
                  {int64_t(frame.pixels()), 3});
  return 0;
}

static int runReference(int argc, char **argv) {
  Options options("reference", {"--width", "--height", "-o"},
                  {"--width", "--height", "-o"}, argc, argv);
  Frame frame = frameOptions(options);
  std::vector<float> rgb(frame.pixels() * 3);
  for (unsigned y = 0; y < frame.height; ++y)
    for (unsigned x = 0; x < frame.width; ++x) {
      PixelSample sample = shadePixel(x, y, frame.width, frame.height);
      std::memcpy(&rgb[(size_t(y) * frame.width + x) * 3], sample.rgb,
                  sizeof(sample.rgb));
    }
  writePngOrDie(options.get("-o"), frame, encodeImage(rgb));
  return 0;
}

static int runCompare(int argc, char **argv) {
  Options options(
      "compare",
      {"--width", "--height", "--rgb", "--reference", "-o", "--min-psnr"},
      {"--width", "--height", "--rgb", "--reference", "-o"}, argc, argv);
  Frame frame = frameOptions(options);
  double minPsnr = -std::numeric_limits<double>::infinity();
  if (options.has("--min-psnr") &&
      (options.get("--min-psnr").getAsDouble(minPsnr) ||
       !std::isfinite(minPsnr)))
    fatal("compare: --min-psnr must be a number, got '" +
          options.get("--min-psnr") + "'");

  std::vector<float> network =
      readNpyOrDie(options.get("--rgb"), {int64_t(frame.pixels()), 3});
  std::vector<uint8_t> reference =
      readPngOrDie(options.get("--reference"), frame);
  std::vector<uint8_t> image = encodeImage(network);
  writePngOrDie(options.get("-o"), frame, image);

  double sumSquares = 0.0;
  for (size_t i = 0; i < image.size(); ++i) {
    double d = double(image[i]) - double(reference[i]);
    sumSquares += d * d;
  }
  double mse = sumSquares / double(image.size());
  double psnr = mse == 0.0 ? std::numeric_limits<double>::infinity()
                           : 10.0 * std::log10(255.0 * 255.0 / mse);
  llvm::outs() << "PSNR: " << llvm::format("%.2f", psnr) << " dB\n";
  if (psnr < minPsnr)
    fatal("compare: PSNR " + llvm::formatv("{0:F2}", psnr).str() +
          " dB is below --min-psnr " + options.get("--min-psnr") + " dB");
  return 0;
}

static int runCpuNetwork(int argc, char **argv) {
  Options options("cpu-network",
                  {"--weights", "--width", "--height", "-o", "--precision"},
                  {"--weights", "--width", "--height", "-o"}, argc, argv);
  Frame frame = frameOptions(options);
  StringRef precision =
      options.has("--precision") ? options.get("--precision") : "f32";
  if (precision != "f32" && precision != "f16" && precision != "bf16" &&
      precision != "i8")
    fatal("cpu-network: --precision must be f32, f16, bf16 or i8, got '" +
          precision + "'");
  std::vector<float> rgb =
      evaluateNetwork(options.get("--weights"), frame,
                      precision == "f16"    ? Precision::F16
                      : precision == "bf16" ? Precision::BF16
                      : precision == "i8"   ? Precision::I8
                                            : Precision::F32);
  writeNpyOrDie(options.get("-o"), rgb, {int64_t(frame.pixels()), 3});
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2)
    fatal("no command given; commands: features, reference, compare, "
          "cpu-network (--help for usage)");
  StringRef command = argv[1];
  if (command == "--help" || command == "-h") {
    llvm::outs() << kUsage;
    return 0;
  }
  if (command == "features")
    return runFeatures(argc, argv);
  if (command == "reference")
    return runReference(argc, argv);
  if (command == "compare")
    return runCompare(argc, argv);
  if (command == "cpu-network")
    return runCpuNetwork(argc, argv);
  fatal("unknown command '" + command +
        "'; commands: features, reference, compare, cpu-network");
}
