// CRC-32C of the bundle checks: the standard check value, and the same answer however the bytes
// are split (the hardware path takes 8 bytes a step and finishes byte by byte, so every length
// and every continuation point must agree with the whole computed at once).
#include <gtest/gtest.h>

#include <string>

#include "runtime/bundle/format.h"

namespace wm::bundle {
namespace {

TEST(Crc32c, MatchesTheStandardCheckValues) {
  EXPECT_EQ(Crc32c("123456789"), 0xE3069283u);  // the catalogue check value of CRC-32C
  EXPECT_EQ(Crc32c(""), 0u);
  EXPECT_EQ(Crc32c(std::string(32, '\0')), 0x8A9136AAu);  // RFC 3720 B.4: 32 bytes of zeros
  EXPECT_EQ(Crc32c(std::string(32, '\xff')), 0x62A8AB43u);  // RFC 3720 B.4: 32 bytes of 0xff
}

TEST(Crc32c, AnySplitGivesTheSameChecksum) {
  std::string bytes;
  for (int i = 0; i < 61; ++i) bytes.push_back(static_cast<char>(i * 37 + 11));
  for (size_t length = 0; length <= bytes.size(); ++length) {
    std::string_view whole = std::string_view(bytes).substr(0, length);
    uint32_t expected = Crc32c(whole);
    for (size_t split = 0; split <= length; ++split) {
      EXPECT_EQ(Crc32c(whole.substr(split), Crc32c(whole.substr(0, split))), expected)
          << "length " << length << " split " << split;
    }
  }
}

}  // namespace
}  // namespace wm::bundle
