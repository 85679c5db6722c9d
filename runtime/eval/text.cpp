// UTF-8 helpers and jq's truncated value dumps for error messages (see internal/text.h).
#include "runtime/eval/internal/text.h"

#include "runtime/value/json.h"

namespace wm::eval_internal {

uint32_t DecodeUtf8(std::string_view s, size_t* pos) {
  auto byte = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
  size_t i = *pos;
  unsigned char c = byte(i);
  int extra = 0;
  uint32_t cp = 0;
  if (c < 0x80) {
    *pos = i + 1;
    return c;
  } else if ((c & 0xE0) == 0xC0) {
    extra = 1, cp = c & 0x1F;
  } else if ((c & 0xF0) == 0xE0) {
    extra = 2, cp = c & 0x0F;
  } else if ((c & 0xF8) == 0xF0) {
    extra = 3, cp = c & 0x07;
  } else {
    *pos = i + 1;
    return 0xFFFD;
  }
  if (i + extra >= s.size()) {
    *pos = i + 1;
    return 0xFFFD;
  }
  for (int k = 1; k <= extra; ++k) {
    unsigned char d = byte(i + k);
    if ((d & 0xC0) != 0x80) {
      *pos = i + 1;
      return 0xFFFD;
    }
    cp = (cp << 6) | (d & 0x3F);
  }
  *pos = i + 1 + extra;
  return cp;
}

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) cp = 0xFFFD;
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

size_t CodepointCount(std::string_view s) {
  size_t n = 0;
  for (size_t pos = 0; pos < s.size(); ++n) DecodeUtf8(s, &pos);
  return n;
}

size_t ByteOffsetOfCodepoint(std::string_view s, size_t cp) {
  size_t pos = 0;
  for (size_t n = 0; n < cp && pos < s.size(); ++n) DecodeUtf8(s, &pos);
  return pos;
}

std::string TruncatedDump(const Value& v) {
  // jq 1.6/1.7 dump into a 15-byte buffer: 14 bytes of text, the last three replaced by "...".
  std::string text = ToJson(v);
  if (text.size() > 14) {
    text.resize(11);
    text += "...";
  }
  return text;
}

std::string Describe(const Value& v) {
  return std::string(KindName(v.kind())) + " (" + TruncatedDump(v) + ")";
}

}  // namespace wm::eval_internal
