// The portability walk: what gojq (the engine of upstream's Go library and of the other Go
// consumers) lacks or evaluates differently from jq 1.7, from gojq's README ("Difference to jq")
// and its sources; docs/rules.md lists each rule with the behaviour of both engines. Every
// finding is a warning at the construct; builtins the user defines locally are their own and
// are not reported. The stream-alternative check (WM330) lives here too: it is a property of how
// upstream's consumers zip results, not of jq.
#include "compiler/jq/portability.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "compiler/jq/internal/regex_scan.h"
#include "compiler/jq/internal/scoped_walker.h"

namespace wm::jq {

namespace {

const std::vector<PortabilityRule> kRules = {
    {"WM300", "keys_unsorted", "`keys_unsorted`: gojq has no such builtin"},
    {"WM301", "$__loc__", "`$__loc__`: gojq has no such variable"},
    {"WM302", "input_line_number", "`input_line_number`: gojq has no such builtin"},
    {"WM303", "get_search_list", "`get_search_list`: gojq has no such builtin"},
    {"WM304", "get_prog_origin", "`get_prog_origin`: gojq has no such builtin"},
    {"WM305", "get_jq_origin", "`get_jq_origin`: gojq has no such builtin"},
    {"WM306", "recurse_down", "`recurse_down`: gojq has no such builtin"},
    {"WM307", "keyword-def", "a function named after a keyword (`def true: ...`): gojq refuses it"},
    {"WM309", "negated-binding", "unary minus before `as` (`-1 as $x | ...`): gojq binds `-1`"},
    {"WM310", "big-integer", "an integer literal beyond 2^53: gojq computes with it exactly"},
    {"WM311", "fractional-index", "a fractional index or slice bound that gojq truncates differently"},
    {"WM312", "string-index", "indexing a string by a number (`\"abc\"[1]`): jq 1.7 raises an error"},
    {"WM313", "char-offsets", "`index`, `rindex`, `indices` on strings: gojq counts characters, jq 1.7 bytes"},
    {"WM314", "base32", "`@base32` / `@base32d`: gojq has no such format"},
    {"WM315", "base64d", "`@base64d`: gojq keeps binary bytes that jq 1.7 replaces"},
    {"WM316", "env-empty", "`$ENV` / `env`: empty in gojq unless the consumer passes an environment"},
    {"WM317", "regex-backreference", "a regex backreference (`\\1`, `\\k<name>`): gojq's RE2 has none"},
    {"WM318", "regex-lookaround", "a regex look-ahead or look-behind: gojq's RE2 has none"},
    {"WM319", "regex-atomic", "a regex atomic group or possessive quantifier: gojq's RE2 has none"},
    {"WM320", "regex-syntax", "Oniguruma-only regex syntax (`\\h`, `\\Z`, `\\G`, `(?#...)`, ...)"},
    {"WM321", "regex-flags", "regex flags gojq lacks (`x`, `n`, `s`, `p`, `l`) or reads differently (`m`)"},
    {"WM322", "object-order", "a result that depends on object key order: gojq iterates keys sorted"},
    {"WM323", "trim-non-string", "`ltrimstr` / `rtrimstr` on a non-string: gojq raises an error"},
    {"WM330", "stream-alternative", "`A[].x // d` in a per-instance field: yields fewer results than instances"},
};

constexpr double kExactIntegerLimit = 9007199254740992.0;  // 2^53

const Node* StripParens(const Node* n) {
  while (n != nullptr && n->kind == NodeKind::Paren) n = n->kid(0);
  return n;
}

// The value of a number literal, possibly negated (`-0.5`, `(-1)`).
bool LiteralNumber(const Node* n, double* value) {
  n = StripParens(n);
  if (n == nullptr) return false;
  if (n->kind == NodeKind::Neg && LiteralNumber(n->kid(0), value)) {
    *value = -*value;
    return true;
  }
  if (n->kind != NodeKind::Number) return false;
  *value = n->number;
  return true;
}

bool IsPlainString(const Node* n) {
  return n != nullptr && n->kind == NodeKind::String && n->kids.empty() && n->format.empty();
}

bool IsNonStringLiteral(const Node* n) {
  n = StripParens(n);
  if (n == nullptr) return false;
  switch (n->kind) {
    case NodeKind::Number: case NodeKind::Null: case NodeKind::True: case NodeKind::False:
    case NodeKind::Array: case NodeKind::Object:
      return true;
    case NodeKind::Neg:
      return IsNonStringLiteral(n->kid(0));
    default:
      return false;
  }
}

// Keywords gojq does not accept as function names (its lexer's keyword list).
bool IsGojqKeyword(std::string_view name) {
  static const char* const kKeywords[] = {
      "or", "and", "module", "import", "include", "def", "as", "label", "break", "null", "true",
      "false", "if", "then", "elif", "else", "end", "try", "catch", "reduce", "foreach", "__loc__"};
  return std::find(std::begin(kKeywords), std::end(kKeywords), name) != std::end(kKeywords);
}

// The argument index of the regex and of the flags of a regex builtin, or false for other calls.
bool RegexArguments(const Node& call, size_t* regex, size_t* flags) {
  static const std::map<std::string, size_t, std::less<>> kFlagsAt = {
      {"test", 1}, {"match", 1}, {"capture", 1}, {"scan", 1}, {"splits", 1}, {"split", 1},
      {"sub", 2}, {"gsub", 2}};
  auto it = kFlagsAt.find(call.text);
  if (it == kFlagsAt.end() || call.kids.empty()) return false;
  if (call.text == "split" && call.kids.size() != 2) return false;  // split/1 splits on a string
  *regex = 0;
  *flags = it->second;
  return true;
}

// Object keys in source order when all are literal; false when any key is computed.
bool LiteralKeys(const Node& object, std::vector<std::string>* keys) {
  for (const auto& entry : object.kids) {
    const Node* key = entry ? entry->kid(0) : nullptr;
    if (key == nullptr) return false;
    if (key->kind == NodeKind::String && key->kids.empty()) {
      keys->push_back(key->text);
    } else if (key->kind == NodeKind::Variable) {
      keys->push_back(key->text);  // {$x} is {"x": $x}
    } else {
      return false;
    }
  }
  return true;
}

// True when jq 1.7 (insertion order) and gojq (sorted) see the keys of this literal differently.
bool OrderDiffers(const Node* n) {
  n = StripParens(n);
  if (n == nullptr || n->kind != NodeKind::Object || n->kids.size() < 2) return false;
  std::vector<std::string> keys;
  if (!LiteralKeys(*n, &keys)) return true;
  return !std::is_sorted(keys.begin(), keys.end());
}

class PortabilityWalker : public internal::ScopedWalker {
 public:
  PortabilityWalker(std::string_view text, const SourceMap& map, const PortabilityOptions& options)
      : text_(text), map_(map), options_(options) {}

