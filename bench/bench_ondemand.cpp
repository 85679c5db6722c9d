// bench_ondemand: what simdjson's On-Demand API would cost for the smallest catalog kinds, the ones
// furthest from issue 17 item 1 (core Pods, Deployments, Knative Services), against the DOM parse
// the view engine starts from. On-Demand builds no tape: it indexes the text (stage 1) and then
// reads only what is asked for, skipping the rest. The question is whether an engine on it could
// answer these kinds' resolvers in less time than the DOM parse plus the view engine's evaluation
// (RESULTS 0p). Each kind's walk reads what its resolvers output, as an On-Demand engine would
// have to: a sub-document output (`.spec.template`) as the span of its text, found by skipping to
// its end; a scalar by its token.
//   bench_ondemand [--corpus DIR] [--repeat N]     (DIR: the build's bench-corpus)
// Prints per kind, as medians over the rounds of per-round ratios (each round times the three
// passes one after the other, on the same padded texts, with the thread's CPU clock):
//   kind=K objects=N dom_parse_ns=D stage1_ns=S walk_ns=W ondemand_ns=O stage1_over_dom=S/D
//   walk_over_dom=W/D ondemand_over_dom=O/D
// where O is stage 1 plus the walk (one pass), W = O - S. Compiled for this machine
// (-march=native): On-Demand is header code that picks its kernel at compile time.
// Exit 0 ok, 1 the walk and the DOM disagree on which outputs an object has, 2 usage / input.
#include <benchmark/benchmark.h>
#include <simdjson.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "bench_timing.h"

namespace {

using simdjson::SUCCESS;
namespace od = simdjson::ondemand;

using wm::bench::Median;
using wm::bench::ThreadCpuNs;
// The text of value `v` as an output would return it: an object's or array's whole span (On-Demand
// walks to its end), a scalar's token. Adds its size to *bytes; false when absent or invalid.
bool ReadOutput(simdjson::simdjson_result<od::value> result, size_t* bytes) {
  od::value v;
  if (result.get(v) != SUCCESS) return false;
  od::json_type type;
  if (v.type().get(type) != SUCCESS) return false;
  std::string_view text;
  if (type == od::json_type::object) {
    od::object o;
    if (v.get_object().get(o) != SUCCESS || o.raw_json().get(text) != SUCCESS) return false;
  } else if (type == od::json_type::array) {
    od::array a;
    if (v.get_array().get(a) != SUCCESS || a.raw_json().get(text) != SUCCESS) return false;
  } else {
    text = v.raw_json_token();
  }
  *bytes += text.size();
  return true;
}

// The members of `object`, read in document order (On-Demand reads forward only): calls
// `read(key, value)` for each; false on invalid text or when `read` says so.
template <class Read>
bool ForEachField(od::object object, Read read) {
  for (auto field : object) {
    std::string_view key;
    if (field.unescaped_key().get(key) != SUCCESS) return false;
    if (!read(key, field.value())) return false;
  }
  return true;
}

// ForEachField on a value that should be an object, and on the document's root object.
template <class Read>
bool ForEachMember(simdjson::simdjson_result<od::value> result, Read read) {
  od::object object;
  return result.get_object().get(object) == SUCCESS && ForEachField(object, read);
}
template <class Read>
bool ForEachRootMember(od::document& doc, Read read) {
  od::object object;
  return doc.get_object().get(object) == SUCCESS && ForEachField(object, read);
}

// Reads member `wanted` of the object `result` as an output (*found counts it when present).
bool ReadMember(simdjson::simdjson_result<od::value> result, std::string_view wanted, size_t* bytes, size_t* found) {
  return ForEachMember(result, [&](std::string_view key, auto value) {
    if (key == wanted) *found += ReadOutput(value, bytes);
    return true;
  });
}

// The walks: what each kind's resolvers output (bench-corpus/KIND.exprs), read from one document.
// *found counts the outputs present.
using Walk = bool (*)(od::document& doc, size_t* bytes, size_t* found);

// core-pod-v1: {metadata: .metadata, spec: .spec}, 1, .status.phase
bool WalkPod(od::document& doc, size_t* bytes, size_t* found) {
  return ForEachRootMember(doc, [&](std::string_view key, auto value) {
    if (key == "metadata" || key == "spec") *found += ReadOutput(value, bytes);
    return key != "status" || ReadMember(value, "phase", bytes, found);
  });
}

// apps-deployment-v1: .spec.template, .spec.replicas // 1, .status.conditions
bool WalkDeployment(od::document& doc, size_t* bytes, size_t* found) {
  return ForEachRootMember(doc, [&](std::string_view key, auto value) {
    if (key == "spec") {
      return ForEachMember(value, [&](std::string_view k, auto v) {
        if (k == "template" || k == "replicas") *found += ReadOutput(v, bytes);
        return true;
      });
    }
    return key != "status" || ReadMember(value, "conditions", bytes, found);
  });
}

// serving-knative-dev-service-v1: .status.conditions, .spec.template, and two annotations below
// .spec.template (`... ["autoscaling.knative.dev/min-scale"] // 1 | tonumber`, max-scale): the
// template is an output and is also read into, which a forward-only reader does in a second
// look (at_pointer rewinds the document).
bool WalkKnative(od::document& doc, size_t* bytes, size_t* found) {
  const bool read = ForEachRootMember(doc, [&](std::string_view key, auto value) {
    if (key == "spec") return ReadMember(value, "template", bytes, found);
    return key != "status" || ReadMember(value, "conditions", bytes, found);
  });
  if (!read) return false;
  for (const char* pointer : {"/spec/template/metadata/annotations/autoscaling.knative.dev~1min-scale",
                              "/spec/template/metadata/annotations/autoscaling.knative.dev~1max-scale"}) {
    std::string_view text;
    if (doc.at_pointer(pointer).get_string().get(text) == SUCCESS) {
      *bytes += text.size();
      ++*found;
    }
  }
  return true;
}

// A kind: its corpus name, its walk, and the same outputs as JSON pointers, which the DOM
// answers to check the walk.
struct Kind {
  const char* name;
  Walk walk;
  std::vector<const char*> pointers;
};

// How many of the kind's outputs the DOM holds.
size_t DomFound(simdjson::dom::element root, const Kind& kind) {
  size_t found = 0;
  for (const char* pointer : kind.pointers) found += root.at_pointer(pointer).error() == SUCCESS;
  return found;
}

}  // namespace

