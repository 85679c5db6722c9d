// The on-disk layout of a catalog bundle (.wmb), shared by the writer (compiler/bundle) and the
// loader (bundle.h). All integers are little-endian.
//
//   Header  (48 bytes)
//     0  magic       "WMBUNDLE"
//     8  u32 format  kFormatVersion
//    12  u32 sections
//    16  u64 size    total file size in bytes
//    24  u32 crc     CRC-32C of bytes [48, size)
//    28  u32 header_crc  CRC-32C of the header with this field read as zero
//    32  16 reserved bytes (zero)
//   Section table: `sections` entries of {u32 kind, u32 reserved, u64 offset, u64 size}
//   Section payloads.
//
// Sections (at most one of each kind): kManifest (JSON: definitions, resolver table, compiler
// version, and "digests": the SHA-256 of the IR section and of the native section when there is
// one, as the compiler produced them), kIr (the serialized IR of every resolver, each prefixed by
// its u32 length, in resolver order, nothing after the last), kNative (optional: the AOT shared
// object for this machine's target). The SHA-256 of the whole file cannot be inside it: `wmc
// compile` and `wmc bundle info` print it for consumers to pin (--expect-sha256).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace wm::bundle {

inline constexpr char kMagic[8] = {'W', 'M', 'B', 'U', 'N', 'D', 'L', 'E'};
// 2: write path programs and suspendDefinition; 3: the manifest's section digests.
inline constexpr uint32_t kFormatVersion = 3;
inline constexpr size_t kHeaderSize = 48;
inline constexpr size_t kSectionEntrySize = 24;
inline constexpr uint32_t kMaxSections = 16;

enum class SectionKind : uint32_t { kManifest = 1, kIr = 2, kNative = 3 };

// CRC-32C (Castagnoli), continuing from `crc` (0 to start).
uint32_t Crc32c(std::string_view bytes, uint32_t crc = 0);

// The header checksum: CRC-32C of the kHeaderSize header bytes with the header_crc field zeroed.
uint32_t HeaderCrc(std::string_view header);

}  // namespace wm::bundle