 protected:
  void Visit(const Node& node) override {
    switch (node.kind) {
      case NodeKind::Call: VisitCall(node); break;
      case NodeKind::Variable: VisitVariable(node); break;
      case NodeKind::FuncDef:
        if (IsGojqKeyword(node.text)) {
          Report("WM307", node, "gojq refuses a function named after the keyword '" + node.text +
                                    "' (jq 1.7 accepts it); rename the function");
        }
        break;
      case NodeKind::Neg: VisitNeg(node); break;
      case NodeKind::Number: VisitNumber(node); break;
      case NodeKind::Index: VisitIndex(node); break;
      case NodeKind::Slice: VisitSlice(node); break;
      case NodeKind::Format:
        VisitFormat(node.token.end > node.token.begin ? node.token : node.range, node.text);
        break;
      case NodeKind::String:
        // `@base32 "\(x)"`: point at the format prefix.
        if (!node.format.empty()) {
          VisitFormat(Range{node.range.begin, node.range.begin + uint32_t(node.format.size())},
                      node.format.substr(1));
        }
        for (const auto& part : node.kids) CheckObjectOrder(part.get(), node, "string interpolation");
        break;
      case NodeKind::Iterate: CheckObjectOrder(node.kid(0), node, "`.[]`"); break;
      case NodeKind::Pipe: VisitPipe(node); break;
      default: break;
    }
  }

