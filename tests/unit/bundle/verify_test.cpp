// The loader refuses bundles whose checksums are valid but whose content breaks what the compiler
// guarantees (runtime/bundle/verify.h, the section digests, the counts the sections bound), and a
// pinned SHA-256 refuses any other file before it is parsed. Each bundle here is a compiled one,
// mutated and reassembled with its checksums recomputed, as an attacker or a buggy tool would.
#include <gtest/gtest.h>

#include <functional>

#include "base/sha256.h"
#include "runtime/bundle/bundle.h"
#include "runtime/bundle/sections.h"
#include "runtime/value/json.h"
#include "tests/unit/repository_bundle_util.h"

namespace wm {
namespace {

// The jobset catalog entry compiled for the interpreter (root jobset, child replicatedjob; a gang
// group).
const std::string& CompiledBundle() {
  static const std::string bytes = testing::CompileRepositoryBundle("catalog/jobset-x-k8s-io-jobset-v1alpha2.yaml");
  return bytes;
}

// `bytes` with the manifest edited by `edit` and, when `ir` is given, the IR section replaced;
// header and payload CRCs are valid again (the manifest's digests are not touched).
std::string Rewrite(const std::string& bytes, const std::function<void(Value*)>& edit,
                    const std::string* ir = nullptr) {
  bundle::SplitResult split = bundle::SplitBundle(bytes);
  EXPECT_TRUE(split.ok()) << split.error;
  std::string manifest_text, ir_text;
  std::vector<bundle::Section> sections;
  for (const bundle::Section& s : split.sections) {
    if (s.kind == bundle::SectionKind::kManifest) {
      Value manifest;
      JsonError error;
      EXPECT_TRUE(ParseJson(s.payload, &manifest, &error));
      edit(&manifest);
      manifest_text = ToJson(manifest);
      sections.push_back({s.kind, manifest_text});
    } else if (s.kind == bundle::SectionKind::kIr && ir != nullptr) {
      sections.push_back({s.kind, *ir});
    } else {
      sections.push_back(s);
    }
  }
  return bundle::AssembleBundle(sections);
}

std::string LoadError(const std::string& bytes, const BundleLoadOptions& options = {}) {
  std::string error;
  auto bundle = Bundle::FromBytes(bytes, "t.wmb", &error, options);
  return bundle ? "loaded" : error;
}

// Sets manifest.definitions[0].components[i].<key> = value.
void SetComponentField(Value* manifest, size_t i, std::string_view key, Value value) {
  Value definitions = *manifest->Find("definitions");
  Array& defs = definitions.MutableArray();
  Value components = *defs[0].Find("components");
  Array& list = components.MutableArray();
  list.at(i).Set(key, std::move(value));
  defs[0].Set("components", components);
  manifest->Set("definitions", definitions);
}

// Appends a copy of manifest.definitions[0].components[1] named `name`, owned by `owner`.
void AddChild(Value* manifest, std::string_view name, std::string_view owner) {
  Value definitions = *manifest->Find("definitions");
  Array& defs = definitions.MutableArray();
  Value components = *defs[0].Find("components");
  Value child = components.AsArray().at(1);
  child.Set("name", Value::String(name));
  child.Set("owner", Value::String(owner));
  components.MutableArray().push_back(child);
  defs[0].Set("components", components);
  manifest->Set("definitions", definitions);
}

TEST(BundleVerify, CompiledBundleLoads) {
  ASSERT_FALSE(CompiledBundle().empty());
  EXPECT_EQ(LoadError(CompiledBundle()), "loaded");
  EXPECT_EQ(LoadError(Rewrite(CompiledBundle(), [](Value*) {})), "loaded");
}

// Issue 18's reproducer: two children with one name, each the other's owner. Before the loader
// verified ownership, the tree renderer expanded them exponentially (1.6 GB in 4 s).
TEST(BundleVerify, RefusesDuplicateComponentNamesOwningEachOther) {
  std::string bytes = Rewrite(CompiledBundle(), [](Value* m) {
    SetComponentField(m, 1, "name", Value::String("twin"));
    SetComponentField(m, 1, "owner", Value::String("twin"));
    AddChild(m, "twin", "twin");
  });
  EXPECT_EQ(LoadError(bytes),
            "t.wmb: corrupted bundle: definition 'jobset-x-k8s-io-jobset-v1alpha2': two components "
            "are named 'twin'");
}

TEST(BundleVerify, RefusesOwnershipCycle) {
  std::string bytes = Rewrite(CompiledBundle(), [](Value* m) {
    // jobset <- replicatedjob <- worker, then replicatedjob owned by worker instead.
    AddChild(m, "worker", "replicatedjob");
    SetComponentField(m, 1, "owner", Value::String("worker"));
  });
  EXPECT_NE(LoadError(bytes).find("through a cycle of ownership"), std::string::npos) << LoadError(bytes);
}

TEST(BundleVerify, RefusesMissingOwnerAndOwnedRoot) {
  std::string missing = Rewrite(CompiledBundle(), [](Value* m) {
    SetComponentField(m, 1, "owner", Value::String("nobody"));
  });
  EXPECT_NE(LoadError(missing).find("names owner 'nobody', which does not exist"), std::string::npos)
      << LoadError(missing);
  std::string owned_root = Rewrite(CompiledBundle(), [](Value* m) {
    SetComponentField(m, 0, "owner", Value::String("replicatedjob"));
  });
  EXPECT_NE(LoadError(owned_root).find("the root component 'jobset' has an owner"), std::string::npos)
      << LoadError(owned_root);
}

TEST(BundleVerify, RefusesDuplicateDefinitions) {
  std::string bytes = Rewrite(CompiledBundle(), [](Value* m) {
    Value definitions = *m->Find("definitions");
    definitions.MutableArray().push_back(definitions.AsArray()[0]);
    m->Set("definitions", definitions);
  });
  EXPECT_EQ(LoadError(bytes), "t.wmb: corrupted bundle: two definitions are named "
                              "'jobset-x-k8s-io-jobset-v1alpha2'");
}

TEST(BundleVerify, RefusesGangMemberOfNoComponent) {
  std::string bytes = Rewrite(CompiledBundle(), [](Value* m) {
    Value definitions = *m->Find("definitions");
    Value gangs = *definitions.AsArray()[0].Find("gangGroups");
    ASSERT_FALSE(gangs.AsArray().empty());
    Value members = *gangs.AsArray()[0].Find("members");
    members.MutableArray()[0].Set("component", Value::String("ghost"));
    gangs.MutableArray()[0].Set("members", members);
    definitions.MutableArray()[0].Set("gangGroups", gangs);
    m->Set("definitions", definitions);
  });
  EXPECT_NE(LoadError(bytes).find("names component 'ghost', which does not exist"), std::string::npos)
      << LoadError(bytes);
}

TEST(BundleVerify, RefusesResolverCountTheIrSectionCannotHold) {
  std::string bytes = Rewrite(CompiledBundle(), [](Value* m) {
    Value resolvers = *m->Find("resolvers");
    Value first = resolvers.AsArray()[0];
    for (int i = 0; i < 100000; ++i) resolvers.MutableArray().push_back(first);
    m->Set("resolvers", resolvers);
  });
  EXPECT_NE(LoadError(bytes).find("more than the IR section of"), std::string::npos) << LoadError(bytes);
}

TEST(BundleVerify, RefusesIrThatIsNotWhatTheManifestRecords) {
  bundle::SplitResult split = bundle::SplitBundle(CompiledBundle());
  std::string ir(bundle::FindSection(split.sections, bundle::SectionKind::kIr));
  // Trailing bytes with the digest recomputed: refused for the bytes after the last resolver.
  std::string longer = ir + "xx";
  std::string with_digest = Rewrite(CompiledBundle(), [&](Value* m) {
    Value digests = *m->Find("digests");
    digests.Set("ir", Value::String(base::Sha256Hex(longer)));
    m->Set("digests", digests);
  }, &longer);
  EXPECT_NE(LoadError(with_digest).find("2 bytes after the last resolver"), std::string::npos)
      << LoadError(with_digest);
  // Any change without the digest: refused by the digest.
  std::string changed = ir;
  changed[changed.size() / 2] ^= 1;
  EXPECT_EQ(LoadError(Rewrite(CompiledBundle(), [](Value*) {}, &changed)),
            "t.wmb: corrupted bundle: the ir section does not match the SHA-256 the manifest records");
  std::string no_digest = Rewrite(CompiledBundle(), [](Value* m) { m->Erase("digests"); });
  EXPECT_EQ(LoadError(no_digest), "t.wmb: corrupted bundle: manifest lacks the section digests");
}

// A native section added with recomputed CRCs but no digest, or a digest of other bytes, is
// refused before anything could map it: a missing digest always, other bytes before mapping and
// with verify_all (this bundle records no target, so it is never mapped).
TEST(BundleVerify, RefusesSwappedNativeSection) {
  bundle::SplitResult split = bundle::SplitBundle(CompiledBundle());
  std::vector<bundle::Section> sections = split.sections;
  std::string native = "\x7f" "ELF not really";
  sections.push_back({bundle::SectionKind::kNative, native});
  std::string added = bundle::AssembleBundle(sections);
  EXPECT_EQ(LoadError(added), "t.wmb: corrupted bundle: manifest lacks the SHA-256 of the native section");
  std::string recorded = Rewrite(added, [](Value* m) {
    Value digests = *m->Find("digests");
    digests.Set("native", Value::String(base::Sha256Hex("the compiler's shared object")));
    m->Set("digests", digests);
  });
  BundleLoadOptions verify_all;
  verify_all.verify_all = true;
  EXPECT_EQ(LoadError(recorded, verify_all),
            "t.wmb: corrupted bundle: the native section does not match the SHA-256 the manifest records");
  EXPECT_EQ(LoadError(recorded), "loaded");  // unmapped, its bytes are never trusted
}

TEST(BundleVerify, RefusesRepeatedSectionKinds) {
  bundle::SplitResult split = bundle::SplitBundle(CompiledBundle());
  std::vector<bundle::Section> sections = split.sections;
  sections.push_back(sections[0]);
  EXPECT_EQ(LoadError(bundle::AssembleBundle(sections)),
            "t.wmb: corrupted bundle: section 2 repeats the kind of section 0");
}

TEST(BundleVerify, PinnedDigestIsCheckedBeforeParsing) {
  const std::string& bytes = CompiledBundle();
  BundleLoadOptions pinned;
  pinned.expect_sha256 = base::Sha256Hex(bytes);
  EXPECT_EQ(LoadError(bytes, pinned), "loaded");
  for (char& c : pinned.expect_sha256) c = static_cast<char>(std::toupper(c));
  EXPECT_EQ(LoadError(bytes, pinned), "loaded");
  // Not even a bundle: the digest is what refuses it, not the magic.
  EXPECT_EQ(LoadError("garbage", pinned).find("t.wmb: SHA-256 mismatch: expected "), 0u)
      << LoadError("garbage", pinned);
  std::string other = Rewrite(bytes, [](Value* m) { m->Set("compiler", Value::String("other")); });
  EXPECT_NE(LoadError(other, pinned).find("SHA-256 mismatch"), std::string::npos);
  std::string error;
  auto bundle = Bundle::FromBytes(bytes, "t.wmb", &error);
  ASSERT_TRUE(bundle);
  EXPECT_EQ(bundle->sha256(), base::Sha256Hex(bytes));
  EXPECT_EQ(bundle->ir_sha256(),
            base::Sha256Hex(bundle::FindSection(bundle::SplitBundle(bytes).sections, bundle::SectionKind::kIr)));
}

// The ownership check is linear: a chain of 20,000 components verifies at once.
TEST(BundleVerify, LongOwnershipChainIsLinear) {
  std::string bytes = Rewrite(CompiledBundle(), [](Value* m) {
    Value definitions = *m->Find("definitions");
    Value components = *definitions.AsArray()[0].Find("components");
    Array& list = components.MutableArray();
    Value child = list[1];
    list.resize(2);
    for (int i = 0; i < 20000; ++i) {
      child.Set("name", Value::String("c" + std::to_string(i)));
      child.Set("owner", Value::String(i == 0 ? "replicatedjob" : "c" + std::to_string(i - 1)));
      list.push_back(child);
    }
    definitions.MutableArray()[0].Set("components", components);
    definitions.MutableArray()[0].Set("gangGroups", Value::EmptyArray());
    definitions.MutableArray()[0].Erase("podGroup");
    m->Set("definitions", definitions);
  });
  EXPECT_EQ(LoadError(bytes), "loaded");
}

}  // namespace
}  // namespace wm
