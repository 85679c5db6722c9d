// Workload object input for `wmc inspect`, `wmc get` and friends. JSON goes through the runtime's
// parser (exact numbers, fast; a stream of values is read whole); anything else is YAML, every
// document converted to JSON text by base/yaml (plain scalars typed as Kubernetes reads them,
// quoted scalars strings, aliases within the node budget) and then parsed by the same JSON parser.
#include "tools/object_input.h"

#include <sys/stat.h>

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
    if (S_ISREG(info.st_mode)) size_hint_ = static_cast<size_t>(info.st_size);
  }
  return true;
}

bool JsonValueStream::Fill() {
  if (eof_) return false;
  if (begin_ > 0) {
    buffer_.erase(0, begin_);
    begin_ = 0;
  }
  size_t want = std::max(kChunkBytes, buffer_.size());
  size_t old_size = buffer_.size();
  buffer_.resize(old_size + want);
  size_t got = std::fread(buffer_.data() + old_size, 1, want, file_);
  buffer_.resize(old_size + got);
  if (got == 0) {
    eof_ = true;
    if (std::ferror(file_)) error_ = "cannot read " + name_ + ": " + std::strerror(errno);
  }
  return got > 0;
}

bool JsonValueStream::NextText(std::string_view* value_text, size_t* offset) {
  if (!error_.empty()) return false;
  while (true) {
    while (begin_ < buffer_.size() && IsJsonSpace(buffer_[begin_])) {
      newlines_ += buffer_[begin_] == '\n';
      ++begin_;
      ++consumed_;
    }
    if (begin_ == buffer_.size()) {
      if (Fill()) continue;
      return false;  // the end, or a read error in error_
    }
    std::string_view text(buffer_);
    size_t end = ScanValueEnd(text, begin_, eof_);
    // The byte after the value decides jq's line; at the buffer's end it is not read yet.
    if (end == kIncomplete || (end == text.size() && !eof_)) {
      if (!Fill() && !error_.empty()) return false;
      continue;
    }
    *value_text = text.substr(begin_, end - begin_);
    *offset = consumed_;
    newlines_ += static_cast<size_t>(std::count(text.begin() + begin_, text.begin() + end, '\n'));
    line_ = newlines_ + (end < text.size() && text[end] == '\n' ? 1 : 0);
    consumed_ += end - begin_;
    begin_ = end;
    return true;
  }
}

bool JsonValueStream::Next(Value* value) {
  std::string_view text;
  size_t offset = 0;
  if (!NextText(&text, &offset)) return false;
  JsonError json_error;
  if (!ParseJson(text, value, &json_error)) {
    error_ = InvalidJsonMessage(offset, json_error);
    return false;
  }
  return true;
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
