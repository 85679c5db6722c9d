// internal::ScanRegex: one pass over the pattern. Escapes are read as a unit (so `\\1` is not a
// backreference), character classes are skipped whole (quantifier characters are literal there),
// and group openers `(?` are classified by the characters that follow.
#include "compiler/jq/internal/regex_scan.h"

namespace wm::jq::internal {

namespace {

void Keep(std::string* slot, std::string_view found) {
  if (slot->empty()) *slot = std::string(found);
}

// Index just past the character class that starts at `i` (pattern[i] == '['); nested classes
// (`[a[:digit:]]`, Oniguruma's `[a-z&&[^x]]`) are followed by depth.
size_t SkipClass(std::string_view p, size_t i) {
  int depth = 0;
  for (; i < p.size(); ++i) {
    if (p[i] == '\\') {
      ++i;
      continue;
    }
    if (p[i] == '[') {
      ++depth;
      // A `]` right after `[` or `[^` is a literal.
      if (i + 1 < p.size() && p[i + 1] == '^') ++i;
      if (i + 1 < p.size() && p[i + 1] == ']') ++i;
    } else if (p[i] == ']' && --depth == 0) {
      return i + 1;
    }
  }
  return p.size();
}

void ScanEscape(std::string_view p, size_t i, RegexFeatures* f) {
  char c = i + 1 < p.size() ? p[i + 1] : '\0';
  char next = i + 2 < p.size() ? p[i + 2] : '\0';
  if (c >= '1' && c <= '9') Keep(&f->backreference, p.substr(i, 2));
  if (c == 'k' && (next == '<' || next == '\'')) Keep(&f->backreference, p.substr(i, 3));
  if (c == 'g' && (next == '<' || next == '\'')) Keep(&f->oniguruma_only, p.substr(i, 3));
  if (std::string_view("hHZGKRX").find(c) != std::string_view::npos && c != '\0') {
    Keep(&f->oniguruma_only, p.substr(i, 2));
  }
}

void ScanGroup(std::string_view p, size_t i, RegexFeatures* f) {
  // p[i] == '(' and p[i + 1] == '?'
  std::string_view rest = p.substr(i);
  if (rest.substr(0, 3) == "(?=" || rest.substr(0, 3) == "(?!") Keep(&f->lookaround, rest.substr(0, 3));
  if (rest.substr(0, 4) == "(?<=" || rest.substr(0, 4) == "(?<!") Keep(&f->lookaround, rest.substr(0, 4));
  if (rest.substr(0, 3) == "(?>") Keep(&f->atomic, rest.substr(0, 3));
  if (rest.substr(0, 3) == "(?#" || rest.substr(0, 3) == "(?(" || rest.substr(0, 3) == "(?~") {
    Keep(&f->oniguruma_only, rest.substr(0, 3));
  }
}

}  // namespace

RegexFeatures ScanRegex(std::string_view p) {
  RegexFeatures f;
  bool after_quantifier = false;  // the previous token was `*`, `+`, `?` or `{n,m}`
  for (size_t i = 0; i < p.size();) {
    char c = p[i];
    if (c == '\\') {
      ScanEscape(p, i, &f);
      i += 2;
      after_quantifier = false;
      continue;
    }
    if (c == '[') {
      i = SkipClass(p, i);
      after_quantifier = false;
      continue;
    }
    if (c == '(' && i + 1 < p.size() && p[i + 1] == '?') {
      ScanGroup(p, i, &f);
      i += 2;
      after_quantifier = false;
      continue;
    }
    if (c == '+' && after_quantifier) Keep(&f.atomic, p.substr(i - 1, 2));
    // `*?`, `+?`, `??` are lazy (RE2 has them): the `?` ends the quantifier.
    after_quantifier = !after_quantifier && (c == '*' || c == '+' || c == '?' || c == '}');
    ++i;
  }
  return f;
}

}  // namespace wm::jq::internal
