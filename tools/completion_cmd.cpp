// `wmc completion bash|zsh|fish`: shell completion generated from the CLI11 command tree, so a
// new verb or flag completes without touching this file. Each command's subcommands and flags are
// listed; an option's values complete from its type name: `{a,b,c}` lists the choices, KIND the
// root kinds of the built-in catalog, GROUP their API groups, DEFINITION its definition names,
// FILE and TEXT file names, DIR directories, anything else (INT, VERSION) nothing. Positionals
// follow the same rule.
// Also `wmc --version` (VersionText): version, bundle format and the built-in catalog's hash.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "base/file.h"
#include "runtime/bundle/bundle.h"
#include "runtime/bundle/format.h"
#include "tools/bundle_source.h"
#include "tools/cli_output.h"
#include "tools/commands.h"

namespace wm::tools {
namespace {

enum class Values { kNone, kWords, kFiles, kDirs };

struct ValueSpec {
  Values kind = Values::kNone;
  std::vector<std::string> words;  // kWords
};

struct OptionSpec {
  std::vector<std::string> names;  // "-o", "--output"
  bool takes_value = false;
  ValueSpec values;
  std::string description;
};

struct CommandSpec {
  std::string path;  // "" for wmc itself, "bundle info" for a nested command
  std::vector<std::pair<std::string, std::string>> subcommands;  // name, description
  std::vector<OptionSpec> options;
  ValueSpec positional;  // what a word that is not a flag completes to
};

// What the completion scripts know of the built-in catalog (empty when it is missing).
struct CatalogWords {
  std::vector<std::string> kinds, groups, definitions;
};

CatalogWords ReadCatalogWords() {
  CatalogWords words;
  BundleLoadOptions load;
  load.use_native = false;  // listing names must not map the catalog's native code
  std::string error;
  auto bundle = Bundle::Open(BuiltinCatalogPath(), &error, load);
  if (!bundle) return words;
  std::set<std::string> kinds, groups, names;
  for (const auto& d : bundle->definitions()) {
    if (!d.root().kind.kind.empty()) kinds.insert(d.root().kind.kind);
    if (!d.root().kind.group.empty()) groups.insert(d.root().kind.group);
    names.insert(d.name);
  }
  words.kinds.assign(kinds.begin(), kinds.end());
  words.groups.assign(groups.begin(), groups.end());
  words.definitions.assign(names.begin(), names.end());
  return words;
}

// A word the scripts may hold unquoted inside quotes of either kind.
bool IsSafeWord(const std::string& w) {
  return !w.empty() && std::all_of(w.begin(), w.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' || c == '/';
  });
}

ValueSpec ValuesOf(const std::string& type_name, const CatalogWords& catalog) {
  ValueSpec spec;
  size_t open = type_name.find('{'), close = type_name.find('}');
  if (open != std::string::npos && close != std::string::npos && close > open) {
    spec.kind = Values::kWords;
    std::string list = type_name.substr(open + 1, close - open - 1);
    for (size_t start = 0; start <= list.size();) {
      size_t comma = std::min(list.find(',', start), list.size());
      std::string word = list.substr(start, comma - start);
      if (IsSafeWord(word)) spec.words.push_back(word);
      start = comma + 1;
    }
    return spec;
  }
  if (type_name == "KIND" || type_name == "GROUP" || type_name == "DEFINITION") {
    spec.kind = Values::kWords;
    spec.words = type_name == "KIND" ? catalog.kinds : type_name == "GROUP" ? catalog.groups : catalog.definitions;
    spec.words.erase(std::remove_if(spec.words.begin(), spec.words.end(), [](auto& w) { return !IsSafeWord(w); }),
                     spec.words.end());
    return spec;
  }
  if (type_name == "DIR") spec.kind = Values::kDirs;
  else if (type_name == "FILE" || type_name == "TEXT" || type_name.empty()) spec.kind = Values::kFiles;
  else spec.kind = Values::kNone;
  return spec;
}

std::string OneLine(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  return s;
}

void Collect(CLI::App* app, const std::string& path, const CatalogWords& catalog, std::vector<CommandSpec>* out) {
  CommandSpec spec;
  spec.path = path;
  for (const CLI::Option* opt : app->get_options()) {
    if (opt->get_group().empty()) continue;  // hidden
    if (opt->get_positional()) {
      spec.positional = ValuesOf(opt->get_type_name(), catalog);
      continue;
    }
    OptionSpec o;
    for (const auto& s : opt->get_snames()) o.names.push_back("-" + s);
    for (const auto& l : opt->get_lnames()) o.names.push_back("--" + l);
    o.takes_value = opt->get_expected_max() > 0;  // flags expect no value
    if (o.takes_value) o.values = ValuesOf(opt->get_type_name(), catalog);
    o.description = OneLine(opt->get_description());
    if (!o.names.empty()) spec.options.push_back(std::move(o));
  }
  std::vector<CLI::App*> subs = app->get_subcommands([](CLI::App* s) { return !s->get_group().empty(); });
  for (CLI::App* sub : subs) spec.subcommands.push_back({sub->get_name(), OneLine(sub->get_description())});
  out->push_back(std::move(spec));
  for (CLI::App* sub : subs) Collect(sub, path.empty() ? sub->get_name() : path + " " + sub->get_name(), catalog, out);
}

std::vector<std::string> FlagWords(const CommandSpec& c) {
  std::vector<std::string> words;
  for (const auto& o : c.options) words.insert(words.end(), o.names.begin(), o.names.end());
  return words;
}

std::vector<std::string> SubcommandWords(const CommandSpec& c) {
  std::vector<std::string> words;
  for (const auto& [name, description] : c.subcommands) words.push_back(name);
  return words;
}

std::string KnownPathsPattern(const std::vector<CommandSpec>& commands, const char* open, const char* close) {
  std::vector<std::string> paths;
  for (const auto& c : commands) {
    if (!c.path.empty()) paths.push_back("'" + c.path + "'");
  }
  return std::string(open) + Join(paths, "|") + close;
}

// ---- bash

std::string BashReply(const ValueSpec& v) {
  switch (v.kind) {
    case Values::kWords: return "COMPREPLY=($(compgen -W '" + Join(v.words) + "' -- \"$cur\"))";
    case Values::kFiles: return "COMPREPLY=($(compgen -f -- \"$cur\"))";
    case Values::kDirs: return "COMPREPLY=($(compgen -d -- \"$cur\"))";
    case Values::kNone: break;
  }
  return "COMPREPLY=()";
}

std::string BashScript(const std::vector<CommandSpec>& commands) {
  std::string s =
      "# bash completion for wmc, generated by `wmc completion bash` from the CLI's command tree.\n"
      "# Load it with: source <(wmc completion bash)\n"
      "_wmc_complete() {\n"
      "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n"
      "  local cmdpath=\"\" candidate i\n"
      "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
      "    candidate=\"${cmdpath:+$cmdpath }${COMP_WORDS[i]}\"\n"
      "    case \"$candidate\" in\n"
      "      " + KnownPathsPattern(commands, "", ")") + " cmdpath=\"$candidate\" ;;\n"
      "    esac\n"
      "  done\n"
      "  case \"$cmdpath\" in\n";
  for (const auto& c : commands) {
    s += "    '" + c.path + "')\n      case \"$prev\" in\n";
    for (const auto& o : c.options) {
      if (o.takes_value) s += "        " + Join(o.names, "|") + ") " + BashReply(o.values) + "; return ;;\n";
    }
    s += "      esac\n";
    s += "      if [[ \"$cur\" == -* ]]; then COMPREPLY=($(compgen -W '" + Join(FlagWords(c)) + "' -- \"$cur\")); return; fi\n";
    if (!c.subcommands.empty()) {
      s += "      COMPREPLY=($(compgen -W '" + Join(SubcommandWords(c)) + "' -- \"$cur\"))\n";
    } else {
      s += "      " + BashReply(c.positional) + "\n";
    }
    s += "      ;;\n";
  }
  s += "  esac\n}\ncomplete -o filenames -F _wmc_complete wmc kubectl-wm\n";
  return s;
}

// ---- zsh

std::string ZshReply(const ValueSpec& v) {
  switch (v.kind) {
    case Values::kWords: return v.words.empty() ? "return 1" : "compadd -- " + Join(v.words);
    case Values::kFiles: return "_files";
    case Values::kDirs: return "_files -/";
    case Values::kNone: break;
  }
  return "return 1";
}

std::string ZshScript(const std::vector<CommandSpec>& commands) {
  std::string s =
      "#compdef wmc kubectl-wm\n"
      "# zsh completion for wmc, generated by `wmc completion zsh` from the CLI's command tree.\n"
      "# Install it as _wmc in a directory of $fpath, or load it with: source <(wmc completion zsh)\n"
      "_wmc() {\n"
      "  local cur=\"${words[CURRENT]}\" prev=\"${words[CURRENT-1]}\" cmdpath=\"\" candidate i\n"
      "  for ((i = 2; i < CURRENT; i++)); do\n"
      "    candidate=\"${cmdpath:+$cmdpath }${words[i]}\"\n"
      "    case \"$candidate\" in\n"
      "      " + KnownPathsPattern(commands, "(", ")") + " cmdpath=\"$candidate\" ;;\n"
      "    esac\n"
      "  done\n"
      "  case \"$cmdpath\" in\n";
  for (const auto& c : commands) {
    s += "    ('" + c.path + "')\n      case \"$prev\" in\n";
    for (const auto& o : c.options) {
      if (o.takes_value) s += "        (" + Join(o.names, "|") + ") " + ZshReply(o.values) + "; return ;;\n";
    }
    s += "      esac\n";
    s += "      if [[ \"$cur\" == -* ]]; then compadd -- " + Join(FlagWords(c)) + "; return; fi\n";
    s += "      " + (c.subcommands.empty() ? ZshReply(c.positional) : "compadd -- " + Join(SubcommandWords(c))) + "\n";
    s += "      ;;\n";
  }
  s += "  esac\n}\n"
       "if [[ \"${funcstack[1]}\" == \"_wmc\" ]]; then _wmc \"$@\"; else compdef _wmc wmc kubectl-wm; fi\n";
  return s;
}

// ---- fish

std::string FishQuote(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'' || c == '\\') out += '\\';
    out += c;
  }
  return out + "'";
}

