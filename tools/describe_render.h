// Rendering of `wmc describe`'s view (runtime/workload/describe.h): the text layout of upstream's
// `kli describe` (header, component tree with pod rows and truncation notes, Phase, Resources
// table) and a Graphviz digraph of the tree for `-o dot` / `-o svg`.
//
//   std::fputs(RenderDescribeText(view, {pod_limit, component_limit, now}).c_str(), stdout);
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "runtime/workload/describe.h"

namespace wm::tools {

struct DescribeTextOptions {
  int pod_limit = 0;        // pod rows per component; 0 = all. Unhealthy pods are kept first.
  int component_limit = 0;  // components under each parent; 0 = all. Unhealthy, then missing-pod first.
  int64_t now = 0;          // seconds since the epoch the header's age is measured against
};

// kli's table output: `Kind/name   namespace: ns   definition: d (origin)   age: 2h` (file mode:
// no age, then `(file mode: no live status)`), the tree (`|-- `, `` `-- ``; component rows
// `name  ready/desired ready|replicas: N  gpu: N  nodes`, pod rows `name  Phase (Reason)  gpu: N
// node|<none>`), `Phase: A,B` (not in file mode) and `Resources:` with a TOTAL row.
std::string RenderDescribeText(const workload::DescribeView& view, const DescribeTextOptions& options);

// A Graphviz digraph of the tree: the workload node, then one node per component or instance in
// tree order (ids n0, n1, ... so the text is stable), labelled with the name, ready/desired (or
// replicas in file mode) and GPUs.
std::string RenderDescribeDot(const workload::DescribeView& view);

// Pipes `dot_text` through `dot -Tsvg` (found on PATH; spawned without a shell) onto stdout.
// Returns 0, or prints `error: ...` and returns 2 when dot is not on PATH, 1 when it fails.
int RenderSvgWithDot(const std::string& dot_text);

}  // namespace wm::tools
