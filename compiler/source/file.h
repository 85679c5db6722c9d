// Reading whole input files: the compiler's name for the one bounded reader in base/file.h, kept
// so callers outside compiler/ (tools, codegen) need not change; new code includes base/file.h.
#pragma once

#include "base/file.h"

namespace wm {

// "cannot open PATH" / "cannot read PATH" / "PATH is a directory" in *error when unreadable.
using base::ReadWholeFile;

}  // namespace wm
