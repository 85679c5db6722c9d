// `wmc check|compile --emit=STAGE` (see emit_output.h).
#include "tools/emit_output.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>

#include "base/file.h"

namespace wm::tools {

int EmitDefinitionStage(const EmitRequest& request) {
  std::optional<driver::Stage> stage = driver::StageFromName(request.stage);
  if (!stage) {
    std::fprintf(stderr, "%s: unknown stage '%s' for --emit (%s)\n", request.command,
                 request.stage.c_str(), driver::StageNames().c_str());
    return 2;
  }
  driver::DefinitionOptions options = request.options;
  options.goal = driver::Goal::kCheck;
  driver::Expected<driver::CompiledDefinitions> compiled =
      driver::CompileDefinitions(request.inputs, options);
  if (!compiled.ok()) {
    std::fprintf(stderr, "%s: %s\n", request.command, compiled.failure().message.c_str());
    return 2;
  }
  if (!compiled->sink.items().empty()) {
    std::fputs(Render(compiled->SortedFindings(), compiled->sources, request.format).c_str(),
               stderr);
  }
  if (compiled->sink.errors() > 0) {
    std::fprintf(stderr, "%s: %d error(s); nothing to emit\n", request.command,
                 compiled->sink.errors());
    return 1;
  }
  driver::Expected<std::string> dump = driver::EmitDefinitions(*compiled, *stage, options);
  if (!dump.ok()) {
    std::fprintf(stderr, "%s: %s\n", request.command, dump.failure().message.c_str());
    return 2;
  }
  if (request.output.empty()) {
    std::fwrite(dump->data(), 1, dump->size(), stdout);
    return 0;
  }
  std::string error;
  if (!base::WriteFileAtomically(request.output, *dump, &error, {FilesReadBy(request.inputs, request.options)})) {
    std::fprintf(stderr, "%s: %s\n", request.command, error.c_str());
    return 2;
  }
  return 0;
}

std::vector<std::string> FilesReadBy(const std::vector<std::string>& inputs,
                                     const driver::DefinitionOptions& options) {
  namespace fs = std::filesystem;
  std::vector<std::string> files(options.crd_files.begin(), options.crd_files.end());
  if (!options.jq_policy.policy_file.empty()) files.push_back(options.jq_policy.policy_file);
  for (const std::string& input : inputs) {
    std::error_code ec;
    if (!fs::is_directory(input, ec)) {
      files.push_back(input);
      continue;
    }
    for (fs::recursive_directory_iterator it(input, ec), end; !ec && it != end; it.increment(ec)) {
      if (it->is_regular_file(ec)) files.push_back(it->path().string());
    }
  }
  return files;
}

void AddDefinitionInputOptions(CLI::App* cmd, driver::DefinitionOptions* options) {
  cmd->add_option("--schemas", options->schema_dirs,
                  "directory of compact schemas searched before the built-in ones")
      ->allow_extra_args(false);
  cmd->add_option("--crd", options->crd_files, "CustomResourceDefinition file of a user kind")
      ->allow_extra_args(false);
  cmd->add_option("--allow", options->jq_policy.allow,
                  "allow a policy item or portability rule (name or id; repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--policy", options->jq_policy.policy_file,
                  "policy file (YAML/JSON): allow: [items], target: gojq|jq");
  cmd->add_option("--target", options->jq_policy.target,
                  "engine whose portability is checked: gojq (default) or jq");
}

}  // namespace wm::tools
