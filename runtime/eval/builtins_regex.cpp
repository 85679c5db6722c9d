// jq's regex builtins on Oniguruma (Perl-NT syntax, UTF-8): the array of match objects behind
// match/test/capture/scan/split/sub/gsub. Offsets and lengths are in codepoints, as jq reports
// them. Compiled patterns are cached per thread (definitions apply a handful of literal
// patterns to every object, so compiling once per call dominated the cost of test/match).
#include <oniguruma.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "runtime/eval/internal/builtin_impl.h"
#include "runtime/eval/internal/step_budget.h"
#include "runtime/eval/internal/text.h"

namespace wm::eval_internal {
namespace {

void InitOnigurumaOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    OnigEncoding encodings[] = {ONIG_ENCODING_UTF8};
    onig_initialize(encodings, 1);
  });
}

struct RegexDeleter {
  void operator()(regex_t* r) const { onig_free(r); }
};
struct RegionDeleter {
  void operator()(OnigRegion* r) const { onig_region_free(r, 1); }
};

struct NameCollector {
  std::vector<std::string>* names;  // indexed by group number
};

int CollectName(const UChar* name, const UChar* name_end, int ngroups, int* groups, regex_t*,
                void* arg) {
  auto* names = static_cast<NameCollector*>(arg)->names;
  for (int i = 0; i < ngroups; ++i) {
    size_t g = static_cast<size_t>(groups[i]);
    if (g < names->size()) (*names)[g].assign(reinterpret_cast<const char*>(name), name_end - name);
  }
  return 0;
}

// A compiled pattern with its group names (indexed by group number; "" for unnamed groups).
struct CompiledRegex {
  std::unique_ptr<regex_t, RegexDeleter> re;
  std::vector<std::string> names;
};

// Per-thread cache of compiled patterns by (pattern, options). Oniguruma's regex_t is not shared
// across threads this way, so no locking is needed. Bounded: a program building patterns from
// data cannot grow it without limit; when full it starts over.
constexpr size_t kRegexCacheCapacity = 128;

// Orders cache keys and finds them by a borrowed pattern, so a cache hit copies nothing.
struct RegexKeyLess {
  using is_transparent = void;
  using View = std::pair<std::string_view, OnigOptionType>;
  static View AsView(const std::pair<std::string, OnigOptionType>& key) { return {key.first, key.second}; }
  static View AsView(const View& key) { return key; }
  template <class A, class B>
  bool operator()(const A& a, const B& b) const { return AsView(a) < AsView(b); }
};

const CompiledRegex* CompileCached(std::string_view pattern, OnigOptionType options, Value* error) {
  thread_local std::map<std::pair<std::string, OnigOptionType>, CompiledRegex, RegexKeyLess> cache;
  auto found = cache.find(RegexKeyLess::View(pattern, options));
  if (found != cache.end()) return &found->second;

  regex_t* raw = nullptr;
  OnigErrorInfo einfo;
  const auto* pat = reinterpret_cast<const UChar*>(pattern.data());
  int rc = onig_new(&raw, pat, pat + pattern.size(), options, ONIG_ENCODING_UTF8,
                    ONIG_SYNTAX_PERL_NG, &einfo);
  if (rc != ONIG_NORMAL) {
    UChar message[ONIG_MAX_ERROR_MESSAGE_LEN];
    onig_error_code_to_str(message, rc, &einfo);
    Fail(error, std::string(pattern) + " (at offset 0) is not a valid regex: " +
                    reinterpret_cast<const char*>(message));
    return nullptr;
  }
  CompiledRegex compiled;
  compiled.re.reset(raw);
  compiled.names.resize(static_cast<size_t>(onig_number_of_captures(raw)) + 1);
  NameCollector collector{&compiled.names};
  onig_foreach_name(raw, CollectName, &collector);
  if (cache.size() >= kRegexCacheCapacity) cache.clear();
  return &cache.emplace(std::make_pair(std::string(pattern), options), std::move(compiled)).first->second;
}

}  // namespace

