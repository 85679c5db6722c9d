// NativeModule: loads a shared object produced by codegen::CompileAot from bytes. The bytes are
// checked (ELF magic, 64-bit, little-endian shared object, sane header sizes), written to a memfd
// (or an unlinked private temp file when memfd_create is unavailable), dlopen'ed RTLD_NOW |
// RTLD_LOCAL, and refused unless `wm_abi_version` matches WM_NATIVE_ABI_VERSION.
#include "runtime/bundle/native_module.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include "runtime/eval/native_abi.h"

namespace wm {
namespace {

// The library handle, closed when the module and every Filter taken from it are gone.
using Handle = std::shared_ptr<void>;

bool CheckElf(std::string_view bytes, std::string* error) {
  if (bytes.size() < sizeof(Elf64_Ehdr)) {
    *error = "native code is truncated (" + std::to_string(bytes.size()) + " bytes)";
    return false;
  }
  if (std::memcmp(bytes.data(), ELFMAG, SELFMAG) != 0) {
    *error = "native code is not an ELF shared object";
    return false;
  }
  Elf64_Ehdr header;
  std::memcpy(&header, bytes.data(), sizeof header);
  if (header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_ident[EI_DATA] != ELFDATA2LSB ||
      header.e_type != ET_DYN) {
    *error = "native code is not a 64-bit little-endian ELF shared object";
    return false;
  }
#if defined(__x86_64__)
  if (header.e_machine != EM_X86_64) {
    *error = "native code was built for another architecture (e_machine " +
             std::to_string(header.e_machine) + ")";
    return false;
  }
#elif defined(__aarch64__)
  if (header.e_machine != EM_AARCH64) {
    *error = "native code was built for another architecture";
    return false;
  }
#endif
  // Every table the loader reads must lie inside the bytes we have.
  auto inside = [&](uint64_t offset, uint64_t count, uint64_t entry_size) {
    return offset <= bytes.size() && count * entry_size <= bytes.size() - offset;
  };
  if (header.e_phentsize != sizeof(Elf64_Phdr) ||
      !inside(header.e_phoff, header.e_phnum, header.e_phentsize) ||
      (header.e_shnum != 0 && !inside(header.e_shoff, header.e_shnum, header.e_shentsize))) {
    *error = "native code is truncated or corrupt (ELF tables out of range)";
    return false;
  }
  for (uint16_t i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr segment;
    std::memcpy(&segment, bytes.data() + header.e_phoff + i * sizeof(Elf64_Phdr), sizeof segment);
    if (segment.p_type == PT_LOAD && !inside(segment.p_offset, segment.p_filesz, 1)) {
      *error = "native code is truncated (a segment lies past the end)";
      return false;
    }
  }
  return true;
}

// A file descriptor holding the bytes: memfd first, else an unlinked temp file.
int WriteToAnonymousFile(std::string_view bytes, std::string* error) {
  int fd = memfd_create("wm-native", MFD_CLOEXEC);
  if (fd < 0) {
    const char* base = std::getenv("TMPDIR");
    std::string path = std::string(base != nullptr && *base != '\0' ? base : "/tmp") +
                       "/wm-native-XXXXXX";
    fd = mkostemp(path.data(), O_CLOEXEC);
    if (fd < 0) {
      *error = "cannot create a file for native code: " + std::string(std::strerror(errno));
      return -1;
    }
    unlink(path.c_str());
  }
  size_t written = 0;
  while (written < bytes.size()) {
    ssize_t n = write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      *error = "cannot write native code: " + std::string(std::strerror(errno));
      close(fd);
      return -1;
    }
    written += static_cast<size_t>(n);
  }
  return fd;
}

class AotFilter : public Filter {
 public:
  AotFilter(Handle handle, WmEntry entry, std::shared_ptr<const ir::Program> program)
      : Filter("aot"), handle_(std::move(handle)), entry_(entry), program_(std::move(program)) {}

  EvalStatus Run(const Value& input, const OutputFn& emit, EvalError* error,
                 const RunOptions& options) const override {
    return native::RunEntry(entry_, *program_, input, emit, error, options);
  }

 private:
  Handle handle_;  // keeps the code entry_ points into mapped
  WmEntry entry_;
  std::shared_ptr<const ir::Program> program_;
};

}  // namespace

struct NativeModule::Impl {
  Handle handle;
};

std::shared_ptr<NativeModule> NativeModule::Create(std::string_view shared_object,
                                                   std::string* error) {
  std::string ignored;
  if (error == nullptr) error = &ignored;
  if (!CheckElf(shared_object, error)) return nullptr;
  int fd = WriteToAnonymousFile(shared_object, error);
  if (fd < 0) return nullptr;
  std::string path = "/proc/self/fd/" + std::to_string(fd);
  dlerror();
  void* raw = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (raw == nullptr) {
    close(fd);
    const char* why = dlerror();
    *error = std::string("cannot load native code: ") + (why != nullptr ? why : "dlopen failed");
    return nullptr;
  }
  // The descriptor stays open as long as the library is loaded: the dynamic loader recognises
  // an already-loaded library by its path, so if the number were reused by the next module's
  // memfd while this one is alive, dlopen would hand back this library instead of loading the new
  // one.
  Handle handle(raw, [fd](void* h) {
    dlclose(h);
    close(fd);
  });
  auto* version = static_cast<const uint32_t*>(dlsym(raw, WM_NATIVE_ABI_VERSION_SYMBOL));
  if (version == nullptr) {
    *error = "native code has no " WM_NATIVE_ABI_VERSION_SYMBOL " symbol (not built by wmc?)";
    return nullptr;
  }
  if (*version != WM_NATIVE_ABI_VERSION) {
    *error = "native code ABI version " + std::to_string(*version) + " does not match the runtime's " +
             std::to_string(WM_NATIVE_ABI_VERSION) + " (rebuild the bundle)";
    return nullptr;
  }
  std::shared_ptr<NativeModule> module(new NativeModule());
  module->impl_ = std::make_unique<Impl>();
  module->impl_->handle = std::move(handle);
  return module;
}

NativeModule::~NativeModule() = default;

std::unique_ptr<Filter> NativeModule::GetFilter(std::string_view symbol,
                                                std::shared_ptr<const ir::Program> program) const {
  if (program == nullptr || symbol == WM_NATIVE_ABI_VERSION_SYMBOL) return nullptr;
  std::string name(symbol);
  void* address = dlsym(impl_->handle.get(), name.c_str());
  if (address == nullptr) return nullptr;
  return std::make_unique<AotFilter>(impl_->handle, reinterpret_cast<WmEntry>(address),
                                     std::move(program));
}

}  // namespace wm

namespace wm {

bool NativeModule::HasEntry(std::string_view symbol) const {
  if (symbol == WM_NATIVE_ABI_VERSION_SYMBOL) return false;
  return dlsym(impl_->handle.get(), std::string(symbol).c_str()) != nullptr;
}

}  // namespace wm
