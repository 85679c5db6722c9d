// `wmc eval [--engine=interp|jit|aot|auto] [--emit=STAGE] [-n] [-r] [-s] [-c] [-S] [--arg NAME V]
//  [--argjson NAME JSON] EXPR [FILE...]`: runs one jq expression over JSON inputs like `jq -c`,
// through any engine (compiled by driver::CompileExpression), or prints a stage of it. Inputs
// stream (tools/object_input.h JsonValueStream): each value runs as soon as it is read, memory is
// bounded by the largest value; native engines take over from the interpreter on large inputs.
// Without --engine, a program the view engine fuses (runtime/eval/view) runs on each value's
// parsed text directly (no copy into Values; same outputs and errors as the interpreter).
// Exit codes follow jq: 0 ok, 2 usage/I-O/invalid JSON input, 3 the expression does not compile
// (diagnostics on stderr), 5 a runtime error (`jq: error (at FILE:LINE): MESSAGE` on stderr).
#include <CLI/CLI.hpp>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "base/file.h"
#include "compiler/codegen/codegen.h"
#include "compiler/driver/expression.h"
#include "compiler/source/render.h"
#include "runtime/eval/eval.h"
#include "runtime/eval/view/view.h"
#include "runtime/value/json.h"
#include "tools/cli_output.h"
#include "tools/commands.h"
#include "tools/object_input.h"

namespace wm::tools {
namespace {

constexpr int kExitOk = 0;
constexpr int kExitUsage = 2;
constexpr int kExitCompile = 3;
constexpr int kExitRuntime = 5;

// The switch to native code after this much input: below it, compiling (tens of ms for the JIT,
// plus a link for AOT) costs more than the interpreter spends on the whole input.
constexpr int64_t kDefaultNativeAfterBytes = int64_t{4} << 20;

struct EvalOptions {
  std::string engine = "interp";
  bool engine_given = false;  // --engine on the command line: then exactly that engine runs
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
  // Bytes of input the interpreter handles before a native engine (jit, aot, auto) is compiled in
  // the background: 0 compiles before the first input (the engine runs everything).
  int64_t native_after = kDefaultNativeAfterBytes;
  std::string progress = "auto";  // auto (when stderr is a terminal), always, never
};

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

// The engine inputs run on: the interpreter first; native code (options.engine) once the input
// has passed `native_after` bytes, compiled on a background thread while the interpreter goes on,
// and used from the first input after it is ready. Small inputs never pay for a compile.
class NativeSwitch {
 public:
  NativeSwitch(std::unique_ptr<Filter> interp, std::shared_ptr<const ir::Program> program,
               driver::ExpressionOptions options, driver::Engine native, int64_t native_after)
      : interp_(std::move(interp)), program_(std::move(program)), options_(std::move(options)),
        native_after_(native == driver::Engine::kInterp ? -1 : native_after) {
    options_.engine = native;
  }
  ~NativeSwitch() { Finish(); }

  // Compiles the native engine on this thread; the failure, if any.
  std::optional<driver::Failure> CompileNow() {
    driver::Expected<std::unique_ptr<Filter>> built = driver::BuildEngine(program_, options_);
    if (!built.ok()) return built.failure();
    native_ = std::move(*built);
    ready_ = true;
    return std::nullopt;
  }

  // The filter for the next input, `consumed` bytes into the input.
  const Filter& For(size_t consumed) {
    if (ready_.load(std::memory_order_acquire)) return *native_;
    if (!started_ && native_after_ >= 0 && static_cast<int64_t>(consumed) >= native_after_) {
      started_ = true;
      worker_ = std::thread([this] {
        driver::Expected<std::unique_ptr<Filter>> built = driver::BuildEngine(program_, options_);
        if (!built.ok()) {
          failure_ = built.failure().message;
          return;
        }
        native_ = std::move(*built);
        ready_.store(true, std::memory_order_release);
      });
    }
    return *interp_;
  }

  // Waits for a background compile (it started only on a large input) and reports a failure.
  void Finish() {
    if (!worker_.joinable()) return;
    worker_.join();
    if (!failure_.empty()) std::fprintf(stderr, "wmc eval: warning: stayed on the interpreter: %s\n", failure_.c_str());
  }