bool RegexMatch(const Value& input, const Value& regex, const Value& flags, bool test_only,
                Value* out, Value* error) {
  if (!input.IsString()) {
    return Fail(error, Describe(input) + " cannot be matched, as it is not a string");
  }
  if (!regex.IsString()) return Fail(error, Describe(regex) + " is not a string");
  OnigOptionType options = ONIG_OPTION_CAPTURE_GROUP;
  bool global = false;
  if (!flags.IsNull()) {
    if (!flags.IsString()) return Fail(error, Describe(flags) + " is not a string");
    for (char c : flags.AsString()) {
      switch (c) {
        case 'g': global = true; break;
        case 'i': options |= ONIG_OPTION_IGNORECASE; break;
        case 'x': options |= ONIG_OPTION_EXTEND; break;
        case 'n': options |= ONIG_OPTION_FIND_NOT_EMPTY; break;
        case 's': options |= ONIG_OPTION_SINGLELINE; break;
        case 'p': options |= ONIG_OPTION_MULTILINE | ONIG_OPTION_SINGLELINE; break;
        case 'l': options |= ONIG_OPTION_FIND_LONGEST; break;
        default: return Fail(error, std::string(flags.AsString()) + " is not a valid modifier string");
      }
    }
  }
  InitOnigurumaOnce();
  const CompiledRegex* compiled = CompileCached(regex.AsString(), options, error);
  if (compiled == nullptr) return false;
  regex_t* re = compiled->re.get();
  const std::vector<std::string>& names = compiled->names;
  const int groups = static_cast<int>(names.size()) - 1;
  std::unique_ptr<OnigRegion, RegionDeleter> region(onig_region_new());

  std::string_view s = input.AsString();
  const auto* begin = reinterpret_cast<const UChar*>(s.data());
  const auto* end = begin + s.size();
  size_t start = 0;
  Array matches;
  CodepointCursor cursor(s);
  while (start <= s.size()) {
    onig_region_clear(region.get());
    int r = onig_search(re, begin, end, begin + start, end, region.get(), ONIG_OPTION_NONE);
    if (r == ONIG_MISMATCH) break;
    if (r < 0) {
      UChar message[ONIG_MAX_ERROR_MESSAGE_LEN];
      onig_error_code_to_str(message, r);
      return Fail(error, std::string("Regex failure: ") + reinterpret_cast<const char*>(message));
    }
    if (test_only) {
      *out = Value::Bool(true);
      return true;
    }
    size_t mb = size_t(region->beg[0]), me = size_t(region->end[0]);
    // Each match is work and memory of the evaluation (a global match over a large subject
    // builds one object per match).
    if (!ChargeWork(1 + uint64_t(groups) + (me - mb) / 8, 256 * (1 + uint64_t(groups)) + (me - mb), error)) {
      return false;
    }
    const double match_offset = double(cursor.Before(mb));  // first: captures lie at or after it
    Array captures;
    for (int g = 1; g <= groups; ++g) {
      Value name = names[g].empty() ? Value::Null() : Value::String(names[g]);
      if (region->beg[g] < 0) {
        captures.push_back(Value::MakeObject({{Value::String("offset"), Value::Number(-1)},
                                              {Value::String("length"), Value::Number(0)},
                                              {Value::String("string"), Value::Null()},
                                              {Value::String("name"), name}}));
        continue;
      }
      size_t cb = size_t(region->beg[g]), ce = size_t(region->end[g]);
      std::string_view text = s.substr(cb, ce - cb);
      captures.push_back(Value::MakeObject(
          {{Value::String("offset"), Value::Number(double(cursor.Before(cb)))},
           {Value::String("length"), Value::Number(double(CodepointCount(text)))},
           {Value::String("string"), Value::String(text)},
           {Value::String("name"), name}}));
    }
    // Decoding the offsets is work too (linear in the subject while the cursor moves forward).
    if (!ChargeWork(cursor.TakeScannedSteps(), 0, error)) return false;
    std::string_view text = s.substr(mb, me - mb);
    matches.push_back(Value::MakeObject(
        {{Value::String("offset"), Value::Number(match_offset)},
         {Value::String("length"), Value::Number(double(CodepointCount(text)))},
         {Value::String("string"), Value::String(text)},
         {Value::String("captures"), Value::MakeArray(std::move(captures))}}));
    if (!global) break;
    if (me == mb) {
      // Empty match: step over one codepoint so the search makes progress.
      if (me >= s.size()) break;
      size_t next = me;
      DecodeUtf8(s, &next);
      start = next;
    } else {
      start = me;
    }
  }
  if (test_only) {
    *out = Value::Bool(false);
    return true;
  }
  *out = Value::MakeArray(std::move(matches));
  return true;
}

}  // namespace wm::eval_internal
