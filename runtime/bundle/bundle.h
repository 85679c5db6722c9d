// Loading a catalog bundle (.wmb): checks a pinned SHA-256 when the caller gives one, verifies the
// header, checksums and section table, the manifest's section digests, the definitions (every
// guarantee of the compiler: runtime/bundle/verify.h) and the bounds of every resolver's IR, and
// only then maps the AOT shared object, when it was built for this machine and the caller allows
// it. A bundle is trusted code: mapping runs its constructors. Each resolver is then available as
// a Filter: native code when loaded, else the interpreter over the bundle's IR (reference engine).
// A resolver's IR is decoded and verified on its first use (BundleLoadOptions::verify_all
// does it at open); with a NativeCompiler hook, a kind's resolvers are compiled on first use.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/bundle/native_compiler.h"
#include "runtime/eval/eval.h"
#include "runtime/catalog/definition.h"

namespace wm {

class NativeModule;

struct BundleLoadOptions {
  // Use the AOT shared object when present (default true). False forces the interpreter, e.g. to
  // compare engines or when native code must not be mapped.
  bool use_native = true;
  // When not empty: the SHA-256 (64 hex digits, either case) the whole file must have. Checked
  // before anything else is read from the bytes, so a swapped bundle is refused unparsed.
  std::string expect_sha256;
  // Verify everything at open, refusing the bundle when anything is wrong: decode and verify the
  // IR of every resolver, and compare the native section with its recorded SHA-256 even when it
  // is not mapped (`wmc bundle info`, the fuzzer). By default each resolver's IR is decoded on its
  // first use, and an invalid one makes that resolver fail with "corrupted bundle: resolver N:
  // ..." (the IR section's checksum and SHA-256 are still verified at open, so only a bundle
  // written wrong gets that far); the native section's digest is checked before it is mapped.
  bool verify_all = false;
  // When set, resolvers without mapped AOT code are compiled by this hook (a JIT), one kind at a
  // time: the first use of a definition (Bundle::PrepareDefinition, or any of its resolvers)
  // compiles all its resolvers synchronously on that thread, while other threads that need one
  // of them wait for it; the compiled filters then replace the interpreter's.
  std::shared_ptr<const NativeCompiler> compiler;
};

// What `wmc bundle info` shows about a resolver.
struct ResolverInfo {
  std::string definition;  // metadata.name of its definition
  std::string component;   // "" for definition-level resolvers (gang groups)
  std::string role;        // "podTemplateSpecPath", "replicasPath", ...
  std::string source;      // the jq text
  std::string native_symbol;  // empty when compiled for the interpreter only
};

class Bundle {
 public:
  // Reads and verifies `path`. Null with *error ("catalog.wmb: truncated bundle: ...") on failure.
  static std::shared_ptr<Bundle> Open(const std::string& path, std::string* error,
                                      const BundleLoadOptions& options = {});
  // Same from bytes already in memory; `name` is used in error messages.
  static std::shared_ptr<Bundle> FromBytes(std::string bytes, const std::string& name,
                                           std::string* error,
                                           const BundleLoadOptions& options = {});
  ~Bundle();

  const std::vector<catalog::Definition>& definitions() const { return definitions_; }
  // The definition for objects with this apiVersion and kind, or null.
  const catalog::Definition* FindDefinition(std::string_view api_version,
                                            std::string_view kind) const;

  size_t resolver_count() const { return infos_.size(); }
  // The engine for resolver `id` (std::out_of_range when there is none): decodes its IR on first
  // use and, with a compiler hook, compiles its kind first. Thread-safe.
  const Filter& resolver(int32_t id) const;
  const ResolverInfo& resolver_info(int32_t id) const { return infos_.at(id); }
  // The decoded IR of resolver `id`; null when it does not decode or verify (resolver(id) then
  // fails with the reason). Thread-safe.
  std::shared_ptr<const ir::Program> resolver_program(int32_t id) const;
  // With a compiler hook: compiles the resolvers of `definition` (one of definitions()) now, unless
  // done already; what the workload layer calls before it resolves an object of that kind. A no-op
  // without a hook.
  void PrepareDefinition(const catalog::Definition& definition) const;
  // Resolvers whose compiled (JIT) code is in use now.
  size_t compiled_resolver_count() const;

