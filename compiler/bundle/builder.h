// Building a catalog bundle: turns checked definitions into runtime definitions whose jq fields
// are resolver indexes, lowers every jq field to IR, and writes the bundle file atomically
// (temp file + rename: a failed run never leaves a partial bundle or touches an existing one).
// Native code is produced by the caller (compiler/codegen) from the resolver programs, so this
// stage stays free of LLVM.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "compiler/definition/model.h"
#include "compiler/source/diagnostic.h"
#include "runtime/bundle/bundle.h"
#include "runtime/catalog/definition.h"
#include "runtime/ir/ir.h"

namespace wm::bundle {

struct Resolver {
  ResolverInfo info;                        // definition, component, role, jq source
  std::shared_ptr<ir::Program> program;
};

struct Catalog {
  std::vector<catalog::Definition> definitions;
  std::vector<Resolver> resolvers;
};

// Lowers every jq field of `definitions` (which must have passed the rules) into `catalog`.
// Identical expressions with the same role are shared. Lowering errors are reported to `sink`;
// returns false when there were any.
bool BuildCatalog(const std::vector<const definition::Definition*>& definitions, Catalog* catalog,
                  DiagnosticSink* sink);

struct BundleContents {
  const Catalog* catalog = nullptr;
  std::string native_object;  // AOT shared object bytes, or empty
  std::string target;         // target triple of native_object
  std::string compiler_version = "wmc 0.1.0";
};

// The bundle file's bytes (format: runtime/bundle/format.h).
std::string SerializeBundle(const BundleContents& contents);

// Writes bytes to `path` atomically. On failure returns false with *error and leaves any
// existing file at `path` untouched.
bool WriteFileAtomically(const std::string& path, std::string_view bytes, std::string* error);

}  // namespace wm::bundle
