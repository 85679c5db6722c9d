// See file.h. POSIX open/fstat/read: the size and type checks look at the opened descriptor, so a
// file swapped between the check and the read cannot slip past them.
#include "base/file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace wm::base {
namespace {

ReadFileResult Failure(ReadFileStatus status, int error_number, std::string message) {
  ReadFileResult result;
  result.status = status;
  result.error_number = error_number;
  result.message = std::move(message);
  return result;
}

// Closes the descriptor on every path out of ReadFile.
struct Descriptor {
  int fd;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

std::string TooLargeMessage(const std::string& path, size_t limit) {
  return path + " is larger than " + std::to_string(limit) + " bytes";
}

}  // namespace

ReadFileResult ReadFile(const std::string& path, std::string* contents,
                        const ReadFileOptions& options) {
  Descriptor file{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (file.fd < 0) return Failure(ReadFileStatus::kCannotOpen, errno, "cannot open " + path);
  struct stat info {};
  if (::fstat(file.fd, &info) != 0) {
    return Failure(ReadFileStatus::kCannotRead, errno, "cannot read " + path);
  }
  bool regular = S_ISREG(info.st_mode);
  if (S_ISDIR(info.st_mode)) {
    return Failure(ReadFileStatus::kNotRegularFile, EISDIR, path + " is a directory");
  }
  if (!regular && options.regular_files_only) {
    return Failure(ReadFileStatus::kNotRegularFile, 0, path + " is not a regular file");
  }
  if (regular && static_cast<uint64_t>(info.st_size) > options.max_bytes) {
    return Failure(ReadFileStatus::kTooLarge, EFBIG, TooLargeMessage(path, options.max_bytes));
  }
  std::string buffer;
  if (regular) buffer.reserve(static_cast<size_t>(info.st_size));
  char chunk[1 << 16];
  while (true) {
    ssize_t n = ::read(file.fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Failure(ReadFileStatus::kCannotRead, errno, "cannot read " + path);
    if (n == 0) break;
    // A stream (or a file that grew after fstat) is held to the same limit while reading.
    if (buffer.size() + static_cast<size_t>(n) > options.max_bytes) {
      return Failure(ReadFileStatus::kTooLarge, EFBIG, TooLargeMessage(path, options.max_bytes));
    }
    buffer.append(chunk, static_cast<size_t>(n));
  }
  *contents = std::move(buffer);
  return ReadFileResult{};
}

bool ReadWholeFile(const std::string& path, std::string* contents, std::string* error,
                   const ReadFileOptions& options) {
  ReadFileResult result = ReadFile(path, contents, options);
  if (!result.ok()) *error = std::move(result.message);
  return result.ok();
}

}  // namespace wm::base
