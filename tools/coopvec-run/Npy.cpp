//===- Npy.cpp - NumPy .npy files: read and write -------------------------===//

#include "Npy.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace coopvecrun;

int64_t NpyArray::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::string NpyArray::descr() const {
  std::string s;
  s += elemBytes == 1 ? '|' : '<';
  s += kind;
  s += std::to_string(elemBytes);
  return s;
}

namespace {

/// The value of `'key':` in the header dictionary, up to the next top-level
/// comma or the closing brace.
std::optional<StringRef> dictValue(StringRef header, StringRef key) {
  std::string quoted = ("'" + key + "'").str();
  size_t at = header.find(quoted);
  if (at == StringRef::npos)
    return std::nullopt;
  StringRef rest = header.drop_front(at + quoted.size()).ltrim();
  if (!rest.consume_front(":"))
    return std::nullopt;
  rest = rest.ltrim();
  size_t end = rest.starts_with("(") ? rest.find(')') + 1
                                     : rest.find_first_of(",}");
  if (end == StringRef::npos || end == 0)
    return std::nullopt;
  return rest.take_front(end).trim();
}

Error fail(StringRef path, const Twine &what) {
  return createStringError(inconvertibleErrorCode(),
                           "'" + path + "': " + what);
}

} // namespace

Expected<NpyArray> coopvecrun::readNpy(StringRef path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> file =
      MemoryBuffer::getFile(path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!file)
    return fail(path, "cannot read file: " + file.getError().message());
  StringRef bytes = (*file)->getBuffer();
  if (!bytes.starts_with("\x93NUMPY") || bytes.size() < 10)
    return fail(path, "not a NumPy .npy file (bad magic)");
  unsigned major = static_cast<uint8_t>(bytes[6]);
  size_t headerLen, headerStart;
  if (major == 1) {
    headerLen = static_cast<uint8_t>(bytes[8]) |
                (static_cast<uint8_t>(bytes[9]) << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return fail(path, "truncated .npy header");
    headerLen = 0;
    for (int i = 0; i < 4; ++i)
      headerLen |= size_t(static_cast<uint8_t>(bytes[8 + i])) << (8 * i);
    headerStart = 12;
  } else {
    return fail(path, "unsupported .npy version " + Twine(major));
  }
  if (bytes.size() < headerStart + headerLen)
    return fail(path, "truncated .npy header");
  StringRef header = bytes.substr(headerStart, headerLen);

  NpyArray array;
  std::optional<StringRef> descr = dictValue(header, "descr");
  std::optional<StringRef> fortran = dictValue(header, "fortran_order");
  std::optional<StringRef> shape = dictValue(header, "shape");
  if (!descr || !fortran || !shape)
    return fail(path, "malformed .npy header '" + header.trim() + "'");
  StringRef d = descr->trim("'\"");
  if (d.size() < 3 || (d[0] != '<' && d[0] != '|' && d[0] != '=') ||
      !StringRef("fiub").contains(d[1]) ||
      d.drop_front(2).getAsInteger(10, array.elemBytes) ||
      (array.elemBytes != 1 && array.elemBytes != 2 && array.elemBytes != 4 &&
       array.elemBytes != 8))
    return fail(path, "unsupported dtype '" + d +
                          "' (expected little-endian b1, i1-i8, u1-u8, "
                          "f2, f4 or f8)");
  array.kind = d[1];
  if (*fortran != "False")
    return fail(path, "Fortran-order arrays are not supported; save a "
                      "C-order array (numpy.ascontiguousarray)");
  SmallVector<StringRef> dims;
  shape->drop_front().drop_back().split(dims, ',', -1, /*KeepEmpty=*/false);
  for (StringRef dim : dims) {
    int64_t value;
    if (dim.trim().getAsInteger(10, value) || value < 0)
      return fail(path, "malformed shape " + *shape);
    array.shape.push_back(value);
  }
  // The header is untrusted: a shape whose byte size overflows would match
  // a short payload.
  int64_t dataBytes = array.elemBytes;
  for (int64_t dim : array.shape)
    if (MulOverflow(dataBytes, dim, dataBytes))
      return fail(path, "shape " + *shape + " of " + d + " is too large");
  StringRef payload = bytes.drop_front(headerStart + headerLen);
  if (payload.size() != uint64_t(dataBytes))
    return fail(path, "holds " + Twine(payload.size()) +
                          " data bytes, but shape " + *shape + " of " + d +
                          " needs " + Twine(dataBytes));
  array.data.assign(payload.begin(), payload.end());
  return array;
}

Error coopvecrun::writeNpy(StringRef path, const NpyArray &array) {
  std::string header = "{'descr': '" + array.descr() +
                       "', 'fortran_order': False, 'shape': (";
  for (int64_t d : array.shape)
    header += std::to_string(d) + (array.shape.size() == 1 ? "," : ", ");
  if (array.shape.size() > 1)
    header.resize(header.size() - 2);
  header += "), }";
  // Magic, version and length take 10 bytes; the header ends in '\n' and
  // pads the total to a multiple of 64.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';

  std::error_code ec;
  raw_fd_ostream os(path, ec, sys::fs::OF_None);
  if (ec)
    return fail(path, "cannot write file: " + ec.message());
  os << "\x93NUMPY" << char(1) << char(0) << char(header.size() & 0xff)
     << char(header.size() >> 8) << header;
  os.write(reinterpret_cast<const char *>(array.data.data()),
           array.data.size());
  os.close();
  if (os.has_error())
    return fail(path, "cannot write file: " + os.error().message());
  return Error::success();
}
