// `-o yaml` for every wmc command: a Value as block-style YAML text, laid out as kubectl prints
// objects (two-space mappings, sequences at their key's column). A string is written plain only
// when a YAML reader (the Kubernetes one: YAML 1.1 booleans such as `yes`, base/yaml's typing)
// would read it back as the same string; otherwise it is double-quoted ("true", "1", "null", "",
// " x", "a: b", ...). Output read by base/yaml gives back the input Value (unit-tested).
#pragma once

#include <string>
#include <string_view>

#include "runtime/value/value.h"

namespace wm::tools {

// The YAML text of `value` (one document, no `---` marker, ending with a newline).
std::string ToYaml(const Value& value);

// True when `text` may be written as a plain scalar (key or value) and read back unchanged.
bool IsPlainSafe(std::string_view text);

// `text` as a YAML double-quoted scalar (escapes for quotes, backslashes, control characters and
// the code points YAML does not allow unescaped).
std::string DoubleQuoted(std::string_view text);

}  // namespace wm::tools
