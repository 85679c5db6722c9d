// Bundle loader: every check that protects a tool from a truncated, corrupted or foreign file
// happens here, before any byte of it is trusted (pinned SHA-256, then the container checks of
// sections.h, manifest shape and section digests, IR validity, resolver indexes, the definitions'
// guarantees of verify.h); native code is mapped last, and only when the caller allows it.
#include "runtime/bundle/bundle.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "base/file.h"
#include "base/sha256.h"
#include "runtime/bundle/format.h"
#include "runtime/bundle/native_module.h"
#include "runtime/bundle/sections.h"
#include "runtime/bundle/verify.h"
#include "runtime/ir/ir_binary.h"
#include "runtime/value/json.h"
#include "runtime/value/json_dom.h"

namespace wm {
namespace {

uint32_t ReadU32(std::string_view b, size_t at) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(b[at + i]);
  return v;
}

// The manifest's record of a section against the section itself: a bundle whose IR or native
// code is not what the compiler wrote (and whose CRCs were recomputed) is refused.
std::string CheckDigest(const Value& digests, std::string_view key, std::string_view section,
                        bool present, std::string* recorded) {
  *recorded = StringField(digests, key);
  if (!present) {
    if (!recorded->empty()) return "manifest records a " + std::string(key) + " digest but the section is absent";
    return "";
  }
  if (!base::IsSha256Hex(*recorded)) return "manifest lacks the SHA-256 of the " + std::string(key) + " section";
  if (!base::SameSha256Hex(*recorded, base::Sha256Hex(section))) {
    return "the " + std::string(key) + " section does not match the SHA-256 the manifest records";
  }
  return "";
}

// The engine of a resolver whose IR does not decode or verify: every run fails with why, so the
// caller sees it where the resolver is used (verify_all refuses such a bundle at open).
class InvalidIrFilter : public Filter {
 public:
  explicit InvalidIrFilter(std::string message) : Filter("interp"), message_(std::move(message)) {}
  EvalStatus Run(const Value&, const OutputFn&, EvalError* error, const RunOptions&) const override {
    error->value = Value::String(message_);
    error->limit = false;
    return EvalStatus::kError;
  }

 private:
  std::string message_;
};

ResolverInfo InfoOf(const Value& entry) {
  return {StringField(entry, "definition"), StringField(entry, "component"), StringField(entry, "role"),
          StringField(entry, "source"), StringField(entry, "native")};
}

std::string ReadResolverInfos(const Value& resolvers, std::vector<ResolverInfo>* out) {
  for (const Value& entry : resolvers.AsArray()) {
    if (!entry.IsObject()) return "bad resolver entry";
    out->push_back(InfoOf(entry));
  }
  return "";
}

std::string StringField(simdjson::dom::object object, std::string_view key) {
  std::string_view s;
  return object[key].get_string().get(s) == simdjson::SUCCESS ? std::string(s) : std::string();
}

// The manifest as a Value, but for its resolver table, read from simdjson's DOM straight into
// *infos (*infos_read): two thirds of the catalog's manifest are resolver entries, and
// converting them to Values only to copy five strings out cost a third of a load. Leaves
// *manifest null when the DOM cannot decide (json_dom::ParseDom); the caller then parses it whole.
std::string ParseManifestDom(std::string_view text, Value* manifest, std::vector<ResolverInfo>* infos,
                             bool* infos_read) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  simdjson::dom::object fields;
  if (!json_dom::ParseDom(text, &parser, &root) || root.get_object().get(fields) != simdjson::SUCCESS) return "";
  Value out = Value::MakeObject({});
  simdjson::dom::array resolvers;
  bool has_resolvers = false;
  for (auto [key, element] : fields) {
    if (key == "resolvers") {
      has_resolvers = element.get_array().get(resolvers) == simdjson::SUCCESS;  // the last one, as ParseJson
      continue;
    }
    Value v;
    if (!json_dom::ConvertElement(element, static_cast<int>(json_dom::kMaxDomDepth), &v)) return "";
    out.Set(key, std::move(v));
  }
  if (has_resolvers) {
    infos->reserve(resolvers.size());
    for (simdjson::dom::element entry : resolvers) {
      simdjson::dom::object object;
      if (entry.get_object().get(object) != simdjson::SUCCESS) return "bad resolver entry";
      infos->push_back({StringField(object, "definition"), StringField(object, "component"),
                        StringField(object, "role"), StringField(object, "source"),
                        StringField(object, "native")});
    }
    *infos_read = true;
  }
  *manifest = std::move(out);
  return "";
}