 private:
  std::unique_ptr<Filter> interp_;
  std::shared_ptr<const ir::Program> program_;
  driver::ExpressionOptions options_;
  int64_t native_after_;  // -1 = never
  std::unique_ptr<Filter> native_;
  std::atomic<bool> ready_{false};
  bool started_ = false;
  std::thread worker_;
  std::string failure_;
};

// The view engine's kinds without --engine: the program as the view engine lowers it (its trie
// filled from tables, its flat code run by Exec) first; the same with its fills and flat code as
// native code (codegen::MakeNativeViewCompiler) once the input has passed `native_after` bytes,
// compiled on a background thread and used from the first value after it is ready (a value is
// answered whole by one of them; both give the same answers). Small inputs never pay for a compile.
class ViewSwitch {
 public:
  ViewSwitch(std::shared_ptr<const ir::Program> program, int64_t native_after, int opt_level)
      : program_(std::move(program)), native_after_(native_after), opt_level_(opt_level) {
    kind_ = std::make_unique<view::FusedKind>(std::vector<std::shared_ptr<const ir::Program>>{program_});
    if (native_after_ == 0 && taken()) {
      Compile();
      ready_ = true;
    }
  }
  ~ViewSwitch() { Finish(); }

  // Whether the view engine takes the program (whole, or a head of its pipe chain).
  bool taken() const { return kind_->fused(0) || kind_->split(0); }
  const view::FusedKind& kind() const { return *kind_; }
  // The kind with native code when it is ready, else null; `consumed` bytes into the input.
  const view::FusedKind* NativeFor(size_t consumed) {
    if (ready_.load(std::memory_order_acquire)) return native_.get();
    if (!started_ && static_cast<int64_t>(consumed) >= native_after_) {
      started_ = true;
      worker_ = std::thread([this] {
        Compile();
        ready_.store(true, std::memory_order_release);
      });
    }
    return nullptr;
  }
  // Waits for a background compile (started only on a large input) and reports a failure.
  void Finish() {
    if (worker_.joinable()) worker_.join();
    if (!failure_.empty()) {
      std::fprintf(stderr, "wmc eval: warning: the view engine stayed without native code: %s\n", failure_.c_str());
      failure_.clear();
    }
  }

 private:
  void Compile() {
    codegen::CodegenOptions codegen;
    codegen.opt_level = opt_level_;
    view::FusedKindOptions options;
    options.native = codegen::MakeNativeViewCompiler(codegen);
    native_ = std::make_unique<view::FusedKind>(std::vector<std::shared_ptr<const ir::Program>>{program_}, options);
    failure_ = native_->native_error();
  }

  std::shared_ptr<const ir::Program> program_;
  int64_t native_after_;
  int opt_level_;
  std::unique_ptr<view::FusedKind> kind_;
  std::unique_ptr<view::FusedKind> native_;
  std::atomic<bool> ready_{false};
  bool started_ = false;
  std::thread worker_;
  std::string failure_;
};

// "wmc eval: N objects, X MB, Y objects/s" on stderr, rewritten in place about twice a second
// once the input has taken a second, and erased at the end (only when enabled: a terminal).
class Progress {
 public:
  explicit Progress(bool enabled) : enabled_(enabled) {}
  void Update(size_t objects, size_t bytes, const char* engine) {
    if (!enabled_ || (objects & 255) != 0) return;
    auto now = Clock::now();
    double elapsed = Seconds(start_, now);
    if (elapsed < 1.0 || Seconds(last_, now) < 0.5) return;
    last_ = now;
    std::fprintf(stderr, "\rwmc eval: %zu objects, %.1f MB, %.0f objects/s (%s)\033[K", objects,
                 static_cast<double>(bytes) / 1e6, static_cast<double>(objects) / elapsed, engine);
    shown_ = true;
  }
  ~Progress() {
    if (shown_) std::fputs("\r\033[K", stderr);
  }

 private:
  using Clock = std::chrono::steady_clock;
  static double Seconds(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
  }
  bool enabled_;
  bool shown_ = false;
  Clock::time_point start_ = Clock::now(), last_ = start_;
};

// One `wmc eval` over its inputs: each value runs as soon as it is read (outputs of earlier values
// appear before a later error), or all values at once with --slurp.
class EvalRun {
 public:
  // `view`: the view engine's lowering of the program, used for every input when not null.
  EvalRun(const EvalOptions& opts, const std::vector<Value>& globals, NativeSwitch& engines,
          ViewSwitch* view)
      : opts_(opts), engines_(engines), view_(view),
        progress_(opts.progress == "always" || (opts.progress == "auto" && isatty(fileno(stderr)))) {
    run_options_.globals = &globals;
    run_options_.limits = opts.limits;
    write_options_.sort_keys = opts.sort_keys;
  }

