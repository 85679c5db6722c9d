// Round-trip tests over tests/corpus/jq/valid.jq (one valid jq program per line): every line
// parses, Parse(Print(ast)) has the same shape, printing is idempotent, and jq 1.6 (/usr/bin/jq)
// compiles both the line and its canonical print, except lines marked `# 1.7` (1.7-only syntax,
// or programs that cannot compile stand-alone: free variables, modules, libraries).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "compiler/jq/parser.h"

namespace wm::jq {
namespace {

struct CorpusLine {
  int number;
  std::string text;
  bool jq16;  // jq 1.6 must accept it
};

std::vector<CorpusLine> LoadCorpus() {
  std::ifstream in(std::string(WM_SOURCE_DIR) + "/tests/corpus/jq/valid.jq");
  std::vector<CorpusLine> lines;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty()) continue;
    bool only17 = line.find("# 1.7") != std::string::npos;
    lines.push_back({number, line, !only17});
  }
  return lines;
}

TEST(JqCorpusTest, HasEnoughPrograms) { EXPECT_GE(LoadCorpus().size(), 500u); }

TEST(JqCorpusTest, EveryLineParsesAndRoundTrips) {
  for (const CorpusLine& line : LoadCorpus()) {
    ParseResult first = Parse(line.text);
    ASSERT_TRUE(first.ok()) << "line " << line.number << ": " << line.text << "\n  "
                            << first.diagnostics.front().message;
    EXPECT_FALSE(DumpAst(*first.ast).empty());
    std::string printed = Print(*first.ast);
    ParseResult second = Parse(printed);
    ASSERT_TRUE(second.ok()) << "line " << line.number << ": " << line.text << "\n  printed: " << printed
                             << "\n  " << second.diagnostics.front().message;
    EXPECT_TRUE(SameShape(*first.ast, *second.ast))
        << "line " << line.number << ": " << line.text << "\n  printed: " << printed << "\n"
        << DumpAst(*first.ast) << "vs\n" << DumpAst(*second.ast);
    EXPECT_EQ(Print(*second.ast), printed) << "line " << line.number;
  }
}

// Runs `jq -n` on `program` (compiled, never run: every line sits in an unused definition).
bool JqCompiles(const std::string& program, std::string* error) {
  char path[] = "/tmp/wm_corpus_XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return false;
  FILE* f = fdopen(fd, "w");
  std::fwrite(program.data(), 1, program.size(), f);
  std::fclose(f);
  std::string command = "/usr/bin/jq -n -f " + std::string(path) + " </dev/null 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  std::string output;
  char buffer[4096];
  size_t n;
  while (pipe && (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
  int status = pipe ? pclose(pipe) : -1;
  unlink(path);
  *error = output;
  return status == 0;
}

std::string Wrap(const std::vector<std::string>& programs) {
  std::string out;
  for (size_t i = 0; i < programs.size(); ++i) {
    out += "def __wm_check_" + std::to_string(i) + ":\n(" + programs[i] + "\n);\n";
  }
  return out + "empty\n";
}

TEST(JqCorpusTest, Jq16AcceptsLinesAndTheirCanonicalPrint) {
  if (access("/usr/bin/jq", X_OK) != 0) GTEST_SKIP() << "/usr/bin/jq is not installed";
  std::vector<std::string> programs;
  std::vector<const CorpusLine*> origin;
  std::vector<CorpusLine> corpus = LoadCorpus();
  for (const CorpusLine& line : corpus) {
    if (!line.jq16) continue;
    programs.push_back(line.text);
    origin.push_back(&line);
    ParseResult r = Parse(line.text);
    if (r.ok()) {
      programs.push_back(Print(*r.ast));
      origin.push_back(&line);
    }
  }
  ASSERT_GT(programs.size(), 400u);
  std::string error;
  if (JqCompiles(Wrap(programs), &error)) return;
  // Find the culprits one by one (slow path, only on failure).
  for (size_t i = 0; i < programs.size(); ++i) {
    EXPECT_TRUE(JqCompiles(Wrap({programs[i]}), &error))
        << "line " << origin[i]->number << ": " << programs[i] << "\n" << error;
  }
}

}  // namespace
}  // namespace wm::jq