int main(int argc, char** argv) {
  std::string corpus_dir = "build/bench-corpus";
  int repeat = 11;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--corpus") == 0 && i + 1 < argc) {
      corpus_dir = argv[++i];
    } else if (std::strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
      repeat = std::max(1, std::atoi(argv[++i]));
    } else {
      std::fprintf(stderr, "usage: bench_ondemand [--corpus DIR] [--repeat N]\n");
      return 2;
    }
  }
  const Kind kinds[] = {
      {"core-pod-v1", WalkPod, {"/metadata", "/spec", "/status/phase"}},
      {"apps-deployment-v1", WalkDeployment, {"/spec/template", "/spec/replicas", "/status/conditions"}},
      {"serving-knative-dev-service-v1", WalkKnative,
       {"/spec/template", "/status/conditions",
        "/spec/template/metadata/annotations/autoscaling.knative.dev~1min-scale",
        "/spec/template/metadata/annotations/autoscaling.knative.dev~1max-scale"}}};
  for (const Kind& kind : kinds) {
    const std::string path = corpus_dir + "/" + kind.name + ".ndjson";
    std::ifstream in(path);
    if (!in) {
      std::fprintf(stderr, "bench_ondemand: cannot read %s (cmake --build BUILD --target bench-corpus)\n", path.c_str());
      return 2;
    }
    std::vector<simdjson::padded_string> texts;
    for (std::string line; std::getline(in, line);) {
      if (!line.empty()) texts.emplace_back(line);
    }
    simdjson::dom::parser dom_parser;
    od::parser od_parser;
    // Before timing: every object valid, and the walk finding the outputs the DOM has.
    for (size_t o = 0; o < texts.size(); ++o) {
      simdjson::dom::element root;
      od::document doc;
      size_t bytes = 0, found = 0;
      if (dom_parser.parse(texts[o]).get(root) != SUCCESS || od_parser.iterate(texts[o]).get(doc) != SUCCESS ||
          !kind.walk(doc, &bytes, &found)) {
        std::fprintf(stderr, "bench_ondemand: %s object %zu: invalid\n", kind.name, o);
        return 2;
      }
      const size_t dom_found = DomFound(root, kind);
      if (found != dom_found) {
        std::fprintf(stderr, "MISMATCH %s object %zu: the walk found %zu outputs, the DOM %zu\n", kind.name, o, found,
                     dom_found);
        return 1;
      }
    }
    std::vector<double> dom_ns, stage1_ns, ondemand_ns, stage1_ratio, walk_ratio, ondemand_ratio;
    size_t sink = 0;
    for (int round = 0; round < repeat; ++round) {
      double start = ThreadCpuNs();
      for (const auto& text : texts) {
        simdjson::dom::element root;
        sink += dom_parser.parse(text).get(root) == SUCCESS;
      }
      const double dom = ThreadCpuNs() - start;
      start = ThreadCpuNs();
      for (const auto& text : texts) {  // iterate() runs stage 1 over the whole text, then stops
        od::document doc;
        sink += od_parser.iterate(text).get(doc) == SUCCESS;
      }
      const double stage1 = ThreadCpuNs() - start;
      start = ThreadCpuNs();
      for (const auto& text : texts) {
        od::document doc;
        size_t bytes = 0, found = 0;
        if (od_parser.iterate(text).get(doc) == SUCCESS && kind.walk(doc, &bytes, &found)) sink += bytes + found;
      }
      const double ondemand = ThreadCpuNs() - start;
      const double n = static_cast<double>(texts.size());
      dom_ns.push_back(dom / n);
      stage1_ns.push_back(stage1 / n);
      ondemand_ns.push_back(ondemand / n);
      stage1_ratio.push_back(stage1 / dom);
      walk_ratio.push_back((ondemand - stage1) / dom);
      ondemand_ratio.push_back(ondemand / dom);
    }
    const double dom = Median(dom_ns), stage1 = Median(stage1_ns), ondemand = Median(ondemand_ns);
    std::printf("kind=%s objects=%zu dom_parse_ns=%.0f stage1_ns=%.0f walk_ns=%.0f ondemand_ns=%.0f "
                "stage1_over_dom=%.2f walk_over_dom=%.2f ondemand_over_dom=%.2f\n",
                kind.name, texts.size(), dom, stage1, ondemand - stage1, ondemand, Median(stage1_ratio),
                Median(walk_ratio), Median(ondemand_ratio));
    benchmark::DoNotOptimize(sink);  // the passes' work is observable
  }
  return 0;
}
