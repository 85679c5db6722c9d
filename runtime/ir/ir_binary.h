// Binary form of an ir::Program, as stored in bundles (.wmb). Little-endian, versioned, and
// fully validated on load: a truncated or corrupt blob is rejected with a message, never a crash,
// an out-of-range index, or an allocation larger than the blob could describe.
#pragma once

#include <string>
#include <string_view>

#include "runtime/ir/ir.h"

namespace wm::ir {

// Bumped whenever the encoding or the numbering of ops.def / builtins.def changes;
// DeserializeProgram rejects other versions. 2: builtin ids renumbered into one contiguous range.
inline constexpr uint32_t kIrBinaryVersion = 2;

std::string SerializeProgram(const Program& program);

// Replaces *out on success. On failure returns false, sets *error, and leaves *out unspecified.
bool DeserializeProgram(std::string_view bytes, Program* out, std::string* error);

}  // namespace wm::ir
