// Where a command's definitions come from: the one place every verb that needs a bundle chooses
// it. By default the built-in catalog (catalog/ compiled at build time to
// <prefix>/share/wmc/catalog.wmb, found next to the executable: <dir of wmc>/../share/wmc/, or
// $WMC_CATALOG); `--bundle B.wmb` replaces it; `--catalog DIR` compiles definitions on the fly
// through compiler/driver (interpreter, no native code) for authors iterating on a definition.
//
//   BundleSourceOptions source;  AddBundleOptions(cmd, &source);   // at registration
//   LoadedBundle loaded;  if (!LoadBundle(source, &loaded, &error)) ...   // in the callback
#pragma once

#include <memory>
#include <string>

#include "runtime/bundle/bundle.h"

namespace CLI {
class App;
}

namespace wm::tools {

struct BundleSourceOptions {
  std::string bundle;       // --bundle FILE.wmb ("" = not given)
  std::string catalog_dir;  // --catalog DIR ("" = not given)
  BundleLoadOptions load;   // e.g. use_native = false for `--engine=interp`
};

struct LoadedBundle {
  std::shared_ptr<Bundle> bundle;
  // What the definitions' ORIGIN column shows: "built-in", the bundle path or the catalog dir.
  std::string origin;
};

// Declares `--bundle,-b FILE` and `--catalog DIR` (mutually exclusive) and `--expect-sha256 HEX`
// on `cmd`; `options` must outlive the command's callback.
void AddBundleOptions(CLI::App* cmd, BundleSourceOptions* options);

// Declares `--expect-sha256 HEX` (64 hex digits, checked when parsed): the bundle the command
// loads must have this SHA-256 (as `wmc compile` and `wmc bundle info` print it), else it is
// refused before it is parsed. For commands that take their bundle without AddBundleOptions.
void AddExpectSha256Option(CLI::App* cmd, std::string* expect_sha256);

// `--engine` of the commands that resolve workloads from a bundle (inspect, pods, gangs):
//   auto    the bundle's AOT code when it has some for this machine, else the interpreter
//   interp  the interpreter only; native code is never mapped
//   jit     the interpreter until a kind is first used, then that kind's resolvers JIT-compiled
//           (codegen::MakeJitCompiler) and run natively: for a bundle compiled without native
//           code (`--no-native`, `--catalog`) or for another machine. AOT code is not mapped.
// Declares the option on `cmd` (checked against those names).
void AddEngineOption(CLI::App* cmd, std::string* engine);
// Sets `load` for `engine` (one of the names above; "" = auto).
void ApplyEngine(const std::string& engine, BundleLoadOptions* load);

// Opens the bundle the options select. False with *error ("no built-in catalog: ...",
// "catalog.wmb: truncated bundle", "--catalog DIR: 2 error(s) in the definitions") on failure;
// with --catalog, the driver's findings are printed to stderr first.
bool LoadBundle(const BundleSourceOptions& options, LoadedBundle* out, std::string* error);

// The built-in catalog's path: $WMC_CATALOG when set and not empty, else
// <directory of the running executable>/../share/wmc/catalog.wmb (whether it exists or not).
std::string BuiltinCatalogPath();

}  // namespace wm::tools
