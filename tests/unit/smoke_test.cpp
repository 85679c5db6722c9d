// Smoke test: the value model links and has the layout native code relies on.
#include <gtest/gtest.h>

#include "runtime/value/value.h"

TEST(Smoke, ValueIsSixteenBytes) { EXPECT_EQ(sizeof(wm::Value), 16u); }
