// libFuzzer target for the bundle loader (runtime/bundle). Mutated bytes would almost always
// fail the CRC-32C checks, so the target repairs what a careful attacker would: it takes the
// manifest and IR sections out of the input (a bundle file, sections found leniently), records
// the IR's SHA-256 in the manifest when the manifest is a JSON object, and reassembles the bundle
// with valid checksums. The loader must then refuse it with a message or load it; a loaded
// bundle must resolve an object of each definition's kind within small limits. Native code is
// never mapped (a fuzzed shared object would be arbitrary code). Built by tests/fuzz/build.sh.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "base/sha256.h"
#include "runtime/bundle/bundle.h"
#include "runtime/bundle/sections.h"
#include "runtime/value/json.h"
#include "runtime/workload/view.h"
#include "runtime/workload/workload.h"

namespace {

uint64_t ReadLe(std::string_view b, size_t at, int bytes) {
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(b[at + i]);
  return v;
}

// The section payloads of a bundle-like input, offsets and sizes clamped to the input.
void ExtractSections(std::string_view in, std::string_view* manifest, std::string_view* ir) {
  if (in.size() < wm::bundle::kHeaderSize) return;
  uint64_t count = std::min<uint64_t>(ReadLe(in, 12, 4), wm::bundle::kMaxSections);
  for (uint64_t i = 0; i < count; ++i) {
    size_t at = wm::bundle::kHeaderSize + i * wm::bundle::kSectionEntrySize;
    if (at + wm::bundle::kSectionEntrySize > in.size()) break;
    uint64_t offset = std::min<uint64_t>(ReadLe(in, at + 8, 8), in.size());
    uint64_t size = std::min<uint64_t>(ReadLe(in, at + 16, 8), in.size() - offset);
    std::string_view payload = in.substr(offset, size);
    switch (ReadLe(in, at, 4)) {
      case 1: *manifest = payload; break;
      case 2: *ir = payload; break;
      default: break;
    }
  }
}

void Exercise(const wm::Bundle& bundle) {
  wm::workload::ResolveOptions options;
  options.run.limits.fuel = 100000;
  options.run.limits.max_outputs = 32;
  options.run.limits.max_memory_bytes = 16u << 20;
  options.run.limits.timeout_ms = 1000;
  for (const auto& d : bundle.definitions()) {
    const auto& kind = d.root().kind;
    wm::Value object;
    wm::JsonError json_error;
    std::string text = "{\"apiVersion\":" + wm::ToJson(wm::Value::String(kind.ApiVersion())) +
                       ",\"kind\":" + wm::ToJson(wm::Value::String(kind.kind)) +
                       ",\"metadata\":{\"name\":\"w\",\"namespace\":\"n\"},\"spec\":{\"replicas\":2}}";
    if (!wm::ParseJson(text, &object, &json_error)) continue;
    wm::workload::ResolvedWorkload resolved;
    std::string error;
    if (wm::workload::Resolve(bundle, object, &resolved, &error, options)) {
      (void)wm::ToJson(wm::workload::WorkloadJson(resolved));
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  std::string_view manifest_in, ir;
  ExtractSections(in, &manifest_in, &ir);
  std::string manifest(manifest_in);
  wm::Value json;
  wm::JsonError json_error;
  if (wm::ParseJson(manifest, &json, &json_error) && json.IsObject()) {
    json.Set("digests", wm::Value::MakeObject({{wm::Value::String("ir"),
                                                wm::Value::String(wm::base::Sha256Hex(ir))}}));
    manifest = wm::ToJson(json);
  }
  std::string bytes = wm::bundle::AssembleBundle(
      {{wm::bundle::SectionKind::kManifest, manifest}, {wm::bundle::SectionKind::kIr, ir}});
  wm::BundleLoadOptions options;
  options.use_native = false;
  // Both decoding paths: every resolver's IR at open, or each on first use by Exercise.
  options.verify_all = size % 2 == 0;
  std::string error;
  auto bundle = wm::Bundle::FromBytes(std::move(bytes), "fuzz.wmb", &error, options);
  if (!bundle) {
    if (error.empty()) std::abort();  // a refusal must say why
    return 0;
  }
  Exercise(*bundle);
  return 0;
}