 private:
  void VisitCall(const Node& node) {
    if (IsShadowed(node.text)) return;
    static const std::map<std::string, std::string, std::less<>> kMissing = {
        {"keys_unsorted", "WM300"}, {"input_line_number", "WM302"}, {"get_search_list", "WM303"},
        {"get_prog_origin", "WM304"}, {"get_jq_origin", "WM305"}, {"recurse_down", "WM306"}};
    if (auto it = kMissing.find(node.text); it != kMissing.end()) {
      std::string fixit;
      if (node.text == "keys_unsorted") fixit = Rewrite(node.token, "keys");
      if (node.text == "recurse_down") fixit = Rewrite(node.token, "recurse");
      std::string why = node.text == "keys_unsorted"
                            ? " (it keeps no key order; `keys` sorts in both engines)"
                            : "";
      Report(it->second, node, "gojq has no builtin `" + node.text + "`" + why, {}, fixit);
    }
    if (node.text == "env" && node.kids.empty() && options_.refused.count("env") == 0) ReportEnv(node);
    if ((node.text == "index" || node.text == "rindex" || node.text == "indices") &&
        node.kids.size() == 1 && IsPlainString(node.kid(0))) {
      Report("WM313", node,
             "`" + node.text + "` on a string counts characters in gojq and bytes in jq 1.7: the "
             "offsets differ on non-ASCII text");
    }
    if ((node.text == "ltrimstr" || node.text == "rtrimstr") && node.kids.size() == 1 &&
        IsNonStringLiteral(node.kid(0))) {
      Report("WM323", node, "`" + node.text + "` with a non-string argument raises an error in gojq; "
                            "jq 1.7 returns the input unchanged");
    }
    size_t regex = 0, flags = 0;
    if (RegexArguments(node, &regex, &flags)) {
      if (IsPlainString(node.kid(regex))) VisitRegex(*node.kid(regex));
      if (IsPlainString(node.kid(flags))) VisitFlags(*node.kid(flags));
    }
  }

  void VisitVariable(const Node& node) {
    if (IsShadowed("$" + node.text)) return;
    if (node.text == "__loc__") {
      uint32_t line = 1;
      for (uint32_t i = 0; i < node.range.begin && i < text_.size(); ++i) line += text_[i] == '\n';
      Report("WM301", node, "gojq has no `$__loc__`", {},
             Rewrite(node.range, "{\"file\": \"<top-level>\", \"line\": " + std::to_string(line) + "}"));
    }
    if (node.text == "ENV" && options_.refused.count("$ENV") == 0) ReportEnv(node);
  }

  void ReportEnv(const Node& node) {
    Report("WM316", node,
           "gojq gives an empty environment unless the Go consumer passes one (WithEnvironLoader)");
  }

  void VisitNeg(const Node& node) {
    const Node* operand = node.kid(0);
    if (operand == nullptr || operand->kind != NodeKind::Bind) return;
    std::string inner(text_.substr(operand->range.begin, operand->range.end - operand->range.begin));
    Report("WM309", node,
           "gojq binds the negated term (`(-x) as $v | ...`), jq 1.7 negates the whole binding "
           "(`-(x as $v | ...)`); add parentheses",
           {}, Rewrite(node.range, "-(" + inner + ")"));
  }

  void VisitNumber(const Node& node) {
    bool integer_form = node.text.find_first_not_of("0123456789") == std::string::npos;
    if (integer_form && node.number > kExactIntegerLimit) {
      Report("WM310", node,
             "integer literal beyond 2^53: gojq computes with it exactly, jq 1.7 rounds it to a "
             "double in arithmetic and comparisons");
    }
  }

  void VisitIndex(const Node& node) {
    const Node* target = StripParens(node.kid(0));
    double key = 0;
    if (target && target->kind == NodeKind::String && LiteralNumber(node.kid(1), &key)) {
      ReportAt("WM312", node.range, "indexing a string by a number yields a character in gojq and an "
                                    "error in jq 1.7");
      return;
    }
    // jq 1.7 rounds a fractional index down, gojq truncates toward zero: they differ below zero.
    if (LiteralNumber(node.kid(1), &key) && key < 0 && key != std::floor(key)) {
      ReportAt("WM311", node.kid(1)->range,
               "a negative fractional index: jq 1.7 rounds it down, gojq truncates it toward zero");
    }
  }

