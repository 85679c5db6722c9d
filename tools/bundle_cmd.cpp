// `wmc bundle info [--resolvers] [--expect-sha256 HEX] B.wmb`: verifies a bundle (pinned digest,
// checksums, manifest and section digests, definitions, IR) and prints what it holds, with the
// whole file's SHA-256 to pin. It never maps the native section: mapping a shared object runs its
// constructors, and a bundle under inspection is not trusted yet. Exit 0 when the bundle
// verifies, 2 when it is refused.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <string>

#include "runtime/bundle/bundle.h"
#include "tools/bundle_source.h"
#include "tools/commands.h"

namespace wm::tools {
namespace {

struct BundleInfoOptions {
  std::string path;
  bool resolvers = false;
  std::string expect_sha256;
};

int RunBundleInfo(const BundleInfoOptions& o) {
  std::string error;
  BundleLoadOptions load;
  load.use_native = false;
  load.verify_all = true;  // `bundle info` vouches for every resolver's IR, not only the ones run
  load.expect_sha256 = o.expect_sha256;
  auto bundle = Bundle::Open(o.path, &error, load);
  if (!bundle) {
    std::fprintf(stderr, "wmc bundle: %s\n", error.c_str());
    return 2;
  }
  std::printf("bundle: %s (%zu bytes, format %u, built by %s)\n", o.path.c_str(),
              bundle->size_bytes(), bundle->format_version(), bundle->compiler_version().c_str());
  std::printf("sha256: %s\n", bundle->sha256().c_str());
  if (bundle->has_native_section()) {
    std::printf("native code: %zu of %zu resolvers, built for %s (sha256 %s; not mapped)\n",
                bundle->native_symbol_count(), bundle->resolver_count(), bundle->target().c_str(),
                bundle->native_sha256().c_str());
  } else {
    std::printf("native code: none\n");
  }
  std::printf("ir: sha256 %s\n", bundle->ir_sha256().c_str());
  std::printf("definitions: %zu\n", bundle->definitions().size());
  for (const auto& d : bundle->definitions()) {
    const auto& k = d.root().kind;
    std::printf("  %-45s %s %s (%zu components)\n", d.name.c_str(), k.ApiVersion().c_str(),
                k.kind.c_str(), d.components.size());
  }
  std::printf("resolvers: %zu\n", bundle->resolver_count());
  if (o.resolvers) {
    for (size_t i = 0; i < bundle->resolver_count(); ++i) {
      const auto& r = bundle->resolver_info(static_cast<int32_t>(i));
      std::printf("  #%zu %s/%s %s [%s]: %s\n", i, r.definition.c_str(), r.component.c_str(),
                  r.role.c_str(), r.native_symbol.empty() ? "interp" : "native", r.source.c_str());
    }
  }
  return 0;
}

}  // namespace

void AddBundleCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("bundle", "Inspect compiled catalog bundles");
  cmd->require_subcommand(1);
  auto options = std::make_shared<BundleInfoOptions>();
  auto* info = cmd->add_subcommand("info", "Verify a bundle and list its contents");
  info->add_option("bundle", options->path, "Bundle file (.wmb)")->required();
  info->add_flag("--resolvers", options->resolvers, "List every resolver with its jq source");
  AddExpectSha256Option(info, &options->expect_sha256);
  info->callback([options, exit_code] { *exit_code = RunBundleInfo(*options); });
}

}  // namespace wm::tools
