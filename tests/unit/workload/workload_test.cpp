// Workload arithmetic: Kubernetes quantities and the GPUs of one pod (requests, else limits,
// summed over containers, init containers counted when larger; refused quantities reported).
#include <gtest/gtest.h>

#include "runtime/value/json.h"
#include "runtime/workload/workload.h"

namespace wm::workload {
namespace {

Value Json(std::string_view text) {
  Value v;
  JsonError e;
  EXPECT_TRUE(ParseJson(text, &v, &e)) << e.message;
  return v;
}

TEST(Quantity, ParsesNumbersAndSuffixes) {
  EXPECT_EQ(ParseQuantity(Json("4")), 4.0);
  EXPECT_EQ(ParseQuantity(Json("\"4\"")), 4.0);
  EXPECT_EQ(ParseQuantity(Json("\"500m\"")), 0.5);
  EXPECT_EQ(ParseQuantity(Json("\"1Ki\"")), 1024.0);
  EXPECT_EQ(ParseQuantity(Json("\"2k\"")), 2000.0);
  EXPECT_FALSE(ParseQuantity(Json("\"four\"")));
  EXPECT_FALSE(ParseQuantity(Json("\"4 GPUs\"")));
  EXPECT_FALSE(ParseQuantity(Json("null")));
}

TEST(Quantity, FollowsTheKubernetesGrammar) {
  EXPECT_EQ(ParseQuantity(Json("\"1.5\"")), 1.5);
  EXPECT_EQ(ParseQuantity(Json("\".5\"")), 0.5);
  EXPECT_EQ(ParseQuantity(Json("\"+2\"")), 2.0);
  EXPECT_EQ(ParseQuantity(Json("\"1e3\"")), 1000.0);
  EXPECT_EQ(ParseQuantity(Json("\"2E-2\"")), 0.02);
  EXPECT_EQ(ParseQuantity(Json("\"1Pi\"")), 1125899906842624.0);
  EXPECT_DOUBLE_EQ(*ParseQuantity(Json("\"3n\"")), 3e-9);
  // strtod would take all of these; none is a Kubernetes quantity.
  for (const char* bad : {"\"NaN\"", "\"inf\"", "\"-Infinity\"", "\"0x10\"", "\"1e400\"",
                          "\"\"", "\".\"", "\"1..2\"", "\" 1\"", "\"1 \"", "\"1Kb\"", "\"1e\"",
                          "\"1e+\"", "\"1e1234\""}) {
    EXPECT_FALSE(ParseQuantity(Json(bad))) << bad;
  }
}

TEST(PodGpus, RequestsWinOverLimitsAndContainersAdd) {
  EXPECT_EQ(PodGpus(Json(R"({"containers":[
      {"resources":{"requests":{"nvidia.com/gpu":"2"},"limits":{"nvidia.com/gpu":"8"}}},
      {"resources":{"limits":{"nvidia.com/gpu":3}}},
      {"resources":{"requests":{"cpu":"1"}}}]})")),
            5.0);
}

TEST(PodGpus, InitContainerCountsWhenLarger) {
  EXPECT_EQ(PodGpus(Json(R"({"initContainers":[{"resources":{"limits":{"nvidia.com/gpu":"6"}}}],
      "containers":[{"resources":{"limits":{"nvidia.com/gpu":"4"}}}]})")),
            6.0);
  EXPECT_EQ(PodGpus(Json(R"({"initContainers":[{"resources":{"limits":{"nvidia.com/gpu":"1"}}}],
      "containers":[{"resources":{"limits":{"nvidia.com/gpu":"4"}}}]})")),
            4.0);
}

TEST(PodGpus, NoGpusAnywhere) {
  EXPECT_EQ(PodGpus(Json(R"({"containers":[{"name":"x"}]})")), 0.0);
  EXPECT_EQ(PodGpus(Json("null")), 0.0);
}

TEST(PodGpus, RefusedQuantitiesAreProblemsNamingContainerAndValue) {
  std::vector<std::string> problems;
  EXPECT_EQ(PodGpus(Json(R"({"containers":[
      {"name":"a","resources":{"limits":{"nvidia.com/gpu":"NaN"}}},
      {"name":"b","resources":{"requests":{"nvidia.com/gpu":"0x10"},"limits":{"nvidia.com/gpu":"1"}}},
      {"name":"c","resources":{"limits":{"nvidia.com/gpu":-2}}},
      {"name":"d","resources":{"limits":{"nvidia.com/gpu":true}}},
      {"name":"e","resources":{"limits":{"nvidia.com/gpu":null}}},
      {"name":"f","resources":{"limits":{"nvidia.com/gpu":"3"}}}]})"),
                    &problems),
            3.0);
  ASSERT_EQ(problems.size(), 4u);
  EXPECT_EQ(problems[0],
            "container \"a\": resources.limits[\"nvidia.com/gpu\"] \"NaN\" is not a Kubernetes "
            "quantity; its GPUs are not counted");
  // An invalid request is not replaced by the limit: the container is as Kubernetes refuses it.
  EXPECT_EQ(problems[1],
            "container \"b\": resources.requests[\"nvidia.com/gpu\"] \"0x10\" is not a Kubernetes "
            "quantity; its GPUs are not counted");
  EXPECT_EQ(problems[2],
            "container \"c\": resources.limits[\"nvidia.com/gpu\"] -2 is negative; its GPUs are not "
            "counted");
  EXPECT_EQ(problems[3],
            "container \"d\": resources.limits[\"nvidia.com/gpu\"] true is not a Kubernetes "
            "quantity; its GPUs are not counted");
  // Without a problem list the count is the same.
  EXPECT_EQ(PodGpus(Json(R"({"containers":[{"resources":{"limits":{"nvidia.com/gpu":"-1"}}}]})")),
            0.0);
}

}  // namespace
}  // namespace wm::workload
