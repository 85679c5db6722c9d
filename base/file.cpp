// See file.h. POSIX open/fstat/read: the size and type checks look at the opened descriptor, so a
// file swapped between the check and the read cannot slip past them. The writer keeps the paths
// of its temporary files where a signal handler can unlink them.
#include "base/file.h"

#include <fcntl.h>
#include <pthread.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>

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
  bool head_checked = !options.check_head;
  auto check_head = [&]() -> std::string {
    head_checked = true;
    return options.check_head(std::string_view(buffer).substr(0, kHeadBytes));
  };
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
    if (!head_checked && buffer.size() >= kHeadBytes) {
      if (std::string why = check_head(); !why.empty()) {
        return Failure(ReadFileStatus::kUnexpectedContent, 0, path + ": " + why);
      }
    }
  }
  if (!head_checked) {
    if (std::string why = check_head(); !why.empty()) {
      return Failure(ReadFileStatus::kUnexpectedContent, 0, path + ": " + why);
    }
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

namespace {

// Temporary files being written, for the signal handler. Slots hold NUL-terminated paths; a slot
// is claimed with `busy` before its path is filled and published with `ready`, so the handler only
// reads complete paths (async-signal-safe: it calls unlink and raise only).
struct TempSlot {
  std::atomic<bool> busy{false};
  std::atomic<bool> ready{false};
  char path[PATH_MAX + 32];
};
constexpr int kTempSlots = 16;
TempSlot temp_slots[kTempSlots];
const int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP};

void UnlinkTempsAndReraise(int signal_number) {
  for (TempSlot& slot : temp_slots) {
    if (slot.ready.load()) ::unlink(slot.path);
  }
  ::signal(signal_number, SIG_DFL);
  ::raise(signal_number);
}

void InstallCleanupHandlers() {
  static std::once_flag installed;
  std::call_once(installed, [] {
    for (int signal_number : kCleanupSignals) {
      struct sigaction current {};
      ::sigaction(signal_number, nullptr, &current);
      // Respect a caller that ignores the signal or handles it itself.
      if (current.sa_handler != SIG_DFL) continue;
      struct sigaction action {};
      action.sa_handler = UnlinkTempsAndReraise;
      sigemptyset(&action.sa_mask);
      ::sigaction(signal_number, &action, nullptr);
    }
  });
}

// Registers a temporary path for the lifetime of the object (none when all slots are taken: the
// write still works, only the cleanup on a signal is lost).
class TempRegistration {
 public:
  explicit TempRegistration(const std::string& path) {
    if (path.size() >= sizeof(TempSlot::path)) return;
    for (TempSlot& s : temp_slots) {
      bool expected = false;
      if (s.busy.compare_exchange_strong(expected, true)) {
        std::memcpy(s.path, path.c_str(), path.size() + 1);
        s.ready.store(true);
        slot_ = &s;
        return;
      }
    }
  }
  ~TempRegistration() {
    if (!slot_) return;
    slot_->ready.store(false);
    slot_->busy.store(false);
  }
  TempRegistration(const TempRegistration&) = delete;
  TempRegistration& operator=(const TempRegistration&) = delete;

 private:
  TempSlot* slot_ = nullptr;
};

// Why `path` must not be replaced, or "" when it may be (absent, or a regular file no input is).
std::string RefusalToReplace(const std::string& path, const WriteFileOptions& options) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return "";
  if (S_ISDIR(info.st_mode)) return path + " is a directory";
  if (!S_ISREG(info.st_mode)) {
    return path + " is not a regular file (a device, FIFO or socket); refusing to replace it";
  }
  for (const std::string& input : options.inputs) {
    if (SameFile(path, input)) {
      return path + " is also an input of this run (" + input + "); refusing to overwrite it";
    }
  }
  return "";
}

bool WriteAll(int fd, std::string_view bytes) {
  size_t written = 0;
  while (written < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    written += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

bool SameFile(const std::string& a, const std::string& b) {
  struct stat first {}, second {};
  if (::stat(a.c_str(), &first) != 0 || ::stat(b.c_str(), &second) != 0) return false;
  return first.st_dev == second.st_dev && first.st_ino == second.st_ino;
}

bool WriteFileAtomically(const std::string& path, std::string_view bytes, std::string* error,
                         const WriteFileOptions& options) {
  if (std::string why = RefusalToReplace(path, options); !why.empty()) {
    *error = why;
    return false;
  }
  InstallCleanupHandlers();
  std::string temp = path + ".tmp.XXXXXX";
  // Block the cleanup signals while the temporary file is created and registered, so a signal
  // cannot land between mkstemp and the registration and leave the file behind.
  sigset_t cleanup_set, previous;
  sigemptyset(&cleanup_set);
  for (int signal_number : kCleanupSignals) sigaddset(&cleanup_set, signal_number);
  ::pthread_sigmask(SIG_BLOCK, &cleanup_set, &previous);
  int fd = ::mkstemp(temp.data());
  int mkstemp_errno = errno;
  std::optional<TempRegistration> registration;
  if (fd >= 0) registration.emplace(temp);
  ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  if (fd < 0) {
    *error = path + ": cannot create temporary file: " + std::strerror(mkstemp_errno);
    return false;
  }
  auto fail = [&](const char* what) {
    *error = path + ": " + what + ": " + std::strerror(errno);
    if (fd >= 0) ::close(fd);
    ::unlink(temp.c_str());
    return false;
  };
  if (!WriteAll(fd, bytes)) return fail("cannot write");
  if (::fchmod(fd, 0644) != 0) return fail("cannot set permissions");
  if (::fsync(fd) != 0) return fail("cannot flush");
  int closed = ::close(fd);
  fd = -1;
  if (closed != 0) return fail("cannot close");
  // Checked again right before the rename: the target may have appeared since the first check.
  if (std::string why = RefusalToReplace(path, options); !why.empty()) {
    ::unlink(temp.c_str());
    *error = why;
    return false;
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) return fail("cannot replace");
  return true;
}

}  // namespace wm::base
