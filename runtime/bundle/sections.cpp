// Bundle container: writing and checking the header, checksums and section table (sections.h).
#include "runtime/bundle/sections.h"

#include <cstring>

namespace wm::bundle {
namespace {

uint32_t ReadU32(std::string_view b, size_t at) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(b[at + i]);
  return v;
}
uint64_t ReadU64(std::string_view b, size_t at) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(b[at + i]);
  return v;
}
void PutU32(std::string* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}
void PutU64(std::string* out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}
void SetU32(std::string* out, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) (*out)[at + i] = static_cast<char>((v >> (8 * i)) & 0xFF);
}

}  // namespace

std::string AssembleBundle(const std::vector<Section>& sections) {
  std::string out(kHeaderSize, '\0');
  uint64_t offset = kHeaderSize + sections.size() * kSectionEntrySize;
  for (const Section& s : sections) {
    PutU32(&out, static_cast<uint32_t>(s.kind));
    PutU32(&out, 0);
    PutU64(&out, offset);
    PutU64(&out, s.payload.size());
    offset += s.payload.size();
  }
  for (const Section& s : sections) out += s.payload;

  std::string header(kMagic, sizeof(kMagic));
  PutU32(&header, kFormatVersion);
  PutU32(&header, static_cast<uint32_t>(sections.size()));
  PutU64(&header, out.size());
  PutU32(&header, Crc32c(std::string_view(out).substr(kHeaderSize)));
  out.replace(0, header.size(), header);
  SetU32(&out, 28, HeaderCrc(out));
  return out;
}

SplitResult SplitBundle(std::string_view bytes) {
  SplitResult result;
  auto fail = [&](std::string why) {
    result.error = std::move(why);
    result.sections.clear();
    return result;
  };
  if (bytes.size() < sizeof(kMagic) || std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0) {
    return fail("not a wmc bundle (bad magic)");
  }
  if (bytes.size() < kHeaderSize) return fail("truncated bundle: header incomplete");
  if (ReadU32(bytes, 28) != HeaderCrc(bytes)) return fail("corrupted bundle: header checksum mismatch");
  result.format_version = ReadU32(bytes, 8);
  if (result.format_version != kFormatVersion) {
    return fail("unsupported bundle format version " + std::to_string(result.format_version) +
                " (this runtime reads version " + std::to_string(kFormatVersion) + ")");
  }
  uint64_t declared_size = ReadU64(bytes, 16);
  if (declared_size > bytes.size()) {
    return fail("truncated bundle: " + std::to_string(bytes.size()) + " of " +
                std::to_string(declared_size) + " bytes");
  }
  if (declared_size < bytes.size()) return fail("corrupted bundle: trailing bytes after the end");
  if (ReadU32(bytes, 24) != Crc32c(bytes.substr(kHeaderSize))) {
    return fail("corrupted bundle: payload checksum mismatch");
  }
  uint32_t count = ReadU32(bytes, 12);
  if (count > kMaxSections || kHeaderSize + count * kSectionEntrySize > bytes.size()) {
    return fail("corrupted bundle: bad section table");
  }
  for (uint32_t i = 0; i < count; ++i) {
    size_t at = kHeaderSize + i * kSectionEntrySize;
    uint64_t offset = ReadU64(bytes, at + 8), size = ReadU64(bytes, at + 16);
    if (offset > bytes.size() || size > bytes.size() - offset) {
      return fail("corrupted bundle: section " + std::to_string(i) + " out of bounds");
    }
    result.sections.push_back({static_cast<SectionKind>(ReadU32(bytes, at)), bytes.substr(offset, size)});
  }
  return result;
}

std::string_view FindSection(const std::vector<Section>& sections, SectionKind kind) {
  for (const Section& s : sections) {
    if (s.kind == kind) return s.payload;
  }
  return {};
}

}  // namespace wm::bundle