// The manifest's JSON into *manifest, its resolver table into *infos (from the DOM when it can).
std::string ParseManifest(std::string_view text, Value* manifest, std::vector<ResolverInfo>* infos) {
  bool infos_read = false;
  if (std::string problem = ParseManifestDom(text, manifest, infos, &infos_read); !problem.empty()) {
    return problem;
  }
  JsonError json_error;
  if (manifest->IsNull() && (!ParseJson(text, manifest, &json_error) || !manifest->IsObject())) {
    return "manifest is not valid JSON: " + json_error.message;
  }
  if (infos_read) return "";
  const Value* resolvers = manifest->Find("resolvers");
  if (!resolvers || !resolvers->IsArray()) return "manifest lacks resolvers or definitions";
  return ReadResolverInfos(*resolvers, infos);
}

// The resolvers a definition runs on objects and pods, each once. Write path programs are left
// out: writes are rare next to reads, so they stay on the interpreter rather than lengthen every
// kind's first-use compile.
std::vector<int32_t> ResolversOf(const catalog::Definition& d) {
  std::vector<int32_t> ids;
  auto add = [&](int32_t id) {
    if (id >= 0 && std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
  };
  for (const catalog::Component& c : d.components) {
    for (int32_t id : {c.instance_id, c.pod_template_spec, c.pod_spec, c.pod_metadata, c.replicas,
                       c.min_replicas, c.max_replicas, c.status.phase_path, c.status.conditions_path,
                       c.instance_selector_id, c.type_selector_key, c.replica_selector_key}) {
      add(id);
    }
    for (const auto& [role, id] : c.fragmented) add(id);
    for (const auto& [status, matchers] : c.status.mappings) {
      for (const catalog::StatusMatcher& m : matchers) add(m.by_expression);
    }
  }
  for (const catalog::GangGroup& g : d.gang_groups) {
    for (const catalog::GangMember& m : g.members) {
      for (int32_t id : m.filters) add(id);
      for (int32_t id : m.group_by_key_paths) add(id);
    }
  }
  return ids;
}

}  // namespace

const char* HostTarget() {
#if defined(__x86_64__) && defined(__linux__)
  return "x86_64-linux-gnu";
#elif defined(__aarch64__) && defined(__linux__)
  return "aarch64-linux-gnu";
#else
  return "unknown";
#endif
}

Bundle::~Bundle() {
  // Filters may point into native code: release them before the module is unmapped.
  slots_.reset();
}

std::shared_ptr<Bundle> Bundle::Open(const std::string& path, std::string* error,
                                     const BundleLoadOptions& options) {
  std::string bytes;
  base::ReadFileOptions read_options;
  // The magic first: a device or a wrong file is refused after 4 KiB, not after reading 1 GiB.
  read_options.check_head = [](std::string_view head) -> std::string {
    if (head.substr(0, sizeof(bundle::kMagic)) == std::string_view(bundle::kMagic, sizeof(bundle::kMagic))) return "";
    return "not a wmc bundle (bad magic)";
  };
  base::ReadFileResult read = base::ReadFile(path, &bytes, read_options);
  if (read.status == base::ReadFileStatus::kCannotOpen) {
    *error = path + ": cannot open bundle: " + std::strerror(read.error_number);
    return nullptr;
  }
  if (!read.ok()) {
    *error = path + ": cannot read bundle: " + read.message;
    return nullptr;
  }
  return FromBytes(std::move(bytes), path, error, options);
}