  // The compiler hook the bundle was opened with (BundleLoadOptions::compiler), or null.
  const std::shared_ptr<const NativeCompiler>& native_compiler() const { return compiler_; }
  std::string compiler_version() const { return compiler_version_; }
  std::string target() const { return target_; }
  uint32_t format_version() const { return format_version_; }
  bool native_loaded() const { return native_ != nullptr; }
  // Why native code is not in use (absent, other target, disabled, failed to load), or "".
  const std::string& native_status() const { return native_status_; }
  size_t native_resolver_count() const { return native_count_; }
  size_t size_bytes() const { return size_bytes_; }
  // SHA-256 (lowercase hex) of the whole file, to pin with --expect-sha256. Computed on the first
  // call (loading does not need it unless a digest is pinned); thread-safe.
  const std::string& sha256() const;
  // The section digests the compiler recorded in the manifest (verified at load); native is ""
  // when the bundle has no native section.
  const std::string& ir_sha256() const { return ir_sha256_; }
  const std::string& native_sha256() const { return native_sha256_; }
  bool has_native_section() const { return has_native_section_; }
  // Resolvers the compiler built native code for (whether or not it is mapped now).
  size_t native_symbol_count() const;

 private:
  Bundle() = default;
  bool Parse(std::string bytes, const std::string& name, std::string* error,
             const BundleLoadOptions& options);
  // The steps of Parse; each returns "" or why the bundle is refused.
  std::string ReadManifest(const Value& manifest, std::string_view ir_bytes,
                           std::string_view native_bytes);
  std::string IndexPrograms(std::string_view ir_bytes);
  std::string MapNative(std::string_view native_bytes, const BundleLoadOptions& options);
  std::string DecodeAll() const;
  void GroupByDefinition();

  // One resolver's lazily built state. `active` is what resolver() returns: the base filter (AOT
  // code, the interpreter, or one that reports invalid IR), then the compiled one once its kind
  // is compiled. Filters are never released before the bundle, so a run in flight stays valid.
  struct Slot {
    std::string_view ir;  // into bytes_
    std::once_flag decode_once, filter_once;
    std::shared_ptr<const ir::Program> program;  // null when the IR is invalid (ir_error says why)
    std::string ir_error;
    std::unique_ptr<Filter> base, compiled;
    bool aot = false;  // base is the bundle's AOT code
    std::atomic<const Filter*> active{nullptr};
    std::atomic<int32_t> compiled_by{-1};  // the kind (group) whose compile took it, once taken
  };
  // The resolvers of one definition, compiled together on first use.
  struct KindGroup {
    std::vector<int32_t> resolvers;
    std::once_flag compile_once;
  };
  Slot& Decoded(int32_t id) const;  // program (or ir_error) set
  Slot& Ready(int32_t id) const;    // and base and active set
  void CompileKind(size_t group) const;

  std::vector<catalog::Definition> definitions_;
  std::vector<ResolverInfo> infos_;
  std::unique_ptr<Slot[]> slots_;
  std::unique_ptr<KindGroup[]> groups_;  // one per definition
  std::vector<int32_t> group_of_;        // per resolver: the first definition using it, or -1
  std::shared_ptr<const NativeCompiler> compiler_;
  mutable std::atomic<size_t> compiled_count_{0};
  std::shared_ptr<NativeModule> native_;
  std::string native_status_;
  size_t native_count_ = 0;
  std::string compiler_version_;
  std::string target_;
  uint32_t format_version_ = 0;
  size_t size_bytes_ = 0;
  std::string bytes_;  // the file: sha256(), and each resolver's IR (Slot::ir) until decoded
  mutable std::once_flag sha256_once_;
  mutable std::string sha256_;
  std::string ir_sha256_, native_sha256_;
  bool has_native_section_ = false;
};

// The target triple this runtime was built for, e.g. "x86_64-linux-gnu"; bundles record the
// target of their native code and the loader maps it only on a matching machine.
const char* HostTarget();

}  // namespace wm
