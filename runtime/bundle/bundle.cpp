// Bundle loader: every check that protects a tool from a truncated, corrupted or foreign file
// happens here, before any byte of it is trusted (header magic and version, sizes, CRC-32C of the
// header and of the payload, section bounds, manifest shape, IR validity, resolver indexes).
#include "runtime/bundle/bundle.h"

#include <cstring>

#include "base/file.h"
#include "runtime/bundle/format.h"
#include "runtime/bundle/native_module.h"
#include "runtime/ir/ir_binary.h"
#include "runtime/value/json.h"

namespace wm {
namespace {

uint32_t ReadU32(const std::string& b, size_t at) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(b[at + i]);
  return v;
}
uint64_t ReadU64(const std::string& b, size_t at) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(b[at + i]);
  return v;
}

std::string StringField(const Value& object, std::string_view key) {
  const Value* v = object.IsObject() ? object.Find(key) : nullptr;
  return v && v->IsString() ? std::string(v->AsString()) : std::string();
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
  size_bytes_ = bytes.size();
  if (bytes.size() < sizeof(bundle::kMagic) ||
      std::memcmp(bytes.data(), bundle::kMagic, sizeof(bundle::kMagic)) != 0) {
    return fail("not a wmc bundle (bad magic)");
  }
  if (bytes.size() < bundle::kHeaderSize) return fail("truncated bundle: header incomplete");
  if (ReadU32(bytes, 28) != bundle::HeaderCrc(bytes)) {
    return fail("corrupted bundle: header checksum mismatch");
  }
  format_version_ = ReadU32(bytes, 8);
  if (format_version_ != bundle::kFormatVersion) {
    return fail("unsupported bundle format version " + std::to_string(format_version_) +
                " (this runtime reads version " + std::to_string(bundle::kFormatVersion) + ")");
  }
  uint64_t declared_size = ReadU64(bytes, 16);
  if (declared_size > bytes.size()) {
    return fail("truncated bundle: " + std::to_string(bytes.size()) + " of " +
                std::to_string(declared_size) + " bytes");
  }
  if (declared_size < bytes.size()) return fail("corrupted bundle: trailing bytes after the end");
  if (ReadU32(bytes, 24) !=
      bundle::Crc32c(std::string_view(bytes).substr(bundle::kHeaderSize))) {
    return fail("corrupted bundle: payload checksum mismatch");
  }
  uint32_t sections = ReadU32(bytes, 12);
  if (sections > bundle::kMaxSections ||
      bundle::kHeaderSize + sections * bundle::kSectionEntrySize > bytes.size()) {
    return fail("corrupted bundle: bad section table");
  }

  std::string_view manifest_bytes, ir_bytes, native_bytes;
  for (uint32_t i = 0; i < sections; ++i) {
    size_t at = bundle::kHeaderSize + i * bundle::kSectionEntrySize;
    uint32_t kind = ReadU32(bytes, at);
    uint64_t offset = ReadU64(bytes, at + 8), size = ReadU64(bytes, at + 16);
    if (offset > bytes.size() || size > bytes.size() - offset) {
      return fail("corrupted bundle: section " + std::to_string(i) + " out of bounds");
    }
    std::string_view payload = std::string_view(bytes).substr(offset, size);
    switch (static_cast<bundle::SectionKind>(kind)) {
      case bundle::SectionKind::kManifest: manifest_bytes = payload; break;
      case bundle::SectionKind::kIr: ir_bytes = payload; break;
      case bundle::SectionKind::kNative: native_bytes = payload; break;
      default: break;  // unknown sections from newer writers are ignored
    }
  }
  if (manifest_bytes.empty()) return fail("corrupted bundle: no manifest section");

  Value manifest;
  JsonError json_error;
  if (!ParseJson(manifest_bytes, &manifest, &json_error) || !manifest.IsObject()) {
    return fail("corrupted bundle: manifest is not valid JSON: " + json_error.message);
  }
  compiler_version_ = StringField(manifest, "compiler");
  target_ = StringField(manifest, "target");
  const Value* resolvers = manifest.Find("resolvers");
  const Value* definitions = manifest.Find("definitions");
  if (!resolvers || !resolvers->IsArray() || !definitions || !definitions->IsArray()) {
    return fail("corrupted bundle: manifest lacks resolvers or definitions");
  }

  // The IR of every resolver, in order, each prefixed by its length.
  size_t cursor = 0;
  for (const Value& entry : resolvers->AsArray()) {
    if (!entry.IsObject()) return fail("corrupted bundle: bad resolver entry");
    if (ir_bytes.size() - cursor < 4) return fail("corrupted bundle: IR section too short");
    uint32_t length = ReadU32(std::string(ir_bytes.substr(cursor, 4)), 0);
    cursor += 4;
    if (length > ir_bytes.size() - cursor) return fail("corrupted bundle: IR entry out of bounds");
    auto program = std::make_shared<ir::Program>();
    std::string ir_error;
    if (!ir::DeserializeProgram(ir_bytes.substr(cursor, length), program.get(), &ir_error)) {
      return fail("corrupted bundle: resolver " + std::to_string(infos_.size()) + ": " + ir_error);
    }
    cursor += length;
    programs_.push_back(std::move(program));
    infos_.push_back({StringField(entry, "definition"), StringField(entry, "component"),
                      StringField(entry, "role"), StringField(entry, "source"),
                      StringField(entry, "native")});
  }

  for (const Value& d : definitions->AsArray()) {
    catalog::Definition definition;
    std::string def_error;
    if (!catalog::FromJson(d, programs_.size(), &definition, &def_error)) {
      return fail("corrupted bundle: " + def_error);
    }
    definitions_.push_back(std::move(definition));
  }

  // Native code: only for this machine's target, and only when asked for.
  if (native_bytes.empty()) {
    native_status_ = "no native code in bundle";
  } else if (!options.use_native) {
    native_status_ = "native code disabled";
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
      if (!filter) return fail("corrupted bundle: native code lacks " + infos_[i].native_symbol);
      ++native_count_;
    } else {
      filter = MakeInterpreter(programs_[i]);
    }
    filters_.push_back(std::move(filter));
  }
  return true;
}

const catalog::Definition* Bundle::FindDefinition(std::string_view api_version,
                                                  std::string_view kind) const {
  return catalog::FindByKind(definitions_, api_version, kind);
}

}  // namespace wm
