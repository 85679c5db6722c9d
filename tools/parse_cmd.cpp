// `wmc parse [--emit=ast|jq] [--format=text|json|sarif|github] (EXPR | -f FILE)`: parses one jq
// program and prints its AST dump (default) or canonical jq text. Exit codes: 0 parsed, 1 syntax
// errors (rendered diagnostics on stderr), 2 usage error or unreadable file.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "compiler/jq/parser.h"
#include "base/file.h"
#include "compiler/source/render.h"
#include "tools/commands.h"

namespace wm::tools {
namespace {

struct ParseCommandOptions {
  std::string emit = "ast";
  std::string format = "text";
  std::string file;
  std::string expression;
};

int RunParse(const ParseCommandOptions& options) {
  if (options.file.empty() == options.expression.empty()) {
    std::fprintf(stderr, "wmc parse: give either an expression or -f FILE\n");
    return 2;
  }
  std::string name = "<expr>";
  std::string text = options.expression;
  if (!options.file.empty()) {
    std::string error;
    if (!base::ReadWholeFile(options.file, &text, &error)) {
      std::fprintf(stderr, "wmc parse: %s\n", error.c_str());
      return 2;
    }
    name = options.file;
  }
  DiagnosticFormat format = DiagnosticFormat::kText;
  if (options.format == "json") format = DiagnosticFormat::kJson;
  if (options.format == "sarif") format = DiagnosticFormat::kSarif;
  if (options.format == "github") format = DiagnosticFormat::kGithub;

  jq::ParseOptions parse_options;
  parse_options.source_map = SourceMap::ForText(name, text);
  jq::ParseResult result = jq::Parse(text, parse_options);
  if (!result.ok()) {
    SourceFiles files;
    files.Add(name, text);
    std::string rendered = Render(result.diagnostics, files, format);
    std::fwrite(rendered.data(), 1, rendered.size(), stderr);
    return 1;
  }
  std::string out = options.emit == "jq" ? jq::Print(*result.ast) + "\n" : jq::DumpAst(*result.ast);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

}  // namespace

void AddParseCommand(CLI::App& app, int* exit_code) {
  auto options = std::make_shared<ParseCommandOptions>();
  auto* cmd = app.add_subcommand("parse", "Parse a jq program and print its AST or canonical text");
  cmd->add_option("--emit", options->emit, "What to print: ast (default) or jq")
      ->check(CLI::IsMember({"ast", "jq"}));
  cmd->add_option("--format", options->format, "Diagnostic format: text, json, sarif or github")
      ->check(CLI::IsMember({"text", "json", "sarif", "github"}));
  cmd->add_option("-f,--file", options->file, "Read the program from FILE");
  cmd->add_option("expression", options->expression, "The jq program");
  cmd->callback([options, exit_code] { *exit_code = RunParse(*options); });
}

}  // namespace wm::tools
