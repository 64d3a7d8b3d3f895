//===- coopvec-npy-fuzzer.cpp - the .npy reader of coopvec-run ------------===//
//
// Parses the input as a .npy file (coopvecrun::parseNpy, what readNpy runs
// on a file's bytes). An error is a fine answer but must name the file; an
// accepted header must be self-consistent: its payload holds exactly
// dataBytes() = numElements() * elemBytes bytes and lies inside the input.
//
//===----------------------------------------------------------------------===//

#include "Npy.h"

#include <cstdio>
#include <cstdlib>

using namespace coopvecrun;

[[noreturn]] static void fail(const char *what) {
  std::fprintf(stderr, "coopvec-npy-fuzzer: %s\n", what);
  std::abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  auto parsed = parseNpy(bytes, "input.npy");
  if (!parsed) {
    std::string message = llvm::toString(parsed.takeError());
    if (message.find("input.npy") == std::string::npos)
      fail("an error does not name the file");
    return 0;
  }
  const NpyHeader &header = parsed->first;
  llvm::StringRef payload = parsed->second;
  if (header.elemBytes == 0 || header.numElements() < 0 ||
      uint64_t(header.numElements()) * header.elemBytes !=
          header.dataBytes() ||
      payload.size() != header.dataBytes())
    fail("the payload size does not match the shape and dtype");
  if (payload.data() < bytes.data() ||
      payload.data() + payload.size() > bytes.data() + bytes.size())
    fail("the payload is not a slice of the input");
  if (header.descr().size() < 3)
    fail("the descr string is malformed");
  return 0;
}
