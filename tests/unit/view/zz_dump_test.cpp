// scratch dumper, never commit
#include <gtest/gtest.h>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include "compiler/driver/expression.h"
#include "runtime/eval/view/view_program.h"
#include "tests/unit/view/view_test_util.h"
namespace wm::testing {
TEST(ZZDump, Dump) {
  const char* f = std::getenv("WM_DUMP_EXPR");
  if (!f) GTEST_SKIP();
  std::ifstream in(f);
  std::string line;
  view::PathTrie trie;
  std::vector<std::unique_ptr<view::ViewProgram>> owned;
  std::vector<view::ViewProgram*> programs;
  std::vector<std::string> exprs;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::string reason;
    auto p = view::LowerToView(*Lowered(line), &trie, &reason);
    if (!p) { std::cout << "REFUSED " << line << ": " << reason << "\n"; continue; }
    view::MarkSingle(p.get());
    programs.push_back(p.get()); owned.push_back(std::move(p)); exprs.push_back(line);
  }
  auto shared = view::ShareRepeatedSubexpressions(programs, trie);
  static const char* names[] = {"Identity","Empty","Const","Path","IterEach","FieldPath","Index","Iterate","Pipe","Comma","Neg","Binary","And","Or","Alternative","If","Try","Collect","Object","Var","Bind","Not","Length","Type","Builtin","Any","All","FromEntries","WithEntries","FieldCompare","EntryKey"};
  auto trie_path = [&](uint32_t id) { std::string s; while (id) { auto& n = trie.nodes[id]; s = (n.iteration ? std::string("[]") : "." + n.key) + s; id = n.parent; } return s.empty() ? "." : s; };
  for (size_t i = 0; i < programs.size(); ++i) {
    std::cout << "== " << exprs[i] << "\n";
    auto& pr = *programs[i];
    for (size_t n = 0; n < pr.nodes.size(); ++n) {
      auto& v = pr.nodes[n];
      std::cout << "  " << n << (n == pr.root ? "*" : " ") << names[(int)v.op] << " a=" << v.a << " c=" << v.c << " kids=";
      for (auto k : v.kids) std::cout << k << ",";
      if (v.op == view::VOp::kPath || v.op == view::VOp::kIterEach || v.op == view::VOp::kEntryKey) std::cout << " path=" << trie_path(v.a);
      for (auto& k : v.keys) std::cout << " key=" << k;
      std::cout << " single=" << v.single << " form=" << (int)v.form << " direct=" << v.direct_operands << " cond=" << v.condition << " memo=" << v.memo << " sel=" << v.select_each << " first=" << v.first_selected << "\n";
    }
  }
  std::vector<uint32_t> mi(shared.iteration.begin(), shared.iteration.end());
  static const char* fops[] = {"Const","Path","PathOrConst","PathBelow","Compare","CompareConst","Arith","Not","Truthy","SetBool","Move","Jump","JumpIfFalsy","JumpIfTruthy","MemoLoad","MemoStore","Tree","Field","FieldCompare","AnyAll","Object","Return"};
  for (size_t i = 0; i < programs.size(); ++i) {
    auto fc = view::Flatten(*programs[i], trie, mi);
    std::cout << "## flat " << i << (fc ? "" : " none") << "\n";
    if (!fc) continue;
    std::cout << "  each=" << fc->each_iteration << " regs=" << fc->registers << " tree_nodes=" << fc->tree_nodes << "\n";
    for (size_t k = 0; k < fc->code.size(); ++k) { auto& c = fc->code[k]; std::cout << "   " << k << " " << fops[(int)c.op] << " cmp=" << (int)c.cmp << " r=" << c.r << " a=" << c.a << " b=" << c.b << " n=" << c.n << "\n"; }
  }
  std::cout << "trie nodes " << trie.nodes.size() << " slots " << shared.slots() << "\n";
}
}  // namespace wm::testing
