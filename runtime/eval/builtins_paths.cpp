// Path builtins: getpath, setpath, delpaths and tostream's event list, with jq's semantics
// (null grows into objects/arrays on set, deletions applied from the last path to the first).
// Paths of any length are walked iteratively: a user-built path cannot overflow the C++ stack.
#include <algorithm>
#include <cmath>
#include <string>

#include "runtime/eval/internal/builtin_impl.h"
#include "runtime/eval/internal/step_budget.h"
#include "runtime/eval/internal/text.h"
#include "runtime/eval/ops.h"

namespace wm::eval_internal {
namespace {

// Arrays never grow past this many elements through setpath (a hostile `.[1e15] = 1` would
// otherwise try to allocate petabytes).
constexpr double kMaxArrayIndex = 100'000'000;

// The element range [*s, *e) that slice key {"start", "end"} (already validated by ops::Index)
// selects in an array of n elements: negative bounds count from the end, the start rounds down
// and the end up, both clamped to the array.
void SliceBounds(const Value& key, double n, double* s, double* e) {
  const Value* from = key.Find("start");
  const Value* to = key.Find("end");
  *s = (from && from->IsNumber()) ? from->AsNumber() : 0;
  *e = (to && to->IsNumber()) ? to->AsNumber() : n;
  if (std::isnan(*s)) *s = 0;  // as ops::Slice reads them
  if (std::isnan(*e)) *e = n;
  if (*s < 0) *s += n;
  if (*e < 0) *e += n;
  *s = std::clamp(std::floor(*s), 0.0, n);
  *e = std::clamp(std::ceil(*e), *s, n);
}

bool SetSliceRange(const Value& t, const Value& key, const Value& v, Value* out, Value* error) {
  if (!v.IsArray()) return Fail(error, "A slice of an array can only be assigned another array");
  Value current;
  if (!ops::Index(t, key, &current, error)) return false;  // validates the bounds
  Array items = t.IsArray() ? t.AsArray() : Array{};
  double n = double(items.size());
  double s, e;
  SliceBounds(key, n, &s, &e);
  Array result(items.begin(), items.begin() + size_t(s));
  result.insert(result.end(), v.AsArray().begin(), v.AsArray().end());
  result.insert(result.end(), items.begin() + size_t(e), items.end());
  *out = Value::MakeArray(std::move(result));
  return true;
}

// t[k] = v for one path component, once ops::Index has accepted (t, k).
bool SetOne(const Value& t, const Value& k, const Value& v, Value* out, Value* error) {
  if (k.IsString() && (t.IsObject() || t.IsNull())) {
    Value r = t.IsNull() ? Value::EmptyObject() : t;
    r.Set(k.AsString(), v);
    *out = std::move(r);
    return true;
  }
  if (k.IsNumber() && (t.IsArray() || t.IsNull())) {
    Value r = t.IsNull() ? Value::EmptyArray() : t;
    Array& items = r.MutableArray();
    double d = k.AsNumber();
    if (std::isnan(d)) return Fail(error, "Out of bounds negative array index");
    double index = std::floor(d);
    if (index < 0) index += double(items.size());
    if (index < 0) return Fail(error, "Out of bounds negative array index");
    if (index >= kMaxArrayIndex) return Fail(error, "Array index too large");
    size_t i = static_cast<size_t>(index);
    if (i >= items.size()) {
      // Growing by nulls is work and memory of the evaluation: `null | setpath([range(n)]; 1)`
      // builds n nested arrays of up to n elements, which the budget must stop early.
      uint64_t added = i + 1 - items.size();
      if (!ChargeWork(added, added * sizeof(Value), error)) return false;
      items.resize(i + 1);
    }
    items[i] = v;
    *out = std::move(r);
    return true;
  }
  if (k.IsObject() && (t.IsArray() || t.IsNull())) return SetSliceRange(t, k, v, out, error);
  return Fail(error, std::string("Cannot update field at object index of ") + KindName(t.kind()));
}

bool DeleteOne(const Value& t, const Value& k, Value* out, Value* error) {
  if (t.IsNull()) {
    *out = t;
    return true;
  }
  if (t.IsObject()) {
    if (!k.IsString()) return Fail(error, std::string("Cannot delete ") + KindName(k.kind()) + " field of object");
    Value r = t;
    r.Erase(k.AsString());
    *out = std::move(r);
    return true;
  }
  if (t.IsArray()) {
    const Array& items = t.AsArray();
    if (k.IsNumber()) {
      double index = std::floor(k.AsNumber());
      if (index < 0) index += double(items.size());
      if (std::isnan(index) || index < 0 || index >= double(items.size())) {
        if (std::isnan(index) || index < 0) return Fail(error, "Out of bounds negative array index");
        *out = t;
        return true;
      }
      Array r = items;
      r.erase(r.begin() + size_t(index));
      *out = Value::MakeArray(std::move(r));
      return true;
    }
    if (k.IsObject()) return SetSliceRange(t, k, Value::EmptyArray(), out, error);
    return Fail(error, std::string("Cannot delete ") + KindName(k.kind()) + " element of array");
  }
  return Fail(error, std::string("Cannot delete fields from ") + KindName(t.kind()));
}

bool DeleteOnePath(const Value& input, const Value& path, Value* out, Value* error) {
  if (!path.IsArray()) return Fail(error, "Path must be specified as an array");
  const Array& p = path.AsArray();
  if (p.empty()) {
    *out = Value::Null();
    return true;
  }
  std::vector<Value> chain{input};
  for (size_t i = 0; i + 1 < p.size(); ++i) {
    Value child;
    if (!ops::Index(chain.back(), p[i], &child, error)) return false;
    if (child.IsNull()) {  // nothing below: nothing to delete
      *out = input;
      return true;
    }
    chain.push_back(std::move(child));
  }
  Value updated;
  if (!DeleteOne(chain.back(), p.back(), &updated, error)) return false;
  for (size_t i = p.size() - 1; i-- > 0;) {
    Value parent;
    if (!SetOne(chain[i], p[i], updated, &parent, error)) return false;
    updated = std::move(parent);
  }
  *out = std::move(updated);
  return true;
}

// delpaths as jq computes it: every path refers to the input as it was, so the deletions of
// one call do not shift each other (`del(.[0], .[2])` removes the first and third elements, and
// a negative index or a slice counts from the original length). Each path first replaces what
// it deletes with a tombstone (a string cell compared by identity, which no input can contain);
// then the containers holding tombstones are compacted, deepest first. Paths are taken in sorted
// order, so a path below an already deleted value finds the tombstone and does nothing, as in jq;
// an index past either end deletes nothing. A slice in the middle of a path (not its last key)
// is applied on its own, as before.
class Deletion {
 public:
  explicit Deletion(const Value& input) : root_(input), tombstone_(Value::String("(deleted)")) {}

