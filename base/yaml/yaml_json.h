// The one YAML -> JSON conversion every command uses (definition values, workload objects, CRDs):
// one scalar typing rule (the Kubernetes reader's, see PlainKind), and budgets on input size,
// nesting depth and expanded nodes, so an alias bomb is refused with a located error instead of
// being expanded. Output is compact JSON text, which each caller parses into its own value type.
// Built as wm_base_yaml (links yaml-cpp): the compiler and the CLI link it, the runtime never does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace YAML {
class Node;
}

namespace wm::base::yaml {

// What a plain (unquoted, untagged) scalar means to the YAML reader of kubectl and the API
// machinery (sigs.k8s.io/yaml -> go-yaml v2, YAML 1.1 rules): `yes`, `on`, `True` are booleans,
// `0x1F` and `1_000` integers, `~` null. A string field written that way is not a string once
// applied to a cluster, so the definition loader rejects it and every conversion types it so.
enum class PlainKind { kNull, kBool, kInt, kFloat, kString };
PlainKind ClassifyPlain(std::string_view text);
// For a kBool scalar: whether it means true (`y`, `yes`, `on`, `true` in any of their spellings).
bool PlainBoolValue(std::string_view text);

struct Limits {
  // Deepest nesting of sequences and mappings; the root is depth 0 (default 64).
  int max_depth = 64;
  // Most nodes one converted value may have once aliases are expanded (default 100,000). For a
  // whole text (TextToJson) the budget is this plus the text's size in bytes: a document without
  // aliases has fewer nodes than bytes, so only alias expansion can reach it.
  size_t max_nodes = 100000;
  // Largest text TextToJson accepts (default 16 MiB).
  size_t max_bytes = size_t{16} << 20;
};

enum class ErrorKind {
  kSyntax,         // not well-formed YAML
  kTooLarge,       // the text exceeds max_bytes
  kTooDeep,        // nesting exceeds max_depth
  kTooManyNodes,   // more than the node budget (aliases expand too far)
  kNonStringKey,   // a mapping key that is a sequence or mapping
  kDuplicateKey,   // the same key twice in one mapping
};

struct Error {
  ErrorKind kind = ErrorKind::kSyntax;
  std::string message;  // "value has more than 100000 nodes", "malformed YAML: ...", ...
  size_t offset = 0;    // byte offset in the text yaml-cpp parsed
  uint32_t line = 0;    // 1-based; 0 when unknown
  uint32_t column = 0;  // 1-based byte column
  // "NAME:LINE:COL: message" (or "NAME: message" when the position is unknown).
  std::string Located(std::string_view name) const;
};

// Converts a node (and everything it aliases) to compact JSON text. False with *error located at
// the offending node.
bool NodeToJson(const YAML::Node& node, const Limits& limits, std::string* json, Error* error);

struct TextOptions {
  Limits limits;
  // Read only the first document (`wmc inspect` reads one object; default false: every document).
  bool first_document_only = false;
};

// yaml-cpp 0.7 does not consume a ',' where a block node may start (the top of a document, or
// after `---`, an anchor, a tag, a comment or a finished document): it reads an empty node there,
// and YAML::LoadAll then starts the next document at the same token forever, growing memory
// (fuzz finding object_fuzzer-yaml-hang-80fe5b8f: a text starting with ','). This check parses
// the text's events once (no nodes built; linear) and refuses such a text with a located kSyntax
// error: "malformed YAML: ',' outside a flow collection". TextToJson runs it; a caller that hands
// text to yaml-cpp itself runs it first. Never throws; yaml-cpp's own syntax errors are left to
// the load that follows (the check accepts them).
bool CheckYamlCppTerminates(std::string_view text, const TextOptions& options, Error* error);

// Parses YAML text and converts each document; an empty text has no documents. Never throws.
bool TextToJson(std::string_view text, const TextOptions& options,
                std::vector<std::string>* documents, Error* error);

// Reads a YAML stream (JSON is YAML) as every command that takes objects or CRDs does: each
// document converted by TextToJson and handed, as JSON text with its 0-based index, to `take`,
// which parses it into the caller's own value type. A conversion error is located under `name`
// ("NAME:LINE:COL: message"); `take` returns false to stop, having set *error itself.
using TakeDocument = std::function<bool(const std::string& json, size_t index, std::string* error)>;
bool ReadDocuments(std::string_view text, std::string_view name, const TextOptions& options,
                   const TakeDocument& take, std::string* error);

}  // namespace wm::base::yaml
