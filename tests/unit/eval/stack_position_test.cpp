// The stack guards of the interpreter and native code measure the machine stack through
// eval_internal::StackPosition(). It must be an address on the thread's real stack: under ASan's
// use-after-return detection a local variable lives on a heap "fake stack", and a guard reading a
// local's address never saw native recursion fill the real stack (an eval_fuzzer finding:
// `until(. >= 9; . + 0)` on the JIT overflowed the stack instead of stopping at the guard).
#include <gtest/gtest.h>

#include <pthread.h>

#include <thread>

#include "runtime/eval/internal/step_budget.h"

namespace wm {
namespace {

bool OnThisThreadsStack(const char* p) {
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return false;
  void* low = nullptr;
  size_t size = 0;
  bool ok = pthread_attr_getstack(&attr, &low, &size) == 0;
  pthread_attr_destroy(&attr);
  const char* bottom = static_cast<const char*>(low);
  return ok && p >= bottom && p < bottom + size;
}

__attribute__((noinline)) const char* DeeperPosition(int levels) {
  volatile char pad[256];
  pad[0] = static_cast<char>(levels);
  if (levels == 0) return eval_internal::StackPosition();
  const char* p = DeeperPosition(levels - 1);
  return pad[0] >= 0 ? p : nullptr;
}

TEST(StackPosition, IsOnTheThreadsRealStack) {
  EXPECT_TRUE(OnThisThreadsStack(eval_internal::StackPosition()));
  bool on_stack = false;
  std::thread worker([&] { on_stack = OnThisThreadsStack(eval_internal::StackPosition()); });
  worker.join();
  EXPECT_TRUE(on_stack);
}

TEST(StackPosition, GrowsDownWithRecursion) {
  const char* here = eval_internal::StackPosition();
  const char* deeper = DeeperPosition(64);
  ASSERT_NE(deeper, nullptr);
  EXPECT_LT(deeper, here);
  EXPECT_GE(static_cast<size_t>(here - deeper), 64u * 256u);  // at least the padding of each level
}

}  // namespace
}  // namespace wm
