//===- Npy.cpp - NumPy .npy files: read and write -------------------------===//

#include "Npy.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace llvm;
using namespace coopvecrun;

int64_t NpyHeader::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

uint64_t NpyHeader::dataBytes() const {
  return uint64_t(numElements()) * elemBytes;
}

std::string NpyHeader::descr() const {
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

/// Where the header dictionary of the .npy file starting with `prefix` lies:
/// its offset and length (the payload follows it). `prefix` must hold the
/// first 12 bytes of the file, or all of a shorter one.
Expected<std::pair<size_t, size_t>> headerExtent(StringRef prefix,
                                                 StringRef path) {
  if (!prefix.starts_with("\x93NUMPY") || prefix.size() < 10)
    return fail(path, "not a NumPy .npy file (bad magic)");
  unsigned major = static_cast<uint8_t>(prefix[6]);
  if (major == 1)
    return std::make_pair(size_t(10),
                          size_t(static_cast<uint8_t>(prefix[8]) |
                                 (static_cast<uint8_t>(prefix[9]) << 8)));
  if (major != 2 && major != 3)
    return fail(path, "unsupported .npy version " + Twine(major));
  if (prefix.size() < 12)
    return fail(path, "truncated .npy header");
  size_t headerLen = 0;
  for (int i = 0; i < 4; ++i)
    headerLen |= size_t(static_cast<uint8_t>(prefix[8 + i])) << (8 * i);
  return std::make_pair(size_t(12), headerLen);
}

/// Parses the header dictionary `header` of a file whose payload holds
/// `payloadBytes` bytes, which must be what the header's shape needs.
Expected<NpyHeader> parseHeader(StringRef header, uint64_t payloadBytes,
                                StringRef path) {
  NpyHeader array;
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
  if (payloadBytes != uint64_t(dataBytes))
    return fail(path, "holds " + Twine(payloadBytes) +
                          " data bytes, but shape " + *shape + " of " + d +
                          " needs " + Twine(dataBytes));
  return array;
}

} // namespace

Expected<std::pair<NpyHeader, StringRef>>
coopvecrun::parseNpy(StringRef bytes, StringRef path) {
  Expected<std::pair<size_t, size_t>> extent = headerExtent(bytes, path);
  if (!extent)
    return extent.takeError();
  auto [headerStart, headerLen] = *extent;
  if (bytes.size() - headerStart < headerLen)
    return fail(path, "truncated .npy header");
  StringRef payload = bytes.drop_front(headerStart + headerLen);
  Expected<NpyHeader> header = parseHeader(
      bytes.substr(headerStart, headerLen), payload.size(), path);
  if (!header)
    return header.takeError();
  return std::make_pair(std::move(*header), payload);
}

/// Reads exactly `buffer.size()` bytes of `fd` into `buffer`.
static Error readExactly(sys::fs::file_t fd, MutableArrayRef<char> buffer,
                         StringRef path) {
  while (!buffer.empty()) {
    Expected<size_t> got = sys::fs::readNativeFile(fd, buffer);
    if (!got)
      return fail(path, "cannot read file: " + toString(got.takeError()));
    if (*got == 0)
      return fail(path, "cannot read file: it changed size while read");
    buffer = buffer.drop_front(*got);
  }
  return Error::success();
}

Expected<NpyHeader>
coopvecrun::readNpy(StringRef path,
                    function_ref<uint8_t *(uint64_t dataBytes)> allocate) {
  // The header is read first; the payload is then read straight into
  // `allocate`'s memory: one copy, from the page cache.
  Expected<sys::fs::file_t> fd = sys::fs::openNativeFileForRead(path);
  if (!fd)
    return fail(path, "cannot read file: " + toString(fd.takeError()));
  llvm::scope_exit close([&] { sys::fs::closeFile(*fd); });
  sys::fs::file_status status;
  if (std::error_code ec = sys::fs::status(*fd, status))
    return fail(path, "cannot read file: " + ec.message());
  if (status.type() == sys::fs::file_type::directory_file)
    return fail(path, "cannot read file: " +
                          std::make_error_code(std::errc::is_a_directory)
                              .message());
  uint64_t fileSize = status.getSize();

  // The magic and version (and a 1.0 header's length) take 10 bytes; later
  // versions' lengths take 2 more.
  std::string head(std::min<uint64_t>(fileSize, 10), '\0');
  if (Error error = readExactly(*fd, head, path))
    return std::move(error);
  if (head.size() == 10 && fileSize >= 12 && (head[6] == 2 || head[6] == 3)) {
    head.resize(12);
    if (Error error =
            readExactly(*fd, MutableArrayRef<char>(head).drop_front(10), path))
      return std::move(error);
  }
  Expected<std::pair<size_t, size_t>> extent = headerExtent(head, path);
  if (!extent)
    return extent.takeError();
  auto [headerStart, headerLen] = *extent;
  if (fileSize - headerStart < headerLen)
    return fail(path, "truncated .npy header");
  std::string header(headerLen, '\0');
  if (Error error = readExactly(*fd, header, path))
    return std::move(error);
  Expected<NpyHeader> parsed =
      parseHeader(header, fileSize - headerStart - headerLen, path);
  if (!parsed)
    return parsed.takeError();
  uint64_t dataBytes = parsed->dataBytes();
  if (dataBytes)
    if (Error error = readExactly(
            *fd,
            MutableArrayRef<char>(reinterpret_cast<char *>(allocate(dataBytes)),
                                  dataBytes),
            path))
      return std::move(error);
  return std::move(*parsed);
}

Expected<NpyArray> coopvecrun::readNpy(StringRef path) {
  NpyArray array;
  Expected<NpyHeader> header = readNpy(path, [&](uint64_t bytes) {
    array.data.resize(bytes);
    return array.data.data();
  });
  if (!header)
    return header.takeError();
  static_cast<NpyHeader &>(array) = std::move(*header);
  return array;
}

Error coopvecrun::writeNpy(StringRef path, const NpyArray &array) {
  return writeNpy(path, array, array.data);
}

Error coopvecrun::writeNpy(StringRef path, const NpyHeader &array,
                           ArrayRef<uint8_t> data) {
  assert(data.size() == array.dataBytes() && "payload and shape disagree");
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
  os.write(reinterpret_cast<const char *>(data.data()), data.size());
  os.close();
  if (os.has_error())
    return fail(path, "cannot write file: " + os.error().message());
  return Error::success();
}
