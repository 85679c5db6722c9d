// wm_conformance: runs jq conformance tests written in jq's own `--run-tests` format (jq.test)
// through every wm engine: the interpreter, the JIT and the AOT shared object. All engines must
// produce the expected outputs; a program the native backends refuse is a failed block.
//
// Usage: wm_conformance [options] PATH...
//   PATH is a .test file or a directory; a directory runs every *.test directly inside it (not
//   its subdirectories, so tests/conformance/pending/ is skipped unless named) and also checks
//   builtin coverage: every public builtin name/arity of the interpreter must be called in a
//   file of the directory or of its pending/ subdirectory.
//   --engines=interp,jit,aot   engines to run (default: all three)
//   --opt-level=N              LLVM optimisation level of the JIT and AOT code (default 0: the
//                              files compile ~10x faster than at -O2; the differential tests
//                              cover the optimised code)
//   --no-coverage              skip the builtin coverage check
//   -v                         print every block, not only failures
//
// File format (the same as jq's tests/jq.test):
//   - Blocks are separated by blank lines. Lines starting with '#' are comments.
//   - A normal block: line 1 the jq program, line 2 the input JSON, then one expected output per
//     line (JSON text). Outputs are compared as JSON values, as jq's runner does with jv_equal:
//     `1.0` equals `1` and object key order does not matter. A block with no output lines
//     expects no output.
//   - A compile-failure block: line 1 `%%FAIL` (or `%%FAIL IGNORE MSG`), line 2 the program,
//     line 3 a substring of the expected first compile diagnostic (optional with IGNORE MSG).
//     The program must be rejected before it runs.
//   - Extension (not in jq): the last expected line may be `%%ERROR <substring>`, meaning that
//     after the outputs listed before it the evaluation ends with an error whose message contains
//     <substring> (an empty substring accepts any error). jq.test itself can only observe errors
//     through `try ... catch .`; both styles are used here.
//
// Exit status: 0 when every block passed on every engine it ran on and coverage is complete;
// 1 otherwise; 2 on usage errors or malformed test files.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/ir/builtins.h"
#include "runtime/value/json.h"
#include "tests/diff/wm_engines.h"