  int RunInputs() {
    if (opts_.null_input) {
      Run(engines_.For(0), Value::Null(), "<unknown>");
    } else {
      std::vector<std::string> files = opts_.files.empty() ? std::vector<std::string>{"-"} : opts_.files;
      for (const std::string& file : files) {
        if (!ReadFile(file)) {
          FlushOutput();
          return kExitUsage;
        }
      }
      if (opts_.slurp) Run(engines_.For(consumed_), Value::MakeArray(std::move(slurped_)), slurp_where_);
    }
    FlushOutput();
    return exit_code_;
  }

 private:
  bool ReadFile(const std::string& file) {
    JsonValueStream in;
    std::string error;
    if (!in.Open(file, &error)) {
      std::fprintf(stderr, "wmc eval: %s\n", error.c_str());
      return false;
    }
    if (opts_.slurp && slurped_.empty()) slurp_where_ = in.name() + ":0";
    if (view_ != nullptr) return ReadFileOnView(in);
    size_t base = consumed_;
    for (Value value; in.Next(&value);) {
      consumed_ = base + in.bytes_consumed();
      std::string where = in.name() + ":" + std::to_string(in.line());
      if (opts_.slurp) {
        slurped_.push_back(std::move(value));
        slurp_where_ = where;
        continue;
      }
      const Filter& filter = engines_.For(consumed_);
      Run(filter, value, where);
      progress_.Update(++objects_, consumed_, filter.engine_name());
    }
    if (in.error().empty()) return true;
    FlushOutput();
    std::fprintf(stderr, "wmc eval: %s\n", in.error().c_str());
    return false;
  }

  // The view engine over each value's text, parsed where it is in the stream's buffer.
  static_assert(JsonValueStream::kReadableAfterText >= view::FusedRunner::kTextPadding);
  bool ReadFileOnView(JsonValueStream& in) {
    size_t base = consumed_;
    view::FusedRunner tables_runner(view_->kind());
    std::unique_ptr<view::FusedRunner> native_runner;  // once the native code is ready
    std::string_view text;
    size_t offset = 0;
    bool speculative = false;
    while (in.NextText(&text, &offset, &speculative)) {
      consumed_ = base + in.bytes_consumed();
      if (native_runner == nullptr) {
        if (const view::FusedKind* native = view_->NativeFor(consumed_)) native_runner = std::make_unique<view::FusedRunner>(*native);
      }
      view::FusedRunner& runner = native_runner != nullptr ? *native_runner : tables_runner;
      JsonError json_error;
      if (!runner.Run(text, run_options_, &json_error, JsonValueStream::kReadableAfterText)) {
        if (speculative) {  // a guessed NDJSON line that is not one value: scan it exactly
          in.Unread();
          continue;
        }
        FlushOutput();
        std::fprintf(stderr, "wmc eval: %s\n", in.InvalidJsonMessage(offset, json_error).c_str());
        return false;
      }
      const view::ResolverResult& result = runner.result(0);
      for (const view::ViewOutput& v : result.outputs) {
        if (opts_.raw_output && v.IsString()) out_.append(v.ToValue().AsString());  // -r: no quotes
        else v.WriteJson(&out_, write_options_);
        PrintLine();
      }
      if (result.status == EvalStatus::kError) ReportError(result.error, in.name() + ":" + std::to_string(in.line()));
      progress_.Update(++objects_, consumed_, !result.fused ? "interp" : native_runner != nullptr ? "view, native" : "view");
    }
    if (in.error().empty()) return true;
    FlushOutput();
    std::fprintf(stderr, "wmc eval: %s\n", in.error().c_str());
    return false;
  }

  void Run(const Filter& filter, const Value& input, const std::string& where) {
    EvalError error;
    EvalStatus status = filter.Run(
        input,
        [&](const Value& v) {
          if (opts_.raw_output && v.IsString()) out_.append(v.AsString());
          else WriteJson(v, &out_, write_options_);
          PrintLine();
          return true;
        },
        &error, run_options_);
    if (status == EvalStatus::kError) ReportError(error, where);
  }