std::shared_ptr<Bundle> Bundle::FromBytes(std::string bytes, const std::string& name,
                                          std::string* error, const BundleLoadOptions& options) {
  std::shared_ptr<Bundle> bundle(new Bundle());
  if (!bundle->Parse(std::move(bytes), name, error, options)) return nullptr;
  return bundle;
}

bool Bundle::Parse(std::string bytes, const std::string& name, std::string* error,
                   const BundleLoadOptions& options) {
  auto fail = [&](const std::string& why) {
    *error = name + ": " + why;
    return false;
  };
  bytes_ = std::move(bytes);
  size_bytes_ = bytes_.size();
  // A pinned digest comes first: a bundle that is not the expected file is not parsed at all.
  if (!options.expect_sha256.empty() && !base::SameSha256Hex(options.expect_sha256, sha256())) {
    return fail("SHA-256 mismatch: expected " + options.expect_sha256 + ", the bundle has " + sha256());
  }
  bundle::SplitResult split = bundle::SplitBundle(bytes_);
  if (!split.ok()) return fail(split.error);
  format_version_ = split.format_version;
  for (size_t i = 0; i < split.sections.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (split.sections[i].kind == split.sections[j].kind) {
        return fail("corrupted bundle: section " + std::to_string(i) + " repeats the kind of section " +
                    std::to_string(j));
      }
    }
  }
  std::string_view manifest_bytes = bundle::FindSection(split.sections, bundle::SectionKind::kManifest);
  std::string_view ir_bytes = bundle::FindSection(split.sections, bundle::SectionKind::kIr);
  std::string_view native_bytes = bundle::FindSection(split.sections, bundle::SectionKind::kNative);
  if (manifest_bytes.empty()) return fail("corrupted bundle: no manifest section");

  Value manifest;
  if (std::string problem = ParseManifest(manifest_bytes, &manifest, &infos_); !problem.empty()) {
    return fail("corrupted bundle: " + problem);
  }
  if (std::string problem = ReadManifest(manifest, ir_bytes, native_bytes); !problem.empty()) {
    return fail("corrupted bundle: " + problem);
  }
  if (options.verify_all) {
    if (std::string problem = DecodeAll(); !problem.empty()) return fail("corrupted bundle: " + problem);
  }
  if (std::string problem = MapNative(native_bytes, options); !problem.empty()) {
    return fail("corrupted bundle: " + problem);
  }
  compiler_ = options.compiler;
  if (compiler_) GroupByDefinition();
  return true;
}

std::string Bundle::ReadManifest(const Value& manifest, std::string_view ir_bytes,
                                 std::string_view native_bytes) {
  compiler_version_ = StringField(manifest, "compiler");
  target_ = StringField(manifest, "target");
  const Value* definitions = manifest.Find("definitions");
  if (!definitions || !definitions->IsArray()) return "manifest lacks resolvers or definitions";
  const Value* digests = manifest.Find("digests");
  if (!digests || !digests->IsObject()) return "manifest lacks the section digests";
  has_native_section_ = !native_bytes.empty();
  if (std::string p = CheckDigest(*digests, "ir", ir_bytes, true, &ir_sha256_); !p.empty()) return p;
  // The native section's digest is compared with its bytes only before they are mapped
  // (MapNative): unmapped, they are never trusted. That a digest is recorded is checked here.
  native_sha256_ = StringField(*digests, "native");
  if (has_native_section_ && !base::IsSha256Hex(native_sha256_)) return "manifest lacks the SHA-256 of the native section";
  if (!has_native_section_ && !native_sha256_.empty()) return "manifest records a native digest but the section is absent";
  if (std::string p = IndexPrograms(ir_bytes); !p.empty()) return p;
  for (const Value& d : definitions->AsArray()) {
    catalog::Definition definition;
    std::string def_error;
    if (!catalog::FromJson(d, infos_.size(), &definition, &def_error)) return def_error;
    definitions_.push_back(std::move(definition));
  }
  return bundle::VerifyDefinitions(definitions_);
}