  bool Mark(const Array& path, Value* error) {
    for (size_t i = 0; i + 1 < path.size(); ++i) {
      if (path[i].IsObject()) {
        Value next;
        if (!DeleteOnePath(root_, Value::MakeArray(path), &next, error)) return false;
        root_ = std::move(next);
        return true;
      }
    }
    std::vector<Value> chain;
    if (!Walk(path, path.size() - 1, &chain, error)) return false;
    if (chain.empty()) return true;  // below a missing or deleted value
    if (!MarkIn(&chain.back(), path.back(), error)) return false;
    parents_.push_back(Value::MakeArray(Array(path.begin(), path.end() - 1)));
    return Rebuild(path, &chain, error);
  }

  bool Sweep(Value* out, Value* error) {
    // Deepest first: compacting a container renumbers its children, which shorter prefixes never
    // go through, while longer ones have been handled already.
    std::sort(parents_.begin(), parents_.end(), [](const Value& a, const Value& b) {
      if (a.AsArray().size() != b.AsArray().size()) return a.AsArray().size() > b.AsArray().size();
      return Compare(a, b) < 0;
    });
    parents_.erase(std::unique(parents_.begin(), parents_.end(),
                               [](const Value& a, const Value& b) { return Compare(a, b) == 0; }),
                   parents_.end());
    for (const Value& parent : parents_) {
      const Array& prefix = parent.AsArray();
      std::vector<Value> chain;
      if (!Walk(prefix, prefix.size(), &chain, error)) return false;
      if (chain.empty()) continue;
      Compact(&chain.back());
      if (!Rebuild(prefix, &chain, error, prefix.size())) return false;
    }
    *out = std::move(root_);
    return true;
  }

