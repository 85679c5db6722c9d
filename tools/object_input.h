// Reading workload objects for the CLI: a file path or "-" (stdin), JSON (one value or a stream of
// values, as `kubectl get -o json` or `jq -c` print them) or YAML (every document of a stream),
// converted to Values by base/yaml's conversion (the Kubernetes reader's scalar typing and the
// alias and size budgets every command applies). A malformed document anywhere in a stream is a
// located error, never dropped.
#pragma once

#include <cstddef>
#include <cstdio>
#include <memory>
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
//
// NDJSON fast path: a line that starts with `{` or `[` and ends with the matching bracket is
// guessed to be one value without scanning its bytes (NextText's `speculative`). A guess is right
// whenever the line parses as one JSON value (a valid value is balanced, so the exact scan would
// end it there too); a caller whose parser rejects a guessed text calls Unread() and gets the
// exactly scanned value next (`{"a":1} {"a":2}` on one line, a pretty-printed value).
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
  // bookkeeping (line, bytes consumed) moves past it as Next does. *speculative (when given) is
  // true for a guessed NDJSON line (see above); without it every value is scanned exactly.
  bool NextText(std::string_view* text, size_t* offset, bool* speculative = nullptr);
  // At least this many bytes after a text NextText returns may be read (its buffer's spare end):
  // the view engine parses the text where it is instead of copying it (FusedRunner::Run).
  static constexpr size_t kReadableAfterText = 64;
  // Steps back over the value NextText returned last (a rejected guess): the next NextText scans
  // it exactly. Valid only right after a NextText that returned true.
  void Unread();
  // Next's error for a value at `offset` its parser rejected with `error`.
  std::string InvalidJsonMessage(size_t offset, const JsonError& error) const;
  const std::string& error() const { return error_; }
  // Newlines up to the end of the last value, plus the newline right after it (jq's count).
  size_t line() const { return pos_.line; }
  // Bytes of input consumed so far (through the last value).
  size_t bytes_consumed() const { return pos_.consumed; }
  // The input's size when it is a regular file, else 0 (unknown: a pipe or a terminal).
  size_t size_hint() const { return size_hint_; }
  const std::string& name() const { return name_; }

 private:
  // Where the stream stands: restored by Unread.
  struct Position {
    size_t begin = 0;     // unconsumed input starts at data_[begin]
    size_t consumed = 0;  // absolute offset of data_[begin]
    size_t line = 0;
    size_t newlines = 0;  // newlines before the absolute offset `consumed`
  };
  bool Fill();  // reads one more chunk; false at end of input or on a read error
  void SkipSpace();
  // The end of the NDJSON line value at pos_.begin: kMore = read more first, kNoGuess = scan.
  size_t GuessLineEnd() const;
  void Take(size_t end, size_t newlines_inside);

  std::FILE* file_ = nullptr;
  bool owns_file_ = false;
  bool eof_ = false;
  std::string name_;
  std::unique_ptr<char[]> data_;  // the read buffer (not zero-filled on growth, unlike a string)
  size_t capacity_ = 0;
  size_t size_ = 0;               // bytes of data_ read
  Position pos_, before_last_;
  bool exact_next_ = false;        // Unread: scan the next value exactly
  size_t guesses_ = 0, misses_ = 0;  // speculative values and rejected ones (turns guessing off)
  size_t size_hint_ = 0;
  std::string error_;
};

// How the CLI names an input path in messages: "<stdin>" for "-".
std::string InputName(const std::string& path);

}  // namespace wm::tools
