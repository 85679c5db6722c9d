// UTF-8 helpers and jq's truncated value dumps for error messages (see internal/text.h).
#include "runtime/eval/internal/text.h"

#include "runtime/value/json.h"

namespace wm::eval_internal {

// Invalid sequences decode to U+FFFD and are consumed as jq consumes them, so that decoded
// bytes (@base64d) read the same as in jq: a stray continuation byte or a byte that never starts
// a sequence (C0, C1, F5-FF) is one character; a sequence cut short by a non-continuation byte
// ends before that byte; a sequence cut short by the end of the string takes the rest of it; an
// overlong form, a surrogate or a code point above U+10FFFF is one U+FFFD for the whole sequence.
uint32_t DecodeUtf8(std::string_view s, size_t* pos) {
  auto byte = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
  const size_t i = *pos;
  const unsigned char c = byte(i);
  if (c < 0x80) {
    *pos = i + 1;
    return c;
  }
  size_t length = 0;
  uint32_t cp = 0, smallest = 0;
  if (c >= 0xC2 && c <= 0xDF) {
    length = 2, cp = c & 0x1F, smallest = 0x80;
  } else if (c >= 0xE0 && c <= 0xEF) {
    length = 3, cp = c & 0x0F, smallest = 0x800;
  } else if (c >= 0xF0 && c <= 0xF4) {
    length = 4, cp = c & 0x07, smallest = 0x10000;
  } else {
    *pos = i + 1;
    return 0xFFFD;
  }
  if (i + length > s.size()) {
    *pos = s.size();
    return 0xFFFD;
  }
  for (size_t k = 1; k < length; ++k) {
    const unsigned char d = byte(i + k);
    if ((d & 0xC0) != 0x80) {
      *pos = i + k;
      return 0xFFFD;
    }
    cp = (cp << 6) | (d & 0x3F);
  }
  *pos = i + length;
  if (cp < smallest || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0xFFFD;
  return cp;
}

size_t CodepointCount(std::string_view s) {
  size_t n = 0;
  for (size_t pos = 0; pos < s.size(); ++n) DecodeUtf8(s, &pos);
  return n;
}

size_t CodepointCursor::Before(size_t byte_offset) {
  if (byte_offset < bytes_) bytes_ = codepoints_ = 0;
  codepoints_ += CodepointCount(s_.substr(bytes_, byte_offset - bytes_));
  scanned_bytes_ += byte_offset - bytes_;
  bytes_ = byte_offset;
  return codepoints_;
}

size_t ByteOffsetOfCodepoint(std::string_view s, size_t cp) {
  size_t pos = 0;
  for (size_t n = 0; n < cp && pos < s.size(); ++n) DecodeUtf8(s, &pos);
  return pos;
}

std::string TruncatedJson(const Value& v, size_t buffer) {
  std::string text = ToJson(v);
  if (text.size() > buffer - 1) {
    text.resize(buffer - 4);
    text += "...";
  }
  return text;
}

// jq 1.6/1.7 dump type errors into a 15-byte buffer.
std::string TruncatedDump(const Value& v) { return TruncatedJson(v, 15); }

std::string Describe(const Value& v) {
  return std::string(KindName(v.kind())) + " (" + TruncatedDump(v) + ")";
}

}  // namespace wm::eval_internal
