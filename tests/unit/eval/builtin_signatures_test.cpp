// The type signatures of runtime/ir/builtins.def agree with what the interpreter's builtins do:
// each value builtin is called on sample inputs of every JSON type, with arguments drawn from its
// argument types. An input type outside the signature must always fail, an input type inside it
// must succeed for some sample, and every result must have a type the signature lists.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runtime/eval/ops.h"
#include "runtime/ir/builtins.h"
#include "runtime/value/json.h"

namespace wm {
namespace {

ir::TypeSet TypeOf(const Value& v) {
  switch (v.kind()) {
    case Kind::Null: return ir::kTypeNull;
    case Kind::False:
    case Kind::True: return ir::kTypeBoolean;
    case Kind::Number: return ir::kTypeNumber;
    case Kind::String: return ir::kTypeString;
    case Kind::Array: return ir::kTypeArray;
    case Kind::Object: return ir::kTypeObject;
  }
  return ir::kTypeNone;
}

// A few values of each type, including what the string, time and path builtins need to succeed.
const std::vector<Value>& Samples() {
  static const std::vector<Value> samples = [] {
    std::vector<Value> values;
    for (const char* json :
         {"null", "false", "true", "0", "1.5", "-2", "\"\"", "\"12\"", "\"a,b\"", "\",\"",
          "\"2015-03-05T23:51:47Z\"", "\"%Y-%m-%dT%H:%M:%SZ\"", "[]", "[1,\"a\"]", "[[\"a\"]]",
          "[2015,2,5,23,51,47,4,63]", "{}", "{\"a\":1}"}) {
      Value v;
      JsonError error;
      EXPECT_TRUE(ParseJson(json, &v, &error)) << json;
      values.push_back(v);
    }
    return values;
  }();
  return samples;
}

std::vector<Value> SamplesOf(ir::TypeSet types) {
  std::vector<Value> out;
  for (const Value& v : Samples()) {
    if (TypeOf(v) & types) out.push_back(v);
  }
  return out;
}

// Calls `visit(args)` for every combination of sample arguments the signature allows.
template <typename Visit>
void ForEachArguments(const ir::BuiltinSignature& sig, std::vector<Value>* args, Visit&& visit) {
  if (args->size() == sig.arity) {
    visit(*args);
    return;
  }
  for (const Value& v : SamplesOf(sig.args[args->size()])) {
    args->push_back(v);
    ForEachArguments(sig, args, visit);
    args->pop_back();
  }
}

TEST(BuiltinSignatures, AgreeWithTheInterpreter) {
  for (const ir::BuiltinInfo& b : ir::AllBuiltins()) {
    if (b.kind == ir::BuiltinKind::kGenerator) continue;  // the engines loop over these
    const ir::BuiltinSignature& sig = ir::BuiltinSignatureOf(b.id);
    ir::TypeSet succeeded_on = ir::kTypeNone;
    for (const Value& input : Samples()) {
      std::vector<Value> args;
      ForEachArguments(sig, &args, [&](const std::vector<Value>& call_args) {
        Value out, error;
        bool ok = ops::CallBuiltin(b.id, input, call_args.data(), call_args.size(), &out, &error);
        if (!ok) return;
        succeeded_on |= TypeOf(input);
        EXPECT_TRUE(TypeOf(input) & sig.input)
            << b.name << " succeeded on " << ToJson(input) << " outside its signature " << b.signature;
        EXPECT_TRUE(TypeOf(out) & sig.output)
            << b.name << " on " << ToJson(input) << " gave " << ToJson(out) << ", not in " << b.signature;
      });
    }
    if (sig.output != ir::kTypeNone) {
      EXPECT_EQ(succeeded_on, sig.input)
          << b.name << " succeeded on " << ir::TypeSetText(succeeded_on) << ", its signature says "
          << b.signature;
    }
  }
}

TEST(BuiltinSignatures, CallBuiltinChecksTheArityOfTheRow) {
  Value out, error;
  Value two = Value::Number(2);
  EXPECT_FALSE(ops::CallBuiltin(ir::BuiltinId::Pow, Value(), &two, 1, &out, &error));
  EXPECT_EQ(ToJson(error), "\"pow: wrong number of arguments\"");
  EXPECT_FALSE(ops::CallBuiltin(ir::BuiltinId::Count, Value(), nullptr, 0, &out, &error));
  EXPECT_EQ(ToJson(error), "\"unknown builtin " + std::to_string(ir::kBuiltinCount) + "\"");
}

}  // namespace
}  // namespace wm
