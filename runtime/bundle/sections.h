// The container layer of a bundle (format.h): header, CRC-32C checksums and section table, without
// looking inside the sections. SplitBundle is the loader's first step (every container check in
// one place); AssembleBundle is the writer's last (compiler/bundle) and lets tests and the bundle
// fuzzer rebuild a mutated bundle whose checksums are valid again.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "runtime/bundle/format.h"

namespace wm::bundle {

struct Section {
  SectionKind kind;
  std::string_view payload;  // into the bytes given to SplitBundle / copied by AssembleBundle
};

// The bundle file with these sections in this order, header and checksums filled in.
std::string AssembleBundle(const std::vector<Section>& sections);

struct SplitResult {
  uint32_t format_version = 0;
  std::vector<Section> sections;  // in table order, unknown kinds included
  std::string error;              // "" on success: "truncated bundle: ...", "corrupted bundle: ..."
  bool ok() const { return error.empty(); }
};

// Checks magic, header checksum, format version, declared size, payload checksum and the section
// table of `bytes`; the sections point into `bytes`, which must outlive the result.
SplitResult SplitBundle(std::string_view bytes);

// The payload of the first section of `kind` ("" when there is none).
std::string_view FindSection(const std::vector<Section>& sections, SectionKind kind);

}  // namespace wm::bundle