std::string FishValues(const ValueSpec& v) {
  switch (v.kind) {
    case Values::kWords: return " -x -a " + FishQuote(Join(v.words));
    case Values::kFiles: return " -r -F";
    case Values::kDirs: return " -x -a '(__fish_complete_directories)'";
    case Values::kNone: break;
  }
  return " -x";
}

std::string FishScript(const std::vector<CommandSpec>& commands) {
  std::vector<std::string> paths;
  for (const auto& c : commands) {
    if (!c.path.empty()) paths.push_back(FishQuote(c.path));
  }
  std::string s =
      "# fish completion for wmc, generated by `wmc completion fish` from the CLI's command tree.\n"
      "# Load it with: wmc completion fish | source\n"
      "function __wmc_cmdpath\n"
      "    set -l known " + Join(paths) + "\n"
      "    set -l p ''\n"
      "    for w in (commandline -opc)[2..-1]\n"
      "        set -l c (string trim -- \"$p $w\")\n"
      "        if contains -- \"$c\" $known\n"
      "            set p \"$c\"\n"
      "        end\n"
      "    end\n"
      "    echo $p\n"
      "end\n"
      "function __wmc_at\n"
      "    set -l p (__wmc_cmdpath)\n"
      "    test \"$p\" = \"$argv[1]\"\n"
      "end\n"
      "complete -c wmc -f\n"
      "complete -c kubectl-wm -w wmc\n";
  for (const auto& c : commands) {
    std::string at = " -n " + FishQuote("__wmc_at " + FishQuote(c.path));
    for (const auto& [name, description] : c.subcommands) {
      s += "complete -c wmc" + at + " -a " + FishQuote(name) + " -d " + FishQuote(description) + "\n";
    }
    for (const auto& o : c.options) {
      std::string line = "complete -c wmc" + at;
      for (const auto& n : o.names) line += (n.size() == 2 ? " -s " + n.substr(1) : " -l " + n.substr(2));
      if (o.takes_value) line += FishValues(o.values);
      s += line + " -d " + FishQuote(o.description) + "\n";
    }
    if (c.subcommands.empty() && c.positional.kind != Values::kNone) {
      s += "complete -c wmc" + at + FishValues(c.positional) + "\n";
    }
  }
  return s;
}

