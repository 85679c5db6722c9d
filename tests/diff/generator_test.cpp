// Tests of the random program generator itself: deterministic per seed, every program accepted
// by libjq 1.6, and the exclusion check (which encodes KNOWN_DIFFERENCES.md) recognising each
// documented construct. Needs only libjq, no wm engine.
#include <gtest/gtest.h>

#include "tests/diff/jq_generator.h"
#include "tests/diff/jq_text.h"
#include "tests/diff/libjq_oracle.h"

namespace wm::diff {
namespace {

TEST(JqGenerator, GeneratorIsDeterministicAndStaysInsideTheComparableLanguage) {
  ProgramGenerator a(7), b(7);
  JsonGenerator ja(7), jb(7);
  LibjqOracle oracle;
  for (int i = 0; i < 150; ++i) {
    std::string program = a.Next();
    ASSERT_EQ(program, b.Next());
    ASSERT_EQ(ja.Next(), jb.Next());
    EXPECT_EQ(FindExcludedConstruct(program), "") << program;
    EXPECT_TRUE(oracle.Compiles(program)) << "libjq 1.6 rejects a generated program: " << program;
  }
}

TEST(JqGenerator, ExclusionCheckRecognisesEveryDocumentedConstruct) {
  // Each KNOWN_DIFFERENCES.md entry that the generator avoids must be caught by the check, so a
  // generator change cannot silently start emitting a documented difference. (Syntax-level
  // entries L1-L4 are 1.6 syntax errors: the libjq compile check above catches them.)
  for (const char* program :
       {"limit(0; .[])", "error(null)", "@base32d", "abs", "[.[] | toarray]", "pick(.a)",
        "have_literal_numbers", "\"abc\" | indices(\"\")", ".[] |= empty", "nth(1; .[])",
        "[.[] | implode]", "(try .a) | error", ".a | (.b)? | error", "input", "$ENV",
        "ascii", "100000000000000000001", "1e3", "1 / 0", "0/0", ". + 3 / -2",
        "any(.a)", "all(.[]; .)", "IN(1, 2)", "@base32", ".a | reverse"}) {
    EXPECT_NE(FindExcludedConstruct(program), "") << program;
  }
  for (const char* program :
       {"fabs", "[try (.a) catch .]", "[(.a)?]", "explode|implode", "nth(0; .[])", "nth(2)",
        "ascii_downcase", "\"input\"", "$input_x", ".abs", ". / 2", "1 // 2", ".k1", "\"1e3\"",
        "1.5 * 3", "[.[]] | any", "all", ".any", "$all",
        "(if type == \"string\" then explode else . end | reverse)"}) {
    EXPECT_EQ(FindExcludedConstruct(program), "") << program;
  }
}

// The code/literal split the exclusion check and the shrinker read programs through.
TEST(JqText, CodeOnlyBlanksLiteralTextAndKeepsInterpolatedCode) {
  EXPECT_EQ(CodeOnly(R"jq(.a | "x\"y" | 1)jq"), ".a | " + std::string(6, ' ') + " | 1");
  // An interpolation's code stays, its parentheses are marked, and a `)` of the code inside it
  // does not close it; literals nested in it are blanked too.
  EXPECT_EQ(CodeOnly(R"jq("a\((.b)|"c(")d")jq"),
            std::string("  ") + " " + kInterpolationOpen + "(.b)|    " + kInterpolationClose + "  ");
  EXPECT_EQ(CodeOnly(R"jq("input" | input)jq"), std::string(7, ' ') + " | input");
  EXPECT_EQ(FindExcludedConstruct(R"jq("\(input)")jq"), "input: no input stream");
  EXPECT_EQ(FindExcludedConstruct(R"jq("(.a)?")jq"), "");
}

}  // namespace
}  // namespace wm::diff