  void VisitSlice(const Node& node) {
    double from = 0, to = 0;
    if (LiteralNumber(node.kid(1), &from) && from < 0 && from != std::floor(from)) {
      ReportAt("WM311", node.kid(1)->range,
               "a negative fractional slice start: jq 1.7 and gojq round it to different elements");
    }
    if (LiteralNumber(node.kid(2), &to) && to != std::floor(to)) {
      ReportAt("WM311", node.kid(2)->range, "a fractional slice end: jq 1.7 rounds it up, gojq truncates it");
    }
  }

  void VisitFormat(Range at, const std::string& format) {
    if (format == "base32" || format == "base32d") {
      ReportAt("WM314", at, "gojq has no format `@" + format + "`");
    }
    if (format == "base64d") {
      ReportAt("WM315", at, "`@base64d` of bytes that are not UTF-8: gojq keeps them, jq 1.7 "
                            "replaces them with U+FFFD");
    }
  }

  // `P | C` in any association: the last stage of P feeds the first stage of C.
  void VisitPipe(const Node& node) {
    const Node* producer = StripParens(node.kid(0));
    while (producer != nullptr && producer->kind == NodeKind::Pipe) producer = StripParens(producer->kid(1));
    const Node* consumer = StripParens(node.kid(1));
    while (consumer != nullptr && consumer->kind == NodeKind::Pipe) consumer = StripParens(consumer->kid(0));
    if (consumer == nullptr) return;
    static const char* const kOrderedConsumers[] = {"to_entries", "tostream", "tojson", "tostring",
                                                    "add", "join", "map", "keys_unsorted"};
    bool ordered = false;
    if (consumer->kind == NodeKind::Call) {
      ordered = std::find_if(std::begin(kOrderedConsumers), std::end(kOrderedConsumers),
                             [&](const char* name) { return consumer->text == name; }) !=
                std::end(kOrderedConsumers);
    }
    std::string label = "`" + consumer->text + "`";
    if (consumer->kind == NodeKind::Format) {
      ordered = consumer->text == "json" || consumer->text == "text";
      label = "`@" + consumer->text + "`";
    }
    if (consumer->kind == NodeKind::Iterate && consumer->kid(0) == nullptr) {
      ordered = true;
      label = "`.[]`";
    }
    if (ordered) CheckObjectOrder(producer, *consumer, label);
  }

  // An object the expression builds, consumed in key order: gojq sorts the keys, jq 1.7 keeps
  // the order of the literal.
  void CheckObjectOrder(const Node* object, const Node& at, const std::string& how) {
    if (!OrderDiffers(object)) return;
    ReportAt("WM322", at.range,
           "this object is consumed in key order by " + how + ": gojq orders its keys sorted, "
           "jq 1.7 in the order written");
  }

  void VisitRegex(const Node& literal) {
    internal::RegexFeatures f = internal::ScanRegex(literal.text);
    if (!f.backreference.empty()) {
      Report("WM317", literal, "regex backreference `" + f.backreference +
                                   "`: gojq's regular expressions (Go RE2) have none");
    }
    if (!f.lookaround.empty()) {
      Report("WM318", literal, "regex look-around `" + f.lookaround +
                                   "`: gojq's regular expressions (Go RE2) have none");
    }
    if (!f.atomic.empty()) {
      Report("WM319", literal, "regex atomic group or possessive quantifier `" + f.atomic +
                                   "`: gojq's regular expressions (Go RE2) have none");
    }
    if (!f.oniguruma_only.empty()) {
      Report("WM320", literal, "regex syntax `" + f.oniguruma_only +
                                   "` is Oniguruma's (jq 1.7); gojq's Go RE2 refuses it");
    }
  }

