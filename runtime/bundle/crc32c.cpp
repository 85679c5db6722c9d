// CRC-32C (Castagnoli polynomial, reflected) for bundle integrity checks: the SSE4.2 crc32
// instruction (8 bytes a step) where the CPU has it, else a byte-at-a-time table; no dependency.
// Also the header checksum, which covers every header byte (reserved ones included) but its own
// field.
#include <array>
#include <cstring>
#include <string>

#include "runtime/bundle/format.h"

namespace wm::bundle {
namespace {

constexpr std::array<uint32_t, 256> MakeTable() {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
    table[i] = c;
  }
  return table;
}
constexpr std::array<uint32_t, 256> kTable = MakeTable();

uint32_t TableCrc(std::string_view bytes, uint32_t crc) {
  for (unsigned char b : bytes) crc = kTable[(crc ^ b) & 0xFF] ^ (crc >> 8);
  return crc;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// The crc32 instruction computes exactly this CRC (same polynomial, reflected, no inversion).
__attribute__((target("sse4.2"))) uint32_t HardwareCrc(std::string_view bytes, uint32_t crc) {
  const char* p = bytes.data();
  size_t n = bytes.size();
  uint64_t wide = crc;
  for (; n >= 8; p += 8, n -= 8) {
    uint64_t word;
    std::memcpy(&word, p, 8);
    wide = __builtin_ia32_crc32di(wide, word);
  }
  crc = static_cast<uint32_t>(wide);
  for (; n > 0; ++p, --n) crc = __builtin_ia32_crc32qi(crc, static_cast<unsigned char>(*p));
  return crc;
}
bool HasSse42() {
  static const bool has = [] {
    __builtin_cpu_init();  // may run before the CPU model is initialised otherwise
    return __builtin_cpu_supports("sse4.2") != 0;
  }();
  return has;
}
#endif

}  // namespace

uint32_t Crc32c(std::string_view bytes, uint32_t crc) {
  crc = ~crc;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  if (HasSse42()) return ~HardwareCrc(bytes, crc);
#endif
  return ~TableCrc(bytes, crc);
}

uint32_t HeaderCrc(std::string_view header) {
  std::string copy(header.substr(0, kHeaderSize));
  copy.replace(28, 4, 4, '\0');
  return Crc32c(copy);
}

}  // namespace wm::bundle
