// Lazy loading (runtime/bundle/bundle.h): a resolver's IR is decoded on first use, so an invalid
// one fails that resolver with a clear error (or the whole bundle at open with verify_all);
// first uses from many threads decode once; a NativeCompiler hook compiles each kind once, however
// many threads use it first, and its filters replace the interpreter's.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <thread>

#include "base/sha256.h"
#include "runtime/bundle/bundle.h"
#include "runtime/bundle/sections.h"
#include "runtime/value/json.h"
#include "tests/unit/repository_bundle_util.h"

namespace wm {
namespace {

// The jobset catalog entry compiled for the interpreter.
const std::string& JobSetBundle() {
  static const std::string bytes = testing::CompileRepositoryBundle("catalog/jobset-x-k8s-io-jobset-v1alpha2.yaml");
  return bytes;
}

// The bundle with resolver `id`'s IR magic overwritten, its IR digest and checksums recomputed
// (what a buggy writer would produce: every container check passes).
std::string WithInvalidIr(int32_t id) {
  bundle::SplitResult split = bundle::SplitBundle(JobSetBundle());
  EXPECT_TRUE(split.ok()) << split.error;
  std::string ir(bundle::FindSection(split.sections, bundle::SectionKind::kIr));
  size_t at = 0;
  for (int32_t i = 0; i < id; ++i) {
    uint32_t length;
    std::memcpy(&length, ir.data() + at, 4);  // little-endian on the machines tests run on
    at += 4 + length;
  }
  ir.replace(at + 4, 4, "XXXX");
  Value manifest;
  JsonError json_error;
  EXPECT_TRUE(ParseJson(bundle::FindSection(split.sections, bundle::SectionKind::kManifest), &manifest, &json_error));
  manifest.Set("digests", Value::MakeObject({{Value::String("ir"), Value::String(base::Sha256Hex(ir))}}));
  std::string manifest_text = ToJson(manifest);
  return bundle::AssembleBundle({{bundle::SectionKind::kManifest, manifest_text}, {bundle::SectionKind::kIr, ir}});
}

std::shared_ptr<Bundle> Load(const std::string& bytes, const BundleLoadOptions& options = {}) {
  std::string error;
  std::shared_ptr<Bundle> bundle = Bundle::FromBytes(bytes, "t.wmb", &error, options);
  EXPECT_TRUE(bundle) << error;
  return bundle;
}

const Value& JobSet() {
  static const Value object = [] {
    Value v;
    JsonError error;
    EXPECT_TRUE(ParseJson(R"({"apiVersion":"jobset.x-k8s.io/v1alpha2","kind":"JobSet",
        "metadata":{"name":"js","namespace":"ns"},
        "spec":{"replicatedJobs":[{"name":"workers","replicas":2,"template":{"spec":{"parallelism":3,
          "template":{"spec":{"containers":[{"name":"c","image":"i"}]}}}}}]},
        "status":{"conditions":[{"type":"Completed","status":"True"}]}})", &v, &error));
    return v;
  }();
  return object;
}

// The outputs of one run as compact JSON lines, or "error: <message>".
std::string RunText(const Filter& filter, const Value& input) {
  std::string out;
  EvalError error;
  EvalStatus status = filter.Run(input, [&](const Value& v) {
    out += ToJson(v) + "\n";
    return true;
  }, &error);
  return status == EvalStatus::kError ? "error: " + error.Message() : out;
}

TEST(BundleLazyLoad, InvalidIrFailsOnFirstUseOfThatResolverOnly) {
  std::string bytes = WithInvalidIr(1);
  std::shared_ptr<Bundle> bundle = Load(bytes);
  ASSERT_TRUE(bundle);
  ASSERT_GT(bundle->resolver_count(), 2u);
  EXPECT_EQ(bundle->resolver_program(1), nullptr);
  EXPECT_EQ(RunText(bundle->resolver(1), JobSet()),
            "error: corrupted bundle: resolver 1: not an IR blob (bad magic) (at byte 4)");
  EXPECT_NE(bundle->resolver_program(0), nullptr);
  EXPECT_EQ(RunText(bundle->resolver(0), JobSet()).rfind("error: ", 0), std::string::npos);
}

TEST(BundleLazyLoad, DecodeAllIrRefusesInvalidIrAtOpen) {
  BundleLoadOptions options;
  options.verify_all = true;
  std::string error;
  EXPECT_FALSE(Bundle::FromBytes(WithInvalidIr(1), "t.wmb", &error, options));
  EXPECT_EQ(error, "t.wmb: corrupted bundle: resolver 1: not an IR blob (bad magic) (at byte 4)");
  EXPECT_TRUE(Load(JobSetBundle(), options));
}

TEST(BundleLazyLoad, ResolversAreOutOfRangeChecked) {
  std::shared_ptr<Bundle> bundle = Load(JobSetBundle());
  ASSERT_TRUE(bundle);
  EXPECT_THROW(bundle->resolver(static_cast<int32_t>(bundle->resolver_count())), std::out_of_range);
  EXPECT_THROW(bundle->resolver_program(-1), std::out_of_range);
}

// Every thread first-uses every resolver at once: one decoded program each, the same answers.
TEST(BundleLazyLoad, ConcurrentFirstUsesDecodeOnce) {
  std::shared_ptr<Bundle> reference = Load(JobSetBundle());
  std::shared_ptr<Bundle> bundle = Load(JobSetBundle());
  ASSERT_TRUE(reference && bundle);
  size_t n = bundle->resolver_count();
  std::vector<std::string> expected(n);
  for (size_t id = 0; id < n; ++id) expected[id] = RunText(reference->resolver(static_cast<int32_t>(id)), JobSet());
  constexpr int kThreads = 8;
  std::vector<std::vector<const ir::Program*>> seen(kThreads, std::vector<const ir::Program*>(n));
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (size_t k = 0; k < n; ++k) {
        int32_t id = static_cast<int32_t>((k + t * 7) % n);  // different first resolvers per thread
        if (RunText(bundle->resolver(id), JobSet()) != expected[id]) ++mismatches;
        seen[t][id] = bundle->resolver_program(id).get();
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(mismatches.load(), 0);
  for (int t = 1; t < kThreads; ++t) EXPECT_EQ(seen[t], seen[0]);
}

// A hook whose "native" filters are the interpreter under another engine name, counting batches.
class CountingCompiler : public NativeCompiler {
 public:
  class Wrapped : public Filter {
   public:
    explicit Wrapped(std::shared_ptr<const ir::Program> p) : Filter("counted"), inner_(MakeInterpreter(std::move(p))) {}
    EvalStatus Run(const Value& input, const OutputFn& emit, EvalError* error,
                   const RunOptions& options) const override {
      return inner_->Run(input, emit, error, options);
    }

   private:
    std::unique_ptr<Filter> inner_;
  };
  NativeBatch Compile(const std::vector<std::shared_ptr<const ir::Program>>& programs) const override {
    ++batches;
    compiled += programs.size();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // let the other threads pile up
    NativeBatch batch;
    if (fail) {
      batch.error = "no compiler today";
      batch.filters.resize(programs.size());
      return batch;
    }
    for (const auto& p : programs) batch.filters.push_back(std::make_unique<Wrapped>(p));
    return batch;
  }
  mutable std::atomic<int> batches{0};
  mutable std::atomic<size_t> compiled{0};
  bool fail = false;
};

TEST(BundleLazyLoad, HookCompilesAKindOnceOnItsFirstUseFromManyThreads) {
  auto hook = std::make_shared<CountingCompiler>();
  BundleLoadOptions options;
  options.compiler = hook;
  std::shared_ptr<Bundle> reference = Load(JobSetBundle());
  std::shared_ptr<Bundle> bundle = Load(JobSetBundle(), options);
  ASSERT_TRUE(reference && bundle);
  EXPECT_EQ(hook->batches.load(), 0) << "opening compiles nothing";
  EXPECT_EQ(bundle->compiled_resolver_count(), 0u);
  const catalog::Definition& jobset = bundle->definitions().at(0);
  int32_t first = jobset.components.at(1).instance_id;  // the replicated jobs' names
  ASSERT_GE(first, 0);
  std::vector<std::thread> threads;
  std::atomic<int> mismatches{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      const Filter& filter = bundle->resolver(first);
      if (std::string_view(filter.engine_name()) != "counted") ++mismatches;
      if (RunText(filter, JobSet()) != RunText(reference->resolver(first), JobSet())) ++mismatches;
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(mismatches.load(), 0);
  EXPECT_EQ(hook->batches.load(), 1);
  EXPECT_GT(hook->compiled.load(), 1u) << "the whole kind, not one resolver";
  EXPECT_EQ(bundle->compiled_resolver_count(), hook->compiled.load());
  bundle->PrepareDefinition(jobset);
  EXPECT_EQ(hook->batches.load(), 1);
  for (size_t id = 0; id < bundle->resolver_count(); ++id) {
    EXPECT_EQ(RunText(bundle->resolver(static_cast<int32_t>(id)), JobSet()),
              RunText(reference->resolver(static_cast<int32_t>(id)), JobSet()));
  }
}

TEST(BundleLazyLoad, AFailedBatchLeavesTheKindOnTheInterpreter) {
  auto hook = std::make_shared<CountingCompiler>();
  hook->fail = true;
  BundleLoadOptions options;
  options.compiler = hook;
  std::shared_ptr<Bundle> bundle = Load(JobSetBundle(), options);
  ASSERT_TRUE(bundle);
  bundle->PrepareDefinition(bundle->definitions().at(0));
  EXPECT_EQ(hook->batches.load(), 1);
  EXPECT_EQ(bundle->compiled_resolver_count(), 0u);
  EXPECT_STREQ(bundle->resolver(bundle->definitions()[0].components.at(1).instance_id).engine_name(), "interp");
}

}  // namespace
}  // namespace wm
