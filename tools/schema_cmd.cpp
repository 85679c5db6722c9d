// `wmc schema import [-o DIR] FILE...`: imports CRDs / Kubernetes OpenAPI v3 documents into
// compact schemas (compiler/schema/import.h). `wmc schema show [--schemas DIR] [--crd FILE]
// APIVERSION KIND [PATH]`: prints the compact schema of a kind (or of the node at a simple path
// such as .spec.replicatedJobs[].template) through the lazy registry. `wmc schema check
// [--schemas DIR] [--crd FILE] [--format F] [--werror] FILE|DIR...`: only the type checker's
// findings (WM200-WM299) on definitions. Exit 0 ok, 1 unknown kind or path / findings, 2 usage
// or I/O error.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "compiler/check/typecheck.h"
#include "compiler/driver/definitions.h"
#include "compiler/schema/import.h"
#include "base/gvk.h"
#include "compiler/schema/registry.h"
#include "compiler/source/render.h"
#include "tools/cli_output.h"
#include "tools/commands.h"

namespace wm::tools {
namespace {

struct ImportArgs {
  std::string output_dir = "schemas";
  std::vector<std::string> files;
  size_t share_threshold = schema::WriteOptions{}.share_threshold;
};

int RunImport(const ImportArgs& args) {
  schema::ImportResult result;
  for (const std::string& file : args.files) {
    std::string error;
    if (!schema::ImportFile(file, &result, &error)) {
      std::fprintf(stderr, "wmc schema import: %s\n", error.c_str());
      return 2;
    }
  }
  for (const std::string& w : result.warnings) {
    std::fprintf(stderr, "wmc schema import: warning: %s\n", w.c_str());
  }
  schema::WriteOptions options;
  options.output_dir = args.output_dir;
  options.share_threshold = args.share_threshold;
  std::vector<std::string> written;
  std::string error;
  if (!schema::WriteSchemas(result, options, &written, &error)) {
    std::fprintf(stderr, "wmc schema import: %s\n", error.c_str());
    return 2;
  }
  for (const std::string& w : written) std::printf("%s\n", w.c_str());
  return 0;
}

struct ShowArgs {
  std::vector<std::string> schema_dirs;
  std::vector<std::string> crds;
  std::string api_version;
  std::string kind;
  std::string path;
};

int RunShow(const ShowArgs& args) {
  schema::RegistryOptions options;
  options.schema_dirs = args.schema_dirs;
  options.crd_files = args.crds;
  std::string error;
  auto registry = schema::SchemaRegistry::Create(options, &error);
  if (!registry) {
    std::fprintf(stderr, "wmc schema show: %s\n", error.c_str());
    return 2;
  }
  auto gvk = base::GroupVersionKind::FromApiVersion(args.api_version, args.kind);
  const schema::Schema* node = registry->Lookup(gvk);
  if (!node) {
    std::fprintf(stderr, "wmc schema show: no schema for %s\n", gvk.ToString().c_str());
    return 1;
  }
  if (!args.path.empty()) {
    std::string at;
    node = registry->Walk(node, args.path, &at);
    if (!node) {
      std::fprintf(stderr, "wmc schema show: %s\n", at.c_str());
      return 1;
    }
  }
  std::printf("%s\n", schema::ToJson(*registry->Deref(node)).dump(1).c_str());
  return 0;
}

struct TypeCheckArgs {
  std::vector<std::string> schema_dirs;
  std::vector<std::string> crds;
  std::vector<std::string> inputs;
  std::string format = "text";
  bool werror = false;
};

int RunTypeCheck(const TypeCheckArgs& args) {
  DiagnosticFormat format;
  if (args.format == "text") format = DiagnosticFormat::kText;
  else if (args.format == "json") format = DiagnosticFormat::kJson;
  else if (args.format == "sarif") format = DiagnosticFormat::kSarif;
  else if (args.format == "github") format = DiagnosticFormat::kGithub;
  else {
    std::fprintf(stderr, "wmc schema check: unknown format '%s' (text, json, sarif, github)\n",
                 args.format.c_str());
    return 2;
  }
  schema::RegistryOptions options;
  options.schema_dirs = args.schema_dirs;
  options.crd_files = args.crds;
  std::string error;
  auto registry = schema::SchemaRegistry::Create(options, &error);
  if (!registry) {
    std::fprintf(stderr, "wmc schema check: %s\n", error.c_str());
    return 2;
  }
  driver::DefinitionOptions load_only;  // structural findings are `wmc check`'s; this command
  load_only.goal = driver::Goal::kLoad;  // type-checks
  driver::Expected<driver::CompiledDefinitions> run = driver::CompileDefinitions(args.inputs, load_only);
  if (!run.ok()) {
    std::fprintf(stderr, "wmc schema check: %s\n", run.failure().message.c_str());
    return 2;
  }
  std::vector<Diagnostic> findings;
  int errors = 0, warnings = 0;
  for (const driver::LoadedFile& file : run->files) {
    for (const definition::Definition& def : file.definitions) {
      for (Diagnostic& d : check::TypeCheck(def, *registry)) {
        errors += d.severity == Severity::Error;
        warnings += d.severity == Severity::Warning;
        findings.push_back(std::move(d));
      }
    }
  }
  WriteText(Render(findings, run->sources, format));
  std::fflush(stdout);  // the summary (stderr) follows the findings when both go to one file
  if (format == DiagnosticFormat::kText && (errors || warnings)) {
    std::fprintf(stderr, "%d error%s, %d warning%s\n", errors, errors == 1 ? "" : "s", warnings,
                 warnings == 1 ? "" : "s");
  }
  return errors > 0 || (args.werror && warnings > 0) ? 1 : 0;
}

}  // namespace

void AddSchemaCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("schema", "Import and inspect CRD / OpenAPI schemas");
  cmd->require_subcommand(1);