// Where the IR of every resolver is, in order, each prefixed by its length: the bounds are
// checked here, the bytes decoded and verified (ir::DeserializeProgram) on first use.
std::string Bundle::IndexPrograms(std::string_view ir_bytes) {
  // Every entry takes at least its 4-byte length: a count the section cannot hold is refused
  // before anything is allocated for it.
  if (infos_.size() > ir_bytes.size() / 4) {
    return "manifest lists " + std::to_string(infos_.size()) +
           " resolvers, more than the IR section of " + std::to_string(ir_bytes.size()) + " bytes holds";
  }
  slots_ = std::make_unique<Slot[]>(infos_.size());
  size_t cursor = 0;
  for (size_t id = 0; id < infos_.size(); ++id) {
    if (ir_bytes.size() - cursor < 4) return "IR section too short";
    uint32_t length = ReadU32(ir_bytes, cursor);
    cursor += 4;
    if (length > ir_bytes.size() - cursor) return "IR entry out of bounds";
    slots_[id].ir = ir_bytes.substr(cursor, length);
    cursor += length;
  }
  if (cursor != ir_bytes.size()) {
    return "IR section has " + std::to_string(ir_bytes.size() - cursor) + " bytes after the last resolver";
  }
  return "";
}

// Native code: only for this machine's target, only when asked for, and only after everything
// else has been verified (mapping the shared object runs its constructors). Every entry point the
// manifest names must be in it; the filters themselves are made on first use.
std::string Bundle::MapNative(std::string_view native_bytes, const BundleLoadOptions& options) {
  bool will_map = !native_bytes.empty() && options.use_native && target_ == HostTarget();
  if ((will_map || options.verify_all) && !native_bytes.empty() &&
      !base::SameSha256Hex(native_sha256_, base::Sha256Hex(native_bytes))) {
    return "the native section does not match the SHA-256 the manifest records";
  }
  if (native_bytes.empty()) {
    native_status_ = "no native code in bundle";
  } else if (!options.use_native) {
    native_status_ = "native code not mapped (" + std::to_string(native_symbol_count()) + " of " +
                     std::to_string(infos_.size()) + " resolvers compiled for " + target_ + ")";
  } else if (target_ != HostTarget()) {
    native_status_ = "native code built for " + target_ + ", this machine is " + HostTarget();
  } else {
    std::string native_error;
    native_ = NativeModule::Create(native_bytes, &native_error);
    if (!native_) native_status_ = "native code not loaded: " + native_error;
  }
  if (native_) {
    for (const ResolverInfo& info : infos_) {
      if (info.native_symbol.empty()) continue;
      if (!native_->HasEntry(info.native_symbol)) return "native code lacks " + info.native_symbol;
      ++native_count_;
    }
  }
  return "";
}

void Bundle::GroupByDefinition() {
  groups_ = std::make_unique<KindGroup[]>(definitions_.size());
  group_of_.assign(infos_.size(), -1);
  for (size_t g = 0; g < definitions_.size(); ++g) {
    groups_[g].resolvers = ResolversOf(definitions_[g]);
    for (int32_t id : groups_[g].resolvers) {
      if (group_of_[id] < 0) group_of_[id] = static_cast<int32_t>(g);
    }
  }
}

Bundle::Slot& Bundle::Decoded(int32_t id) const {
  Slot& slot = slots_[id];
  std::call_once(slot.decode_once, [&] {
    auto program = std::make_shared<ir::Program>();
    std::string ir_error;
    if (ir::DeserializeProgram(slot.ir, program.get(), &ir_error)) {
      slot.program = std::move(program);
    } else {
      slot.ir_error = "resolver " + std::to_string(id) + ": " + ir_error;
    }
  });
  return slot;
}

Bundle::Slot& Bundle::Ready(int32_t id) const {
  Slot& slot = Decoded(id);
  std::call_once(slot.filter_once, [&] {
    const std::string& symbol = infos_[id].native_symbol;
    if (!slot.program) {
      slot.base = std::make_unique<InvalidIrFilter>("corrupted bundle: " + slot.ir_error);
    } else if (native_ && !symbol.empty()) {
      slot.base = native_->GetFilter(symbol, slot.program);  // present: checked by MapNative
      slot.aot = slot.base != nullptr;
    }
    if (!slot.base) slot.base = MakeInterpreter(slot.program);
    slot.active.store(slot.base.get(), std::memory_order_release);
  });
  return slot;
}

