// `wmc eval [--engine=interp|jit|aot|auto] [--emit=STAGE] [-n] [-r] [-s] [-c] [-S] [--arg NAME V]
//  [--argjson NAME JSON] EXPR [FILE...]`: runs one jq expression over JSON inputs like `jq -c`,
// through any engine (compiled by driver::CompileExpression), or prints a stage of it.
// Exit codes follow jq: 0 ok, 2 usage/I-O/invalid JSON input, 3 the expression does not compile
// (diagnostics on stderr), 5 a runtime error (`jq: error (at FILE:LINE): MESSAGE` on stderr).
#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "compiler/driver/expression.h"
#include "base/file.h"
#include "compiler/source/render.h"
#include "runtime/eval/eval.h"
#include "runtime/value/json.h"
#include "tools/cli_output.h"
#include "tools/commands.h"

namespace wm::tools {
namespace {

constexpr int kExitOk = 0;
constexpr int kExitUsage = 2;
constexpr int kExitCompile = 3;
constexpr int kExitRuntime = 5;

struct EvalOptions {
  std::string engine = "interp";
  std::string emit;  // "" = evaluate; else the stage of the compiled expression to print
  bool null_input = false;
  bool raw_output = false;
  bool slurp = false;
  bool compact = false;  // accepted for jq compatibility: output is always compact
  bool sort_keys = false;
  std::vector<std::string> args;       // NAME VALUE pairs
  std::vector<std::string> json_args;  // NAME JSON pairs
  std::string expression;
  std::vector<std::string> files;
  EvalLimits limits;  // --max-results, --max-steps, --max-memory, --timeout-ms (docs/limits.md)
};

// One top-level JSON value of an input and the line jq would report for errors raised while
// processing it (newlines up to the value's end, plus the newline right after it, as jq counts).
struct InputValue {
  Value value;
  std::string origin;  // "<stdin>" or the file name
  size_t line = 0;
};

// Finds the end of the JSON value starting at `pos` (which is not whitespace), without
// validating it; ParseJson does that. Unbalanced input ends at the end of the text.
size_t ScanValueEnd(std::string_view text, size_t pos) {
  char c = text[pos];
  if (c == '"') {
    for (size_t i = pos + 1; i < text.size(); ++i) {
      if (text[i] == '\\') ++i;
      else if (text[i] == '"') return i + 1;
    }
    return text.size();
  }
  if (c == '{' || c == '[') {
    int depth = 0;
    for (size_t i = pos; i < text.size(); ++i) {
      char ch = text[i];
      if (ch == '"') {
        for (++i; i < text.size() && text[i] != '"'; ++i) {
          if (text[i] == '\\') ++i;
        }
      } else if (ch == '{' || ch == '[') {
        ++depth;
      } else if (ch == '}' || ch == ']') {
        if (--depth == 0) return i + 1;
      }
    }
    return text.size();
  }
  size_t i = pos;
  while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i])) &&
         std::string_view("{}[],:\"").find(text[i]) == std::string_view::npos) {
    ++i;
  }
  return i == pos ? pos + 1 : i;
}

// Parses the values of one input in order, handing each to `sink` as soon as it is read (so
// outputs for earlier values appear before a later syntax error, as with jq).
template <class Sink>
bool ReadValues(std::string_view text, const std::string& origin, Sink&& sink) {
  size_t pos = 0;
  size_t newlines = 0;
  size_t counted_to = 0;
  while (true) {
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
    if (pos >= text.size()) return true;
    size_t end = ScanValueEnd(text, pos);
    InputValue item;
    JsonError error;
    if (!ParseJson(text.substr(pos, end - pos), &item.value, &error)) {
      std::fflush(stdout);
      std::fprintf(stderr, "wmc eval: invalid JSON in %s at offset %zu: %s\n", origin.c_str(),
                   pos + error.offset, error.message.c_str());
      return false;
    }
    for (; counted_to < end; ++counted_to) newlines += text[counted_to] == '\n';
    item.line = newlines + (end < text.size() && text[end] == '\n' ? 1 : 0);
    item.origin = origin;
    sink(std::move(item));
    pos = end;
  }
}


