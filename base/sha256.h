// SHA-256 (FIPS 180-4) for pinning bundles: `wmc compile` and `wmc bundle info` print a bundle's
// digest, the manifest records the digests of its sections, and `--expect-sha256` / the C ABI's
// expected digest refuse a bundle whose bytes differ. Incremental (Sha256::Update) or one call
// (Sha256Hex); digests are shown as 64 lowercase hex digits.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace wm::base {

class Sha256 {
 public:
  Sha256();
  void Update(std::string_view bytes);
  // The digest of everything given to Update; the object must not be updated afterwards.
  std::array<uint8_t, 32> Finish();

 private:
  void Block(const uint8_t* block);

  std::array<uint32_t, 8> state_;
  std::array<uint8_t, 64> buffer_{};
  size_t buffered_ = 0;
  uint64_t total_bytes_ = 0;
};

// Lowercase hex of the SHA-256 of `bytes`.
std::string Sha256Hex(std::string_view bytes);

// True when `text` is 64 hex digits (either case): the form --expect-sha256 accepts.
bool IsSha256Hex(std::string_view text);

// Case-insensitive comparison of two hex digests.
bool SameSha256Hex(std::string_view a, std::string_view b);

}  // namespace wm::base