  // Ends the output just formatted at the end of out_. Outputs collect in out_ and go out in
  // large writes (one fwrite per ~1 MiB instead of per output); at once on a terminal.
  void PrintLine() {
    out_.push_back('\n');
    if (out_.size() >= kOutputFlushBytes || interactive_) WriteOutput();
  }

  void WriteOutput() {
    std::fwrite(out_.data(), 1, out_.size(), stdout);
    out_.clear();
  }

  // Everything printed so far reaches stdout (before a message on stderr, and at the end).
  void FlushOutput() {
    WriteOutput();
    std::fflush(stdout);
  }

  void ReportError(const EvalError& error, const std::string& where) {
    FlushOutput();
    if (error.value.IsString()) {
      std::fprintf(stderr, "jq: error (at %s): %s\n", where.c_str(), error.Message().c_str());
    } else {
      std::fprintf(stderr, "jq: error (at %s) (not a string): %s\n", where.c_str(), ToJson(error.value).c_str());
    }
    exit_code_ = kExitRuntime;
  }

  const EvalOptions& opts_;
  NativeSwitch& engines_;
  ViewSwitch* view_;
  Progress progress_;
  RunOptions run_options_;
  JsonWriteOptions write_options_;
  static constexpr size_t kOutputFlushBytes = size_t{1} << 20;
  bool interactive_ = isatty(fileno(stdout)) != 0;
  std::string out_;  // formatted outputs not written yet
  Array slurped_;
  std::string slurp_where_ = "<stdin>:0";
  size_t consumed_ = 0, objects_ = 0;
  int exit_code_ = kExitOk;
};

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
  // Lower and build the interpreter now; a native engine comes later (NativeSwitch).
  driver::ExpressionOptions interp_options = compile_options;
  interp_options.engine = driver::Engine::kInterp;
  driver::Expected<driver::Executable> compiled = driver::CompileExpression(opts.expression, interp_options);
  if (!compiled.ok()) return ReportFailure(compiled.failure(), opts.expression);
  driver::Engine native = driver::ChooseEngine(*compiled->program, *engine);
  NativeSwitch engines(std::move(compiled->filter), compiled->program, compile_options, native,
                       opts.native_after);
  // An engine that cannot take this program, or a forced compile that fails: reported up front.
  if (native != driver::Engine::kInterp &&
      (opts.native_after == 0 || !driver::NativeUnsupportedReason(*compiled->program).empty())) {
    if (std::optional<driver::Failure> failure = engines.CompileNow()) return ReportFailure(*failure, opts.expression);
  }
  // Without --engine, the view engine takes the program when it fuses it, or a head of its pipe
  // chain (then only the sub-documents the rest reads are converted; streamed inputs only, and
  // not under a lowered step budget or time limit: LimitsAllowView).
  std::unique_ptr<ViewSwitch> view;
  if (!opts.engine_given && !opts.slurp && !opts.null_input && view::LimitsAllowView(opts.limits)) {
    view = std::make_unique<ViewSwitch>(compiled->program, opts.native_after, compile_options.opt_level);
    if (!view->taken()) view.reset();
  }
  EvalRun run(opts, globals, engines, view.get());
  int exit_code = run.RunInputs();
  engines.Finish();
  if (view != nullptr) view->Finish();
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
  CLI::Option* engine = cmd->add_option(
      "--engine", opts->engine,
      "Engine: interp (default; without --engine, programs the view engine supports run on each "
      "input's parsed text), jit, aot, or auto (jit when supported, else interp)");
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
  cmd->add_option("--native-after", opts->native_after,
                  "Bytes of input the interpreter handles before a native engine (jit, aot, auto) is "
                  "compiled in the background (without --engine: the view engine before its own native "
                  "code is); 0 = compile before the first input")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--progress", opts->progress,
                  "Progress on stderr for long inputs: auto (when stderr is a terminal), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  cmd->add_option("expression", opts->expression, "The jq expression")->required();
  cmd->add_option("files", opts->files, "JSON input files (default: stdin)");
  cmd->callback([opts, exit_code, engine] {
    opts->engine_given = engine->count() > 0;
    *exit_code = RunEval(*opts);
  });
}

}  // namespace wm::tools