// Reports why the expression did not compile: rendered diagnostics and jq's count line for
// mistakes in the expression, "wmc eval: <message>" for what the engines refuse or fail at.
int ReportFailure(const driver::Failure& failure, const std::string& expression) {
  if (failure.diagnostics.empty()) {
    std::fprintf(stderr, "wmc eval: %s\n", failure.message.c_str());
    return kExitCompile;
  }
  SourceFiles sources;
  sources.Add("<expr>", expression);
  WriteText(Render(failure.diagnostics, sources, DiagnosticFormat::kText), stderr);
  std::fprintf(stderr, "jq: %zu compile error%s\n", failure.diagnostics.size(),
               failure.diagnostics.size() == 1 ? "" : "s");
  return kExitCompile;
}

// `--emit=STAGE`: prints a stage of the compiled expression instead of running it (exit 0), for
// golden tests and for seeing what the engines execute.
int EmitStage(const EvalOptions& opts, const driver::ExpressionOptions& options) {
  std::optional<driver::Stage> stage = driver::StageFromName(opts.emit);
  if (!stage) {
    std::fprintf(stderr, "wmc eval: unknown stage '%s' for --emit (%s)\n", opts.emit.c_str(),
                 driver::StageNames().c_str());
    return kExitUsage;
  }
  driver::Expected<std::string> dump = driver::EmitExpression(opts.expression, *stage, options);
  if (!dump.ok()) return ReportFailure(dump.failure(), opts.expression);
  std::fwrite(dump->data(), 1, dump->size(), stdout);
  return kExitOk;
}

int RunEval(const EvalOptions& opts) {
  std::optional<driver::Engine> engine = driver::EngineFromName(opts.engine);
  if (!engine) {
    std::fprintf(stderr, "wmc eval: unknown engine '%s' (interp, jit, aot or auto)\n",
                 opts.engine.c_str());
    return kExitUsage;
  }
  driver::ExpressionOptions compile_options;
  compile_options.engine = *engine;
  // Globals: --arg and --argjson, in command-line order per kind.
  std::vector<Value> globals;
  for (size_t i = 0; i + 1 < opts.args.size(); i += 2) {
    compile_options.global_vars.push_back(opts.args[i]);
    globals.push_back(Value::String(opts.args[i + 1]));
  }
  for (size_t i = 0; i + 1 < opts.json_args.size(); i += 2) {
    Value v;
    JsonError error;
    if (!ParseJson(opts.json_args[i + 1], &v, &error)) {
      std::fprintf(stderr, "wmc eval: invalid JSON text passed to --argjson %s: %s\n",
                   opts.json_args[i].c_str(), error.message.c_str());
      return kExitUsage;
    }
    compile_options.global_vars.push_back(opts.json_args[i]);
    globals.push_back(std::move(v));
  }

  if (!opts.emit.empty()) return EmitStage(opts, compile_options);
  driver::Expected<driver::Executable> compiled = driver::CompileExpression(opts.expression, compile_options);
  if (!compiled.ok()) return ReportFailure(compiled.failure(), opts.expression);
  const Filter* filter = compiled->filter.get();
  int exit_code = kExitOk;

  // Run each input as soon as it is read.
  RunOptions run_options;
  run_options.limits = opts.limits;
  run_options.globals = &globals;
  JsonWriteOptions write_options;
  write_options.sort_keys = opts.sort_keys;
  std::string out;
  auto run_one = [&](const InputValue& input) {
    EvalError error;
    EvalStatus status = filter->Run(
        input.value,
        [&](const Value& v) {
          out.clear();
          if (opts.raw_output && v.IsString()) out.append(v.AsString());
          else WriteJson(v, &out, write_options);
          out.push_back('\n');
          std::fwrite(out.data(), 1, out.size(), stdout);
          return true;
        },
        &error, run_options);
    if (status == EvalStatus::kError) {
      std::fflush(stdout);
      std::string where = opts.null_input ? "<unknown>" : input.origin + ":" + std::to_string(input.line);
      if (error.value.IsString()) {
        std::fprintf(stderr, "jq: error (at %s): %s\n", where.c_str(), error.Message().c_str());
      } else {
        std::fprintf(stderr, "jq: error (at %s) (not a string): %s\n", where.c_str(), ToJson(error.value).c_str());
      }
      exit_code = kExitRuntime;
    }
  };
  if (opts.null_input) {
    run_one(InputValue{Value::Null(), "", 0});
    std::fflush(stdout);
    return exit_code;
  }
  std::vector<InputValue> slurped;
  auto sink = [&](InputValue&& item) {
    if (opts.slurp) slurped.push_back(std::move(item));
    else run_one(item);
  };
  bool inputs_ok = true;
  if (opts.files.empty()) {
    std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    inputs_ok = ReadValues(text, "<stdin>", sink);
  }
  for (size_t i = 0; inputs_ok && i < opts.files.size(); ++i) {
    std::string text, error;
    if (!base::ReadWholeFile(opts.files[i], &text, &error)) {
      std::fflush(stdout);
      std::fprintf(stderr, "wmc eval: %s\n", error.c_str());
      return kExitUsage;
    }
    inputs_ok = ReadValues(text, opts.files[i], sink);
  }
  if (!inputs_ok) {
    std::fflush(stdout);
    return kExitUsage;
  }
  if (opts.slurp) {
    Array all;
    for (InputValue& v : slurped) all.push_back(std::move(v.value));
    run_one(InputValue{Value::MakeArray(std::move(all)), opts.files.empty() ? "<stdin>" : opts.files.back(),
                       slurped.empty() ? 0 : slurped.back().line});
  }
  std::fflush(stdout);
  return exit_code;
}

}  // namespace

