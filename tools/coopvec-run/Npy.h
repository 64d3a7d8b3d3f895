//===- Npy.h - NumPy .npy files: read and write ----------------*- C++ -*-===//
//
// The subset of the .npy format (versions 1.0, 2.0, 3.0) coopvec-run needs:
// little-endian or byte-sized numeric dtypes, C order, any rank.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_RUN_NPY_H
#define COOPVEC_RUN_NPY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace coopvecrun {

/// What a .npy header says of its C-order array: the dtype ('f', 'i', 'u'
/// or 'b' and the element size in bytes) and the shape.
struct NpyHeader {
  char kind = 'f';
  unsigned elemBytes = 4;
  llvm::SmallVector<int64_t> shape;

  int64_t numElements() const;
  /// The payload's size: numElements() * elemBytes.
  uint64_t dataBytes() const;
  /// The NumPy descr string, e.g. "<f4" or "|i1".
  std::string descr() const;
};

/// A header and its raw little-endian bytes.
struct NpyArray : NpyHeader {
  std::vector<uint8_t> data;
};

/// Parses the whole .npy file `bytes` (untrusted): its header and the payload
/// (a slice of `bytes`, exactly dataBytes() long). Errors name `name`.
llvm::Expected<std::pair<NpyHeader, llvm::StringRef>>
parseNpy(llvm::StringRef bytes, llvm::StringRef name);

/// Reads `path` and copies its payload once, into the memory
/// `allocate(dataBytes)` returns (which must hold that many bytes).
llvm::Expected<NpyHeader>
readNpy(llvm::StringRef path,
        llvm::function_ref<uint8_t *(uint64_t dataBytes)> allocate);

/// Reads `path` into an NpyArray; errors name the file and what is wrong.
llvm::Expected<NpyArray> readNpy(llvm::StringRef path);

/// Writes `data` (header.dataBytes() bytes) as a version 1.0 .npy file.
llvm::Error writeNpy(llvm::StringRef path, const NpyHeader &header,
                     llvm::ArrayRef<uint8_t> data);
llvm::Error writeNpy(llvm::StringRef path, const NpyArray &array);

} // namespace coopvecrun

#endif // COOPVEC_RUN_NPY_H
