// Resolver IR -> LLVM IR in continuation-passing style (the engine model of DESIGN.md). Every
// generator produces its outputs by calling a continuation `i32 k(ctx, frame, v, env)` once per
// output; the returned status (ok / stop / error / break) propagates. Continuations are internal
// functions known at compile time, so every call is direct and LLVM's inliner turns path-shaped
// filters into straight loops. Functions of the program are inlined at compile time, each inlined
// activation with its own slot range in one frame; functions on a call cycle (TailCallFacts says
// which, as for the interpreter) become LLVM functions with a frame per activation.
// Runtime services come only through the WmAbi table in the context (runtime/eval/native_abi.h).
//
// Agreement with the interpreter (runtime/eval/interpreter.cpp) is by construction: the same
// IR conventions (Var/Break/CallParam immediates are ir::ScopedIndex(levels, index) over lexical parents),
// the same generator orders, one step of fuel per node evaluation, per destructuring and per range
// element, and the same call-depth accounting (Calls count, closure invocations do not).
//
// Files: emit.cpp (entry points, the node dispatcher Gen/GenNode, ABI calls), emit_values.cpp,
// emit_control.cpp, emit_builtins.cpp, emit_paths.cpp, emit_calls.cpp, emit_limits.cpp; the class
// is declared in internal/program_emitter.h.
#include "compiler/codegen/internal/program_emitter.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

