// Reading jq program text in the differential tests (the generator's exclusion check, the
// shrinker's cut points) without a parser: which bytes are code and which are string literal text.
#pragma once

#include <string>

namespace wm::diff {

// Marks left in CodeOnly's result where a string interpolation opens (`\(`) and closes (`)`).
inline constexpr char kInterpolationOpen = '\x01';
inline constexpr char kInterpolationClose = '\x02';

// `program` with its string literal text blanked: every byte of a literal becomes a space (quotes
// and escapes included), except that an interpolation's `(` and `)` become kInterpolationOpen and
// kInterpolationClose and the code between them stays as written (nested literals blanked too).
// Same length as `program`, so indexes carry over.
std::string CodeOnly(const std::string& program);

}  // namespace wm::diff
