// Tests of the YAML scalar re-scan that maps decoded expression bytes back to file positions:
// plain (single and multi-line), single- and double-quoted (escapes, folding), block `|` and `>`.
#include <gtest/gtest.h>

#include <string>

#include "compiler/definition/internal/scalar_map.h"

namespace wm::definition::internal {
namespace {

// Offset in `source` of the n-th occurrence (0-based) of `needle`.
size_t Find(const std::string& source, const std::string& needle, int n = 0) {
  size_t at = source.find(needle);
  while (n-- > 0 && at != std::string::npos) at = source.find(needle, at + 1);
  return at;
}

TEST(ScalarMap, PlainSingleLineIsContiguous) {
  std::string src = "key: .spec.a | .b\n";
  auto offsets = MapScalarBytes(src, 5, ".spec.a | .b");
  ASSERT_TRUE(offsets);
  ASSERT_EQ(offsets->size(), 13u);
  for (size_t i = 0; i < 12; ++i) EXPECT_EQ((*offsets)[i], 5 + i);
  EXPECT_EQ(offsets->back(), 17u);
}

TEST(ScalarMap, PlainMultiLineFoldsToSpace) {
  std::string src = "key: .spec.a\n  | .b\nnext: 1\n";
  auto offsets = MapScalarBytes(src, 5, ".spec.a | .b");
  ASSERT_TRUE(offsets);
  EXPECT_EQ((*offsets)[7], Find(src, "\n"));      // the folded space is the line break
  EXPECT_EQ((*offsets)[8], Find(src, "|"));
  EXPECT_EQ((*offsets)[11], Find(src, "b"));
}

TEST(ScalarMap, SingleQuotedWithEscapedQuote) {
  std::string src = "key: '.a[''x''] | !'\n";
  std::string decoded = ".a['x'] | !";
  auto offsets = MapScalarBytes(src, 5, decoded);
  ASSERT_TRUE(offsets);
  EXPECT_EQ((*offsets)[0], 6u);                    // past the opening quote
  EXPECT_EQ((*offsets)[3], Find(src, "''"));       // '' decodes to one quote
  EXPECT_EQ((*offsets)[decoded.find('!')], Find(src, "!"));
}

TEST(ScalarMap, DoubleQuotedEscapes) {
  std::string src = "key: \".a\\t| \\u0021 \\\"x\\\" !\"\n";
  std::string decoded = ".a\t| ! \"x\" !";
  auto offsets = MapScalarBytes(src, 5, decoded);
  ASSERT_TRUE(offsets);
  EXPECT_EQ((*offsets)[2], Find(src, "\\t"));      // escape maps to its backslash
  EXPECT_EQ((*offsets)[5], Find(src, "\\u0021"));
  EXPECT_EQ((*offsets)[7], Find(src, "\\\""));
  EXPECT_EQ((*offsets)[decoded.size() - 1], Find(src, "!\""));
}

TEST(ScalarMap, DoubleQuotedMultiLineAndEscapedBreak) {
  std::string src = "key: \".a |\n   .b \\\n   .c\"\n";
  std::string decoded = ".a | .b .c";
  auto offsets = MapScalarBytes(src, 5, decoded);
  ASSERT_TRUE(offsets);
  EXPECT_EQ((*offsets)[5], Find(src, ".b"));
  EXPECT_EQ((*offsets)[8], Find(src, ".c"));
}

TEST(ScalarMap, LiteralBlockKeepsColumns) {
  std::string src = "key: |\n  .status\n    | .a!\nnext: 1\n";
  std::string decoded = ".status\n  | .a!\n";
  auto offsets = MapScalarBytes(src, 5, decoded);
  ASSERT_TRUE(offsets);
  EXPECT_EQ((*offsets)[0], Find(src, ".status"));
  EXPECT_EQ((*offsets)[7], Find(src, "\n", 1));    // the newline ending the first content line
  EXPECT_EQ((*offsets)[decoded.find('!')], Find(src, "!"));
}

TEST(ScalarMap, FoldedBlockWithBlankLine) {
  std::string src = "key: >-\n  .a\n  | .b\n\n  | .c!\n";
  std::string decoded = ".a | .b\n| .c!";
  auto offsets = MapScalarBytes(src, 5, decoded);
  ASSERT_TRUE(offsets);
  EXPECT_EQ((*offsets)[decoded.find('!')], Find(src, "!"));
  EXPECT_EQ((*offsets)[decoded.find(".b")], Find(src, ".b"));
}

TEST(ScalarMap, TagIsSkipped) {
  std::string src = "key: !!str .a!\n";
  auto offsets = MapScalarBytes(src, 5, ".a!");
  ASSERT_TRUE(offsets);
  EXPECT_EQ((*offsets)[2], Find(src, "!\n"));
}

TEST(ScalarMap, MismatchIsRejected) {
  std::string src = "key: .a\n";
  EXPECT_FALSE(MapScalarBytes(src, 5, ".b"));
}

TEST(ScalarMap, SourceMapFallsBackToScalarStart) {
  std::string src = "x: 1\nkey: .a\n";
  LineIndex lines(src);
  SourceMap map = BuildScalarSourceMap("f.yaml", src, lines, 10, "something else");
  Location at = map.Map(3);
  EXPECT_EQ(at.line, 2u);
  EXPECT_EQ(at.column, 6u);
}

TEST(ScalarMap, SourceMapPerByteAcrossLines) {
  std::string src = "key: |\n  .a\n  | .b\n";
  LineIndex lines(src);
  SourceMap map = BuildScalarSourceMap("f.yaml", src, lines, 5, ".a\n| .b\n");
  Location b = map.Map(5);  // the '.' of `.b` on the second content line
  EXPECT_EQ(b.file, "f.yaml");
  EXPECT_EQ(b.line, 3u);
  EXPECT_EQ(b.column, 5u);
}

TEST(LineIndex, LineAndColumn) {
  LineIndex lines("ab\ncd\n\nx");
  EXPECT_EQ(lines.LineCol(0), (std::pair<uint32_t, uint32_t>{1, 1}));
  EXPECT_EQ(lines.LineCol(4), (std::pair<uint32_t, uint32_t>{2, 2}));
  EXPECT_EQ(lines.LineCol(7), (std::pair<uint32_t, uint32_t>{4, 1}));
}

}  // namespace
}  // namespace wm::definition::internal
