// Workload object input for `wmc inspect`, `wmc get` and friends. JSON goes through the runtime's
// parser (exact numbers, fast; a stream of values is read whole); anything else is YAML, every
// document converted to JSON text by base/yaml (plain scalars typed as Kubernetes reads them,
// quoted scalars strings, aliases within the node budget) and then parsed by the same JSON parser.
#include "tools/object_input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <iterator>

#include "base/file.h"
#include "base/yaml/yaml_json.h"
#include "runtime/value/json.h"

namespace wm::tools {
namespace {

// Nesting a workload object may have (objects embed pod templates, which embed containers, ...).
constexpr int kMaxDepth = 256;
// `kind: List` inside `kind: List`: deeper than any tool writes; the rest is kept as it is.
constexpr int kMaxListNesting = 16;

bool LooksLikeJson(const std::string& text) {
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    return c == '{' || c == '[';
  }
  return false;
}

bool ReadText(const std::string& path, std::string* text, std::string* error) {
  if (path == "-") {
    text->assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return true;
  }
  base::ReadFileOptions read_options;
  // JSON and YAML text never holds a NUL byte: binary data (or /dev/zero) is refused at once.
  read_options.check_head = [](std::string_view head) -> std::string {
    size_t nul = head.find('\0');
    if (nul == std::string_view::npos) return "";
    return "binary data (a NUL byte at offset " + std::to_string(nul) + "), not JSON or YAML";
  };
  return base::ReadWholeFile(path, text, error, read_options);
}

bool YamlDocuments(const std::string& text, const std::string& name, std::vector<Value>* out,
                   std::string* error) {
  base::yaml::TextOptions options;
  options.limits.max_depth = kMaxDepth;
  auto take = [&](const std::string& json, size_t index, std::string* take_error) {
    Value value;
    JsonError json_error;
    if (!ParseJson(json, &value, &json_error)) {
      // The converter writes valid JSON; only a string that is not UTF-8 gets here.
      *take_error = name + ": document " + std::to_string(index + 1) + ": cannot read YAML: " +
                    json_error.message;
      return false;
    }
    if (!value.IsNull()) out->push_back(std::move(value));
    return true;
  };
  return base::yaml::ReadDocuments(text, name, options, take, error);
}

void Flatten(const Value& v, int depth, std::vector<Value>* out) {
  const Value* kind = v.IsObject() ? v.Find("kind") : nullptr;
  const Value* items = v.IsObject() ? v.Find("items") : nullptr;
  bool is_list = kind && kind->IsString() && kind->AsString().size() >= 4 &&
                 kind->AsString().substr(kind->AsString().size() - 4) == "List" && items &&
                 items->IsArray();
  if (!is_list || depth >= kMaxListNesting) {
    out->push_back(v);
    return;
  }
  for (const Value& item : items->AsArray()) Flatten(item, depth + 1, out);
}

// Bytes read at a time; a value larger than this is read in growing steps (amortised linear).
constexpr size_t kChunkBytes = size_t{1} << 20;
constexpr size_t kIncomplete = std::string_view::npos;
// GuessLineEnd's answers besides an end: read more input first; no guess (scan exactly).
constexpr size_t kMore = std::string_view::npos - 1;
constexpr size_t kNoGuess = std::string_view::npos - 2;

bool IsJsonSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Returns the index one past the end of the string starting at text[pos] == '"', or kIncomplete.
// memchr to each quote, then an even run of backslashes before it means the quote ends the string.
size_t StringEnd(std::string_view text, size_t pos) {
  size_t i = pos + 1;
  while (i < text.size()) {
    const void* hit = std::memchr(text.data() + i, '"', text.size() - i);
    if (hit == nullptr) return kIncomplete;
    size_t quote = static_cast<size_t>(static_cast<const char*>(hit) - text.data());
    size_t backslashes = 0;
    while (quote - backslashes > pos + 1 && text[quote - backslashes - 1] == '\\') ++backslashes;
    if (backslashes % 2 == 0) return quote + 1;
    i = quote + 1;
  }
  return kIncomplete;
}

// Finds the end of the JSON value starting at `pos` (not whitespace) without validating it
// (ParseJson does that). kIncomplete when the text ends first and more may come; at the end of the
// input (`at_eof`) an unbalanced value ends at the end of the text and fails to parse there.
size_t ScanValueEnd(std::string_view text, size_t pos, bool at_eof) {
  size_t end = kIncomplete;
  char c = text[pos];
  if (c == '"') {
    end = StringEnd(text, pos);
  } else if (c == '{' || c == '[') {
    int depth = 0;
    for (size_t i = pos; i < text.size() && end == kIncomplete; ++i) {
      char ch = text[i];
      if (ch == '"') {
        i = StringEnd(text, i);
        if (i == kIncomplete) break;
        --i;
      } else if (ch == '{' || ch == '[') {
        ++depth;
      } else if ((ch == '}' || ch == ']') && --depth == 0) {
        end = i + 1;
      }
    }
  } else {
    size_t i = pos;
    while (i < text.size() && !IsJsonSpace(text[i]) &&
           std::string_view("{}[],:\"").find(text[i]) == std::string_view::npos) {
      ++i;
    }
    if (i == pos) end = pos + 1;                   // a stray delimiter: one byte, a parse error
    else if (i < text.size() || at_eof) end = i;  // else a number or word may go on
  }
  if (end == kIncomplete && at_eof) end = text.size();
  return end;
}

}  // namespace

