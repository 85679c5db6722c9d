// ProgramEmitter: control flow and backtracking. Status branches, continuations (ForEach,
// Cartesian products), `and`/`or`, `//`, try/catch, destructuring with ?// alternatives,
// reduce and foreach, and the tail path's TakeThen.
#include "compiler/codegen/internal/program_emitter.h"

namespace wm::codegen::internal {

llvm::BasicBlock* ProgramEmitter::NewBlock(const char* name) {
  return llvm::BasicBlock::Create(context_, name, fn_);
}

llvm::Value* ProgramEmitter::IfElse(llvm::Value* cond, const std::function<llvm::Value*()>& then,
                    const std::function<llvm::Value*()>& otherwise) {
  llvm::BasicBlock* then_block = NewBlock("then");
  llvm::BasicBlock* else_block = NewBlock("else");
  llvm::BasicBlock* join = NewBlock("join");
  CheckNoDeferredSteps("a branch");
  builder_.CreateCondBr(cond, then_block, else_block);
  builder_.SetInsertPoint(then_block);
  llvm::Value* then_status = then();
  llvm::BasicBlock* then_end = builder_.GetInsertBlock();
  builder_.CreateBr(join);
  builder_.SetInsertPoint(else_block);
  llvm::Value* else_status = otherwise();
  llvm::BasicBlock* else_end = builder_.GetInsertBlock();
  builder_.CreateBr(join);
  builder_.SetInsertPoint(join);
  llvm::PHINode* phi = builder_.CreatePHI(i32_, 2, "status");
  phi->addIncoming(then_status, then_end);
  phi->addIncoming(else_status, else_end);
  return phi;
}

llvm::Value* ProgramEmitter::IfOk(llvm::Value* status, const std::function<llvm::Value*()>& then) {
  // A status known at compile time needs no branch (a call that always succeeds, a check with
  // nothing to check).
  if (auto* known = llvm::dyn_cast<llvm::ConstantInt>(status)) {
    return known->isZero() ? then() : status;
  }
  return IfElse(IsOk(status), then, [&] { return status; });
}

llvm::Value* ProgramEmitter::CallCont(Cont k, llvm::Value* v) {
  CheckNoDeferredSteps("an output");
  return builder_.CreateCall(k.fn, {ctx_, frame_, v, k.env});
}

llvm::Value* ProgramEmitter::ForEach(NodeId n, Activation& act, llvm::Value* in, const Values& captures,
                     const Body& body, bool charge, bool path, bool body_ticks_first) {
  if (llvm::Value* simple = path ? nullptr : SimpleValue(n, act, in)) {
    // Evaluating the node costs its step, as in the interpreter (absent nodes cost nothing);
    // nothing happens between it and the body, which charges it with its own first step.
    if (charge && n != ir::kNoNode) DeferStep();
    if (body_ticks_first) return body(simple, captures);
    return FlushThen([&] { return body(simple, captures); });
  }
  llvm::Function* fn = NewFunction("k");
  std::vector<llvm::Type*> types;
  for (llvm::Value* c : captures) types.push_back(c->getType());
  llvm::StructType* env_type = llvm::StructType::get(context_, types);
  llvm::Value* env = llvm::ConstantPointerNull::get(ptr_);
  if (!captures.empty()) {
    env = Alloca(env_type, "env");
    for (size_t i = 0; i < captures.size(); ++i) {
      builder_.CreateStore(captures[i], builder_.CreateStructGEP(env_type, env, i));
    }
  }
  {
    FunctionScope scope(*this, fn);
    Values loaded;
    for (size_t i = 0; i < captures.size(); ++i) {
      loaded.push_back(builder_.CreateLoad(
          types[i], builder_.CreateStructGEP(env_type, fn->getArg(3), i)));
    }
    builder_.CreateRet(body(fn->getArg(2), loaded));
  }
  return Gen(n, act, in, Cont{fn, env}, path);
}

llvm::Value* ProgramEmitter::Cartesian(const std::vector<NodeId>& nodes, const std::vector<size_t>& order,
                       Activation& act, llvm::Value* in, const Values& captures, const Done& done,
                       bool literal_strings_are_free, const LevelCheck& check) {
  std::function<llvm::Value*(size_t, llvm::Value*, const Values&, const Values&)> level =
      [&](size_t depth, llvm::Value* input, const Values& caps, const Values& got) -> llvm::Value* {
    if (depth == order.size()) {
      Values by_node(nodes.size(), nullptr);
      for (size_t i = 0; i < order.size(); ++i) by_node[order[i]] = got[i];
      return FlushThen([&] { return done(by_node, caps); });
    }
    Values pass = caps;
    pass.push_back(input);
    for (llvm::Value* g : got) pass.push_back(g);
    NodeId node = nodes[order[depth]];
    bool charge = !(literal_strings_are_free && IsLiteralString(node));
    return ForEach(node, act, input, pass, [&](llvm::Value* v, const Values& c) {
      Values inner_caps(c.begin(), c.begin() + caps.size());
      llvm::Value* inner_in = c[caps.size()];
      Values inner_got(c.begin() + caps.size() + 1, c.end());
      inner_got.push_back(v);
      if (!check) return level(depth + 1, inner_in, inner_caps, inner_got);
      return FlushThen([&] {
        return IfOk(check(depth, inner_got),
                    [&] { return level(depth + 1, inner_in, inner_caps, inner_got); });
      });
    }, charge, /*path=*/false, /*body_ticks_first=*/!check && depth + 1 < order.size());
  };
  return level(0, in, captures, {});
}

bool ProgramEmitter::IsLiteralString(NodeId n) const {
  if (n == ir::kNoNode || n >= program_.nodes.size()) return false;
  const ir::Node& node = program_.nodes[n];
  return node.op == Op::Const && node.a < program_.consts.size() &&
         program_.consts[node.a].IsString();
}

llvm::Value* ProgramEmitter::Logical(bool is_and, NodeId a, NodeId b, Activation& act, llvm::Value* in, Cont k) {
  return ForEach(a, act, in, {k.env, in}, [&](llvm::Value* av, const Values& c) {
    Cont inner{k.fn, c[0]};
    llvm::Value* decided = is_and ? builder_.CreateNot(Truthy(av)) : Truthy(av);
    return IfElse(
        decided,
        [&] { return CallCont(inner, BoolValue(llvm::ConstantInt::getBool(i1_, !is_and))); },
        [&] {
          return ForEach(b, act, c[1], {c[0]}, [&](llvm::Value* bv, const Values& c2) {
            return CallCont(Cont{k.fn, c2[0]}, BoolValue(Truthy(bv)));
          });
        });
  });
}

llvm::Value* ProgramEmitter::CallFlaggingDownstreamErrors(Cont k, llvm::Value* v, llvm::Value* flag) {
  llvm::Value* s = CallCont(k, v);
  llvm::Value* is_error = builder_.CreateICmpEQ(s, Status(WM_STATUS_ERROR));
  llvm::Value* old = builder_.CreateLoad(i8_, flag);
  builder_.CreateStore(builder_.CreateSelect(is_error, llvm::ConstantInt::get(i8_, 1), old), flag);
  return s;
}

llvm::Value* ProgramEmitter::CaughtOwnError(llvm::Value* s, llvm::Value* downstream_flag, llvm::Value* error_value) {
  StoreNull(error_value);
  llvm::Value* own = builder_.CreateAnd(
      builder_.CreateICmpEQ(s, Status(WM_STATUS_ERROR)),
      builder_.CreateICmpEQ(builder_.CreateLoad(i8_, downstream_flag), llvm::ConstantInt::get(i8_, 0)));
  llvm::AllocaInst* caught = Alloca(i1_, "caught");
  builder_.CreateStore(llvm::ConstantInt::getFalse(context_), caught);
  llvm::BasicBlock* try_catch = NewBlock("catch");
  llvm::BasicBlock* done = NewBlock("caught");
  builder_.CreateCondBr(own, try_catch, done);
  builder_.SetInsertPoint(try_catch);
  llvm::Value* got = CallAbi(WM_ABI_CATCH_ERROR, {ctx_, error_value});
  builder_.CreateStore(builder_.CreateICmpNE(got, I32(0)), caught);
  builder_.CreateBr(done);
  builder_.SetInsertPoint(done);
  return builder_.CreateLoad(i1_, caught);
}

llvm::Value* ProgramEmitter::Alternative(NodeId a, NodeId b, Activation& act, llvm::Value* in, Cont k, bool path) {
  llvm::Value* found = Alloca(i8_, "found");
  builder_.CreateStore(llvm::ConstantInt::get(i8_, 0), found);
  llvm::Value* s = ForEach(a, act, in, {k.env, found}, [&](llvm::Value* v, const Values& c) {
    return IfElse(
        Truthy(v),
        [&] {
          builder_.CreateStore(llvm::ConstantInt::get(i8_, 1), c[1]);
          return CallCont(Cont{k.fn, c[0]}, v);
        },
        [&] { return Status(WM_STATUS_OK); });
  }, true, path);
  return IfOk(s, [&] {
    llvm::Value* none =
        builder_.CreateICmpEQ(builder_.CreateLoad(i8_, found), llvm::ConstantInt::get(i8_, 0));
    return IfElse(none, [&] { return Gen(b, act, in, k, path); }, [&] { return Status(WM_STATUS_OK); });
  });
}

llvm::Value* ProgramEmitter::Try(NodeId body, NodeId handler, Activation& act, llvm::Value* in, Cont k, bool path) {
  llvm::Value* downstream = Alloca(i8_, "downstream_error");
  builder_.CreateStore(llvm::ConstantInt::get(i8_, 0), downstream);
  llvm::Value* s = ForEach(body, act, in, {k.env, downstream}, [&](llvm::Value* v, const Values& c) {
    return CallFlaggingDownstreamErrors(Cont{k.fn, c[0]}, v, c[1]);
  }, true, path);
  llvm::Value* error_value = OwnedSlot();
  llvm::Value* caught = CaughtOwnError(s, downstream, error_value);
  llvm::Value* result = IfElse(
      caught,
      [&] {
        if (handler == ir::kNoNode) return Status(WM_STATUS_OK);
        // In path mode the caught error is not at a path.
        return Gen(handler, act, path ? PairOf(error_value, NullValue()) : error_value, k, path);
      },
      [&] { return s; });
  Release(error_value);
  return result;
}

llvm::Value* ProgramEmitter::IndexThen(llvm::Value* v, llvm::Value* key,
                       const std::function<llvm::Value*(llvm::Value* element)>& then) {
  llvm::Value* scratch = OwnedSlot();
  llvm::Value* element = CallAbi(WM_ABI_INDEX, {ctx_, v, key, scratch});
  return IfElse(
      builder_.CreateIsNull(element), [&] { return Status(WM_STATUS_ERROR); },
      [&] {
        llvm::Value* s = then(element);
        Release(scratch);
        return s;
      });
}

llvm::Value* ProgramEmitter::BindPattern(uint32_t index, Activation& act, llvm::Value* v, llvm::Value* input,
                         const Values& captures, const Then& then, int depth) {
  if (index >= program_.patterns.size() || depth > 64) {
    Fail("pattern index out of range or nested too deeply");
    return Status(WM_STATUS_ERROR);
  }
  const ir::Pattern& p = program_.patterns[index];
  return IfOk(Tick(), [&]() -> llvm::Value* {
    switch (p.kind) {
      case ir::Pattern::Kind::Var:
        return WithBinding(SlotPtr(act, p.slot), v, [&] { return then(captures); });
      case ir::Pattern::Kind::Array:
        return BindArray(p, 0, act, v, input, captures, then, depth);
      case ir::Pattern::Kind::Object:
        return BindObject(p, 0, act, v, input, captures, then, depth);
    }
    return Status(WM_STATUS_ERROR);
  });
}

ProgramEmitter::Unpacked ProgramEmitter::Unpack(const Values& c) {
  return Unpacked{Values(c.begin(), c.end() - 2), c[c.size() - 2], c.back()};
}

Values ProgramEmitter::Pack(const Values& outer, llvm::Value* v, llvm::Value* input) {
  Values packed = outer;
  packed.push_back(v);
  packed.push_back(input);
  return packed;
}

llvm::Value* ProgramEmitter::BindArray(const ir::Pattern& p, size_t i, Activation& act, llvm::Value* v,
                       llvm::Value* input, const Values& captures, const Then& then, int depth) {
  if (i == p.elements.size()) return then(captures);
  llvm::Value* position = NumberValue(llvm::ConstantFP::get(f64_, static_cast<double>(i)));
  return IndexThen(v, position, [&](llvm::Value* element) {
    return BindPattern(p.elements[i], act, element, input, Pack(captures, v, input),
                       [&](const Values& c) {
                         Unpacked u = Unpack(c);
                         return BindArray(p, i + 1, act, u.v, u.input, u.outer, then, depth);
                       },
                       depth + 1);
  });
}

llvm::Value* ProgramEmitter::BindObject(const ir::Pattern& p, size_t j, Activation& act, llvm::Value* v,
                        llvm::Value* input, const Values& captures, const Then& then, int depth) {
  if (j == p.entries.size()) return then(captures);
  const ir::Pattern::Entry& entry = p.entries[j];
  return ForEach(entry.key, act, input, Pack(captures, v, input), [&](llvm::Value* key, const Values& c) {
    Unpacked u = Unpack(c);
    llvm::Value* key_ok = CallAbi(WM_ABI_CHECK_PATTERN_KEY, {ctx_, u.v, key});
    return IfOk(key_ok, [&] {
      return IndexThen(u.v, key, [&](llvm::Value* member) {
        auto rest = [&]() -> llvm::Value* {
          if (entry.value_pattern < 0) {
            return BindObject(p, j + 1, act, u.v, u.input, u.outer, then, depth);
          }
          return BindPattern(static_cast<uint32_t>(entry.value_pattern), act, member, u.input,
                             Pack(u.outer, u.v, u.input),
                             [&](const Values& c2) {
                               Unpacked w = Unpack(c2);
                               return BindObject(p, j + 1, act, w.v, w.input, w.outer, then, depth);
                             },
                             depth + 1);
        };
        if (entry.bind_slot < 0) return rest();
        return WithBinding(SlotPtr(act, static_cast<uint32_t>(entry.bind_slot)), member, rest);
      });
    });
  });
}

void ProgramEmitter::CollectPatternSlots(uint32_t index, std::vector<uint32_t>* slots, int depth) {
  if (index >= program_.patterns.size() || depth > 64) return;
  const ir::Pattern& p = program_.patterns[index];
  if (p.kind == ir::Pattern::Kind::Var) slots->push_back(p.slot);
  for (uint32_t e : p.elements) CollectPatternSlots(e, slots, depth + 1);
  for (const ir::Pattern::Entry& e : p.entries) {
    if (e.bind_slot >= 0) slots->push_back(static_cast<uint32_t>(e.bind_slot));
    if (e.value_pattern >= 0) CollectPatternSlots(static_cast<uint32_t>(e.value_pattern), slots, depth + 1);
  }
}

llvm::Value* ProgramEmitter::BindAlternatives(const std::vector<uint32_t>& patterns, Activation& act, llvm::Value* v,
                              llvm::Value* input, const Values& captures, const ThenFlagged& then) {
  if (patterns.empty()) {
    Fail("binding without patterns");
    return Status(WM_STATUS_ERROR);
  }
  if (patterns.size() == 1) {
    return BindPattern(patterns[0], act, v, input, captures,
                       [&](const Values& c) { return then(c, nullptr); });
  }
  std::vector<uint32_t> slots;
  for (uint32_t p : patterns) CollectPatternSlots(p, &slots);
  llvm::Value* downstream = Alloca(i8_, "downstream");
  std::function<llvm::Value*(size_t)> attempt = [&](size_t alt) -> llvm::Value* {
    for (uint32_t slot : slots) StoreNull(SlotPtr(act, slot));
    builder_.CreateStore(llvm::ConstantInt::get(i8_, 0), downstream);
    Values caps = captures;
    caps.push_back(downstream);
    llvm::Value* s = BindPattern(patterns[alt], act, v, input, caps, [&](const Values& c2) {
      return then(Values(c2.begin(), c2.end() - 1), c2.back());
    });
    if (alt + 1 == patterns.size()) return s;
    llvm::Value* error_value = OwnedSlot();
    llvm::Value* caught = CaughtOwnError(s, downstream, error_value);
    Release(error_value);
    return IfElse(caught, [&] { return attempt(alt + 1); }, [&] { return s; });
  };
  return attempt(0);
}

llvm::Value* ProgramEmitter::FlagErrors(llvm::Value* status, llvm::Value* flag) {
  if (flag == nullptr) return status;
  llvm::Value* is_error = builder_.CreateICmpEQ(status, Status(WM_STATUS_ERROR));
  llvm::Value* old = builder_.CreateLoad(i8_, flag);
  builder_.CreateStore(builder_.CreateSelect(is_error, llvm::ConstantInt::get(i8_, 1), old), flag);
  return status;
}

llvm::Value* ProgramEmitter::Bind(const ir::Node& node, Activation& act, llvm::Value* in, Cont k, bool path) {
  NodeId body = node.kids.size() > 1 ? node.kids[1] : ir::kNoNode;
  return ForEach(node.kids[0], act, in, {k.env, in}, [&](llvm::Value* v, const Values& c) {
    return BindAlternatives(node.patterns, act, v, c[1], c, [&](const Values& c2, llvm::Value* flag) {
      if (flag == nullptr) return Gen(body, act, c2[1], Cont{k.fn, c2[0]}, path);
      return ForEach(body, act, c2[1], {c2[0], flag}, [&](llvm::Value* out, const Values& c3) {
        return CallFlaggingDownstreamErrors(Cont{k.fn, c3[0]}, out, c3[1]);
      }, true, path);
    });
  });
}

llvm::Value* ProgramEmitter::Reduce(const ir::Node& node, Activation& act, llvm::Value* in, Cont k) {
  if (node.kids.size() < 3) {
    Fail("malformed reduce");
    return Status(WM_STATUS_ERROR);
  }
  NodeId source = node.kids[0], init = node.kids[1], update = node.kids[2];
  return ForEach(init, act, in, {k.env, in}, [&](llvm::Value* init_value, const Values& c) {
    llvm::Value* acc = OwnedSlot();
    CallAbi(WM_ABI_COPY, {acc, init_value});
    llvm::Value* s = ForEach(source, act, c[1], {acc, c[1]}, [&](llvm::Value* x, const Values& c2) {
      return BindAlternatives(node.patterns, act, x, c2[1], c2, [&](const Values& c3, llvm::Value*) {
        llvm::Value* acc_in = c3[0];
        llvm::Value* next = OwnedSlot();
        StoreNull(next);
        llvm::Value* su = ForEach(update, act, acc_in, {next}, [&](llvm::Value* u, const Values& c4) {
          Release(c4[0]);
          CallAbi(WM_ABI_COPY, {c4[0], u});
          return Status(WM_STATUS_OK);
        });
        // The new state replaces the old only after UPDATE finished reading it (on error the
        // state is dropped with the run, so replacing it anyway is harmless).
        Release(acc_in);
        CopyBits(acc_in, next);
        return su;
      });
    });
    llvm::Value* result = IfOk(s, [&] { return CallCont(Cont{k.fn, c[0]}, acc); });
    Release(acc);
    return result;
  });
}

llvm::Value* ProgramEmitter::Foreach(const ir::Node& node, Activation& act, llvm::Value* in, Cont k, bool path) {
  if (node.kids.size() < 3) {
    Fail("malformed foreach");
    return Status(WM_STATUS_ERROR);
  }
  if (path && (node.patterns.size() != 1 || node.patterns[0] >= program_.patterns.size() ||
               program_.patterns[node.patterns[0]].kind != ir::Pattern::Kind::Var)) {
    Fail("foreach with a destructuring pattern inside a path expression");
    return Status(WM_STATUS_ERROR);
  }
  NodeId source = node.kids[0], init = node.kids[1], update = node.kids[2];
  NodeId extract = node.kids.size() > 3 ? node.kids[3] : ir::kNoNode;
  return ForEach(init, act, in, {k.env, in}, [&](llvm::Value* init_value, const Values& c) {
    llvm::Value* state = OwnedSlot();
    CallAbi(WM_ABI_COPY, {state, init_value});
    llvm::Value* s = ForEach(source, act, c[1], {c[0], state, c[1]}, [&](llvm::Value* x, const Values& c2) {
      auto step = [&](const Values& c3, llvm::Value* flag) {
        llvm::Value* state_in = c3[1];
        llvm::Value* old = OwnedSlot();
        CallAbi(WM_ABI_COPY, {old, state_in});
        Values update_caps = {c3[0], state_in};
        if (flag != nullptr) update_caps.push_back(flag);
        llvm::Value* su =
            ForEach(update, act, old, update_caps, [&](llvm::Value* u, const Values& c4) {
              // u may point into `old`, never into the state slot being replaced.
              Release(c4[1]);
              CallAbi(WM_ABI_COPY, {c4[1], u});
              Cont out{k.fn, c4[0]};
              llvm::Value* next = path ? PairOf(c4[1], NullValue()) : c4[1];
              // Errors of EXTRACT and downstream are not the pattern's: no next alternative.
              return FlagErrors(extract == ir::kNoNode ? CallCont(out, next)
                                                       : Gen(extract, act, next, out, path),
                                flag == nullptr ? nullptr : c4[2]);
            });
        Release(old);
        return su;
      };
      if (!path) return BindAlternatives(node.patterns, act, x, c2[2], c2, step);
      uint32_t slot = program_.patterns[node.patterns[0]].slot;
      return IfOk(Tick(), [&] {
        return WithBinding(SlotPtr(act, slot), x, [&] {
          return WithBinding(PathSlotPtr(act, slot), BytePtr(x, 16), [&] { return step(c2, nullptr); });
        });
      });
    }, true, path);
    Release(state);
    return s;
  });
}

llvm::Value* ProgramEmitter::TakeThen(NodeId source, Activation& act, llvm::Value* in, bool path,
                      const std::function<llvm::Value*(llvm::Value* taken)>& then) {
  llvm::Value* taken = PairSlot();
  StoreNull(taken);
  StoreNull(BytePtr(taken, 16));
  llvm::Value* produced = Alloca(i8_, "produced");
  builder_.CreateStore(llvm::ConstantInt::get(i8_, 0), produced);
  llvm::Value* s = ForEach(source, act, in, {taken, produced}, [&](llvm::Value* v, const Values& c) {
    CallAbi(WM_ABI_COPY, {c[0], v});
    if (path) CallAbi(WM_ABI_COPY, {BytePtr(c[0], 16), BytePtr(v, 16)});
    builder_.CreateStore(llvm::ConstantInt::get(i8_, 1), c[1]);
    return Status(WM_STATUS_OK);
  }, true, path);
  llvm::Value* result = IfOk(s, [&] {
    llvm::Value* got = builder_.CreateICmpNE(builder_.CreateLoad(i8_, produced), llvm::ConstantInt::get(i8_, 0));
    return IfElse(got, [&] { return then(taken); }, [&] { return Status(WM_STATUS_OK); });
  });
  Release(taken);
  Release(BytePtr(taken, 16));
  return result;
}

}  // namespace wm::codegen::internal