 private:
  // The containers along path[0..depth): chain[0] is the root (moved out of root_, so that
  // unshared containers are updated in place), chain[i] the value at path[0..i). Empty (and
  // root_ untouched) when the walk reaches null or a tombstone.
  bool Walk(const Array& path, size_t depth, std::vector<Value>* chain, Value* error) {
    Value current = root_;
    std::vector<Value> walked{current};
    for (size_t i = 0; i < depth; ++i) {
      Value child;
      if (!ops::Index(walked.back(), path[i], &child, error)) return false;
      if (child.IsNull() || Identical(child, tombstone_)) return true;
      walked.push_back(std::move(child));
    }
    root_ = Value();
    walked[0] = std::move(current);
    *chain = std::move(walked);
    return true;
  }

  // Puts the containers of a walk back, from the deepest up, into root_.
  bool Rebuild(const Array& path, std::vector<Value>* chain, Value* error, size_t depth = SIZE_MAX) {
    if (depth == SIZE_MAX) depth = path.size() - 1;
    for (size_t i = depth; i-- > 0;) {
      Value parent;
      Value child = std::move((*chain)[i + 1]);
      Value container = std::move((*chain)[i]);
      if (!SetOne(container, path[i], child, &parent, error)) return false;
      (*chain)[i] = std::move(parent);
    }
    root_ = std::move((*chain)[0]);
    return true;
  }

  bool MarkIn(Value* t, const Value& k, Value* error) {
    if (t->IsNull()) return true;  // nothing to delete
    if (t->IsObject()) {
      if (!k.IsString()) return Fail(error, std::string("Cannot delete ") + KindName(k.kind()) + " field of object");
      if (t->Find(k.AsString()) != nullptr) t->Set(k.AsString(), tombstone_);
      return true;
    }
    if (!t->IsArray()) return Fail(error, std::string("Cannot delete fields from ") + KindName(t->kind()));
    double n = double(t->AsArray().size());
    double from, to;
    if (k.IsNumber()) {
      from = std::floor(k.AsNumber());
      if (from < 0) from += n;
      to = from + 1;
    } else if (k.IsObject()) {
      Value ignored;
      if (!ops::Index(*t, k, &ignored, error)) return false;  // validates the bounds
      SliceBounds(k, n, &from, &to);
    } else {
      return Fail(error, std::string("Cannot delete ") + KindName(k.kind()) + " element of array");
    }
    if (std::isnan(from) || from >= to) return true;
    Array& items = t->MutableArray();
    for (double i = std::max(from, 0.0); i < to && i < n; ++i) items[size_t(i)] = tombstone_;
    return true;
  }

  void Compact(Value* t) {
    if (t->IsArray()) {
      Array& items = t->MutableArray();
      items.erase(std::remove_if(items.begin(), items.end(),
                                 [&](const Value& v) { return Identical(v, tombstone_); }),
                  items.end());
    } else if (t->IsObject()) {
      std::vector<std::string> doomed;
      for (const Member& m : t->AsObject()) {
        if (Identical(m.second, tombstone_)) doomed.emplace_back(m.first.AsString());
      }
      for (const std::string& key : doomed) t->Erase(key);
    }
  }