JsonValueStream::~JsonValueStream() {
  if (owns_file_ && file_ != nullptr) std::fclose(file_);
}

bool JsonValueStream::Open(const std::string& path, std::string* error) {
  name_ = InputName(path);
  if (path == "-") {
    file_ = stdin;
  } else {
    file_ = std::fopen(path.c_str(), "rb");
    if (file_ == nullptr) {
      *error = "cannot open " + path + ": " + std::strerror(errno);
      return false;
    }
    owns_file_ = true;
  }
  struct stat info {};
  if (::fstat(fileno(file_), &info) == 0) {
    if (S_ISDIR(info.st_mode)) {
      *error = path + " is a directory";
      return false;
    }
    if (S_ISREG(info.st_mode)) {
      size_hint_ = static_cast<size_t>(info.st_size);
      ::posix_fadvise(fileno(file_), 0, 0, POSIX_FADV_SEQUENTIAL);  // larger read-ahead
    }
  }
  return true;
}

bool JsonValueStream::Fill() {
  if (eof_) return false;
  if (pos_.begin > 0) {  // drop what was consumed: the buffer holds the current value only
    std::memmove(data_.get(), data_.get() + pos_.begin, size_ - pos_.begin);
    size_ -= pos_.begin;
    pos_.begin = 0;
  }
  // Whole chunks, or as much again as the value read so far (amortised linear for big values).
  size_t want = std::max(kChunkBytes, size_);
  if (capacity_ < size_ + want) {
    size_t capacity = std::max(size_ + want, capacity_ * 2);
    // kReadableAfterText spare bytes past the capacity (set, so that reading them is defined).
    std::unique_ptr<char[]> grown(new char[capacity + kReadableAfterText]);
    std::memset(grown.get() + capacity, ' ', kReadableAfterText);
    if (size_ > 0) std::memcpy(grown.get(), data_.get(), size_);
    data_ = std::move(grown);
    capacity_ = capacity;
  }
  ssize_t got = 0;
  do {
    got = ::read(fileno(file_), data_.get() + size_, capacity_ - size_);
  } while (got < 0 && errno == EINTR);
  if (got <= 0) {
    eof_ = true;
    if (got < 0) error_ = "cannot read " + name_ + ": " + std::strerror(errno);
    return false;
  }
  size_ += static_cast<size_t>(got);
  return true;
}

void JsonValueStream::SkipSpace() {
  while (pos_.begin < size_ && IsJsonSpace(data_[pos_.begin])) {
    pos_.newlines += data_[pos_.begin] == '\n';
    ++pos_.begin;
    ++pos_.consumed;
  }
}

size_t JsonValueStream::GuessLineEnd() const {
  char open = data_[pos_.begin];
  if (open != '{' && open != '[') return kNoGuess;
  const char* start = data_.get() + pos_.begin;
  const void* newline = std::memchr(start, '\n', size_ - pos_.begin);
  if (newline == nullptr && !eof_) return kMore;
  size_t line_end = newline ? static_cast<size_t>(static_cast<const char*>(newline) - data_.get()) : size_;
  size_t end = line_end;
  while (end > pos_.begin + 1 && IsJsonSpace(data_[end - 1])) --end;
  char close = open == '{' ? '}' : ']';
  return end > pos_.begin + 1 && data_[end - 1] == close ? end : kNoGuess;
}