  auto import_args = std::make_shared<ImportArgs>();
  auto* import = cmd->add_subcommand(
      "import", "Import CustomResourceDefinitions and Kubernetes OpenAPI v3 documents");
  import->add_option("-o,--output", import_args->output_dir,
                     "Schemas directory to write (default: schemas)");
  import->add_option("--share-threshold", import_args->share_threshold,
                     "Store subtrees at least this many bytes long once, under _shared/");
  import->add_option("files", import_args->files, "CRD YAML/JSON or OpenAPI v3 JSON files")
      ->required();
  import->callback([import_args, exit_code] { *exit_code = RunImport(*import_args); });

  auto show_args = std::make_shared<ShowArgs>();
  auto* show = cmd->add_subcommand("show", "Print the compact schema of a kind or of a path in it");
  show->add_option("--schemas", show_args->schema_dirs,
                   "Extra schemas directory searched before the default one")
      ->allow_extra_args(false);
  show->add_option("--crd", show_args->crds, "A CRD file to use in addition to the schemas")
      ->allow_extra_args(false);
  show->add_option("apiVersion", show_args->api_version, "group/version, or v1 for core")
      ->required();
  show->add_option("kind", show_args->kind, "Kind name")->required();
  show->add_option("path", show_args->path, "A path such as .spec.template or .items[]");
  show->callback([show_args, exit_code] { *exit_code = RunShow(*show_args); });

  auto check_args = std::make_shared<TypeCheckArgs>();
  auto* check = cmd->add_subcommand(
      "check", "Type-check the jq fields of definitions against the schemas (WM200-WM299 only)");
  check->add_option("--schemas", check_args->schema_dirs,
                    "Extra schemas directory searched before the default one")
      ->allow_extra_args(false);
  check->add_option("--crd", check_args->crds, "A CRD file to use in addition to the schemas")
      ->allow_extra_args(false);
  check->add_option("--format", check_args->format, "output format: text, json, sarif, github");
  check->add_flag("--werror", check_args->werror, "treat warnings as errors (exit 1)");
  check->add_option("inputs", check_args->inputs, "definition files or directories")->required();
  check->callback([check_args, exit_code] { *exit_code = RunTypeCheck(*check_args); });
}

}  // namespace wm::tools