  Value root_;
  Value tombstone_;
  Array parents_;  // the path prefixes whose containers hold tombstones
};

}  // namespace

bool PathGet(const Value& input, const Value& path, Value* out, Value* error) {
  if (path.IsNull()) {
    *out = input;
    return true;
  }
  if (!path.IsArray()) return Fail(error, "Path must be specified as an array");
  if (!ChargeWork(path.AsArray().size(), 0, error)) return false;
  Value current = input;
  for (const Value& k : path.AsArray()) {
    if (current.IsNull()) break;  // getpath on a missing branch is null
    Value next;
    if (!ops::Index(current, k, &next, error)) return false;
    current = std::move(next);
  }
  *out = std::move(current);
  return true;
}

bool PathSet(const Value& input, const Value& path, const Value& value, Value* out, Value* error) {
  if (!path.IsArray()) return Fail(error, "Path must be specified as an array");
  const Array& p = path.AsArray();
  if (p.empty()) {
    *out = value;
    return true;
  }
  if (!ChargeWork(2 * p.size(), p.size() * sizeof(Value), error)) return false;  // walk and rebuild
  std::vector<Value> chain{input};
  for (size_t i = 0; i + 1 < p.size(); ++i) {
    Value child;
    if (!ops::Index(chain.back(), p[i], &child, error)) return false;
    chain.push_back(std::move(child));
  }
  Value probe;  // jq reads the last component first, so its type errors come from indexing
  if (!ops::Index(chain.back(), p.back(), &probe, error)) return false;
  Value updated = value;
  for (size_t i = p.size(); i-- > 0;) {
    Value parent;
    Value container = std::move(chain[i]);
    chain[i] = Value();  // drop our reference so copy-on-write can update in place
    if (!SetOne(container, p[i], updated, &parent, error)) return false;
    updated = std::move(parent);
  }
  *out = std::move(updated);
  return true;
}

bool PathDelete(const Value& input, const Value& paths, Value* out, Value* error) {
  if (!paths.IsArray()) return Fail(error, "Paths must be specified as an array");
  Array sorted = paths.AsArray();
  uint64_t components = sorted.size();
  for (const Value& path : sorted) {
    if (!path.IsArray()) return Fail(error, std::string("Path must be specified as array, not ") + KindName(path.kind()));
    components += path.AsArray().size();
  }
  if (!ChargeWork(components, 0, error)) return false;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const Value& a, const Value& b) { return Compare(a, b) < 0; });
  // Like jq: an empty path (it sorts first) deletes the whole input, whatever the other paths
  // are, so they are not applied (and cannot fail).
  if (!sorted.empty() && sorted[0].AsArray().empty()) {
    *out = Value::Null();
    return true;
  }
  Deletion deletion(input);
  for (const Value& path : sorted) {
    if (!deletion.Mark(path.AsArray(), error)) return false;
  }
  return deletion.Sweep(out, error);
}

bool ToStreamEvents(const Value& input, Value* out, Value* error) {
  // Post-order walk: a leaf (scalar or empty container) yields [path, leaf]; a non-empty
  // container yields [path + last key] once all its children are done.
  struct Frame {
    Value value;
    Array path;
    size_t next = 0;
  };
  Array events;
  std::vector<Frame> stack;
  stack.push_back({input, {}, 0});
  while (!stack.empty()) {
    Frame& f = stack.back();
    size_t count = f.value.IsArray() ? f.value.AsArray().size()
                   : f.value.IsObject() ? f.value.AsObject().size() : 0;
    if (count == 0) {
      events.push_back(Value::MakeArray({Value::MakeArray(f.path), f.value}));
      stack.pop_back();
      continue;
    }
    if (f.next == count) {
      Array closing = f.path;
      closing.push_back(f.value.IsArray() ? Value::Number(double(count - 1))
                                          : f.value.AsObject().back().first);
      events.push_back(Value::MakeArray({Value::MakeArray(std::move(closing))}));
      stack.pop_back();
      continue;
    }
    size_t i = f.next++;
    Frame child;
    child.path = f.path;
    if (f.value.IsArray()) {
      child.path.push_back(Value::Number(double(i)));
      child.value = f.value.AsArray()[i];
    } else {
      child.path.push_back(f.value.AsObject()[i].first);
      child.value = f.value.AsObject()[i].second;
    }
    stack.push_back(std::move(child));  // invalidates f
  }
  (void)error;
  *out = Value::MakeArray(std::move(events));
  return true;
}

}  // namespace wm::eval_internal
