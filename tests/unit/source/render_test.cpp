// Tests of SourceMap (offset -> file position) and of diagnostic rendering in the four formats.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "compiler/source/diagnostic.h"
#include "compiler/source/render.h"

namespace wm {
namespace {

TEST(SourceMapTest, EmptyMapIsBareExpression) {
  SourceMap map;
  EXPECT_TRUE(map.empty());
  Location loc = map.Map(4);
  EXPECT_EQ(loc.file, "<expr>");
  EXPECT_EQ(loc.line, 1u);
  EXPECT_EQ(loc.column, 5u);
}

TEST(SourceMapTest, ContiguousShiftsAndClamps) {
  SourceMap map = SourceMap::Contiguous(Location{"a.yaml", 7, 12}, 5);
  EXPECT_FALSE(map.empty());
  EXPECT_EQ(map.Map(0).column, 12u);
  EXPECT_EQ(map.Map(3).column, 15u);
  EXPECT_EQ(map.Map(5).column, 17u);   // one past the end: end of input
  EXPECT_EQ(map.Map(99).column, 17u);  // clamped
  EXPECT_EQ(map.Map(3).line, 7u);
  EXPECT_EQ(map.Map(3).file, "a.yaml");
}

TEST(SourceMapTest, PerByteLooksUpEachByte) {
  SourceMap map = SourceMap::PerByte("b.yaml", {{3, 5}, {3, 7}, {4, 3}, {4, 4}});
  EXPECT_EQ(map.Map(1).column, 7u);
  EXPECT_EQ(map.Map(2).line, 4u);
  EXPECT_EQ(map.Map(2).column, 3u);
  EXPECT_EQ(map.Map(50).column, 4u);  // past the table: its end
  EXPECT_EQ(map.Map(0).file, "b.yaml");
}

TEST(SourceFilesTest, LinesWithoutNewlines) {
  SourceFiles files;
  files.Add("f", "one\r\ntwo\nthree");
  EXPECT_EQ(files.Line("f", 1), "one");
  EXPECT_EQ(files.Line("f", 2), "two");
  EXPECT_EQ(files.Line("f", 3), "three");
  EXPECT_EQ(files.Line("f", 4), "");
  EXPECT_EQ(files.Line("f", 0), "");
  EXPECT_EQ(files.Line("g", 1), "");
}

Diagnostic Sample() {
  Diagnostic d;
  d.rule = "WM100";
  d.location = Location{"<expr>", 1, 5};
  d.length = 3;
  d.message = "unexpected ')'; expected a term";
  d.notes = {"first note"};
  return d;
}

TEST(RenderTest, TextHasCaretUnderRange) {
  SourceFiles files;
  files.Add("<expr>", ".a | )))");
  EXPECT_EQ(RenderText(Sample(), files),
            "<expr>:1:5: error: unexpected ')'; expected a term [WM100]\n"
            "  .a | )))\n"
            "      ^~~\n"
            "note: first note\n");
}

TEST(RenderTest, TextCaretKeepsTabsAndCountsCodePoints) {
  SourceFiles files;
  files.Add("x", "\t\"\xC3\xA9\" + )");  // tab, "é" (2 bytes), ...
  Diagnostic d = Sample();
  d.location = Location{"x", 1, 9};  // the ')'
  d.length = 1;
  d.notes.clear();
  std::string text = RenderText(d, files);
  EXPECT_NE(text.find("\n  \t      ^\n"), std::string::npos) << text;
}

TEST(RenderTest, TextWithoutSourceLineOrPosition) {
  SourceFiles files;
  Diagnostic d = Sample();
  d.location = Location{"defs.yaml", 0, 0};
  d.notes.clear();
  EXPECT_EQ(RenderText(d, files), "defs.yaml: error: unexpected ')'; expected a term [WM100]\n");
}

TEST(RenderTest, Json) {
  SourceFiles files;
  auto j = nlohmann::json::parse(Render({Sample()}, files, DiagnosticFormat::kJson));
  ASSERT_TRUE(j.is_array());
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["file"], "<expr>");
  EXPECT_EQ(j[0]["line"], 1);
  EXPECT_EQ(j[0]["column"], 5);
  EXPECT_EQ(j[0]["severity"], "error");
  EXPECT_EQ(j[0]["rule"], "WM100");
  EXPECT_EQ(j[0]["notes"][0], "first note");
}

TEST(RenderTest, JsonSurvivesInvalidUtf8) {
  Diagnostic d = Sample();
  d.message = "bad \xFF byte";
  std::string out = Render({d}, SourceFiles{}, DiagnosticFormat::kJson);
  EXPECT_TRUE(nlohmann::json::accept(out));
}

TEST(RenderTest, Sarif) {
  Diagnostic warn = Sample();
  warn.severity = Severity::Warning;
  warn.rule = "WM120";
  auto j = nlohmann::json::parse(Render({Sample(), warn}, SourceFiles{}, DiagnosticFormat::kSarif));
  EXPECT_EQ(j["version"], "2.1.0");
  EXPECT_TRUE(j.contains("$schema"));
  const auto& run = j["runs"][0];
  EXPECT_EQ(run["tool"]["driver"]["name"], "wmc");
  ASSERT_EQ(run["tool"]["driver"]["rules"].size(), 2u);
  EXPECT_EQ(run["tool"]["driver"]["rules"][0]["id"], "WM100");
  const auto& r = run["results"][1];
  EXPECT_EQ(r["ruleId"], "WM120");
  EXPECT_EQ(r["level"], "warning");
  EXPECT_EQ(r["message"]["text"], "unexpected ')'; expected a term");
  const auto& loc = r["locations"][0]["physicalLocation"];
  EXPECT_EQ(loc["artifactLocation"]["uri"], "<expr>");
  EXPECT_EQ(loc["region"]["startLine"], 1);
  EXPECT_EQ(loc["region"]["startColumn"], 5);
}

TEST(RenderTest, Github) {
  Diagnostic d = Sample();
  d.notes.clear();
  d.location.file = "a,b.yaml";
  EXPECT_EQ(Render({d}, SourceFiles{}, DiagnosticFormat::kGithub),
            "::error file=a%2Cb.yaml,line=1,col=5,title=WM100::unexpected ')'; expected a term\n");
  d.severity = Severity::Warning;
  d.message = "50% done";
  d.notes = {"n"};
  EXPECT_EQ(Render({d}, SourceFiles{}, DiagnosticFormat::kGithub),
            "::warning file=a%2Cb.yaml,line=1,col=5,title=WM100::50%25 done%0Anote: n\n");
  // The fix-it is the annotation's last line.
  d.fixit = ".a[] | (.x // 1)";
  EXPECT_EQ(Render({d}, SourceFiles{}, DiagnosticFormat::kGithub),
            "::warning file=a%2Cb.yaml,line=1,col=5,title=WM100::50%25 done%0Anote: n"
            "%0Afix: replace with `.a[] | (.x // 1)`\n");
}

}  // namespace
}  // namespace wm
