// FnRef<R(A...)>: a non-owning, non-allocating reference to a callable, for continuations that
// never outlive the call they are passed to (the interpreter's and the view engine's
// continuation-passing evaluators). Two words: the callable's address and a call thunk.
#pragma once

#include <type_traits>
#include <utility>

namespace wm {

template <class Sig>
class FnRef;

template <class R, class... A>
class FnRef<R(A...)> {
 public:
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, FnRef>>>
  FnRef(F&& f)  // NOLINT: implicit on purpose, lambdas convert at call sites
      : obj_(const_cast<void*>(static_cast<const void*>(&f))),
        call_([](void* o, A... a) -> R {
          return (*static_cast<std::remove_reference_t<F>*>(o))(std::forward<A>(a)...);
        }) {}
  R operator()(A... a) const { return call_(obj_, std::forward<A>(a)...); }

 private:
  void* obj_;
  R (*call_)(void*, A...);
};

}  // namespace wm
