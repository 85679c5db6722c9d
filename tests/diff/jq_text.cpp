// CodeOnly (tests/diff/jq_text.h): one pass over the program with a stack of open brackets, so
// that the `)` closing an interpolation is told from a `)` of the code inside it.
#include "tests/diff/jq_text.h"

#include <vector>

namespace wm::diff {

std::string CodeOnly(const std::string& program) {
  std::string code = program;
  // For each open interpolation, how many code parentheses are open inside it.
  std::vector<int> interpolations;
  bool in_string = false;
  for (size_t i = 0; i < code.size(); ++i) {
    char c = program[i];
    if (in_string) {
      if (c == '\\' && i + 1 < code.size() && program[i + 1] == '(') {
        code[i] = ' ';
        code[i + 1] = kInterpolationOpen;
        interpolations.push_back(0);
        in_string = false;
        ++i;
        continue;
      }
      if (c == '\\' && i + 1 < code.size()) {
        code[i] = ' ';
        code[++i] = ' ';
        continue;
      }
      if (c == '"') in_string = false;
      code[i] = ' ';
      continue;
    }
    if (c == '"') {
      in_string = true;
      code[i] = ' ';
    } else if (c == '(' && !interpolations.empty()) {
      ++interpolations.back();
    } else if (c == ')' && !interpolations.empty()) {
      if (interpolations.back() == 0) {
        interpolations.pop_back();
        code[i] = kInterpolationClose;
        in_string = true;
      } else {
        --interpolations.back();
      }
    }
  }
  return code;
}

}  // namespace wm::diff
