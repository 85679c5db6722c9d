// Building a catalog bundle: turns checked definitions into runtime definitions whose jq fields
// are resolver indexes (the IR of each field comes lowered from compiler/driver, which lowers
// every field once), serializes the bundle, and writes the bundle file atomically
// (temp file + rename: a failed run never leaves a partial bundle or touches an existing one).
// Native code is produced by the caller (compiler/codegen) from the resolver programs, so this
// stage stays free of LLVM.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
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

// The IR of each jq field of the definitions, lowered once by the driver.
using FieldPrograms = std::unordered_map<const definition::JqField*, std::shared_ptr<ir::Program>>;

// Builds `catalog` from `definitions` (which must have passed the rules), taking every jq
// field's resolver program from `programs`. Identical expressions with the same role share one
// resolver (the first field's program). Returns false when a field has no program: it did not
// parse or lower, which the front end has already reported.
bool BuildCatalog(const std::vector<const definition::Definition*>& definitions,
                  const FieldPrograms& programs, Catalog* catalog);

struct BundleContents {
  const Catalog* catalog = nullptr;
  std::string native_object;  // AOT shared object bytes, or empty
  std::string target;         // target triple of native_object
  std::string compiler_version = "wmc 0.1.0";
};

// The bundle file's bytes (format: runtime/bundle/format.h).
std::string SerializeBundle(const BundleContents& contents);

}  // namespace wm::bundle
