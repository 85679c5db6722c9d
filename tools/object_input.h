// Reading workload objects for the CLI: a file path or "-" (stdin), JSON (one value or a stream of
// values, as `kubectl get -o json` or `jq -c` print them) or YAML (every document of a stream),
// converted to Values by base/yaml's conversion (the Kubernetes reader's scalar typing and the
// alias and size budgets every command applies). A malformed document anywhere in a stream is a
// located error, never dropped.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/value/json.h"
#include "runtime/value/value.h"

namespace wm::tools {

// Reads every document of the input, in order; empty YAML documents (`---` with nothing after
// it) are skipped. False with *error ("FILE:LINE:COL: ..." for YAML, "FILE: invalid JSON at byte
// N: ..." for JSON, "cannot open FILE" ...) when any document is malformed or unreadable.
bool ReadObjects(const std::string& path, std::vector<Value>* out, std::string* error);

// Reads the one object of the input (null for an empty input). False with *error on malformed
// input, and when the input holds more than one document ("FILE holds more than one document;
// ... reads one workload").
bool ReadObject(const std::string& path, Value* out, std::string* error);

// Replaces each `kind: List` (or `kind: <Anything>List` with an `items` array, as kubectl prints
// lists) by its items, recursively, keeping the order.
std::vector<Value> FlattenLists(const std::vector<Value>& objects);

// Converts YAML text (first document) to a Value; false with *error ("NAME:LINE:COL: ...") on
// malformed YAML or when a budget is exceeded.
bool YamlToValue(const std::string& text, const std::string& name, Value* out, std::string* error);

// A stream of whitespace-separated JSON values (NDJSON, `jq -c` output, concatenated documents)
// read incrementally from a file or stdin: memory holds one read chunk plus the value being read,
// so it is bounded by the largest single value, not by the input. Values come out in order with
// the line jq would report for an error raised while processing them.
//
//   JsonValueStream in;  if (!in.Open(path, &error)) ...
//   for (Value v; in.Next(&v);) { ... in.line() ... }  if (!in.error().empty()) ...
class JsonValueStream {
 public:
  JsonValueStream() = default;
  ~JsonValueStream();
  JsonValueStream(const JsonValueStream&) = delete;
  JsonValueStream& operator=(const JsonValueStream&) = delete;

  // Opens `path` ("-" = stdin). False with *error ("cannot open PATH: REASON", "PATH is a
  // directory") when it cannot be read.
  bool Open(const std::string& path, std::string* error);
  // The next value; false at the end of the input or on an error (then error() is set:
  // "invalid JSON in NAME at offset N: MESSAGE", or a read error).
  bool Next(Value* value);
  // The next value's JSON text, unparsed (for engines that parse it themselves: the view engine),
  // valid until the next call; *offset = its byte offset in the input (for error messages). The
  // bookkeeping (line, bytes consumed) moves past it as Next does.
  bool NextText(std::string_view* text, size_t* offset);
  // Next's error for a value at `offset` its parser rejected with `error`.
  std::string InvalidJsonMessage(size_t offset, const JsonError& error) const;
  const std::string& error() const { return error_; }
  // Newlines up to the end of the last value, plus the newline right after it (jq's count).
  size_t line() const { return line_; }
  // Bytes of input consumed so far (through the last value).
  size_t bytes_consumed() const { return consumed_; }
  // The input's size when it is a regular file, else 0 (unknown: a pipe or a terminal).
  size_t size_hint() const { return size_hint_; }
  const std::string& name() const { return name_; }

 private:
  bool Fill();  // reads one more chunk; false at end of input or on a read error

  std::FILE* file_ = nullptr;
  bool owns_file_ = false;
  bool eof_ = false;
  std::string name_;
  std::string buffer_;  // unconsumed input starts at begin_
  size_t begin_ = 0;
  size_t consumed_ = 0;   // absolute offset of buffer_[begin_]
  size_t line_ = 0;
  size_t newlines_ = 0;   // newlines before the absolute offset consumed_
  size_t size_hint_ = 0;
  std::string error_;
};

// How the CLI names an input path in messages: "<stdin>" for "-".
std::string InputName(const std::string& path);

}  // namespace wm::tools
