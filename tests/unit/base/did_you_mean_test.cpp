// Tests of base/did_you_mean.h: the edit distance (with and without case) and the suggestion rule.
#include "base/did_you_mean.h"

#include <gtest/gtest.h>

namespace wm::base {
namespace {

TEST(EditDistance, CountsInsertionsDeletionsAndSubstitutions) {
  EXPECT_EQ(EditDistance("kitten", "sitting"), 3u);
  EXPECT_EQ(EditDistance("", "abc"), 3u);
  EXPECT_EQ(EditDistance("abc", ""), 3u);
  EXPECT_EQ(EditDistance("same", "same"), 0u);
  EXPECT_EQ(EditDistance("replicas", "replcas"), 1u);
}

TEST(EditDistance, CaseCountsUnlessIgnored) {
  EXPECT_EQ(EditDistance("Replicas", "replicas"), 1u);
  EXPECT_EQ(EditDistance("Replicas", "replicas", {.ignore_ascii_case = true}), 0u);
  EXPECT_EQ(EditDistance("PODS", "pod", {.ignore_ascii_case = true}), 1u);
}

TEST(ClosestMatch, PicksTheNearestCandidateWithinTheLimit) {
  EXPECT_EQ(ClosestMatch("podSelectr", {"podSelector", "podSpecPath"}), "podSelector");
  EXPECT_EQ(ClosestMatch("zzzzzz", {"ownerRef", "name"}), "");
  // Case-only differences win over a closer-looking candidate.
  EXPECT_EQ(ClosestMatch("ownerref", {"ownerRe", "ownerRef"}), "ownerRef");
  // Ties go to the earlier candidate.
  EXPECT_EQ(ClosestMatch("ab", {"ax", "ay"}), "ax");
}

TEST(ClosestMatch, LimitIsAboutOneEditPerThreeCharacters) {
  EXPECT_EQ(SuggestionLimit("ab"), 2u);
  EXPECT_EQ(SuggestionLimit("twelve_chars"), 4u);
  EXPECT_EQ(ClosestMatch("abcdef", {"abcxyz"}), "");      // 3 edits > 2
  EXPECT_EQ(ClosestMatch("abcdefghi", {"abcdefxyz"}), "abcdefxyz");  // 3 edits <= 3
}

}  // namespace
}  // namespace wm::base