// Moves past the value data_[pos_.begin, end) holding `newlines_inside` newlines.
void JsonValueStream::Take(size_t end, size_t newlines_inside) {
  pos_.newlines += newlines_inside;
  pos_.line = pos_.newlines + (end < size_ && data_[end] == '\n' ? 1 : 0);
  pos_.consumed += end - pos_.begin;
  pos_.begin = end;
}

bool JsonValueStream::NextText(std::string_view* value_text, size_t* offset, bool* speculative) {
  if (!error_.empty()) return false;
  // Guessing stays on while it mostly works: after 16 rejected guesses making up over 1/8 of the
  // values, the input is not NDJSON-like and every value is scanned once, exactly.
  bool guess = speculative != nullptr && !exact_next_ && !(misses_ >= 16 && misses_ * 8 > guesses_);
  exact_next_ = false;
  if (speculative != nullptr) *speculative = false;
  while (true) {
    SkipSpace();
    if (pos_.begin == size_) {
      if (Fill()) continue;
      return false;  // the end, or a read error in error_
    }
    size_t end = guess ? GuessLineEnd() : kNoGuess;
    if (end == kMore) {
      if (!Fill() && !error_.empty()) return false;
      continue;
    }
    bool guessed = end != kNoGuess;
    if (!guessed) {
      end = ScanValueEnd(std::string_view(data_.get(), size_), pos_.begin, eof_);
      // The byte after the value decides jq's line; at the buffer's end it is not read yet.
      if (end == kIncomplete || (end == size_ && !eof_)) {
        if (!Fill() && !error_.empty()) return false;
        continue;
      }
    }
    before_last_ = pos_;
    *value_text = std::string_view(data_.get() + pos_.begin, end - pos_.begin);
    *offset = pos_.consumed;
    Take(end, guessed ? 0 : static_cast<size_t>(std::count(value_text->begin(), value_text->end(), '\n')));
    if (guessed) {
      *speculative = true;
      ++guesses_;
    }
    return true;
  }
}

void JsonValueStream::Unread() {
  pos_ = before_last_;
  exact_next_ = true;
  ++misses_;
}

bool JsonValueStream::Next(Value* value) {
  std::string_view text;
  size_t offset = 0;
  bool speculative = false;
  while (NextText(&text, &offset, &speculative)) {
    JsonError json_error;
    if (ParseJson(text, value, &json_error)) return true;
    if (speculative) {
      Unread();
      continue;
    }
    error_ = InvalidJsonMessage(offset, json_error);
    return false;
  }
  return false;
}

std::string JsonValueStream::InvalidJsonMessage(size_t offset, const JsonError& error) const {
  return "invalid JSON in " + name_ + " at offset " + std::to_string(offset + error.offset) + ": " + error.message;
}

std::string InputName(const std::string& path) { return path == "-" ? "<stdin>" : path; }

bool YamlToValue(const std::string& text, const std::string& name, Value* out, std::string* error) {
  base::yaml::TextOptions options;
  options.limits.max_depth = kMaxDepth;
  options.first_document_only = true;
  *out = Value::Null();
  auto take = [&](const std::string& json, size_t, std::string* take_error) {
    JsonError json_error;
    if (ParseJson(json, out, &json_error)) return true;
    *take_error = name + ": cannot read YAML: " + json_error.message;
    return false;
  };
  return base::yaml::ReadDocuments(text, name, options, take, error);
}

bool ReadObjects(const std::string& path, std::vector<Value>* out, std::string* error) {
  std::string text, name = InputName(path);
  if (!ReadText(path, &text, error)) return false;
  if (!LooksLikeJson(text)) return YamlDocuments(text, name, out, error);
  JsonError json_error;
  std::vector<Value> values;
  if (!ParseJsonStream(text, &values, &json_error)) {
    *error = name + ": invalid JSON at byte " + std::to_string(json_error.offset) + ": " +
             json_error.message;
    return false;
  }
  for (Value& v : values) out->push_back(std::move(v));
  return true;
}

bool ReadObject(const std::string& path, Value* out, std::string* error) {
  std::vector<Value> documents;
  if (!ReadObjects(path, &documents, error)) return false;
  if (documents.size() > 1) {
    *error = InputName(path) +
             " holds more than one document; this command reads one workload (`wmc get -f` "
             "lists many)";
    return false;
  }
  *out = documents.empty() ? Value::Null() : documents.front();
  return true;
}

std::vector<Value> FlattenLists(const std::vector<Value>& objects) {
  std::vector<Value> out;
  for (const Value& v : objects) Flatten(v, 0, &out);
  return out;
}

}  // namespace wm::tools
