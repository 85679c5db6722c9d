// Bundle loader: every check that protects a tool from a truncated, corrupted or foreign file
// happens here, before any byte of it is trusted (pinned SHA-256, then the container checks of
// sections.h, manifest shape and section digests, IR validity, resolver indexes, the definitions'
// guarantees of verify.h); native code is mapped last, and only when the caller allows it.
#include "runtime/bundle/bundle.h"

#include <cstring>

#include "base/file.h"
#include "base/sha256.h"
#include "runtime/bundle/format.h"
#include "runtime/bundle/native_module.h"
#include "runtime/bundle/sections.h"
#include "runtime/bundle/verify.h"
#include "runtime/ir/ir_binary.h"
#include "runtime/value/json.h"

namespace wm {
namespace {

std::string StringField(const Value& object, std::string_view key) {
  const Value* v = object.IsObject() ? object.Find(key) : nullptr;
  return v && v->IsString() ? std::string(v->AsString()) : std::string();
}

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
  filters_.clear();
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
  JsonError json_error;
  if (!ParseJson(manifest_bytes, &manifest, &json_error) || !manifest.IsObject()) {
    return fail("corrupted bundle: manifest is not valid JSON: " + json_error.message);
  }
  if (std::string problem = ReadManifest(manifest, ir_bytes, native_bytes); !problem.empty()) {
    return fail("corrupted bundle: " + problem);
  }
  if (std::string problem = MakeFilters(native_bytes, options); !problem.empty()) {
    return fail("corrupted bundle: " + problem);
  }
  return true;
}

std::string Bundle::ReadManifest(const Value& manifest, std::string_view ir_bytes,
                                 std::string_view native_bytes) {
  compiler_version_ = StringField(manifest, "compiler");
  target_ = StringField(manifest, "target");
  const Value* resolvers = manifest.Find("resolvers");
  const Value* definitions = manifest.Find("definitions");
  if (!resolvers || !resolvers->IsArray() || !definitions || !definitions->IsArray()) {
    return "manifest lacks resolvers or definitions";
  }
  const Value* digests = manifest.Find("digests");
  if (!digests || !digests->IsObject()) return "manifest lacks the section digests";
  has_native_section_ = !native_bytes.empty();
  if (std::string p = CheckDigest(*digests, "ir", ir_bytes, true, &ir_sha256_); !p.empty()) return p;
  if (std::string p = CheckDigest(*digests, "native", native_bytes, has_native_section_, &native_sha256_);
      !p.empty()) {
    return p;
  }
  if (std::string p = ReadPrograms(*resolvers, ir_bytes); !p.empty()) return p;
  for (const Value& d : definitions->AsArray()) {
    catalog::Definition definition;
    std::string def_error;
    if (!catalog::FromJson(d, programs_.size(), &definition, &def_error)) return def_error;
    definitions_.push_back(std::move(definition));
  }
  return bundle::VerifyDefinitions(definitions_);
}

// The IR of every resolver, in order, each prefixed by its length; each program passes the IR
// verifier (ir::DeserializeProgram runs it) before it can run.
std::string Bundle::ReadPrograms(const Value& resolvers, std::string_view ir_bytes) {
  // Every entry takes at least its 4-byte length: a count the section cannot hold is refused
  // before anything is allocated for it.
  if (resolvers.AsArray().size() > ir_bytes.size() / 4) {
    return "manifest lists " + std::to_string(resolvers.AsArray().size()) +
           " resolvers, more than the IR section of " + std::to_string(ir_bytes.size()) + " bytes holds";
  }
  size_t cursor = 0;
  for (const Value& entry : resolvers.AsArray()) {
    if (!entry.IsObject()) return "bad resolver entry";
    if (ir_bytes.size() - cursor < 4) return "IR section too short";
    uint32_t length = ReadU32(ir_bytes, cursor);
    cursor += 4;
    if (length > ir_bytes.size() - cursor) return "IR entry out of bounds";
    auto program = std::make_shared<ir::Program>();
    std::string ir_error;
    if (!ir::DeserializeProgram(ir_bytes.substr(cursor, length), program.get(), &ir_error)) {
      return "resolver " + std::to_string(infos_.size()) + ": " + ir_error;
    }
    cursor += length;
    programs_.push_back(std::move(program));
    infos_.push_back({StringField(entry, "definition"), StringField(entry, "component"),
                      StringField(entry, "role"), StringField(entry, "source"),
                      StringField(entry, "native")});
  }
  if (cursor != ir_bytes.size()) {
    return "IR section has " + std::to_string(ir_bytes.size() - cursor) + " bytes after the last resolver";
  }
  return "";
}

// Native code: only for this machine's target, only when asked for, and only after everything
// else has been verified (mapping the shared object runs its constructors).
std::string Bundle::MakeFilters(std::string_view native_bytes, const BundleLoadOptions& options) {
  if (native_bytes.empty()) {
    native_status_ = "no native code in bundle";
  } else if (!options.use_native) {
    native_status_ = "native code not mapped (" + std::to_string(native_symbol_count()) + " of " +
                     std::to_string(programs_.size()) + " resolvers compiled for " + target_ + ")";
  } else if (target_ != HostTarget()) {
    native_status_ = "native code built for " + target_ + ", this machine is " + HostTarget();
  } else {
    std::string native_error;
    native_ = NativeModule::Create(native_bytes, &native_error);
    if (!native_) native_status_ = "native code not loaded: " + native_error;
  }
  for (size_t i = 0; i < programs_.size(); ++i) {
    std::unique_ptr<Filter> filter;
    if (native_ && !infos_[i].native_symbol.empty()) {
      filter = native_->GetFilter(infos_[i].native_symbol, programs_[i]);
      if (!filter) return "native code lacks " + infos_[i].native_symbol;
      ++native_count_;
    } else {
      filter = MakeInterpreter(programs_[i]);
    }
    filters_.push_back(std::move(filter));
  }
  return "";
}

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