namespace wm::conformance {
namespace {

namespace fs = std::filesystem;

// ---------------------------------------------------------------------------------------------
// Test files

struct ExpectedOutput {
  std::string json;  // as written in the file
  Value value;
  int line = 0;
};

struct Block {
  std::string file;  // path as given on the command line (for file:line reports)
  int line = 0;      // line of the program (or of %%FAIL)
  std::string program;
  // Normal blocks.
  std::string input;
  Value input_value;
  std::vector<ExpectedOutput> outputs;
  bool expect_error = false;      // a `%%ERROR` line ends the expectations
  std::string error_substring;
  // %%FAIL blocks.
  bool expect_compile_failure = false;
  bool ignore_message = false;
  std::string compile_message;  // substring of the first diagnostic
};

constexpr std::string_view kFailMarker = "%%FAIL";
constexpr std::string_view kErrorMarker = "%%ERROR";

bool IsBlank(const std::string& line) {
  return std::all_of(line.begin(), line.end(), [](unsigned char c) { return std::isspace(c); });
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

std::string Trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

// Splits a file into blocks. Malformed blocks are reported in *problems (file:line: why).
std::vector<Block> ParseTestFile(const std::string& file, const std::string& text,
                                 std::vector<std::string>* problems) {
  struct Line {
    int number;
    std::string text;
  };
  std::vector<std::vector<Line>> groups(1);
  std::istringstream stream(text);
  std::string raw;
  int number = 0;
  while (std::getline(stream, raw)) {
    ++number;
    if (!raw.empty() && raw.back() == '\r') raw.pop_back();
    if (IsBlank(raw)) {
      if (!groups.back().empty()) groups.emplace_back();
      continue;
    }
    if (raw[0] == '#') continue;  // comments may sit between or inside blocks
    groups.back().push_back({number, raw});
  }

  std::vector<Block> blocks;
  auto problem = [&](int line, const std::string& why) {
    problems->push_back(file + ":" + std::to_string(line) + ": " + why);
  };
  for (const std::vector<Line>& group : groups) {
    if (group.empty()) continue;
    Block block;
    block.file = file;
    block.line = group[0].number;
    if (StartsWith(group[0].text, kFailMarker)) {
      std::string rest = Trim(std::string_view(group[0].text).substr(kFailMarker.size()));
      if (!rest.empty() && rest != "IGNORE MSG") {
        problem(group[0].number, "unknown %%FAIL option '" + rest + "'");
        continue;
      }
      block.expect_compile_failure = true;
      block.ignore_message = rest == "IGNORE MSG";
      if (group.size() < 2 || group.size() > 3 || (group.size() == 2 && !block.ignore_message)) {
        problem(group[0].number, "a %%FAIL block is: %%FAIL, program, expected message");
        continue;
      }
      block.program = group[1].text;
      if (group.size() == 3) block.compile_message = group[2].text;
      blocks.push_back(std::move(block));
      continue;
    }
    if (group.size() < 2) {
      problem(group[0].number, "a block needs at least a program line and an input line");
      continue;
    }
    block.program = group[0].text;
    block.input = group[1].text;
    std::string error;
    if (!diff::ParseInput(block.input, &block.input_value, &error)) {
      problem(group[1].number, "input is not JSON: " + error);
      continue;
    }
    bool ok = true;
    for (size_t i = 2; i < group.size() && ok; ++i) {
      const Line& line = group[i];
      if (StartsWith(line.text, kErrorMarker)) {
        if (i + 1 != group.size()) {
          problem(line.number, "%%ERROR must be the last line of its block");
          ok = false;
          break;
        }
        block.expect_error = true;
        block.error_substring = Trim(std::string_view(line.text).substr(kErrorMarker.size()));
        break;
      }
      ExpectedOutput expected;
      expected.json = line.text;
      expected.line = line.number;
      if (!diff::ParseInput(line.text, &expected.value, &error)) {
        problem(line.number, "expected output is not JSON: " + error);
        ok = false;
        break;
      }
      block.outputs.push_back(std::move(expected));
    }
    if (ok) blocks.push_back(std::move(block));
  }
  return blocks;
}

// ---------------------------------------------------------------------------------------------
// Checking one engine's outcome

// Describes what an engine produced, one output per line, for reports.
std::string DescribeOutcome(const diff::RunOutcome& outcome) {
  std::string text;
  for (const std::string& out : outcome.outputs) text += "\n            " + out;
  if (outcome.truncated) text += "\n            ... (output cap reached)";
  if (outcome.error) text += "\n            %%ERROR " + outcome.error_message;
  if (text.empty()) text = "\n            (no output)";
  return text;
}

std::string DescribeExpected(const Block& block) {
  std::string text;
  for (const ExpectedOutput& out : block.outputs) text += "\n            " + out.json;
  if (block.expect_error) text += "\n            %%ERROR " + block.error_substring;
  if (text.empty()) text = "\n            (no output)";
  return text;
}

// Empty when the outcome matches the block; otherwise a one-line reason.
std::string Mismatch(const Block& block, const diff::RunOutcome& outcome) {
  if (outcome.truncated) return "more outputs than expected";
  size_t common = std::min(outcome.outputs.size(), block.outputs.size());
  for (size_t i = 0; i < common; ++i) {
    Value got;
    std::string error;
    if (!diff::ParseInput(outcome.outputs[i], &got, &error)) {
      return "output " + std::to_string(i + 1) + " is not JSON: " + error;
    }
    // ToJson already mapped NaN to null and infinities to +-DBL_MAX, as jq prints them.
    if (got != block.outputs[i].value) {
      return "output " + std::to_string(i + 1) + " differs (expected line " +
             std::to_string(block.outputs[i].line) + ")";
    }
  }
  if (outcome.outputs.size() != block.outputs.size()) {
    return std::to_string(outcome.outputs.size()) + " outputs, expected " +
           std::to_string(block.outputs.size());
  }
  if (outcome.error && !block.expect_error) return "unexpected error";
  if (!outcome.error && block.expect_error) return "expected an error, evaluation succeeded";
  if (outcome.error && outcome.error_message.find(block.error_substring) == std::string::npos) {
    return "error message lacks \"" + block.error_substring + "\"";
  }
  return "";
}

// ---------------------------------------------------------------------------------------------
// Running blocks

struct EngineSelection {
  bool interp = true;
  bool jit = true;
  bool aot = true;
};

struct Totals {
  size_t files = 0;
  size_t blocks = 0;
  size_t compile_failure_blocks = 0;
  size_t interp_runs = 0;
  size_t jit_runs = 0;
  size_t aot_runs = 0;
  size_t native_refused = 0;  // programs the native backends refused (each also a failed block)
  size_t failed_blocks = 0;
};

class Runner {
 public:
  Runner(EngineSelection engines, int opt_level, bool verbose)
      : engines_(engines), opt_level_(opt_level), verbose_(verbose) {}

  // Runs the blocks in chunks, so that JIT sessions and AOT modules are freed as it goes.
  void Run(const std::vector<Block>& blocks, Totals* totals) {
    constexpr size_t kChunk = 64;
    for (size_t begin = 0; begin < blocks.size(); begin += kChunk) {
      size_t end = std::min(blocks.size(), begin + kChunk);
      RunChunk(blocks, begin, end, totals);
    }
  }

 private:
  void RunChunk(const std::vector<Block>& blocks, size_t begin, size_t end, Totals* totals) {
    // The harness's Prepare compiles through the driver at the chosen optimisation level
    // (compile time dominates this runner): the interpreter, and the JIT when supported.
    diff::EngineOptions options;
    options.enable_jit = engines_.jit;
    options.opt_level = opt_level_;
    std::vector<std::unique_ptr<diff::PreparedProgram>> prepared;
    diff::AotBatch batch;
    std::vector<bool> in_batch(end - begin, false);
    for (size_t i = begin; i < end; ++i) {
      prepared.push_back(diff::Prepare(blocks[i].program, options));
      diff::PreparedProgram* p = prepared.back().get();
      if (p->program == nullptr || !p->native_supported || !engines_.aot) continue;
      in_batch[i - begin] = true;
      batch.Add(p);
    }
    // One shared object per chunk (a link costs tens of milliseconds). If the chunk does not
    // build, each program is built alone so that only the ones at fault fail. Those objects are
    // loaded one at a time: NativeModule::Create dlopens /proc/self/fd/N and closes N, so a
    // second module loaded while the first is alive can get the same path, and dlopen then
    // returns the first library (its filters are then "missing").
    std::string error;
    bool batch_built = batch.size() == 0 || batch.Build(&error, opt_level_);
    for (size_t i = begin; i < end; ++i) {
      diff::PreparedProgram* p = prepared[i - begin].get();
      bool alone = !batch_built && in_batch[i - begin];
      if (alone) {
        diff::AotBatch single;
        single.Add(p);
        single.Build(&error, opt_level_);
      }
      bool passed = Check(blocks[i], *p, totals);
      if (alone) p->aot.reset();  // unload before the next
      ++totals->blocks;
      if (!passed) ++totals->failed_blocks;
    }
  }

  bool Check(const Block& block, const diff::PreparedProgram& prepared, Totals* totals) {
    if (block.expect_compile_failure) {
      ++totals->compile_failure_blocks;
      if (prepared.program != nullptr) {
        Report(block, "all", "the program compiled; expected a compile error",
               "\n            (compiled)");
        return false;
      }
      if (!block.ignore_message &&
          prepared.front_end_error.find(block.compile_message) == std::string::npos) {
        Report(block, "front end", "compile error lacks \"" + block.compile_message + "\"",
               "\n            " + prepared.front_end_error);
        return false;
      }
      if (verbose_) std::cout << "ok   " << block.file << ":" << block.line << "\n";
      return true;
    }
    if (prepared.program == nullptr) {
      Report(block, "front end", "the program did not compile",
             "\n            " + prepared.front_end_error);
      return false;
    }
    bool passed = true;
    auto run = [&](const char* engine, const Filter* filter, const std::string& build_error,
                   size_t* runs) {
      if (filter == nullptr) {
        Report(block, engine, "the native engine could not build this supported program",
               "\n            " + build_error);
        passed = false;
        return;
      }
      ++*runs;
      // One more than expected is enough to see an extra output; small caps keep runaway
      // generators cheap.
      diff::RunOutcome outcome = diff::RunFilter(*filter, block.input_value, block.outputs.size() + 1);
      std::string why = Mismatch(block, outcome);
      if (!why.empty()) {
        Report(block, engine, why, DescribeOutcome(outcome));
        passed = false;
      }
    };
    if (engines_.interp) run(diff::kInterp, prepared.interp.get(), "", &totals->interp_runs);
    if (prepared.native_supported) {
      if (engines_.jit) run(diff::kJit, prepared.jit.get(), prepared.jit_error, &totals->jit_runs);
      if (engines_.aot) run(diff::kAot, prepared.aot.get(), prepared.aot_error, &totals->aot_runs);
    } else if (engines_.jit || engines_.aot) {
      // The native engines compile the whole language: a refusal is a failure.
      ++totals->native_refused;
      Report(block, "native", "refused by the native backends",
             "\n            " + prepared.native_unsupported_reason);
      passed = false;
    }
    if (passed && verbose_) std::cout << "ok   " << block.file << ":" << block.line << "\n";
    return passed;
  }

  void Report(const Block& block, const std::string& engine, const std::string& why,
              const std::string& got) {
    std::cout << "FAIL " << block.file << ":" << block.line << " [" << engine << "] " << why
              << "\n  program:  " << block.program;
    if (!block.expect_compile_failure) std::cout << "\n  input:    " << block.input;
    if (block.expect_compile_failure) {
      std::cout << "\n  expected: compile error"
                << (block.ignore_message ? "" : " containing \"" + block.compile_message + "\"");
    } else {
      std::cout << "\n  expected:" << DescribeExpected(block);
    }
    std::cout << "\n  got:     " << got << "\n";
  }

  EngineSelection engines_;
  int opt_level_ = 0;
  bool verbose_;
};

// ---------------------------------------------------------------------------------------------
// Builtin coverage

// Builtins a test cannot exercise without program input or output. They are refused by the
// lowering today; the list keeps the check meaningful if one of them ever joins the table.
const std::set<std::string>& IoExclusions() {
  static const std::set<std::string> names = {
      "input", "inputs", "debug", "stderr", "input_filename", "input_line_number",
      "halt", "halt_error", "get_search_list", "get_prog_origin", "get_jq_origin", "modulemeta",
  };
  return names;
}

// Every public builtin as "name/arity": the `builtins` list (special forms, prelude, native
// table) plus the native table itself, minus '_' helpers and the I/O exclusions.
std::set<std::string> PublicBuiltins(std::string* error) {
  std::set<std::string> all;
  diff::EngineOptions options;
  options.enable_jit = false;
  options.enable_aot = false;
  std::unique_ptr<diff::PreparedProgram> p = diff::Prepare("builtins", options);
  if (p->program == nullptr) {
    *error = "`builtins` did not compile: " + p->front_end_error;
    return all;
  }
  diff::RunOutcome outcome = diff::RunFilter(*p->interp, Value(), 1);
  Value list;
  if (outcome.error || outcome.outputs.size() != 1 ||
      !diff::ParseInput(outcome.outputs[0], &list, error) || !list.IsArray()) {
    *error = "`builtins` did not produce one array";
    return all;
  }
  for (const Value& entry : list.AsArray()) all.insert(std::string(entry.AsString()));
  for (const ir::BuiltinInfo& b : ir::AllBuiltins()) {
    all.insert(std::string(b.name) + "/" + std::to_string(b.arity));
  }
  std::set<std::string> public_builtins;
  for (const std::string& builtin : all) {
    std::string name = builtin.substr(0, builtin.find('/'));
    if (!name.empty() && name[0] != '_' && IoExclusions().count(name) == 0) {
      public_builtins.insert(builtin);
    }
  }
  return public_builtins;
}

// The calls of a jq program as "name/arity": identifiers outside string literals (but inside
// interpolations), not after '.' (field access), '$' (variables) or '@' (formats), with the
// number of ';'-separated arguments when '(' follows. Comments are skipped. Keywords come out
// too (`if/0`, `reduce/0`); they never match a builtin.
void CollectCalls(std::string_view program, std::set<std::string>* out) {
  // Tokens outside strings: identifiers (callable or not) and the brackets and ';' that decide
  // arities. An interpolation `\(...)` is a bracket pair like any other.
  struct Token {
    char kind;          // 'i' identifier, '"' start of a string, or one of ( ) [ ] { } ;
    std::string text;   // identifier text
    bool callable = false;
  };
  std::vector<Token> tokens;
  std::vector<int> interpolation_depth;  // per open interpolation: its parenthesis depth
  bool in_string = false;
  size_t i = 0;
  while (i < program.size()) {
    char c = program[i];
    if (in_string) {
      if (c == '\\' && i + 1 < program.size()) {
        if (program[i + 1] == '(') {
          interpolation_depth.push_back(1);
          in_string = false;
          tokens.push_back({'(', ""});
        }
        i += 2;
        continue;
      }
      if (c == '"') in_string = false;
      ++i;
      continue;
    }
    if (c == '"') {
      in_string = true;
      tokens.push_back({'"', ""});  // keeps `f "..."` from reading as a call of f
      ++i;
      continue;
    }
    if (c == '#') break;  // a comment runs to the end of the line
    if (std::string_view("()[]{};").find(c) != std::string_view::npos) {
      tokens.push_back({c, ""});
      if (c == '(' && !interpolation_depth.empty()) ++interpolation_depth.back();
      if (c == ')' && !interpolation_depth.empty() && --interpolation_depth.back() == 0) {
        interpolation_depth.pop_back();
        in_string = true;
      }
      ++i;
      continue;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t start = i;
      while (i < program.size() &&
             (std::isalnum(static_cast<unsigned char>(program[i])) || program[i] == '_')) {
        ++i;
      }
      char before = start > 0 ? program[start - 1] : ' ';
      bool callable = before != '.' && before != '$' && before != '@';
      tokens.push_back({'i', std::string(program.substr(start, i - start)), callable});
      continue;
    }
    ++i;
  }
  for (size_t t = 0; t < tokens.size(); ++t) {
    if (tokens[t].kind != 'i' || !tokens[t].callable) continue;
    int arity = 0;
    if (t + 1 < tokens.size() && tokens[t + 1].kind == '(') {
      arity = 1;
      int depth = 0;
      for (size_t u = t + 1; u < tokens.size(); ++u) {
        char k = tokens[u].kind;
        if (k == '(' || k == '[' || k == '{') ++depth;
        if (k == ')' || k == ']' || k == '}') {
          if (--depth == 0) break;
        }
        if (k == ';' && depth == 1) ++arity;
      }
    }
    out->insert(tokens[t].text + "/" + std::to_string(arity));
  }
}

// Builtins of `required` ("name/arity") that no block program calls.
std::vector<std::string> MissingBuiltins(const std::set<std::string>& required,
                                         const std::vector<Block>& blocks) {
  std::set<std::string> used;
  for (const Block& block : blocks) CollectCalls(block.program, &used);
  std::vector<std::string> missing;
  for (const std::string& builtin : required) {
    if (used.count(builtin) == 0) missing.push_back(builtin);
  }
  return missing;
}

// ---------------------------------------------------------------------------------------------
// Self-check: the two ways this runner can fail must actually fire, or a broken comparison would
// pass every file silently.

bool SelfCheck(std::string* why) {
  std::vector<std::string> problems;
  std::vector<Block> blocks =
      ParseTestFile("<self-check>", "1, 2\nnull\n1\n3\n\n.a\n{\"a\":1}\n%%ERROR x\n", &problems);
  if (!problems.empty() || blocks.size() != 2) {
    *why = "the parser did not read two blocks";
    return false;
  }
  diff::EngineOptions options;
  options.enable_jit = false;
  options.enable_aot = false;
  for (const Block& block : blocks) {
    std::unique_ptr<diff::PreparedProgram> p = diff::Prepare(block.program, options);
    if (p->interp == nullptr) {
      *why = "self-check program did not compile";
      return false;
    }
    if (Mismatch(block, diff::RunFilter(*p->interp, block.input_value, 3)).empty()) {
      *why = "a wrong expectation passed: " + block.program;
      return false;
    }
  }
  std::set<std::string> seen;
  CollectCalls("length | \"keys \\(tostring)\" | .map | $first | sub(\"a;\"; (1; 2)) # sort",
               &seen);
  if (seen != std::set<std::string>{"length/0", "tostring/0", "sub/2"}) {
    *why = "call collection is wrong:";
    for (const std::string& call : seen) *why += " " + call;
    return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------

std::vector<fs::path> TestFilesIn(const fs::path& dir) {
  std::vector<fs::path> files;
  if (!fs::is_directory(dir)) return files;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    if (entry.is_regular_file() && entry.path().extension() == ".test") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

bool ReadFile(const fs::path& path, std::string* text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  *text = buffer.str();
  return true;
}

int Main(int argc, char** argv) {
  EngineSelection engines;
  int opt_level = 0;
  bool coverage = true;
  bool verbose = false;
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (StartsWith(arg, "--engines=")) {
      std::string list = "," + arg.substr(10) + ",";
      engines.interp = list.find(",interp,") != std::string::npos;
      engines.jit = list.find(",jit,") != std::string::npos;
      engines.aot = list.find(",aot,") != std::string::npos;
    } else if (StartsWith(arg, "--opt-level=")) {
      opt_level = std::atoi(arg.c_str() + 12);
    } else if (arg == "--no-coverage") {
      coverage = false;
    } else if (arg == "-v") {
      verbose = true;
    } else if (StartsWith(arg, "-")) {
      std::cerr << "unknown option " << arg << "\n";
      return 2;
    } else {
      paths.push_back(arg);
    }
  }
  if (paths.empty()) {
    std::cerr << "usage: wm_conformance [--engines=interp,jit,aot] [--no-coverage] [-v] "
                 "FILE.test|DIR...\n";
    return 2;
  }
  std::string self_check_error;
  if (!SelfCheck(&self_check_error)) {
    std::cerr << "self-check failed: " << self_check_error << "\n";
    return 2;
  }

  auto started = std::chrono::steady_clock::now();
  std::vector<std::string> problems;
  std::vector<Block> blocks;           // blocks to run
  std::vector<Block> coverage_blocks;  // blocks that count for coverage (run + pending/)
  bool check_coverage = false;
  Totals totals;
  auto load = [&](const fs::path& file, bool run) {
    std::string text;
    if (!ReadFile(file, &text)) {
      problems.push_back(file.string() + ": cannot read");
      return;
    }
    std::vector<Block> loaded = ParseTestFile(file.string(), text, &problems);
    coverage_blocks.insert(coverage_blocks.end(), loaded.begin(), loaded.end());
    if (run) {
      ++totals.files;
      blocks.insert(blocks.end(), loaded.begin(), loaded.end());
    }
  };
  for (const std::string& path : paths) {
    if (fs::is_directory(path)) {
      std::vector<fs::path> files = TestFilesIn(path);
      if (files.empty()) problems.push_back(path + ": no .test files");
      for (const fs::path& file : files) load(file, true);
      for (const fs::path& file : TestFilesIn(fs::path(path) / "pending")) load(file, false);
      check_coverage = coverage;
    } else {
      load(path, true);
    }
  }
  if (!problems.empty()) {
    for (const std::string& p : problems) std::cerr << p << "\n";
    return 2;
  }

  Runner(engines, opt_level, verbose).Run(blocks, &totals);

  bool coverage_ok = true;
  if (check_coverage) {
    std::string error;
    std::set<std::string> names = PublicBuiltins(&error);
    if (!error.empty()) {
      std::cout << "coverage: " << error << "\n";
      coverage_ok = false;
    } else {
      std::vector<std::string> missing = MissingBuiltins(names, coverage_blocks);
      std::cout << "coverage: " << names.size() - missing.size() << " of " << names.size()
                << " public builtins appear in the tests\n";
      if (!missing.empty()) {
        coverage_ok = false;
        std::cout << "coverage: FAIL, no test mentions:";
        for (const std::string& name : missing) std::cout << " " << name;
        std::cout << "\n";
      }
    }
  }

  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::printf(
      "conformance: %zu files, %zu blocks (%zu %%%%FAIL), runs: interp %zu, jit %zu, aot %zu; "
      "%zu refused by the native backends; %zu failed blocks; %.1f s\n",
      totals.files, totals.blocks, totals.compile_failure_blocks, totals.interp_runs,
      totals.jit_runs, totals.aot_runs, totals.native_refused, totals.failed_blocks, seconds);
  return totals.failed_blocks == 0 && coverage_ok ? 0 : 1;
}

}  // namespace
}  // namespace wm::conformance

int main(int argc, char** argv) { return wm::conformance::Main(argc, argv); }
