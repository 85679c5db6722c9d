// A lexical scan of a regular expression (Oniguruma syntax, as jq 1.7 reads it) for the features
// that Go's RE2 engine, which gojq uses, does not have. Not a validator: it only finds the first
// occurrence of each feature, skipping escapes and character classes.
#pragma once

#include <string>
#include <string_view>

namespace wm::jq::internal {

struct RegexFeatures {
  std::string backreference;   // `\1`, `\k<name>`
  std::string lookaround;      // `(?=`, `(?!`, `(?<=`, `(?<!`
  std::string atomic;          // `(?>`, or a possessive quantifier `*+`, `++`, `?+`, `}+`
  std::string oniguruma_only;  // `\h`, `\H`, `\Z`, `\G`, `\K`, `\R`, `\X`, `\g<`, `(?#`, `(?(`, `(?~`
};

RegexFeatures ScanRegex(std::string_view pattern);

}  // namespace wm::jq::internal
