// Reading whole input files (definitions, jq programs, workload objects, schemas, bundles) with one
// bounded reader and one error wording: the size is checked before a regular file is read, a
// directory is refused, a stream (pipe, /dev/stdin) is read up to the same limit, and the first
// bytes can be vetted before the rest is read. Writing output files (bundles, dumps) with one
// atomic writer that never replaces what it must not: a device, a FIFO, or an input of the run.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace wm::base {

struct ReadFileOptions {
  // Larger files are refused before a byte is read (default 1 GiB: far above any definition,
  // schema or bundle, low enough that a mistaken path to a disk image fails instead of swapping).
  size_t max_bytes = size_t{1} << 30;
  // Refuse pipes, sockets and devices too, not only directories (default false: `-f /dev/stdin`
  // and `<(cmd)` are legitimate inputs to the CLI).
  bool regular_files_only = false;
  // Vets the first bytes (up to kHeadBytes, fewer for a shorter file) before the rest is read:
  // returns "" to go on, else the reason the content is not what the caller reads (a bundle
  // without its magic, binary data given as JSON). Keeps `/dev/zero` from being read to the limit.
  std::function<std::string(std::string_view head)> check_head;
};

inline constexpr size_t kHeadBytes = 4096;

enum class ReadFileStatus {
  kOk,
  kCannotOpen,      // missing, no permission, ...
  kNotRegularFile,  // a directory, or any non-regular file with regular_files_only
  kTooLarge,        // more than max_bytes
  kCannotRead,      // an I/O error after opening
  kUnexpectedContent,  // check_head refused the first bytes
};

struct ReadFileResult {
  ReadFileStatus status = ReadFileStatus::kOk;
  int error_number = 0;  // errno of the failed call, 0 when none applies
  std::string message;   // "cannot open PATH", "PATH is a directory", ... ("" when ok)
  bool ok() const { return status == ReadFileStatus::kOk; }
};

// Reads the whole file at `path` (bytes as they are) into *contents.
ReadFileResult ReadFile(const std::string& path, std::string* contents,
                        const ReadFileOptions& options = {});

// The same with the message in *error: the spelling most callers want.
bool ReadWholeFile(const std::string& path, std::string* contents, std::string* error,
                   const ReadFileOptions& options = {});

struct WriteFileOptions {
  // Files this run reads: the output must not be one of them (`compile f.yaml -o f.yaml`).
  std::vector<std::string> inputs;
};

// Writes `bytes` to `path` through a temporary file in the same directory and a rename, so `path`
// is either left as it was or replaced whole. Refuses to replace anything but a regular file (a
// FIFO or a device such as /dev/null) and any of options.inputs. The temporary file is removed on
// failure and when SIGINT, SIGTERM or SIGHUP arrives during the write. Returns false with *error.
bool WriteFileAtomically(const std::string& path, std::string_view bytes, std::string* error,
                         const WriteFileOptions& options = {});

// True when both paths name the same existing file (same device and inode).
bool SameFile(const std::string& a, const std::string& b);

}  // namespace wm::base
