// UTF-8 encoding shared by the JSON reader, the jq string-literal decoder, the YAML scalar map and
// the builtins: one place that decides what becomes of code points UTF-8 cannot carry.
#pragma once

#include <cstdint>
#include <string>

namespace wm::utf8 {

// Appends the UTF-8 encoding of `codepoint`. Surrogates (U+D800..U+DFFF) and values above
// U+10FFFF cannot be encoded and become U+FFFD, as jq does.
void Append(uint32_t codepoint, std::string* out);

}  // namespace wm::utf8
