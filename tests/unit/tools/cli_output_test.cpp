// Tests of tools/cli_output.h and tools/kube_time.h: tables laid out as Go's tabwriter lays out
// kli's and kubectl's, control characters escaped in text output, RFC 3339 parsing, and kubectl's AGE rendering (HumanDuration) at each of
// its boundaries.
#include "tools/cli_output.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "tools/kube_time.h"

namespace wm::tools {
namespace {

TEST(RenderTable, PadsEveryColumnButTheLast) {
  std::vector<std::vector<std::string>> rows = {{"NAME", "KIND", "X"}, {"a-long-name", "Job", "1, 2"}};
  EXPECT_EQ(RenderTable(rows, kDefinitionsTable),
            "NAME         KIND  X\n"
            "a-long-name  Job   1, 2\n");
  // kubectl: padding 3 and at least 10 characters per column.
  EXPECT_EQ(RenderTable(rows, kKubectlTable),
            "NAME          KIND      X\n"
            "a-long-name   Job       1, 2\n");
  // Characters, not bytes: "é" is one column.
  EXPECT_EQ(RenderTable({{"\xc3\xa9", "b"}, {"xy", "c"}}, kDefinitionsTable), "\xc3\xa9   b\nxy  c\n");
}

TEST(RenderTable, EscapesControlCharactersInCells) {
  using namespace std::string_literals;
  // A NUL, an escape sequence and a line break stay inside their cell, escaped, and the columns
  // are laid out by the escaped width.
  EXPECT_EQ(RenderTable({{"NAME", "X"}, {"a\0b\x1b[31m\nc"s, "1"}}, kDefinitionsTable),
            "NAME               X\n"
            "a\\x00b\\x1b[31m\\nc  1\n");
}

TEST(Printable, EscapesControlCharactersAsGoQuoteDoes) {
  using namespace std::string_literals;
  EXPECT_EQ(Printable("plain \xc3\xa9 \\ \"q\""), "plain \xc3\xa9 \\ \"q\"");
  EXPECT_EQ(Printable("\a\b\t\n\v\f\r"), "\\a\\b\\t\\n\\v\\f\\r");
  EXPECT_EQ(Printable("\0\x01\x1f\x7f"s), "\\x00\\x01\\x1f\\x7f");
}

TEST(WriteText, WritesPastANulAndKeepsLineBreaksAndTabs) {
  using namespace std::string_literals;
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  WriteText("a\0b\n\tc\x1b\n"s, out);
  std::rewind(out);
  char buffer[64] = {};
  size_t n = std::fread(buffer, 1, sizeof buffer, out);
  std::fclose(out);
  EXPECT_EQ(std::string(buffer, n), "a\\x00b\n\tc\\x1b\n");
}

TEST(KubeTime, ParsesRfc3339) {
  EXPECT_EQ(ParseRfc3339("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(ParseRfc3339("2024-05-01T10:00:00Z"), 1714557600);
  EXPECT_EQ(ParseRfc3339("2024-05-01T12:00:00.123+02:00"), 1714557600);
  EXPECT_EQ(ParseRfc3339("2024-02-29t10:00:00z"), 1709200800);
  EXPECT_EQ(ParseRfc3339("2024-05-01T10:00:00-01:30"), 1714557600 + 5400);
  for (const char* bad : {"", "2024-05-01", "2024-05-01T10:00:00", "2024-13-01T00:00:00Z", "2024-05-01 10:00:00Z",
                          "2024-05-01T10:00:00.Z", "2024-05-01T10:00:00Zjunk", "yesterday"}) {
    EXPECT_FALSE(ParseRfc3339(bad).has_value()) << bad;
  }
}

TEST(KubeTime, HumanDurationAsKubectl) {
  EXPECT_EQ(HumanDuration(-5), "<invalid>");
  EXPECT_EQ(HumanDuration(-1), "0s");
  EXPECT_EQ(HumanDuration(0), "0s");
  EXPECT_EQ(HumanDuration(119), "119s");
  EXPECT_EQ(HumanDuration(120), "2m");
  EXPECT_EQ(HumanDuration(310), "5m10s");
  EXPECT_EQ(HumanDuration(600), "10m");
  EXPECT_EQ(HumanDuration(179 * 60 + 59), "179m");
  EXPECT_EQ(HumanDuration(3 * 3600), "3h");
  EXPECT_EQ(HumanDuration(3 * 3600 + 25 * 60), "3h25m");
  EXPECT_EQ(HumanDuration(8 * 3600 + 59 * 60), "8h");
  EXPECT_EQ(HumanDuration(47 * 3600), "47h");
  EXPECT_EQ(HumanDuration(48 * 3600), "2d");
  EXPECT_EQ(HumanDuration(77 * 3600), "3d5h");
  EXPECT_EQ(HumanDuration(8 * 86400), "8d");
  EXPECT_EQ(HumanDuration(2 * 365 * 86400), "2y");
  EXPECT_EQ(HumanDuration(2 * 365 * 86400 + 40 * 86400), "2y40d");
  EXPECT_EQ(HumanDuration(9 * 365 * 86400), "9y");
}

TEST(EqualsIgnoreCase, ComparesAscii) {
  EXPECT_TRUE(EqualsIgnoreCase("Running", "running"));
  EXPECT_FALSE(EqualsIgnoreCase("Running", "Runnin"));
}

}  // namespace
}  // namespace wm::tools