int RunCompletion(CLI::App* root, const std::string& shell) {
  std::vector<CommandSpec> commands;
  Collect(root, "", ReadCatalogWords(), &commands);
  std::string script;
  if (shell == "bash") script = BashScript(commands);
  else if (shell == "zsh") script = ZshScript(commands);
  else if (shell == "fish") script = FishScript(commands);
  else {
    std::fprintf(stderr, "error: unsupported shell \"%s\" (bash, zsh or fish)\n", shell.c_str());
    return 2;
  }
  std::fputs(script.c_str(), stdout);
  return 0;
}

}  // namespace

std::string VersionText() {
  std::string text = std::string("wmc ") + WMC_VERSION + "\nbundle format: " +
                     std::to_string(bundle::kFormatVersion) + "\nbuilt-in catalog: ";
  std::string path = BuiltinCatalogPath(), bytes, error;
  base::ReadFileOptions read;
  read.regular_files_only = true;
  if (!base::ReadWholeFile(path, &bytes, &error, read)) return text + "none (" + error + ")";
  char crc[16];
  std::snprintf(crc, sizeof crc, "%08x", bundle::Crc32c(bytes));
  BundleLoadOptions load;
  load.use_native = false;  // counting definitions must not map native code
  auto catalog = Bundle::FromBytes(std::move(bytes), path, &error, load);
  size_t n = catalog ? catalog->definitions().size() : 0;
  std::string count = catalog ? std::to_string(n) + (n == 1 ? " definition, " : " definitions, ")
                              : "unreadable: " + error + ", ";
  return text + path + " (" + count + "crc32c " + crc + ")";
}

void AddCompletionCommand(CLI::App& app, int* exit_code) {
  auto shell = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("completion", "Print a shell completion script (bash, zsh or fish)");
  cmd->add_option("shell", *shell, "Shell to complete for")->required()->type_name("{bash,zsh,fish}");
  CLI::App* root = &app;
  cmd->callback([root, shell, exit_code] { *exit_code = RunCompletion(root, *shell); });
}

}  // namespace wm::tools
