// CRC-32C (Castagnoli polynomial, reflected) for bundle integrity checks. Table-driven, no
// dependency: bundles are small, so a byte-at-a-time loop is fast enough. Also the header
// checksum, which covers every header byte (reserved ones included) but its own field.
#include <array>
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

}  // namespace

uint32_t Crc32c(std::string_view bytes, uint32_t crc) {
  crc = ~crc;
  for (unsigned char b : bytes) crc = kTable[(crc ^ b) & 0xFF] ^ (crc >> 8);
  return ~crc;
}

uint32_t HeaderCrc(std::string_view header) {
  std::string copy(header.substr(0, kHeaderSize));
  copy.replace(28, 4, 4, '\0');
  return Crc32c(copy);
}

}  // namespace wm::bundle
