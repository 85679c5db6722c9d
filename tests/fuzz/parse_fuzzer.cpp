// libFuzzer target for the jq front end: any byte string must parse to an AST or to diagnostics,
// never crash, hang or overflow the stack; a parsed AST must print to text that parses back to
// the same shape, and the safety policy must walk it. Not part of the default build: `make fuzz`
// builds it with tests/fuzz/build.sh (clang-19, -fsanitize=fuzzer,address,undefined) and runs it;
// tests/fuzz/README.md says how to replay a finding (`build/fuzz/parse_fuzzer crash-<sha1>`).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "compiler/jq/parser.h"
#include "compiler/jq/policy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  wm::jq::ParseOptions options;
  // Small limits reach the limit paths with small inputs; the first byte varies them.
  options.max_depth = size > 0 ? 8 + data[0] % 64 : 32;
  options.max_ast_depth = 256;
  options.max_errors = 3;
  wm::jq::ParseResult result = wm::jq::Parse(text, options);
  if (!result.ok()) {
    if (result.diagnostics.empty()) std::abort();  // a failure must say why
    return 0;
  }
  std::string printed = wm::jq::Print(*result.ast);
  (void)wm::jq::DumpAst(*result.ast);
  (void)wm::jq::CheckPolicy(*result.ast, wm::jq::Policy::Default(), wm::SourceMap());
  wm::jq::ParseOptions relaxed;  // parentheses the printer adds may deepen the nesting
  wm::jq::ParseResult again = wm::jq::Parse(printed, relaxed);
  if (!again.ok() || !wm::jq::SameShape(*result.ast, *again.ast)) {
    std::fprintf(stderr, "round trip failed\ninput:   %.*s\nprinted: %s\n", static_cast<int>(size),
                 reinterpret_cast<const char*>(data), printed.c_str());
    std::abort();
  }
  return 0;
}
