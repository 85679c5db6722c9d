// Resolver runs for the workload layer (see run.h).
#include "runtime/workload/run.h"

#include "runtime/value/json.h"

namespace wm::workload {

Outputs RunResolver(const Bundle& bundle, int32_t id, const Value& input, const RunOptions& run) {
  Outputs result;
  EvalError error;
  EvalStatus status = bundle.resolver(id).Run(
      input,
      [&](const Value& v) {
        result.values.push_back(v);
        return true;
      },
      &error, run);
  if (status == EvalStatus::kError) {
    const ResolverInfo& info = bundle.resolver_info(id);
    result.message = error.Message();
    result.expression = info.source;
    result.error = info.role + " `" + info.source + "`: " + result.message;
    result.limit = error.limit;
  }
  return result;
}

std::string StringOf(const Value& value) {
  return value.IsString() ? std::string(value.AsString()) : ToJson(value);
}

}  // namespace wm::workload
