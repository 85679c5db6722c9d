// Loading AOT-compiled resolvers: maps a shared object produced by codegen::CompileAot (given as
// bytes, e.g. from a bundle) and wraps each entry point as a Filter. No LLVM here.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "runtime/eval/eval.h"

namespace wm {

class NativeModule {
 public:
  // Maps the shared object (via a memfd or a private temp file) and checks its ABI version.
  // Returns null and sets *error when it cannot be loaded.
  static std::shared_ptr<NativeModule> Create(std::string_view shared_object, std::string* error);
  ~NativeModule();

  // The Filter for entry point `symbol`, or null if the module has no such symbol. The Filter
  // keeps the module alive. `program` is the IR the symbol was compiled from (for constants and
  // error messages).
  std::unique_ptr<Filter> GetFilter(std::string_view symbol,
                                    std::shared_ptr<const ir::Program> program) const;
  // Whether the module exports entry point `symbol` (checked at open, before any program is
  // decoded for GetFilter).
  bool HasEntry(std::string_view symbol) const;

 private:
  NativeModule() = default;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace wm
