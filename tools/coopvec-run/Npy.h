//===- Npy.h - NumPy .npy files: read and write ----------------*- C++ -*-===//
//
// The subset of the .npy format (versions 1.0, 2.0, 3.0) coopvec-run needs:
// little-endian or byte-sized numeric dtypes, C order, any rank.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_RUN_NPY_H
#define COOPVEC_RUN_NPY_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace coopvecrun {

/// A C-order array: its dtype ('f', 'i', 'u' or 'b' and the element size in
/// bytes), its shape and its raw little-endian bytes.
struct NpyArray {
  char kind = 'f';
  unsigned elemBytes = 4;
  llvm::SmallVector<int64_t> shape;
  std::vector<uint8_t> data;

  int64_t numElements() const;
  /// The NumPy descr string, e.g. "<f4" or "|i1".
  std::string descr() const;
};

/// Reads `path`; errors name the file and what is wrong with it.
llvm::Expected<NpyArray> readNpy(llvm::StringRef path);

/// Writes `array` as a version 1.0 .npy file.
llvm::Error writeNpy(llvm::StringRef path, const NpyArray &array);

} // namespace coopvecrun

#endif // COOPVEC_RUN_NPY_H
