// See file.h.
#include "compiler/source/file.h"

#include <fstream>
#include <sstream>

namespace wm {

bool ReadWholeFile(const std::string& path, std::string* contents, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = "cannot open " + path;
    return false;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) {
    *error = "cannot read " + path;
    return false;
  }
  *contents = std::move(buffer).str();
  return true;
}

}  // namespace wm