  void VisitFlags(const Node& literal) {
    std::string missing;
    bool dot_all = false;
    for (char c : literal.text) {
      if (std::string_view("xnspl").find(c) != std::string_view::npos && missing.find(c) == std::string::npos) {
        missing += c;
      }
      dot_all = dot_all || c == 'm';
    }
    if (!missing.empty()) {
      Report("WM321", literal, "regex flags \"" + missing + "\" are not supported by gojq (it accepts "
                               "only g, i and m) and make the call fail there");
    }
    if (dot_all) {
      Report("WM321", literal, "regex flag \"m\" makes `.` match newlines in gojq and is refused by "
                               "jq 1.7; match newlines with `[\\s\\S]` instead");
    }
  }

  // The field's text with `range` replaced: the fix-it of the whole expression.
  std::string Rewrite(Range range, std::string_view replacement) const {
    std::string out(text_.substr(0, range.begin));
    out += replacement;
    out += text_.substr(std::min<size_t>(range.end, text_.size()));
    return out;
  }

  // At the node's token (`keys_unsorted`, `-`, `@base64d`).
  void Report(std::string_view rule, const Node& node, std::string message, std::vector<std::string> notes = {},
              std::string fixit = {}) {
    Range at = node.token.end > node.token.begin ? node.token : node.range;
    ReportAt(rule, at, std::move(message), std::move(notes), std::move(fixit));
  }

  void ReportAt(std::string_view rule, Range at, std::string message, std::vector<std::string> notes = {},
                std::string fixit = {}) {
    if (options_.allowed.count(rule) > 0) return;
    const PortabilityRule* info = FindPortabilityRule(rule);
    if (info && options_.allowed.count(info->name) > 0) return;
    std::string allow_name(info ? info->name : rule);
    notes.push_back("portability to gojq (--target=gojq); silence it with --allow " + allow_name);
    Found(at.begin, MakeDiagnostic(std::string(rule), map_.Map(at.begin), std::move(message))
                                      .Length(at.end > at.begin ? at.end - at.begin : 1)
                                      .Notes(std::move(notes))
                                      .Fixit(std::move(fixit)));
  }

  std::string_view text_;
  const SourceMap& map_;
  const PortabilityOptions& options_;
};

// True when `n` can yield several outputs for one input, judged from its syntax: iteration,
// `,`, `..`, and the builtins that generate. Array constructors and reductions collect.
bool YieldsStream(const Node* n, int depth = 0) {
  if (n == nullptr || depth > 10000) return false;
  switch (n->kind) {
    case NodeKind::Iterate: case NodeKind::Comma: case NodeKind::RecurseDefault:
    case NodeKind::Foreach:
      return true;
    case NodeKind::Array: case NodeKind::Reduce: case NodeKind::FuncDef:
      return n->kind == NodeKind::FuncDef && YieldsStream(n->kid(1), depth + 1);
    case NodeKind::Call: {
      static const char* const kGenerators[] = {"range", "recurse", "paths", "leaf_paths", "splits",
                                                "scan", "repeat", "while", "inputs"};
      for (const char* g : kGenerators) {
        if (n->text == g) return true;
      }
      return false;
    }
    default:
      break;
  }
  for (const auto& kid : n->kids) {
    if (YieldsStream(kid.get(), depth + 1)) return true;
  }
  return false;
}

// The last iteration of a path chain (`A[]` in `A[].x.y`), or null when `n` is not a chain of
// field, index and optional suffixes over an iteration.
const Node* IterationOfChain(const Node* n) {
  while (n != nullptr) {
    if (n->kind == NodeKind::Iterate) return n;
    // `A[]?` streams as a whole: the `?` stays with the iteration.
    if (n->kind == NodeKind::Optional && n->kid(0) && n->kid(0)->kind == NodeKind::Iterate) return n;
    if (n->kind != NodeKind::Field && n->kind != NodeKind::Index && n->kind != NodeKind::Optional) {
      return nullptr;
    }
    if (n->kind == NodeKind::Index && YieldsStream(n->kid(1))) return nullptr;
    n = n->kid(0);
  }
  return nullptr;
}

class StreamAlternativeFinder {
 public:
  StreamAlternativeFinder(std::string_view text, const SourceMap& map) : text_(text), map_(map) {}

