// Kubernetes timestamps for the CLI: RFC 3339 parsing (metadata.creationTimestamp, `--now`) and
// kubectl's AGE column (k8s.io/apimachinery duration.HumanDuration: `45s`, `5m10s`, `3h`, `2d4h`).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace wm::tools {

// Seconds since the Unix epoch of an RFC 3339 time ("2024-05-01T10:00:00Z",
// "2024-05-01T12:00:00.5+02:00"; fractions are dropped); nullopt when `text` is not one.
std::optional<int64_t> ParseRfc3339(std::string_view text);

// kubectl's rendering of an age of `seconds` ("<invalid>" below -1 s, "0s" for -1 s).
std::string HumanDuration(int64_t seconds);

}  // namespace wm::tools