void AddEvalLimitOptions(CLI::App* cmd, EvalLimits* limits) {
  cmd->add_option("--max-results", limits->max_outputs,
                  "Results per evaluation; reaching it is an error (default 1000, as upstream)");
  cmd->add_option("--max-steps", limits->fuel, "Steps (fuel) per evaluation (default 10000000)");
  cmd->add_option("--max-memory", limits->max_memory_bytes,
                  "Bytes of values built per evaluation (default 268435456)");
  cmd->add_option("--timeout-ms", limits->timeout_ms,
                  "Wall-clock limit per evaluation in ms (default 10000, as upstream; 0 = none)");
}

void AddEvalCommand(CLI::App& app, int* exit_code) {
  auto opts = std::make_shared<EvalOptions>();
  auto* cmd = app.add_subcommand("eval", "Run a jq expression over JSON inputs (like jq -c)");
  cmd->add_option("--engine", opts->engine,
                  "Engine: interp (default), jit, aot, or auto (jit when supported, else interp)");
  cmd->add_option("--emit", opts->emit,
                  "Print a stage instead of evaluating: " + driver::StageNames() +
                      " (checked: the result type and cardinality for an input of unknown type;"
                      " eval has no schema)");
  cmd->add_flag("-n,--null-input", opts->null_input, "Use null as the single input");
  cmd->add_flag("-r,--raw-output", opts->raw_output, "Print strings without quotes");
  cmd->add_flag("-s,--slurp", opts->slurp, "Read all inputs into one array");
  cmd->add_flag("-c,--compact-output", opts->compact, "Compact output (the default)");
  cmd->add_flag("-S,--sort-keys", opts->sort_keys, "Sort object keys in the output");
  cmd->add_option("--arg", opts->args, "Bind $NAME to the string VALUE")
      ->expected(2)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->type_name("NAME VALUE")
      // A value such as `[1,2]` is one value: without this CLI11 would split it as a list.
      ->allow_extra_args(false);
  cmd->add_option("--argjson", opts->json_args, "Bind $NAME to the JSON value")
      ->expected(2)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->type_name("NAME JSON")
      // A value such as `[1,2]` is one value: without this CLI11 would split it as a list.
      ->allow_extra_args(false);
  AddEvalLimitOptions(cmd, &opts->limits);
  cmd->add_option("expression", opts->expression, "The jq expression")->required();
  cmd->add_option("files", opts->files, "JSON input files (default: stdin)");
  cmd->callback([opts, exit_code] { *exit_code = RunEval(*opts); });
}

}  // namespace wm::tools