  // Only alternatives whose outputs become outputs of the field count: inside an array
  // constructor, a reduction, a function's body or a builtin's argument the stream is collected
  // or consumed, not zipped.
  void Walk(const Node* n, const Node* parent, int depth) {
    if (n == nullptr || depth > 10000) return;
    if (n->kind == NodeKind::Array || n->kind == NodeKind::Reduce || n->kind == NodeKind::Call) return;
    if (n->kind == NodeKind::Alternative && YieldsStream(n->kid(0))) Report(*n, parent);
    if (n->kind == NodeKind::FuncDef) {
      Walk(n->kid(1), n, depth + 1);
      return;
    }
    for (const auto& kid : n->kids) Walk(kid.get(), n, depth + 1);
  }

  std::vector<Diagnostic> Take() { return std::move(found_); }

 private:
  void Report(const Node& alt, const Node* parent) {
    Range at = alt.token.end > alt.token.begin ? alt.token : alt.range;
    found_.push_back(
        MakeDiagnostic("WM330", map_.Map(at.begin),
                       "`//` after a stream drops the null and false outputs of the left side whenever "
                       "one output is truthy, so this field can yield fewer results than there are "
                       "instances; apply the default to each element")
            .Length(at.end > at.begin ? at.end - at.begin : 1)
            .Note("upstream pairs results with instance ids by index and refuses a count mismatch")
            .Fixit(FixIt(alt, parent)));
  }

  // `A[].x // d` -> `A[] | (.x // d)`, as the whole field's text; empty when the left side is not
  // a path over one iteration.
  std::string FixIt(const Node& alt, const Node* parent) const {
    const Node* left = alt.kid(0);
    const Node* iteration = IterationOfChain(left);
    if (iteration == nullptr || alt.kid(1) == nullptr) return {};
    std::string_view stream = Slice(iteration->range.begin, iteration->range.end);
    std::string_view suffix = Slice(iteration->range.end, left->range.end);
    std::string element = suffix.empty() ? "." : suffix[0] == '.' ? std::string(suffix) : "." + std::string(suffix);
    std::string rewrite = std::string(stream) + " | (" + element + " // " +
                          std::string(Slice(alt.kid(1)->range.begin, alt.kid(1)->range.end)) + ")";
    bool bare = parent == nullptr || parent->kind == NodeKind::Pipe || parent->kind == NodeKind::Paren ||
                parent->kind == NodeKind::Bind || parent->kind == NodeKind::FuncDef;
    if (!bare) rewrite = "(" + rewrite + ")";
    return std::string(Slice(0, alt.range.begin)) + rewrite + std::string(Slice(alt.range.end, text_.size()));
  }

  std::string_view Slice(size_t begin, size_t end) const {
    begin = std::min(begin, text_.size());
    end = std::min(std::max(begin, end), text_.size());
    return text_.substr(begin, end - begin);
  }

  std::string_view text_;
  const SourceMap& map_;
  std::vector<Diagnostic> found_;
};

}  // namespace

bool ParseEngine(std::string_view name, Engine* engine) {
  if (name == "gojq") *engine = Engine::kGojq;
  else if (name == "jq") *engine = Engine::kJq;
  else return false;
  return true;
}

const std::vector<PortabilityRule>& PortabilityRules() { return kRules; }

const PortabilityRule* FindPortabilityRule(std::string_view id_or_name) {
  for (const PortabilityRule& rule : kRules) {
    if (rule.id == id_or_name || rule.name == id_or_name) return &rule;
  }
  return nullptr;
}

std::vector<Diagnostic> CheckPortability(const Node& ast, std::string_view text,
                                         const SourceMap& source_map, const PortabilityOptions& options) {
  if (options.target == Engine::kJq) return {};
  PortabilityWalker walker(text, source_map, options);
  walker.Walk(&ast);
  return walker.TakeInSourceOrder();
}

std::vector<Diagnostic> CheckStreamAlternatives(const Node& ast, std::string_view text,
                                                const SourceMap& source_map,
                                                const std::set<std::string, std::less<>>& allowed) {
  if (allowed.count("WM330") > 0 || allowed.count("stream-alternative") > 0) return {};
  StreamAlternativeFinder finder(text, source_map);
  finder.Walk(&ast, nullptr, 0);
  return finder.Take();
}

}  // namespace wm::jq
