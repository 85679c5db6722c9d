// Path builtins: getpath, setpath, delpaths and tostream's event list, with jq's semantics
// (null grows into objects/arrays on set, deletions applied from the last path to the first).
// Paths of any length are walked iteratively: a user-built path cannot overflow the C++ stack.
#include <algorithm>
#include <cmath>
#include <string>

#include "runtime/eval/internal/builtin_impl.h"
#include "runtime/eval/internal/text.h"
#include "runtime/eval/ops.h"

namespace wm::eval_internal {
namespace {

bool Fail(Value* error, std::string message) {
  *error = Value::String(message);
  return false;
}

// Arrays never grow past this many elements through setpath (a hostile `.[1e15] = 1` would
// otherwise try to allocate petabytes).
constexpr double kMaxArrayIndex = 100'000'000;

bool SetSliceRange(const Value& t, const Value& key, const Value& v, Value* out, Value* error) {
  if (!v.IsArray()) return Fail(error, "A slice of an array can only be assigned another array");
  Value current;
  if (!ops::Index(t, key, &current, error)) return false;  // validates the bounds
  const Value* from = key.Find("start");
  const Value* to = key.Find("end");
  Array items = t.IsArray() ? t.AsArray() : Array{};
  double n = double(items.size());
  double s = (from && from->IsNumber()) ? from->AsNumber() : 0;
  double e = (to && to->IsNumber()) ? to->AsNumber() : n;
  if (s < 0) s += n;
  if (e < 0) e += n;
  s = std::clamp(std::floor(s), 0.0, n);
  e = std::clamp(std::ceil(e), s, n);
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
    if (i >= items.size()) items.resize(i + 1);
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

}  // namespace

bool PathGet(const Value& input, const Value& path, Value* out, Value* error) {
  if (path.IsNull()) {
    *out = input;
    return true;
  }
  if (!path.IsArray()) return Fail(error, "Path must be specified as an array");
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
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const Value& a, const Value& b) { return Compare(a, b) < 0; });
  for (const Value& path : sorted) {
    if (!path.IsArray()) return Fail(error, "Path must be specified as an array");
  }
  // Like jq: an empty path (it sorts first) deletes the whole input, whatever the other paths
  // are, so they are not applied (and cannot fail).
  if (!sorted.empty() && sorted[0].AsArray().empty()) {
    *out = Value::Null();
    return true;
  }
  Value current = input;
  for (size_t i = sorted.size(); i-- > 0;) {
    Value next;
    if (!DeleteOnePath(current, sorted[i], &next, error)) return false;
    current = std::move(next);
  }
  *out = std::move(current);
  return true;
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
