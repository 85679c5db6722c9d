// Definition inputs for `wmc compile` (and any command that takes definition paths): directory
// expansion, loading, and the structural rules, with every file's text kept for rendering.
#include "tools/definition_input.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <system_error>

#include "compiler/check/typecheck.h"
#include "compiler/definition/loader.h"
#include "compiler/definition/rules.h"
#include "compiler/source/file.h"

namespace wm::tools {
namespace fs = std::filesystem;
namespace {

bool IsDefinitionFile(const fs::path& p) {
  std::string ext = p.extension().string();
  return ext == ".yaml" || ext == ".yml" || ext == ".json";
}

}  // namespace

bool ExpandDefinitionPaths(const std::vector<std::string>& paths, std::vector<std::string>* files,
                           std::string* error) {
  for (const std::string& path : paths) {
    std::error_code ec;
    fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status)) {
      *error = path + ": no such file or directory";
      return false;
    }
    if (!fs::is_directory(status)) {
      files->push_back(path);
      continue;
    }
    std::vector<std::string> found;
    fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
      if (it->is_directory() && it->path().filename() == "examples") {
        it.disable_recursion_pending();  // workload objects, not definitions
        continue;
      }
      if (it->is_regular_file() && IsDefinitionFile(it->path())) found.push_back(it->path().string());
    }
    if (ec) {
      *error = path + ": cannot read directory: " + ec.message();
      return false;
    }
    std::sort(found.begin(), found.end());
    files->insert(files->end(), found.begin(), found.end());
  }
  return true;
}

bool LoadAndCheck(const std::vector<std::string>& paths, DefinitionRun* run,
                  const CheckInputOptions& options) {
  std::vector<std::string> files;
  if (!ExpandDefinitionPaths(paths, &files, &run->io_error)) return false;
  // An invalid policy is reported like a definition error (WM008), and nothing is checked.
  definition::JqRuleOptions jq_rules;
  std::string policy_text;
  bool policy_ok = definition::ResolveJqRules(options.jq_policy, &jq_rules, run->sink, &policy_text);
  if (!options.jq_policy.policy_file.empty()) run->sources.Add(options.jq_policy.policy_file, policy_text);
  if (!policy_ok) return true;
  std::unique_ptr<schema::SchemaRegistry> schemas;
  if (options.type_check) {
    schema::RegistryOptions registry_options;
    registry_options.schema_dirs = options.schema_dirs;
    registry_options.crd_files = options.crd_files;
    schemas = schema::SchemaRegistry::Create(registry_options, &run->io_error);
    if (!schemas) return false;
  }
  for (const std::string& file : files) {
    std::string text, error;
    if (!ReadWholeFile(file, &text, &error)) {
      run->io_error = error;
      return false;
    }
    LoadedFile loaded;
    loaded.path = file;
    loaded.definitions =
        definition::LoadDefinitions(file, text, definition::LoadOptions{}, run->sink).definitions;
    for (const auto& d : loaded.definitions) {
      definition::CheckDefinition(d, run->sink, jq_rules);
      if (!schemas) continue;
      for (Diagnostic& finding : check::TypeCheck(d, *schemas)) run->sink.Report(std::move(finding));
    }
    run->sources.Add(file, std::move(text));
    run->files.push_back(std::move(loaded));
  }
  std::vector<const definition::Definition*> all;
  for (const LoadedFile& file : run->files) {
    for (const definition::Definition& d : file.definitions) all.push_back(&d);
  }
  definition::CheckDefinitionSet(all, run->sink);
  return true;
}

// Findings of one file in reading order (the loader, the jq parser and the rules report in
// separate passes), files in the order they were checked.
std::vector<Diagnostic> SortedFindings(const DefinitionRun& run) {
  std::map<std::string, size_t> file_rank;
  for (size_t i = 0; i < run.files.size(); ++i) file_rank.emplace(run.files[i].path, i);
  std::vector<Diagnostic> items = run.sink.items();
  auto rank = [&](const Diagnostic& d) {
    auto it = file_rank.find(d.location.file);
    return it == file_rank.end() ? file_rank.size() : it->second;
  };
  std::stable_sort(items.begin(), items.end(), [&](const Diagnostic& a, const Diagnostic& b) {
    size_t ra = rank(a), rb = rank(b);
    if (ra != rb) return ra < rb;
    if (a.location.line != b.location.line) return a.location.line < b.location.line;
    return a.location.column < b.location.column;
  });
  return items;
}

}  // namespace wm::tools
