// Maps the decoded text of a YAML scalar back to the byte offsets of the raw file it came from,
// for plain, single-quoted, double-quoted (with escapes) and block (`|`, `>`) scalars. yaml-cpp
// only reports where a scalar starts; the loader uses this to point jq diagnostics at the exact
// file position of every expression byte.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "compiler/source/diagnostic.h"

namespace wm::definition::internal {

// Line starts of a file, for byte offset -> 1-based line and byte column.
class LineIndex {
 public:
  explicit LineIndex(std::string_view text);
  std::pair<uint32_t, uint32_t> LineCol(size_t offset) const;

 private:
  std::vector<size_t> starts_;
};

// Offsets in `source` of each byte of `decoded` (plus one past the end), re-scanning the scalar
// whose first character (quote, block indicator or first plain character, after any tag or
// anchor) is at `start`. nullopt when the re-scan does not reproduce `decoded` exactly.
std::optional<std::vector<size_t>> MapScalarBytes(std::string_view source, size_t start,
                                                  std::string_view decoded);

// The source map of a scalar: per-byte when MapScalarBytes succeeds (contiguous when the bytes are
// laid out verbatim on one line), else every byte at the scalar's start.
SourceMap BuildScalarSourceMap(const std::string& file, std::string_view source,
                               const LineIndex& lines, size_t start, std::string_view decoded);

}  // namespace wm::definition::internal