namespace wm::codegen::internal {

std::string ProgramEmitter::EmitEntry(const std::string& symbol) {
  if (program_.functions.empty() || program_.functions[0].body == ir::kNoNode) {
    return "program has no entry function";
  }
  // The program body runs in a continuation-shaped function; the entry allocates the frame
  // once the total slot count (known only after inlining) is final.
  llvm::Function* emit_output = NewFunction("emit");
  {
    FunctionScope scope(*this, emit_output);
    builder_.CreateRet(CallAbi(WM_ABI_EMIT, {ctx_, emit_output->getArg(2)}));
  }
  llvm::Function* body = NewFunction("body");
  NativeFrame root_frame;
  root_frame.next_slot = SlotsOf(program_.functions[0]);
  frame_info_ = &root_frame;
  Activation root;
  root.function = 0;
  root.slot_base = 0;
  root.home = &root_frame;
  root.id = ++activation_ids_;
  if (root_frame.next_slot > kMaxFrameSlots) return "too many variables for native code";
  {
    FunctionScope scope(*this, body);
    llvm::Value* status = Gen(program_.functions[0].body, root, body->getArg(2),
                              Cont{emit_output, llvm::ConstantPointerNull::get(ptr_)});
    if (!error_.empty()) return error_;
    builder_.CreateRet(status);
  }
  if (!error_.empty()) return error_;

  auto* entry_type = llvm::FunctionType::get(i32_, {ptr_, ptr_}, false);
  llvm::Function* entry =
      llvm::Function::Create(entry_type, llvm::Function::ExternalLinkage, symbol, module_);
  SetAttributes(entry);
  {
    FunctionScope scope(*this, entry);
    uint32_t slots = root_frame.next_slot == 0 ? 1 : root_frame.next_slot;
    llvm::Value* frame = builder_.CreateAlloca(value_, llvm::ConstantInt::get(i32_, slots), "frame");
    frame_ = frame;
    if (has_paths_) ZeroFrame(frame, slots);
    CallAbi(WM_ABI_BIND_GLOBALS,
            {ctx_, frame, llvm::ConstantInt::get(i32_, program_.functions[0].num_slots)});
    builder_.CreateRet(builder_.CreateCall(body, {ctx_, frame, entry->getArg(1),
                                                  llvm::ConstantPointerNull::get(ptr_)}));
  }
  return error_;
}

void ProgramEmitter::SetAttributes(llvm::Function* fn) {
  fn->addFnAttr(llvm::Attribute::NoUnwind);
  // The AOT object is linked with -nostdlib: never turn loops into memset/memcpy calls.
  fn->addFnAttr("no-builtins");
}

llvm::Function* ProgramEmitter::NewFunction(const char* what) {
  llvm::Function* fn = llvm::Function::Create(cont_type_, llvm::Function::InternalLinkage,
                                              prefix_ + what, module_);
  SetAttributes(fn);
  return fn;
}

bool ProgramEmitter::Fail(std::string message) {
  if (error_.empty()) error_ = std::move(message);
  return false;
}

llvm::Value* ProgramEmitter::InvariantLoad(llvm::Value* pointer, const char* name) {
  llvm::LoadInst* load = builder_.CreateLoad(ptr_, pointer, name);
  load->setMetadata(llvm::LLVMContext::MD_invariant_load, llvm::MDNode::get(context_, {}));
  return load;
}

llvm::Value* ProgramEmitter::CallAbi(WmAbiSlot slot, llvm::ArrayRef<llvm::Value*> args) {
  CheckNoDeferredSteps("a runtime call");
  llvm::Value* abi = InvariantLoad(ctx_, "abi");
  llvm::Value* fn = InvariantLoad(BytePtr(abi, 8 + 8 * static_cast<uint64_t>(slot)), "abi_fn");
  return builder_.CreateCall(AbiType(slot), fn, args);
}

llvm::FunctionType* ProgramEmitter::AbiType(WmAbiSlot slot) {
  auto fn = [&](llvm::Type* result, std::vector<llvm::Type*> params) {
    return llvm::FunctionType::get(result, params, false);
  };
  switch (slot) {
    case WM_ABI_COPY: return fn(void_, {ptr_, ptr_});
    case WM_ABI_RELEASE: return fn(void_, {ptr_});
    case WM_ABI_INDEX: return fn(ptr_, {ptr_, ptr_, ptr_, ptr_});
    case WM_ABI_SLICE: return fn(i32_, {ptr_, ptr_, ptr_, ptr_, ptr_});
    case WM_ABI_ITERATE: return fn(i32_, {ptr_, ptr_, ptr_, ptr_, ptr_});
    case WM_ABI_BINARY: return fn(i32_, {ptr_, i32_, ptr_, ptr_, ptr_});
    case WM_ABI_NEGATE: return fn(i32_, {ptr_, ptr_, ptr_});
    case WM_ABI_CALL_BUILTIN: return fn(i32_, {ptr_, i32_, ptr_, ptr_, i32_, ptr_});
    case WM_ABI_FORMAT: return fn(i32_, {ptr_, i32_, ptr_, ptr_});
    case WM_ABI_STRING_INTERP: return fn(i32_, {ptr_, i32_, ptr_, ptr_});
    case WM_ABI_MAKE_OBJECT: return fn(i32_, {ptr_, ptr_, i32_, ptr_});
    case WM_ABI_ARRAY_NEW: return fn(void_, {ptr_});
    case WM_ABI_ARRAY_PUSH: return fn(i32_, {ptr_, ptr_, ptr_});
    case WM_ABI_EMIT: return fn(i32_, {ptr_, ptr_});
    case WM_ABI_RAISE_ERROR: return fn(i32_, {ptr_, ptr_});
    case WM_ABI_LIMIT_EXCEEDED: return fn(i32_, {ptr_, i32_});
    case WM_ABI_CATCH_ERROR: return fn(i32_, {ptr_, ptr_});
    case WM_ABI_BIND_GLOBALS: return fn(void_, {ptr_, ptr_, i32_});
    case WM_ABI_RECURSE_ALL: return fn(i32_, {ptr_, ptr_, ptr_, ptr_, ptr_});
    case WM_ABI_CHECK_RANGE_ARGS: return fn(i32_, {ptr_, ptr_, i32_});
    case WM_ABI_CHECK_PATTERN_KEY: return fn(i32_, {ptr_, ptr_, ptr_});
    case WM_ABI_CHECK_OBJECT_KEY: return fn(i32_, {ptr_, ptr_});
    case WM_ABI_CHECK_STACK: return fn(i32_, {ptr_});
    case WM_ABI_CALL_ON_NEW_STACK: return fn(i32_, {ptr_, ptr_, ptr_, ptr_, ptr_});
    case WM_ABI_PATH_INDEX: return fn(i32_, {ptr_, ptr_, ptr_, ptr_});
    case WM_ABI_PATH_SLICE: return fn(i32_, {ptr_, ptr_, ptr_, ptr_, ptr_});
    case WM_ABI_PATH_ITERATE: return fn(i32_, {ptr_, ptr_, ptr_, ptr_, ptr_});
    case WM_ABI_PATH_RECURSE: return fn(i32_, {ptr_, ptr_, ptr_, ptr_, ptr_});
    case WM_ABI_PATH_GETPATH: return fn(i32_, {ptr_, ptr_, ptr_, ptr_, ptr_});
    case WM_ABI_PATH_VAR: return fn(void_, {ptr_, ptr_, ptr_, ptr_});
    case WM_ABI_PATH_CHECK: return fn(i32_, {ptr_, ptr_});
    case WM_ABI_NUM_SLOTS: break;
  }
  return fn(void_, {});
}

llvm::Value* ProgramEmitter::Gen(NodeId n, Activation& act, llvm::Value* in, Cont k, bool path) {
  if (!error_.empty()) return Status(WM_STATUS_ERROR);
  if (n == ir::kNoNode || n >= program_.nodes.size()) {
    Fail("node index out of range");
    return Status(WM_STATUS_ERROR);
  }
  if (++generated_nodes_ > kMaxGeneratedNodes) {
    Fail("program too large for native code after inlining functions");
    return Status(WM_STATUS_ERROR);
  }
  if (gen_depth_ >= kMaxGenDepth) {
    Fail("expression nested too deeply for native code");
    return Status(WM_STATUS_ERROR);
  }
  ++gen_depth_;
  auto generate = [&] { return path ? GenPathNode(n, act, in, k) : GenNode(n, act, in, k); };
  llvm::Value* status = nullptr;
  if (StartsWithChildStep(n, act, path)) {
    DeferStep();  // charged with the first child's step
    status = generate();
  } else {
    status = IfOk(Tick(), generate);
  }
  --gen_depth_;
  return status;
}

bool ProgramEmitter::StartsWithChildStep(NodeId n, const Activation& act, bool path) const {
  if (path) return false;  // path mode keeps one check per node
  const ir::Node& node = program_.nodes[n];
  switch (node.op) {
    case Op::Comma: case Op::Index: case Op::Slice: case Op::Iterate: case Op::Neg: case Op::Binary:
    case Op::And: case Op::Or: case Op::Alternative: case Op::Try: case Op::Object:
    case Op::StringInterp: case Op::CallBuiltin: case Op::Reduce: case Op::Foreach: case Op::Label:
    case Op::GetPathGen:
      return true;
    case Op::Pipe: case Op::If: case Op::Bind:
      return act.tail_nodes.count(n) == 0;  // TakeThen's form copies values first
    case Op::Error:
      return !node.kids.empty() && node.kids[0] != ir::kNoNode;
    case Op::CallParam: {
      // An inlined closure argument is generated in place (a closure in a call record is called).
      const Activation* scope = &act;
      for (uint32_t levels = ir::ScopeLevels(node.a); levels > 0 && scope != nullptr; --levels) {
        scope = scope->lexical;
      }
      uint32_t index = ir::ScopeIndex(node.a);
      return scope != nullptr && !scope->closures_in_record && scope->closure_args != nullptr &&
             index < scope->closure_args->size() && scope->caller != nullptr;
    }
    default:
      // Calls check the depth first, Collect and Format call the runtime first, leaves have no
      // child.
      return false;
  }
}

llvm::Value* ProgramEmitter::GenNode(NodeId n, Activation& act, llvm::Value* in, Cont k, bool path) {
  const ir::Node& node = program_.nodes[n];
  auto kid = [&](size_t i) { return i < node.kids.size() ? node.kids[i] : ir::kNoNode; };
  switch (node.op) {
    case Op::Identity:
    case Op::Const:
    case Op::Loc:
    case Op::Var:
      return CallCont(k, SimpleValue(n, act, in));
    case Op::Empty:
      return Status(WM_STATUS_OK);
    case Op::Pipe:
      if (act.tail_nodes.count(n) != 0) {
        return TakeThen(kid(0), act, in, path, [&](llvm::Value* v) { return Gen(kid(1), act, v, k, path); });
      }
      return ForEach(kid(0), act, in, {k.env}, [&](llvm::Value* v, const Values& c) {
        return Gen(kid(1), act, v, Cont{k.fn, c[0]}, path);
      }, true, path, /*body_ticks_first=*/true);
    case Op::Comma: {
      llvm::Value* first = Gen(kid(0), act, in, k, path);
      return IfOk(first, [&] { return Gen(kid(1), act, in, k, path); });
    }
    case Op::Index:
      // jq evaluates the key outside the target: for each key, for each target.
      return Cartesian({kid(0), kid(1)}, {1, 0}, act, in, {k.env},
                       [&](const Values& v, const Values& c) {
                         llvm::Value* scratch = OwnedSlot();
                         llvm::Value* result =
                             CallAbi(WM_ABI_INDEX, {ctx_, v[0], v[1], scratch});
                         llvm::Value* failed = builder_.CreateIsNull(result);
                         return IfElse(
                             failed, [&] { return Status(WM_STATUS_ERROR); },
                             [&] {
                               llvm::Value* s = CallCont(Cont{k.fn, c[0]}, result);
                               Release(scratch);
                               return s;
                             });
                       });
    case Op::Slice:
      return Cartesian({kid(0), kid(1), kid(2)}, {1, 2, 0}, act, in, {k.env},
                       [&](const Values& v, const Values& c) {
                         llvm::Value* out = OwnedSlot();
                         llvm::Value* s = CallAbi(WM_ABI_SLICE, {ctx_, v[0], v[1], v[2], out});
                         return WithOwned(s, out, Cont{k.fn, c[0]});
                       });
    case Op::Iterate:
      return ForEach(kid(0), act, in, {k.env}, [&](llvm::Value* v, const Values& c) {
        return IterateOver(v, Cont{k.fn, c[0]});
      });
    case Op::RecurseAll:
      return CallAbi(WM_ABI_RECURSE_ALL, {ctx_, frame_, in, k.fn, k.env});
    case Op::Neg:
      return ForEach(kid(0), act, in, {k.env}, [&](llvm::Value* v, const Values& c) {
        return Negate(v, Cont{k.fn, c[0]});
      });
    case Op::Binary:
      // jq: for each output of the right operand (outer), each output of the left.
      return Cartesian({kid(0), kid(1)}, {1, 0}, act, in, {k.env},
                       [&](const Values& v, const Values& c) {
                         return BinaryOp(static_cast<ir::BinaryOp>(node.a), v[0], v[1],
                                         Cont{k.fn, c[0]});
                       });
    case Op::And:
    case Op::Or:
      return Logical(node.op == Op::And, kid(0), kid(1), act, in, k);
    case Op::Alternative:
      return Alternative(kid(0), kid(1), act, in, k, path);
    case Op::If:
      if (act.tail_nodes.count(n) != 0) {
        return TakeThen(kid(0), act, in, false, [&](llvm::Value* cond) {
          return IfElse(
              Truthy(cond), [&] { return Gen(kid(1), act, in, k, path); },
              [&] { return kid(2) == ir::kNoNode ? CallCont(k, in) : Gen(kid(2), act, in, k, path); });
        });
      }
      // The condition reads the input's value (a pair starts with it in path mode).
      return ForEach(kid(0), act, in, {k.env, in}, [&](llvm::Value* cond, const Values& c) {
        Cont inner{k.fn, c[0]};
        NodeId otherwise = kid(2);
        return IfElse(
            Truthy(cond), [&] { return Gen(kid(1), act, c[1], inner, path); },
            [&] {
              return otherwise == ir::kNoNode ? CallCont(inner, c[1])
                                              : Gen(otherwise, act, c[1], inner, path);
            });
      });
    case Op::Try:
      return Try(kid(0), kid(1), act, in, k, path);
    case Op::Collect: {
      llvm::Value* array = OwnedSlot();
      CallAbi(WM_ABI_ARRAY_NEW, {array});
      llvm::Value* s = ForEach(kid(0), act, in, {array}, [&](llvm::Value* v, const Values& c) {
        return CallAbi(WM_ABI_ARRAY_PUSH, {ctx_, c[0], v});
      });
      llvm::Value* result = IfOk(s, [&] { return CallCont(k, array); });
      Release(array);
      return result;
    }
    case Op::Object: {
      if (node.kids.size() % 2 != 0) {
        Fail("object node with an odd number of kids");
        return Status(WM_STATUS_ERROR);
      }
      std::vector<size_t> order(node.kids.size());
      for (size_t i = 0; i < order.size(); ++i) order[i] = i;  // first key outermost
      // As jq and the interpreter do, each key is checked when its pair is inserted, i.e. once
      // per value of the pair and before the next pair's key is evaluated: a bad key errors
      // even when a later pair yields nothing, and never when its own value yields nothing.
      LevelCheck check_key_on_insert = [&](size_t depth, const Values& got) -> llvm::Value* {
        if (depth % 2 == 0) return Status(WM_STATUS_OK);  // a key: its value comes next
        return CallAbi(WM_ABI_CHECK_OBJECT_KEY, {ctx_, got[depth - 1]});
      };
      return Cartesian(node.kids, order, act, in, {k.env},
                       [&](const Values& v, const Values& c) {
                         llvm::Value* out = OwnedSlot();
                         llvm::Value* kv = PointerArray(v);
                         llvm::Value* s = CallAbi(
                             WM_ABI_MAKE_OBJECT,
                             {ctx_, kv, I32(static_cast<uint32_t>(v.size() / 2)), out});
                         return WithOwned(s, out, Cont{k.fn, c[0]});
                       },
                       /*literal_strings_are_free=*/false, check_key_on_insert);
    }
    case Op::Format: {
      llvm::Value* out = OwnedSlot();
      llvm::Value* s = CallAbi(WM_ABI_FORMAT, {ctx_, I32(n), in, out});
      return WithOwned(s, out, k);
    }
    case Op::StringInterp: {
      // Later parts vary slowest (jq builds the string with `+`, right operand outer).
      std::vector<size_t> order(node.kids.size());
      for (size_t i = 0; i < order.size(); ++i) order[i] = order.size() - 1 - i;
      // jq formats each value as it is produced: with a format that can fail (`@csv` of a
      // non-array), a part's error is raised even when an earlier part later yields nothing.
      // Plain interpolation (`@text`) never fails, so it needs no per-part check.
      LevelCheck format_on_arrival = [&](size_t depth, const Values& got) -> llvm::Value* {
        if (node.str.empty() || node.str == "text" || IsLiteralString(node.kids[order[depth]])) {
          return Status(WM_STATUS_OK);
        }
        llvm::Value* formatted = OwnedSlot();
        llvm::Value* s = CallAbi(WM_ABI_FORMAT, {ctx_, I32(n), got[depth], formatted});
        Release(formatted);
        return s;
      };
      return Cartesian(node.kids, order, act, in, {k.env},
                       [&](const Values& v, const Values& c) {
                         llvm::Value* out = OwnedSlot();
                         llvm::Value* s = CallAbi(WM_ABI_STRING_INTERP,
                                                  {ctx_, I32(n), PointerArray(v), out});
                         return WithOwned(s, out, Cont{k.fn, c[0]});
                       },
                       /*literal_strings_are_free=*/true, format_on_arrival);
    }
    case Op::CallBuiltin: {
      if (IsRange(node)) {
        // range(from; upto[; by]): from outermost, as jq binds $from, $upto, $by in order.
        std::vector<size_t> in_order(node.kids.size());
        for (size_t i = 0; i < in_order.size(); ++i) in_order[i] = i;
        return Cartesian(node.kids, in_order, act, in, {k.env},
                         [&](const Values& v, const Values& c) {
                           return RangeLoop(v, Cont{k.fn, c[0]});
                         });
      }
      // The last argument varies slowest, as in jq's cfunction calls.
      std::vector<size_t> order(node.kids.size());
      for (size_t i = 0; i < order.size(); ++i) order[i] = order.size() - 1 - i;
      return Cartesian(node.kids, order, act, in, {k.env, in},
                       [&](const Values& v, const Values& c) {
                         llvm::Value* out = OwnedSlot();
                         llvm::Value* args = v.empty() ? llvm::ConstantPointerNull::get(ptr_)
                                                       : PointerArray(v);
                         llvm::Value* s = CallAbi(
                             WM_ABI_CALL_BUILTIN,
                             {ctx_, I32(node.a), c[1], args,
                              I32(static_cast<uint32_t>(v.size())), out});
                         return WithOwned(s, out, Cont{k.fn, c[0]});
                       });
    }
    case Op::Error:
      if (kid(0) == ir::kNoNode) return CallAbi(WM_ABI_RAISE_ERROR, {ctx_, in});
      return ForEach(kid(0), act, in, {}, [&](llvm::Value* v, const Values&) {
        return CallAbi(WM_ABI_RAISE_ERROR, {ctx_, v});
      });
    case Op::Bind:
      if (act.tail_nodes.count(n) != 0) {  // one plain `$x` pattern (ReachesTailCall)
        return TakeThen(kid(0), act, in, false, [&](llvm::Value* v) {
          return BindPattern(node.patterns[0], act, v, in, {k.env, in}, [&](const Values& c) {
            return Gen(kid(1), act, c[1], Cont{k.fn, c[0]}, path);
          });
        });
      }
      return Bind(node, act, in, k, path);
    case Op::Reduce:
      return Reduce(node, act, in, k);
    case Op::Foreach:
      return Foreach(node, act, in, k, path);
    case Op::Label: {
      uint32_t id = next_label_id_++;
      uint32_t slot = node.a;  // a plain slot of the current frame
      auto previous = act.labels.find(slot);
      bool had_previous = previous != act.labels.end();
      uint32_t previous_id = had_previous ? previous->second : 0;
      act.labels[slot] = id;
      llvm::Value* s = Gen(kid(0), act, in, k, path);
      if (had_previous) {
        act.labels[slot] = previous_id;
      } else {
        act.labels.erase(slot);
      }
      llvm::Value* mine = builder_.CreateICmpEQ(s, Status(WM_STATUS_BREAK_BASE + id));
      return builder_.CreateSelect(mine, Status(WM_STATUS_OK), s);
    }
    case Op::Break: {
      Activation* scope = Up(act, node.a);
      if (scope == nullptr) return Status(WM_STATUS_ERROR);
      auto found = scope->labels.find(ir::ScopeIndex(node.a));
      if (found == scope->labels.end()) {
        Fail("break outside of its label");
        return Status(WM_STATUS_ERROR);
      }
      return Status(static_cast<int32_t>(WM_STATUS_BREAK_BASE + found->second));
    }
    case Op::Call:
      return Call(n, node, act, in, k, path);
    case Op::CallParam: {
      Activation* scope = Up(act, node.a);
      uint32_t index = ir::ScopeIndex(node.a);
      if (scope != nullptr && scope->closures_in_record) return CallRecordClosure(*scope, index, in, k, path);
      if (scope == nullptr || scope->closure_args == nullptr ||
          index >= scope->closure_args->size() || scope->caller == nullptr) {
        Fail("closure parameter out of range");
        return Status(WM_STATUS_ERROR);
      }
      Activation* env = scope->caller;
      NodeId body = (*scope->closure_args)[index];
      return Gen(body, *env, in, k, path);  // closure invocations do not count as call depth
    }
    case Op::PathOf:
      return PathOf(kid(0), act, in, k);
    case Op::GetPathGen:
      return GetPath(kid(0), act, in, /*path=*/false, k);
  }
  Fail(std::string("unsupported operation ") + ir::OpName(node.op));
  return Status(WM_STATUS_ERROR);
}

std::string EmitUnits(llvm::Module& module, const std::vector<EmitUnit>& units) {
  for (size_t i = 0; i < units.size(); ++i) {
    if (units[i].program == nullptr) return "unit " + units[i].symbol + " has no program";
    std::string reason = UnsupportedReason(*units[i].program);
    if (!reason.empty()) return units[i].symbol + ": " + reason;
    ProgramEmitter emitter(module, *units[i].program, "u" + std::to_string(i) + ".");
    std::string error = emitter.EmitEntry(units[i].symbol);
    if (!error.empty()) return units[i].symbol + ": " + error;
  }
  std::string verify_errors;
  llvm::raw_string_ostream os(verify_errors);
  if (llvm::verifyModule(module, &os)) return "generated invalid LLVM IR: " + os.str();
  return "";
}

}  // namespace wm::codegen::internal

