// Keeps KNOWN_DIFFERENCES.md honest: asserts that libjq 1.6 (the oracle) behaves exactly as each
// entry says. If the oracle changes (another libjq version), this fails before the random test
// can report confusing mismatches. Entries that abort or hang libjq (B6, B9) are not run here.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/diff/libjq_oracle.h"

namespace wm::diff {
namespace {

struct Documented {
  const char* entry;  // KNOWN_DIFFERENCES.md id
  const char* program;
  const char* input;
  bool compiles;
  std::vector<std::string> outputs;
  bool error;
};

TEST(KnownDifferences, Libjq16BehavesAsDocumented) {
  const std::vector<Documented> table = {
      {"L1", "if . then 1 end", "true", false, {}, false},
      {"L2", ".a.[\"b\"]", "{\"a\":{\"b\":1}}", false, {}, false},
      {"L3", "\"a\" as $key | {$key: 123}", "null", false, {}, false},
      {"L3", "1 as $x | {$x}", "null", true, {"{\"x\":1}"}, false},
      {"L4", "if true then 1 else 2 end[0]", "null", false, {}, false},
      {"L4", "reduce (1,2) as $x (0; .+$x) as $v | $v", "null", false, {}, false},
      {"L4", "(reduce (1,2) as $x (0; .+$x)) as $v | $v", "null", true, {"3"}, false},
      {"L5", "[.[] | (try . catch \"c\") | if . == 1 then error(\"x\") else . end]", "[1,2]", true,
       {"[\"c\",2]"}, false},
      {"L5", "[.[] | [try . catch \"c\"][] | if . == 1 then error(\"x\") else . end]", "[1,2]", true,
       {}, true},
      {"L6", ".", "100000000000000000001", true, {"1e+20"}, false},
      {"L6", "100000000000000000", "null", true, {"1e+17"}, false},
      {"L7", "1/0", "null", false, {}, false},
      {"L7", "0/0", "null", true, {"null"}, false},
      {"L7", "{({\"b\":0}): 1}", "null", false, {}, false},
      {"L7", ".[0] / .[1]", "[0,0]", true, {}, true},
      {"L8", "error(null)", "null", true, {}, false},
      {"L8", "[try error(null) catch .]", "null", true, {"[]"}, false},
      {"B1", "[limit(0; 1, 2)]", "null", true, {"[1]"}, false},
      {"B2", "[nth(5; 1, 2)]", "null", true, {"[2]"}, false},
      {"B3", "(.[] | select(. >= 2)) |= empty", "[1,5,3,0,7]", true, {"[1,3,7]"}, false},
      {"B4", "[-1] | implode | length", "null", true, {"1"}, false},
      {"B5", "\"aaa\" | indices(\"aa\")", "null", true, {"[0]"}, false},
      {"B10", "any(.[]; .[])", "[[true,true]]", true, {"false"}, false},
      {"B10", "any(.[])", "[[true,true]]", true, {"false"}, false},
      {"B10", "IN(.[]; .[])", "[[true,true]]", true, {"false"}, false},
      {"B10", "[.[] | .[]] | any", "[[true,true]]", true, {"true"}, false},
      {"B7", "@base32d", "\"MFRGG===\"", true, {}, true},
      {"B7", "@base32", "\"abc\"", true, {}, true},
      {"B11", ".[1.5]", "[1,2,3]", true, {"null"}, false},
      {"B11", ".[-0.5]", "[1,2,3]", true, {"null"}, false},
      {"B12", "reverse", "\"abc\"", true, {}, true},
      {"B12", "reverse", "{}", true, {"[]"}, false},
      {"B8", "abs", "-1", false, {}, false},
      {"B8", "pick(.a)", "{}", false, {}, false},
      {"B8", "toarray", "1", false, {}, false},
      {"B8", "have_literal_numbers", "null", false, {}, false},
      {"B8", "have_decnum", "null", false, {}, false},
      {"B8", "ascii", "65", false, {}, false},
      {"C1", ".a", "1", true, {}, true},
      {"R1", ".", "007", true, {"7"}, false},
      {"R1", ".", "[+1,.5,1.,nan,-Infinity]", true, {"[1,0.5,1,null,-1.7976931348623157e+308]"}, false},
  };
  LibjqOracle oracle;
  for (const Documented& d : table) {
    SCOPED_TRACE(std::string(d.entry) + ": " + d.program + " <<< " + d.input);
    RunOutcome got = oracle.Run(d.program, d.input);
    EXPECT_EQ(got.compiled, d.compiles) << got.error_message;
    if (!d.compiles) continue;
    EXPECT_EQ(got.outputs, d.outputs);
    EXPECT_EQ(got.error, d.error) << got.error_message;
  }
  // C1: the 1.6 wording the comparator deliberately does not compare.
  EXPECT_EQ(oracle.Run(".a", "1").error_message, "Cannot index number with string \"a\"");
}

TEST(LibjqOracle, CollectsOutputsErrorsAndCapsLongStreams) {
  OracleOptions options;
  options.max_outputs = 5;
  LibjqOracle oracle(options);
  RunOutcome ok = oracle.Run(".a, .b", "{\"a\":[1,2.5],\"b\":\"é\"}");
  EXPECT_TRUE(ok.compiled);
  EXPECT_EQ(ok.outputs, (std::vector<std::string>{"[1,2.5]", "\"é\""}));
  EXPECT_FALSE(ok.error);

  RunOutcome failed = oracle.Run("1, error(\"boom\"), 2", "null");
  EXPECT_EQ(failed.outputs, std::vector<std::string>{"1"});
  EXPECT_TRUE(failed.error);
  EXPECT_EQ(failed.error_message, "boom");

  RunOutcome object_error = oracle.Run("error({\"a\":1})", "null");
  EXPECT_TRUE(object_error.error);
  EXPECT_EQ(object_error.error_message, "{\"a\":1} (not a string)");

  RunOutcome capped = oracle.Run("range(100)", "null");
  EXPECT_EQ(capped.outputs.size(), 5u);
  EXPECT_TRUE(capped.truncated);

  // The cached state is reusable after a truncated run and after an error.
  EXPECT_EQ(oracle.Run("range(3)", "null").outputs.size(), 3u);
  EXPECT_EQ(oracle.Run("1, error(\"boom\"), 2", "null").outputs, std::vector<std::string>{"1"});

  RunOutcome syntax = oracle.Run(".[", "null");
  EXPECT_FALSE(syntax.compiled);
  EXPECT_NE(syntax.error_message.find("syntax error"), std::string::npos) << syntax.error_message;

  RunOutcome bad_input = oracle.Run(".", "{");
  EXPECT_FALSE(bad_input.compiled);
}

}  // namespace
}  // namespace wm::diff
