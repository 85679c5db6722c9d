// `wmc describe`: one workload in full, as `kli describe` shows it. The command is split so that
// any source of a workload and its pods can feed it: `-f FILE|-` (describe_cmd.cpp) builds a
// DescribeInput from files; a live source (kubectl) builds one from the cluster and calls the same
// RunDescribe.
//
//   DescribeInput input{workload, pods, /*from_file=*/true, "job.yaml"};
//   int exit_code = RunDescribe(input, options);
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "runtime/value/value.h"
#include "tools/bundle_source.h"

namespace wm::tools {

struct DescribeInput {
  Value workload;  // the workload object
  // The objects of the pods input: Pods, and the intermediate owners (ReplicaSets, Jobs, ...) their
  // controller chains pass through; absent = no pods were given (file mode when from_file).
  std::optional<std::vector<Value>> pods;
  bool from_file = false;  // the workload came from a manifest, not from a cluster
  std::string source;      // how messages name the input: the file path, or `Kind "name"`
};

struct DescribeOptions {
  int pod_limit = 0;        // --pod-limit (0 = every pod; negative is a usage error)
  int component_limit = 0;  // --component-limit (0 = every component)
  std::string output = "table";  // table | json | yaml | dot | svg
  std::string now;               // hidden --now RFC 3339: the clock the age is measured against
  BundleSourceOptions source;    // --bundle / --catalog
};

// The usage checks of the options (output format, negative limits, --now); prints kli's usage
// error and returns false on the first failure.
bool CheckDescribeOptions(const DescribeOptions& options);

// Resolves the workload's definition (its apiVersion/kind, else the one definition of the same
// group and kind), attributes the pods by owner chain, builds the view and prints it. Uses
// `loaded` when given, else loads the bundle `options.source` selects. Exit codes: 0 printed,
// 1 no definition covers the kind or the view failed, 2 usage or unreadable input.
int RunDescribe(const DescribeInput& input, const DescribeOptions& options, const LoadedBundle* loaded = nullptr);

}  // namespace wm::tools