std::string Bundle::DecodeAll() const {
  for (size_t id = 0; id < infos_.size(); ++id) {
    const Slot& slot = Decoded(static_cast<int32_t>(id));
    if (!slot.program) return slot.ir_error;
  }
  return "";
}

const Filter& Bundle::resolver(int32_t id) const {
  if (id < 0 || static_cast<size_t>(id) >= infos_.size()) {
    throw std::out_of_range("no resolver " + std::to_string(id) + " in the bundle");
  }
  if (compiler_ && group_of_[id] >= 0) {
    // The kind compiling (or that compiled) this resolver, else the first kind using it: waits
    // while that compile runs on another thread, returns at once when it is done.
    int32_t by = slots_[id].compiled_by.load(std::memory_order_acquire);
    CompileKind(static_cast<size_t>(by >= 0 ? by : group_of_[id]));
  }
  return *Ready(id).active.load(std::memory_order_acquire);
}

std::shared_ptr<const ir::Program> Bundle::resolver_program(int32_t id) const {
  if (id < 0 || static_cast<size_t>(id) >= infos_.size()) {
    throw std::out_of_range("no resolver " + std::to_string(id) + " in the bundle");
  }
  return Decoded(id).program;
}

void Bundle::PrepareDefinition(const catalog::Definition& definition) const {
  if (!compiler_ || definitions_.empty()) return;
  const catalog::Definition* first = definitions_.data();
  if (&definition < first || &definition >= first + definitions_.size()) return;
  CompileKind(static_cast<size_t>(&definition - first));
}

// Compiles the resolvers of definition `group` that no other kind's compile has taken, in one
// batch, then publishes each compiled filter. Callers that need one of them wait in call_once
// (resolver() waits on the kind that took the resolver, PrepareDefinition on its own kind).
void Bundle::CompileKind(size_t group) const {
  KindGroup& kind = groups_[group];
  std::call_once(kind.compile_once, [&] {
    std::vector<int32_t> ids;
    std::vector<std::shared_ptr<const ir::Program>> programs;
    for (int32_t id : kind.resolvers) {
      Slot& slot = Ready(id);
      int32_t unclaimed = -1;
      if (!slot.compiled_by.compare_exchange_strong(unclaimed, static_cast<int32_t>(group),
                                                    std::memory_order_acq_rel)) {
        continue;  // another kind's compile has it
      }
      if (!slot.program || slot.aot) continue;  // invalid IR, or AOT code already in use
      ids.push_back(id);
      programs.push_back(slot.program);
    }
    if (programs.empty()) return;
    NativeBatch batch = compiler_->Compile(programs);
    for (size_t i = 0; i < ids.size() && i < batch.filters.size(); ++i) {
      if (!batch.filters[i]) continue;
      Slot& slot = slots_[ids[i]];
      slot.compiled = std::move(batch.filters[i]);
      slot.active.store(slot.compiled.get(), std::memory_order_release);
      compiled_count_.fetch_add(1, std::memory_order_relaxed);
    }
  });
}

size_t Bundle::compiled_resolver_count() const { return compiled_count_.load(std::memory_order_relaxed); }

const std::string& Bundle::sha256() const {
  std::call_once(sha256_once_, [this] { sha256_ = base::Sha256Hex(bytes_); });
  return sha256_;
}

size_t Bundle::native_symbol_count() const {
  size_t n = 0;
  for (const ResolverInfo& info : infos_) n += info.native_symbol.empty() ? 0 : 1;
  return n;
}

const catalog::Definition* Bundle::FindDefinition(std::string_view api_version,
                                                  std::string_view kind) const {
  return catalog::FindByKind(definitions_, api_version, kind);
}

}  // namespace wm
