// simdjson's DOM as the rest of the runtime sees it: the one parse (with the fast path's exactness
// checks), the DOM -> Value conversion and a DOM writer byte-identical to WriteJson (json.h).
// Shared by ParseJson (json.cpp) and the view engine (runtime/eval/view), which evaluates on the
// DOM without converting it. Includes simdjson: include it only where the DOM is used.
#pragma once

#include <simdjson.h>

#include <cstring>
#include <string>
#include <string_view>

#include "runtime/value/json.h"
#include "runtime/value/value.h"

namespace wm::json_dom {

// Deepest nesting the DOM fast path accepts; deeper documents go to the built-in parser.
inline constexpr size_t kMaxDomDepth = 128;

// Parses `text` with `parser` when simdjson's DOM represents it exactly as ParseJson would (no
// integer "-0", whose sign simdjson drops; valid UTF-8; numbers in double range; depth <= 128).
// false = undecided: the caller must use ParseJson (which reports errors and repairs).
// `padded`: at least SIMDJSON_PADDING bytes after the text may be read (the rest of a read
// buffer, a padded string), so simdjson parses the text where it is; otherwise it is copied into
// a padded buffer first.
// `check` kDeferred leaves the -0 check to the caller, which reads only some parts of the
// document: before it uses a part's numbers it must have asked ElementHoldsIntegerZero of that
// part and, where that says yes, DocumentMayHoldMinusZero of the whole (a yes: ParseJson).
enum class MinusZeroCheck { kWhole, kDeferred };
bool ParseDom(std::string_view text, simdjson::dom::parser* parser, simdjson::dom::element* root,
              bool padded = false, MinusZeroCheck check = MinusZeroCheck::kWhole);

// A DOM element as the tape position it is (its document and tape index: simdjson's internal
// tape_ref, which dom::element keeps private), and back. The view engine reads the tape through it,
// and the -0 check scans an element's tape words.
struct TapeRef {
  const simdjson::dom::document* doc;
  size_t index;
};
static_assert(sizeof(TapeRef) == sizeof(simdjson::dom::element), "a dom::element is its tape reference");
inline TapeRef TapeRefOf(simdjson::dom::element e) {
  TapeRef ref;
  std::memcpy(&ref, static_cast<const void*>(&e), sizeof(ref));
  return ref;
}
inline simdjson::dom::element ElementAt(const simdjson::dom::document* doc, size_t index) {
  const TapeRef ref{doc, index};
  simdjson::dom::element e;
  std::memcpy(static_cast<void*>(&e), &ref, sizeof(ref));
  return e;
}

// Whether a parsed element holds the integer 0 at any depth (simdjson's form of the text "-0",
// and of "0"): its tape words, scanned as ParseDom's check scans the whole tape.
bool ElementHoldsIntegerZero(simdjson::dom::element element);

// ParseDom's whole check: whether `document`, parsed from `text`, may hold the integer -0 (its
// tape holds an integer 0 and its text a "-0" token; a false positive, "-0" in a string, only
// costs the exact parse).
bool DocumentMayHoldMinusZero(const simdjson::dom::document& document, std::string_view text);

// The widest vector instructions ParseDom's scans for the integer -0 use (the tape's words, then
// the text's bytes): the CPU's widest by default. Every width gives the same answers; tests lower
// it to run each form on one machine. Not thread-safe: set it before parsing starts.
enum class ScanWidth { kBaseline, kAvx2, kAvx512 };  // kBaseline: SSE2 and 8-byte words
ScanWidth WidestScanWidth();                           // what this CPU supports
ScanWidth CurrentScanWidth();
void SetScanWidth(ScanWidth width);                    // capped at WidestScanWidth()

// The Value of a DOM element (duplicate keys: the last value at the first key's position, as
// ParseJson). false when the element nests deeper than max_depth.
bool ConvertElement(simdjson::dom::element element, int max_depth, Value* out);

// Appends exactly what WriteJson(converted element, out, options) appends.
void WriteElement(simdjson::dom::element element, std::string* out, const JsonWriteOptions& options = {});

}  // namespace wm::json_dom
