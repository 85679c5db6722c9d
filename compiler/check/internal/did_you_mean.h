// Did-you-mean for the type checker's messages: a case-insensitive edit distance and the closest
// property name of a schema object.
#pragma once

#include <string>
#include <string_view>

#include "compiler/schema/schema.h"

namespace wm::check::internal {

size_t EditDistance(std::string_view a, std::string_view b);
// The property of `s` closest to `name`, or "" when none is close enough to be a likely typo.
std::string Suggest(std::string_view name, const schema::Schema& s);

}  // namespace wm::check::internal
