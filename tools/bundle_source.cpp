// Choosing and opening the bundle of a command (see bundle_source.h): built-in catalog, --bundle
// or --catalog, with one wording for every failure.
#include "tools/bundle_source.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "base/sha256.h"
#include "compiler/codegen/codegen.h"
#include "compiler/driver/definitions.h"
#include "compiler/source/render.h"
#include "tools/cli_output.h"

namespace wm::tools {
namespace {

// --catalog: the same pipeline as `wmc compile --no-native`, kept in memory.
std::shared_ptr<Bundle> CompileCatalog(const BundleSourceOptions& options, std::string* error) {
  driver::DefinitionOptions compile;
  compile.goal = driver::Goal::kBundle;
  compile.native = false;  // no AOT: the interpreter runs the freshly lowered IR
  driver::Expected<driver::CompiledDefinitions> run =
      driver::CompileDefinitions({options.catalog_dir}, compile);
  if (!run.ok()) {
    *error = "--catalog " + options.catalog_dir + ": " + run.failure().message;
    return nullptr;
  }
  // Errors and warnings, not notes: `wmc get --catalog catalog/` should not repeat on every run
  // that a kind has no schema (WM200); `wmc check` shows everything.
  std::vector<Diagnostic> findings = run->SortedFindings();
  std::erase_if(findings, [](const Diagnostic& d) { return d.severity == Severity::Note; });
  if (!findings.empty()) {
    WriteText(Render(findings, run->sources, DiagnosticFormat::kText), stderr);
  }
  if (run->sink.errors() > 0) {
    *error = "--catalog " + options.catalog_dir + ": " + std::to_string(run->sink.errors()) +
             " error(s) in the definitions";
    return nullptr;
  }
  if (!run->bundle) {
    *error = "--catalog " + options.catalog_dir + ": " +
             (run->bundle_error.empty() ? "no definitions found" : run->bundle_error);
    return nullptr;
  }
  BundleLoadOptions load = options.load;
  load.use_native = false;  // there is none; a JIT hook (--engine=jit) is kept
  return Bundle::FromBytes(std::move(run->bundle->bytes), options.catalog_dir, error, load);
}

}  // namespace

std::string BuiltinCatalogPath() {
  const char* env = std::getenv("WMC_CATALOG");
  if (env != nullptr && *env != '\0') return env;
  std::error_code ec;
  std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return "share/wmc/catalog.wmb";  // no /proc: relative to the working directory
  return (exe.parent_path().parent_path() / "share" / "wmc" / "catalog.wmb").string();
}

void AddBundleOptions(CLI::App* cmd, BundleSourceOptions* options) {
  auto* bundle = cmd->add_option("--bundle,-b", options->bundle,
                                 "Compiled catalog bundle (.wmb) to use instead of the built-in catalog");
  bundle->type_name("FILE");
  auto* catalog = cmd->add_option("--catalog", options->catalog_dir,
                                  "Compile the definitions of DIR (or a file) on the fly instead of "
                                  "using the built-in catalog");
  catalog->type_name("DIR");
  bundle->excludes(catalog);
  AddExpectSha256Option(cmd, &options->load.expect_sha256);
}

void AddExpectSha256Option(CLI::App* cmd, std::string* expect_sha256) {
  cmd->add_option("--expect-sha256", *expect_sha256,
                  "Refuse the bundle unless its SHA-256 is HEX (as `wmc compile` and `wmc bundle "
                  "info` print it)")
      ->type_name("HEX")
      ->check([](const std::string& text) -> std::string {
        return base::IsSha256Hex(text) ? "" : "expected a SHA-256: 64 hex digits";
      });
}

void AddEngineOption(CLI::App* cmd, std::string* engine) {
  cmd->add_option("--engine", *engine,
                  "auto (native code when the bundle has it for this machine), interp, or jit "
                  "(compile each kind's resolvers in-process on first use)")
      ->check(CLI::IsMember({"auto", "interp", "jit"}));
}

void ApplyEngine(const std::string& engine, BundleLoadOptions* load) {
  if (engine == "interp" || engine == "jit") load->use_native = false;
  if (engine == "jit") {
    // -O1: a command pays the compile of a kind on every run, and -O1 compiles ~3x faster than
    // the AOT default -O2 (bench/RESULTS.md section 2).
    codegen::CodegenOptions jit;
    jit.opt_level = 1;
    load->compiler = codegen::MakeJitCompiler(jit);
  }
}

bool LoadBundle(const BundleSourceOptions& options, LoadedBundle* out, std::string* error) {
  if (!options.catalog_dir.empty()) {
    out->origin = options.catalog_dir;
    out->bundle = CompileCatalog(options, error);
    return out->bundle != nullptr;
  }
  if (!options.bundle.empty()) {
    out->origin = options.bundle;
    out->bundle = Bundle::Open(options.bundle, error, options.load);
    return out->bundle != nullptr;
  }
  std::string path = BuiltinCatalogPath();
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    *error = "no built-in catalog: " + path +
             " does not exist (build it with `cmake --build build --target wmc_catalog`, set "
             "WMC_CATALOG, or give --bundle FILE.wmb or --catalog DIR)";
    return false;
  }
  out->origin = "built-in";
  out->bundle = Bundle::Open(path, error, options.load);
  return out->bundle != nullptr;
}

}  // namespace wm::tools
