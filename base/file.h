// Reading whole input files (definitions, jq programs, workload objects, schemas, bundles) with one
// bounded reader and one error wording: the size is checked before a regular file is read, a
// directory is refused, and a stream (pipe, /dev/stdin) is read up to the same limit.
#pragma once

#include <cstddef>
#include <string>

namespace wm::base {

struct ReadFileOptions {
  // Larger files are refused before a byte is read (default 1 GiB: far above any definition,
  // schema or bundle, low enough that a mistaken path to a disk image fails instead of swapping).
  size_t max_bytes = size_t{1} << 30;
  // Refuse pipes, sockets and devices too, not only directories (default false: `-f /dev/stdin`
  // and `<(cmd)` are legitimate inputs to the CLI).
  bool regular_files_only = false;
};

enum class ReadFileStatus {
  kOk,
  kCannotOpen,      // missing, no permission, ...
  kNotRegularFile,  // a directory, or any non-regular file with regular_files_only
  kTooLarge,        // more than max_bytes
  kCannotRead,      // an I/O error after opening
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

}  // namespace wm::base
