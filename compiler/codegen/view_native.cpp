// MakeNativeViewCompiler: the view engine's fills (runtime/eval/view/native_view.h) as native code.
// Each fill root of a kind's plan becomes one function over simdjson's tape that does what the
// path cache's table-driven fill does, with the trie built into the code: per object on the trie,
// one loop over its members whose key test is a switch on the key's size, then on its first 8
// bytes as an immediate (a longer key compares its remaining words against immediates too); a
// found member's state and view are stored at a constant place; after the scan, the inner nodes
// found are descended into by code laid out for each of them (the trie is a tree known here, so
// the descent needs no stack). The functions are compiled in one module and JIT-loaded.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "compiler/codegen/codegen.h"
#include "compiler/codegen/internal/emit.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/SubtargetFeature.h"
#include "llvm/TargetParser/Triple.h"
#include "runtime/eval/native_abi.h"

namespace wm::codegen {
namespace {

using view::FillPlan;

// The tape's type bytes (simdjson's tape: the top byte of an element's first word).
constexpr uint8_t kObjectType = '{';
constexpr uint8_t kArrayType = '[';
constexpr uint8_t kNullType = 'n';
constexpr uint64_t kPayloadMask = 0x00FFFFFFFFFFFFFFull;  // a string word's offset in the string buffer

// Bytes [from, from + 8) of `key` as a little-endian word, zero past its end (what an 8-byte load
// of a member's key reads, masked to the key's size where it is shorter).
uint64_t KeyWord(const std::string& key, size_t from) {
  unsigned char bytes[8] = {};
  if (from < key.size()) std::memcpy(bytes, key.data() + from, std::min<size_t>(8, key.size() - from));
  uint64_t word;
  std::memcpy(&word, bytes, 8);
  return word;
}

// The tape words of a value by its type byte: 2 for a number (the type word, then its 64 bits), 0
// for a container (whose first word says where it ends), 1 for the rest. One table per module.
llvm::GlobalVariable* TapeValueWords(llvm::Module& module) {
  constexpr const char* kName = "wm_tape_value_words";
  if (llvm::GlobalVariable* table = module.getNamedGlobal(kName)) return table;
  std::vector<uint8_t> words(256, 1);
  words['l'] = words['u'] = words['d'] = 2;
  words[kObjectType] = words[kArrayType] = 0;
  llvm::Constant* table = llvm::ConstantDataArray::get(module.getContext(), words);
  return new llvm::GlobalVariable(module, table->getType(), true, llvm::GlobalValue::PrivateLinkage, table, kName);
}

// What both emitters build on: one function at a time in one module, reading simdjson's tape.
class TapeEmitter {
 protected:
  explicit TapeEmitter(llvm::Module& module) : context_(module.getContext()), module_(module), builder_(context_) {}

  llvm::BasicBlock* Block(const char* name) { return llvm::BasicBlock::Create(context_, name, function_); }
  llvm::ConstantInt* I8(uint64_t v) { return builder_.getInt8(static_cast<uint8_t>(v)); }
  llvm::ConstantInt* I32(uint64_t v) { return builder_.getInt32(static_cast<uint32_t>(v)); }
  llvm::ConstantInt* I64(uint64_t v) { return builder_.getInt64(v); }
  llvm::Value* TapeWord(llvm::Value* index) {
    return builder_.CreateAlignedLoad(builder_.getInt64Ty(), builder_.CreateInBoundsGEP(builder_.getInt64Ty(), tape_, index),
                                      llvm::Align(8));
  }
  llvm::Value* TypeOf(llvm::Value* word) { return builder_.CreateTrunc(builder_.CreateLShr(word, 56), builder_.getInt8Ty()); }
  // An 8-byte load at `bytes + offset`, unaligned (keys are in the padded string buffer).
  llvm::Value* LoadWord(llvm::Value* bytes, uint64_t offset) {
    llvm::Value* at = offset == 0 ? bytes : builder_.CreateConstInBoundsGEP1_64(builder_.getInt8Ty(), bytes, offset);
    return builder_.CreateAlignedLoad(builder_.getInt64Ty(), at, llvm::Align(1));
  }
  // Whether the bytes at `bytes` (in the padded string buffer, as many as `text` has) are `text`:
  // its words as immediates, the last one overlapping the one before, a short one masked.
  llvm::Value* SameBytes(llvm::Value* bytes, const std::string& text) {
    llvm::Value* same = builder_.getTrue();
    for (size_t from = 0; from < text.size(); from += 8) {
      const size_t word_at = text.size() >= 8 ? std::min(from, text.size() - 8) : 0;
      llvm::Value* word = LoadWord(bytes, word_at);
      if (text.size() < 8) word = builder_.CreateAnd(word, I64((uint64_t{1} << (8 * text.size())) - 1));
      same = builder_.CreateAnd(same, builder_.CreateICmpEQ(word, I64(KeyWord(text, word_at))));
    }
    return same;
  }
  // The tape index after the value at `index` whose first word is `word`: past a container's
  // words (its first word holds the index after its last), a number's two, any other scalar's
  // one; the value's words by its type, one load (TapeValueWords).
  llvm::Value* After(llvm::Value* index, llvm::Value* word) {
    if (scalar_words_ == nullptr) scalar_words_ = TapeValueWords(module_);
    llvm::Value* words_at = builder_.CreateInBoundsGEP(builder_.getInt8Ty(), scalar_words_, builder_.CreateLShr(word, 56));
    llvm::Value* words = builder_.CreateZExt(builder_.CreateLoad(builder_.getInt8Ty(), words_at), builder_.getInt64Ty());
    return builder_.CreateSelect(builder_.CreateICmpEQ(words, I64(0)), builder_.CreateAnd(word, I64(0xFFFFFFFFull)),
                                 builder_.CreateAdd(index, words));
  }

  // A loop over the members of an object (tape index `index`, first word `open`) in document
  // order, from the current block: after BeginMembers, the insertion point is in the loop's body,
  // which sees the member (its key's size and bytes, its value's tape index and first word) and
  // ends each of its paths by branching to `next`; EndMembers then steps to the following member.
  // The loop leaves to `done` after the last one.
  struct MemberLoop {
    llvm::PHINode* at;        // the key's tape index
    llvm::Value* key_size;    // i32
    llvm::Value* key_bytes;   // in the padded string buffer
    llvm::Value* value_at;
    llvm::Value* value_word;
    llvm::BasicBlock* next;
  };
  MemberLoop BeginMembers(llvm::Value* index, llvm::Value* open, llvm::BasicBlock* done) {
    llvm::Value* end = builder_.CreateSub(builder_.CreateAnd(open, I64(0xFFFFFFFFull)), I64(1));  // the closing word
    llvm::Value* first = builder_.CreateAdd(index, I64(1));
    llvm::BasicBlock* before = builder_.GetInsertBlock();
    llvm::BasicBlock* loop = Block("member");
    llvm::BasicBlock* body = Block("key");
    MemberLoop member{};
    member.next = Block("next");
    builder_.CreateBr(loop);
    builder_.SetInsertPoint(loop);
    member.at = builder_.CreatePHI(builder_.getInt64Ty(), 2);
    member.at->addIncoming(first, before);
    builder_.CreateCondBr(builder_.CreateICmpULT(member.at, end), body, done);
    builder_.SetInsertPoint(body);  // the key's string word, then the value's first word
    llvm::Value* key = builder_.CreateInBoundsGEP(builder_.getInt8Ty(), strings_,
                                                  builder_.CreateAnd(TapeWord(member.at), I64(kPayloadMask)));
    member.key_size = builder_.CreateAlignedLoad(builder_.getInt32Ty(), key, llvm::Align(1));
    member.key_bytes = builder_.CreateConstInBoundsGEP1_64(builder_.getInt8Ty(), key, 4);
    member.value_at = builder_.CreateAdd(member.at, I64(1));
    member.value_word = TapeWord(member.value_at);
    return member;
  }
  void EndMembers(const MemberLoop& member) {
    builder_.SetInsertPoint(member.next);
    member.at->addIncoming(After(member.value_at, member.value_word), member.next);
    builder_.CreateBr(member.at->getParent());
  }

  llvm::LLVMContext& context_;
  llvm::Module& module_;
  llvm::IRBuilder<> builder_;
  llvm::Function* function_ = nullptr;
  llvm::Value* tape_ = nullptr;     // the function's tape and string buffer
  llvm::Value* strings_ = nullptr;

 private:
  llvm::GlobalVariable* scalar_words_ = nullptr;
};

class FillEmitter : public TapeEmitter {
 public:
  FillEmitter(llvm::Module& module, const FillPlan& plan) : TapeEmitter(module), plan_(plan) {}

  // The function `symbol` for the plan's root `root`.
  void Emit(const FillPlan::Root& root, const std::string& symbol) {
    root_ = &root;
    llvm::Type* ptr = builder_.getPtrTy();
    auto* type = llvm::FunctionType::get(builder_.getVoidTy(), {ptr, ptr, builder_.getInt64Ty(), ptr, ptr, ptr}, false);
    function_ = llvm::Function::Create(type, llvm::Function::ExternalLinkage, symbol, module_);
    function_->addFnAttr(llvm::Attribute::NoUnwind);
    auto arg = function_->arg_begin();
    tape_ = &*arg++;
    strings_ = &*arg++;
    llvm::Value* index = &*arg++;
    states_ = &*arg++;
    values_ = &*arg++;
    document_ = &*arg++;
    builder_.SetInsertPoint(Block("entry"));
    llvm::BasicBlock* done = Block("done");
    EmitScan(0, index, done);
    builder_.SetInsertPoint(done);
    builder_.CreateRetVoid();
  }

 private:
  llvm::Value* StatePlace(uint32_t place) {
    return builder_.CreateConstInBoundsGEP1_64(builder_.getInt8Ty(), states_, place);
  }
  llvm::Value* ValueBytes(uint32_t place, uint64_t offset) {
    return builder_.CreateConstInBoundsGEP1_64(builder_.getInt8Ty(), values_,
                                              uint64_t{place} * plan_.value_size + offset);
  }

  // Every node below `node` marked as an error (a node under a string, number, boolean or array).
  void MarkBelowAsError(uint32_t node) {
    for (uint32_t child : root_->nodes[node].children) {
      builder_.CreateStore(I8(plan_.error_state), StatePlace(root_->nodes[child].place));
      MarkBelowAsError(child);
    }
  }

  // The fill of node `node` (an index into the root's list) whose value is the element at tape
  // index `index`, from the current insertion point; ends by branching to `done`.
  void EmitScan(uint32_t node, llvm::Value* index, llvm::BasicBlock* done) {
    const FillPlan::Node& here = root_->nodes[node];
    llvm::Value* open = TapeWord(index);
    llvm::Value* type = TypeOf(open);
    llvm::BasicBlock* object = Block("object");
    llvm::BasicBlock* other = Block("other");
    builder_.CreateCondBr(builder_.CreateICmpEQ(type, I8(kObjectType)), object, other);

    builder_.SetInsertPoint(other);  // null: every node below stays missing; else each is an error
    llvm::BasicBlock* not_null = Block("not_null");
    builder_.CreateCondBr(builder_.CreateICmpEQ(type, I8(kNullType)), done, not_null);
    builder_.SetInsertPoint(not_null);
    MarkBelowAsError(node);
    builder_.CreateBr(done);

    builder_.SetInsertPoint(object);
    llvm::BasicBlock* descend = Block("descend");
    const MemberLoop member = BeginMembers(index, open, descend);
    std::map<size_t, std::vector<uint32_t>> by_size;  // the children by key size
    for (uint32_t child : here.children) by_size[root_->nodes[child].key.size()].push_back(child);
    llvm::SwitchInst* size_switch = builder_.CreateSwitch(member.key_size, member.next, static_cast<unsigned>(by_size.size()));
    for (const auto& [key_size, children] : by_size) {
      llvm::BasicBlock* sized = Block("size");
      size_switch->addCase(I32(key_size), sized);
      builder_.SetInsertPoint(sized);
      EmitKeyTest(key_size, children, member.key_bytes, member.value_at, member.next);
    }
    EndMembers(member);

    // After the scan (a repeated key's last value is the one descended into): each inner child
    // found, in turn.
    builder_.SetInsertPoint(descend);
    for (uint32_t child : here.children) {
      const FillPlan::Node& inner = root_->nodes[child];
      if (inner.children.empty()) continue;
      llvm::BasicBlock* found = Block("found");
      llvm::BasicBlock* after = Block("after");
      llvm::Value* state = builder_.CreateLoad(builder_.getInt8Ty(), StatePlace(inner.place));
      builder_.CreateCondBr(builder_.CreateICmpEQ(state, I8(plan_.known_state)), found, after);
      builder_.SetInsertPoint(found);
      llvm::Value* child_index = builder_.CreateAlignedLoad(builder_.getInt64Ty(), ValueBytes(inner.place, plan_.view_offset + 8),
                                                            llvm::Align(8));
      EmitScan(child, child_index, after);
      builder_.SetInsertPoint(after);
    }
    builder_.CreateBr(done);
  }

  // The test of a member's key of `key_size` bytes at `bytes` against the children of that size;
  // a match stores the member's value (at tape index `value_at`) as found; every path ends at `next`.
  void EmitKeyTest(size_t key_size, const std::vector<uint32_t>& children, llvm::Value* bytes, llvm::Value* value_at,
                   llvm::BasicBlock* next) {
    if (key_size == 0) {  // the one child named ""
      EmitFound(children.front(), value_at, next);
      return;
    }
    llvm::Value* head = LoadWord(bytes, 0);
    if (key_size < 8) head = builder_.CreateAnd(head, I64((uint64_t{1} << (8 * key_size)) - 1));
    std::map<uint64_t, std::vector<uint32_t>> by_head;  // keys longer than 8 bytes may share a head
    for (uint32_t child : children) by_head[KeyWord(root_->nodes[child].key, 0)].push_back(child);
    llvm::SwitchInst* head_switch = builder_.CreateSwitch(head, next, static_cast<unsigned>(by_head.size()));
    for (const auto& [word, same_head] : by_head) {
      llvm::BasicBlock* candidate = Block("head");
      head_switch->addCase(llvm::cast<llvm::ConstantInt>(I64(word)), candidate);
      builder_.SetInsertPoint(candidate);
      if (key_size <= 8) {  // the head is the whole key
        EmitFound(same_head.front(), value_at, next);
        continue;
      }
      // The words after the head, the last one overlapping the one before it (as SamePaddedKey):
      // each child's in turn.
      for (size_t c = 0; c < same_head.size(); ++c) {
        const std::string& name = root_->nodes[same_head[c]].key;
        llvm::BasicBlock* miss = c + 1 < same_head.size() ? Block("other_key") : next;
        llvm::Value* same = builder_.getTrue();
        for (size_t from = 8; from < key_size; from += 8) {
          const size_t at = std::min(from, key_size - 8);
          same = builder_.CreateAnd(same, builder_.CreateICmpEQ(LoadWord(bytes, at), I64(KeyWord(name, at))));
        }
        llvm::BasicBlock* match = Block("match");
        builder_.CreateCondBr(same, match, miss);
        builder_.SetInsertPoint(match);
        EmitFound(same_head[c], value_at, next);
        if (miss != next) builder_.SetInsertPoint(miss);
      }
    }
  }

  // Child `child` found: kKnown and a view of the value at `value_at`; then `next`.
  void EmitFound(uint32_t child, llvm::Value* value_at, llvm::BasicBlock* next) {
    const uint32_t place = root_->nodes[child].place;
    builder_.CreateStore(I8(plan_.known_state), StatePlace(place));
    builder_.CreateStore(I8(plan_.view_tag), ValueBytes(place, plan_.tag_offset));
    builder_.CreateAlignedStore(document_, ValueBytes(place, plan_.view_offset), llvm::Align(8));
    builder_.CreateAlignedStore(value_at, ValueBytes(place, plan_.view_offset + 8), llvm::Align(8));
    builder_.CreateBr(next);
  }

  const FillPlan& plan_;
  const FillPlan::Root* root_ = nullptr;
  llvm::Value *states_ = nullptr, *values_ = nullptr, *document_ = nullptr;
};

// One native program per supported flat code (view::NativeProgramSupported): each instruction a
// block of its own, the registers stack slots (promoted to SSA values by the optimiser), the
// reads of trie nodes inline (a state byte and a constant place), truthiness inline for the
// scalar tags and views, comparisons, tests of other values and memo slots through the runtime's
// helpers, as Exec calls them.
class ProgramEmitter : public TapeEmitter {
 public:
  ProgramEmitter(llvm::Module& module, const FillPlan& layout, const std::vector<uint32_t>& below_index)
      : TapeEmitter(module), layout_(layout), below_index_(&below_index) {}

  void Emit(const view::ProgramPlan& plan, const std::string& symbol) {
    const view::FlatCode& flat = *plan.code;
    plan_ = &plan;
    llvm::Type* ptr = builder_.getPtrTy();
    auto* type = llvm::FunctionType::get(builder_.getInt32Ty(), {ptr, ptr}, false);
    function_ = llvm::Function::Create(type, llvm::Function::ExternalLinkage, symbol, module_);
    llvm::Value* args = function_->getArg(0);
    result_ = function_->getArg(1);
    entry_ = Block("entry");
    builder_.SetInsertPoint(entry_);
    // NativeProgramArgs' fields, in order: 8 pointers, then the step limit.
    states_ = Field(args, 0);
    values_ = Field(args, 1);
    tape_ = Field(args, 2);
    strings_ = Field(args, 3);
    table_ = Field(args, 4);
    helpers_ = Field(args, 5);
    evaluator_ = Field(args, 6);
    document_ = Field(args, 7);
    step_limit_ = builder_.CreateAlignedLoad(builder_.getInt64Ty(),
                                             builder_.CreateConstInBoundsGEP1_64(builder_.getPtrTy(), args, 8), llvm::Align(8));
    input_ = Field(args, 9);
    below_states_ = Field(args, 10);
    below_values_ = Field(args, 11);
    scratch_ = Field(args, 12);
    registers_.clear();
    for (uint32_t r = 0; r < flat.registers; ++r) registers_.push_back(builder_.CreateAlloca(ptr));
    SetReg(0, input_);  // the program's input: the document's root, or the element
    // The most steps Exec could take so far: every instruction once and each object's members
    // (FlatCode::straight_steps); each `any` adds its loop's.
    const uint64_t straight_steps = flat.straight_steps;
    steps_ = builder_.CreateAlloca(builder_.getInt64Ty());
    builder_.CreateStore(builder_.getInt64(straight_steps), steps_);
    failed_ = {Block("error"), Block("bail")};
    caught_ = flat.catch_from != view::FlatCode::kNoCatch ? Block("caught") : nullptr;
    decline_ = Block("decline");
    llvm::BasicBlock* start = Block("start");
    builder_.CreateCondBr(builder_.CreateICmpULE(builder_.getInt64(straight_steps), step_limit_), start, decline_);
    builder_.SetInsertPoint(start);
    bound_ = nullptr;
    if (flat.bind_slot != view::FlatCode::kNoSlot) {  // `E as $x | ...`: E's code first, its value $x
      bound_ = EntryAlloca(ptr);
      llvm::BasicBlock* body = Block("body");
      SetReg(0, values_);  // E's input: the document's root (the trie's node 0)
      EmitRegion(flat.bind_entry, Return{bound_, body});
      builder_.SetInsertPoint(body);
      SetReg(0, input_);
    }
    EmitRegion(0, Return{});
    builder_.SetInsertPoint(failed_[0]);
    builder_.CreateRet(builder_.getInt32(view::kNativeError));
    builder_.SetInsertPoint(failed_[1]);
    builder_.CreateRet(builder_.getInt32(view::kNativeBail));
    builder_.SetInsertPoint(decline_);
    builder_.CreateRet(builder_.getInt32(view::kNativeDecline));
    if (caught_ != nullptr) {
      builder_.SetInsertPoint(caught_);
      builder_.CreateRet(builder_.getInt32(view::kNativeCaught));
    }
  }

 private:
  // Where a region's kReturn goes: the function's return (the main code), or a block's value
  // stored in `value` and a branch to `after` (an `any`'s condition, back in its loop).
  struct Return {
    llvm::AllocaInst* value = nullptr;
    llvm::BasicBlock* after = nullptr;
  };
  // The instructions of one region, from `start` to its first kReturn (NativeProgramSupported),
  // from the current insertion point.
  struct Region {
    size_t start = 0;
    std::vector<llvm::BasicBlock*> blocks;  // per instruction from start
    Return on_return;
    llvm::BasicBlock* At(size_t pc) const { return blocks[pc - start]; }
  };
  void EmitRegion(size_t start, Return on_return) {
    const std::vector<view::FlatInstr>& code = plan_->code->code;
    Region region;
    region.start = start;
    region.on_return = on_return;
    for (size_t pc = start; pc < code.size(); ++pc) {
      region.blocks.push_back(Block("i"));
      if (code[pc].op == view::FlatOp::kReturn) break;
    }
    builder_.CreateBr(region.blocks.front());
    for (size_t k = 0; k < region.blocks.size(); ++k) {
      builder_.SetInsertPoint(region.blocks[k]);
      EmitInstruction(code[start + k], start + k, region);
    }
  }
  // An alloca in the entry block (promoted by the optimiser where it can be).
  llvm::AllocaInst* EntryAlloca(llvm::Type* type, uint64_t bytes = 0) {
    llvm::IRBuilder<> at(entry_, entry_->begin());
    llvm::AllocaInst* slot = bytes == 0 ? at.CreateAlloca(type) : at.CreateAlloca(builder_.getInt8Ty(), at.getInt64(bytes));
    slot->setAlignment(llvm::Align(8));
    return slot;
  }
  // kArith: + - * of two numbers (computed, or views of the document's), into the register's
  // place in the runtime's scratch values (the value may be the program's output); other
  // operands decline (Exec's ArithmeticOf).
  void EmitArith(const view::FlatInstr& in, size_t pc, const Region& region) {
    llvm::Value* a = NumberOf(Reg(in.a));
    llvm::Value* b = NumberOf(Reg(in.b));
    llvm::Value* result;
    switch (static_cast<ir::BinaryOp>(in.cmp)) {
      case ir::BinaryOp::Add: result = builder_.CreateFAdd(a, b); break;
      case ir::BinaryOp::Sub: result = builder_.CreateFSub(a, b); break;
      default: result = builder_.CreateFMul(a, b); break;
    }
    llvm::Value* place = RegisterPlace(in.r);
    SetNumberAt(place, result);
    SetReg(in.r, place);
    builder_.CreateBr(region.At(pc + 1));
  }
  // kObject: the runtime builds it (NativeViewHelpers::build_object) into the register's place,
  // from the members' keys (their constants' wm::Values) and values, listed on the stack.
  void EmitObject(const view::FlatInstr& in, size_t pc, const Region& region) {
    const uint32_t* members = plan_->code->operands.data() + in.a;
    llvm::Type* ptr = builder_.getPtrTy();
    const uint64_t list_bytes = 8 * std::max<uint64_t>(in.n, 1);
    llvm::AllocaInst* keys = EntryAlloca(ptr, list_bytes);
    llvm::AllocaInst* values = EntryAlloca(ptr, list_bytes);
    for (uint32_t m = 0; m < in.n; ++m) {
      builder_.CreateAlignedStore(ConstantWmValue(members[2 * m]),
                                  builder_.CreateConstInBoundsGEP1_64(builder_.getInt8Ty(), keys, 8 * uint64_t{m}),
                                  llvm::Align(8));
      builder_.CreateAlignedStore(Reg(members[2 * m + 1]),
                                  builder_.CreateConstInBoundsGEP1_64(builder_.getInt8Ty(), values, 8 * uint64_t{m}),
                                  llvm::Align(8));
    }
    llvm::Value* against = in.b == view::kNoConst ? static_cast<llvm::Value*>(llvm::ConstantPointerNull::get(builder_.getPtrTy()))
                                                   : ConstantWmValue(in.b);
    llvm::Value* place = RegisterPlace(in.r);
    llvm::Value* status = CallHelper(7, builder_.getInt32Ty(),
                                     {evaluator_, builder_.getInt32(in.n), keys, values, builder_.getInt32(in.cmp), against, place});
    SetReg(in.r, place);
    ContinueOrFail(status, region.At(pc + 1), pc);
  }
  // kSumIsEmpty: two objects (or an object and null) tested by the runtime
  // (NativeViewHelpers::sum_is_empty); any other operands decline, for Exec to add them.
  void EmitSumIsEmpty(const view::FlatInstr& in, size_t pc, const Region& region) {
    llvm::Value* empty = CallHelper(8, builder_.getInt32Ty(), {Reg(in.a), Reg(in.b)});
    llvm::BasicBlock* tested = Block("sum_tested");
    builder_.CreateCondBr(builder_.CreateICmpEQ(empty, builder_.getInt32(view::kNativeDecline)), decline_, tested);
    builder_.SetInsertPoint(tested);
    llvm::Value* is_empty = builder_.CreateICmpEQ(empty, builder_.getInt32(1));
    SetReg(in.r, BoolValue(static_cast<ir::BinaryOp>(in.cmp) == ir::BinaryOp::Eq ? is_empty : builder_.CreateNot(is_empty)));
    Next(region, pc);
  }
  // kToNumber: the runtime reads it (NativeViewHelpers::to_number); a number passes through as
  // the same value, a string read is a number in the register's place.
  void EmitToNumber(const view::FlatInstr& in, size_t pc, const Region& region) {
    llvm::AllocaInst* result = EntryAlloca(builder_.getPtrTy());
    llvm::Value* place = RegisterPlace(in.r);
    llvm::Value* status = CallHelper(9, builder_.getInt32Ty(), {Reg(in.a), place, result});
    llvm::BasicBlock* read = Block("number_read");
    ContinueOrFail(status, read, pc);
    builder_.SetInsertPoint(read);
    SetReg(in.r, builder_.CreateAlignedLoad(builder_.getPtrTy(), result, llvm::Align(8)));
    Next(region, pc);
  }
  // kLength: the runtime counts (NativeViewHelpers::length) into the register's place.
  void EmitLength(const view::FlatInstr& in, size_t pc, const Region& region) {
    llvm::Value* place = RegisterPlace(in.r);
    llvm::Value* status = CallHelper(10, builder_.getInt32Ty(), {Reg(in.a), place});
    SetReg(in.r, place);
    ContinueOrFail(status, region.At(pc + 1), pc);
  }
  // After a helper of instruction `pc` that returns a status: on to `next` when it continues, else
  // the run's error (or `try`'s, ErrorAt) or bail.
  void ContinueOrFail(llvm::Value* status, llvm::BasicBlock* next, size_t pc) {
    llvm::BasicBlock* failed = Block("helper_failed");
    builder_.CreateCondBr(builder_.CreateICmpEQ(status, builder_.getInt32(view::kNativeContinue)), next, failed);
    builder_.SetInsertPoint(failed);
    builder_.CreateCondBr(builder_.CreateICmpEQ(status, builder_.getInt32(view::kNativeError)), ErrorAt(pc), failed_[1]);
  }
  // Where an error raised by instruction `pc` goes: the run's error, or inside `try`'s body
  // (FlatCode::catch_from on) a run without output.
  llvm::BasicBlock* ErrorAt(size_t pc) const {
    return caught_ != nullptr && pc >= plan_->code->catch_from ? caught_ : failed_[0];
  }
  // The number `value` holds (a computed number, or a view of a number of the document), or a
  // decline; from a new block, which the caller continues in.
  llvm::Value* NumberOf(llvm::Value* value) {
    llvm::Value* tag = builder_.CreateLoad(builder_.getInt8Ty(),
                                           builder_.CreateConstInBoundsGEP1_64(builder_.getInt8Ty(), value, layout_.tag_offset));
    llvm::BasicBlock* computed = Block("computed");
    llvm::BasicBlock* not_computed = Block("not_computed");
    llvm::BasicBlock* view = Block("view");
    llvm::BasicBlock* signed_int = Block("int64");
    llvm::BasicBlock* unsigned_int = Block("uint64");
    llvm::BasicBlock* floating = Block("double");
    llvm::BasicBlock* done = Block("number");
    llvm::BasicBlock* not_view = Block("not_view");
    llvm::BasicBlock* constant = Block("constant");
    llvm::BasicBlock* constant_number = Block("constant_number");
    builder_.CreateCondBr(builder_.CreateICmpEQ(tag, builder_.getInt8(layout_.number_tag)), computed, not_computed);
    builder_.SetInsertPoint(not_computed);
    builder_.CreateCondBr(builder_.CreateICmpEQ(tag, builder_.getInt8(layout_.view_tag)), view, not_view);
    builder_.SetInsertPoint(not_view);
    builder_.CreateCondBr(builder_.CreateICmpEQ(tag, builder_.getInt8(layout_.constant_tag)), constant, decline_);
    builder_.SetInsertPoint(constant);  // a wm::Value (WmValue's layout): a number's kind, then its double
    llvm::Value* wm_value = builder_.CreateAlignedLoad(
        builder_.getPtrTy(), builder_.CreateConstInBoundsGEP1_64(builder_.getInt8Ty(), value, layout_.view_offset),
        llvm::Align(8));
    llvm::Value* kind = builder_.CreateLoad(builder_.getInt8Ty(), wm_value);
    builder_.CreateCondBr(builder_.CreateICmpEQ(kind, builder_.getInt8(WM_KIND_NUMBER)), constant_number, decline_);
    builder_.SetInsertPoint(constant_number);
    llvm::Value* from_constant = builder_.CreateAlignedLoad(
        builder_.getDoubleTy(), builder_.CreateConstInBoundsGEP1_64(builder_.getInt8Ty(), wm_value, offsetof(WmValue, payload)),
        llvm::Align(8));
    builder_.CreateBr(done);
    builder_.SetInsertPoint(view);
    llvm::Value* index = ViewIndex(value);
    llvm::Value* type = TypeOf(TapeWord(index));
    llvm::Value* bits = TapeWord(builder_.CreateAdd(index, builder_.getInt64(1)));  // a number's second word
    llvm::SwitchInst* by_type = builder_.CreateSwitch(type, decline_, 3);
    by_type->addCase(builder_.getInt8('l'), signed_int);
    by_type->addCase(builder_.getInt8('u'), unsigned_int);
    by_type->addCase(builder_.getInt8('d'), floating);
    builder_.SetInsertPoint(computed);
    llvm::Value* computed_number = builder_.CreateAlignedLoad(
        builder_.getDoubleTy(), builder_.CreateConstInBoundsGEP1_64(builder_.getInt8Ty(), value, layout_.view_offset),
        llvm::Align(8));
    builder_.CreateBr(done);
    builder_.SetInsertPoint(signed_int);
    llvm::Value* from_signed = builder_.CreateSIToFP(bits, builder_.getDoubleTy());
    builder_.CreateBr(done);
    builder_.SetInsertPoint(unsigned_int);
    llvm::Value* from_unsigned = builder_.CreateUIToFP(bits, builder_.getDoubleTy());
    builder_.CreateBr(done);
    builder_.SetInsertPoint(floating);
    llvm::Value* from_bits = builder_.CreateBitCast(bits, builder_.getDoubleTy());
    builder_.CreateBr(done);
    builder_.SetInsertPoint(done);
    llvm::PHINode* number = builder_.CreatePHI(builder_.getDoubleTy(), 5);
    number->addIncoming(from_constant, constant_number);
    number->addIncoming(computed_number, computed);
    number->addIncoming(from_signed, signed_int);
    number->addIncoming(from_unsigned, unsigned_int);
    number->addIncoming(from_bits, floating);
    return number;
  }

  // A view of the value at tape index `index` in `place` (a value-sized stack slot).
  void StoreView(llvm::Value* place, llvm::Value* index) {
    builder_.CreateStore(builder_.getInt8(layout_.view_tag),
                         builder_.CreateConstInBoundsGEP1_64(builder_.getInt8Ty(), place, layout_.tag_offset));
    builder_.CreateAlignedStore(document_, builder_.CreateConstInBoundsGEP1_64(builder_.getInt8Ty(), place, layout_.view_offset),
                                llvm::Align(8));
    builder_.CreateAlignedStore(index, builder_.CreateConstInBoundsGEP1_64(builder_.getInt8Ty(), place, layout_.view_offset + 8),
                                llvm::Align(8));
  }
  // The tape index of a value known to be a view, and its first tape word.
  llvm::Value* ViewIndex(llvm::Value* value) {
    return builder_.CreateAlignedLoad(builder_.getInt64Ty(),
                                      builder_.CreateConstInBoundsGEP1_64(builder_.getInt8Ty(), value, layout_.view_offset + 8),
                                      llvm::Align(8));
  }
  // Branches to `yes` when `value` is a view whose tape word has type `type` (setting *index and
  // *word in that branch), else to `no`.
  void BranchOnViewOf(llvm::Value* value, uint8_t type, llvm::BasicBlock* yes, llvm::BasicBlock* no, llvm::Value** index,
                      llvm::Value** word) {
    llvm::Value* tag = builder_.CreateLoad(builder_.getInt8Ty(),
                                           builder_.CreateConstInBoundsGEP1_64(builder_.getInt8Ty(), value, layout_.tag_offset));
    llvm::BasicBlock* view = Block("view");
    builder_.CreateCondBr(builder_.CreateICmpEQ(tag, builder_.getInt8(layout_.view_tag)), view, no);
    builder_.SetInsertPoint(view);
    *index = ViewIndex(value);
    *word = TapeWord(*index);
    builder_.CreateCondBr(builder_.CreateICmpEQ(TypeOf(*word), builder_.getInt8(type)), yes, no);
  }

  // kAnyAll: on an array of the document, the block on each element (a view in a stack slot)
  // until one decides; on an empty array that is not a view (`// []`), nothing to test; anything
  // else declines (Exec's tree evaluation), as does a loop whose steps might not fit.
  void EmitAnyAll(const view::FlatInstr& in, size_t pc, const Region& region) {
    const bool is_any = in.cmp != 0;
    const size_t block_length = BlockLength(in.b);
    llvm::Value* input = Reg(in.a);
    llvm::BasicBlock* array = Block("array");
    llvm::BasicBlock* not_array = Block("not_array");
    llvm::BasicBlock* decided = Block("decided");
    llvm::BasicBlock* undecided = Block("undecided");
    llvm::Value *index, *open;
    BranchOnViewOf(input, kArrayType, array, not_array, &index, &open);
    builder_.SetInsertPoint(not_array);
    llvm::Value* empty = CallHelper(5, builder_.getInt32Ty(), {input});
    builder_.CreateCondBr(builder_.CreateICmpNE(empty, builder_.getInt32(0)), undecided, decline_);

    builder_.SetInsertPoint(array);
    llvm::BasicBlock* body = Block("each");
    llvm::BasicBlock* after = Block("tested");
    llvm::BasicBlock* next = Block("next");
    const ElementLoop loop = BeginElementLoop(index, open, block_length);
    llvm::PHINode* at = loop.at;
    builder_.CreateCondBr(builder_.CreateICmpULT(at, loop.end), body, undecided);
    builder_.SetInsertPoint(body);
    llvm::Value* truthy = EmitBlockOn(in, at, after);
    builder_.CreateCondBr(is_any ? truthy : builder_.CreateNot(truthy), decided, next);
    builder_.SetInsertPoint(next);
    llvm::Value* following = After(at, TapeWord(at));
    at->addIncoming(following, builder_.GetInsertBlock());
    builder_.CreateBr(loop.header);

    llvm::BasicBlock* join = Block("any");
    builder_.SetInsertPoint(decided);
    builder_.CreateBr(join);
    builder_.SetInsertPoint(undecided);
    builder_.CreateBr(join);
    builder_.SetInsertPoint(join);
    llvm::PHINode* result = builder_.CreatePHI(builder_.getInt1Ty(), 2);
    result->addIncoming(builder_.getInt1(is_any), decided);    // any: one held; all: one failed
    result->addIncoming(builder_.getInt1(!is_any), undecided);
    SetReg(in.r, BoolValue(result));
    builder_.CreateBr(region.At(pc + 1));
  }
  // The loop of kAnyAll and kFirstWhere over the elements of the array at tape `index` (`open` its
  // first word): the steps of every element charged first (one each, then the block's
  // instructions at most), declining where they pass the limit. Leaves the builder in the loop's
  // header, after the PHI of the element's tape index (the caller adds its own and branches).
  struct ElementLoop {
    llvm::BasicBlock* entry;  // the block the header is entered from first
    llvm::BasicBlock* header;
    llvm::PHINode* at;
    llvm::Value* end;  // the tape index past the last element
  };
  ElementLoop BeginElementLoop(llvm::Value* index, llvm::Value* open, size_t block_length) {
    llvm::Value* count = builder_.CreateAnd(builder_.CreateLShr(open, 32), builder_.getInt64(0xFFFFFF));
    llvm::Value* steps = builder_.CreateAdd(builder_.CreateLoad(builder_.getInt64Ty(), steps_),
                                            builder_.CreateMul(count, builder_.getInt64(1 + block_length)));
    builder_.CreateStore(steps, steps_);
    llvm::Value* end = builder_.CreateSub(builder_.CreateAnd(open, builder_.getInt64(0xFFFFFFFFull)), builder_.getInt64(1));
    llvm::Value* first = builder_.CreateAdd(index, builder_.getInt64(1));
    llvm::BasicBlock* entry = builder_.GetInsertBlock();
    llvm::BasicBlock* header = Block("element");
    builder_.CreateCondBr(builder_.CreateICmpULE(steps, step_limit_), header, decline_);
    builder_.SetInsertPoint(header);
    llvm::PHINode* at = builder_.CreatePHI(builder_.getInt64Ty(), 2);
    at->addIncoming(first, entry);
    return {entry, header, at, end};
  }
  // The block of kAnyAll or kFirstWhere `in` on the element at tape index `at` (a view on this
  // code's stack in register `element`), ending in `after`: returns whether its value is truthy,
  // from `after`.
  llvm::Value* EmitBlockOn(const view::FlatInstr& in, llvm::Value* at, llvm::BasicBlock* after) {
    llvm::AllocaInst* element = EntryAlloca(builder_.getInt8Ty(), layout_.value_size);
    StoreView(element, at);
    SetReg(in.element, element);
    llvm::AllocaInst* holds = EntryAlloca(builder_.getPtrTy());
    EmitRegion(in.b, Return{holds, after});
    builder_.SetInsertPoint(after);
    return Truthy(builder_.CreateLoad(builder_.getPtrTy(), holds));
  }
  // kFirstWhere: `map(select(c)) | first` on an array of the document, c's block run on every
  // element (a step each, as kAnyAll's), the first it holds for kept: its view in the register's
  // place, null when none (and on an empty array that is not a view). Anything else declines (the
  // tree's, in Exec).
  void EmitFirstWhere(const view::FlatInstr& in, size_t pc, const Region& region) {
    const size_t block_length = BlockLength(in.b);
    llvm::BasicBlock* array = Block("search_array");
    llvm::BasicBlock* not_array = Block("search_not_array");
    llvm::BasicBlock* none = Block("search_none");
    llvm::Value* input = Reg(in.a);
    llvm::Value *index, *open;
    BranchOnViewOf(input, kArrayType, array, not_array, &index, &open);
    builder_.SetInsertPoint(not_array);  // an empty array that is not a view (`// []`): none found
    llvm::Value* empty = CallHelper(5, builder_.getInt32Ty(), {input});
    builder_.CreateCondBr(builder_.CreateICmpNE(empty, builder_.getInt32(0)), none, decline_);
    builder_.SetInsertPoint(array);
    llvm::BasicBlock* body = Block("search_each");
    llvm::BasicBlock* after = Block("search_tested");
    llvm::BasicBlock* searched = Block("searched");
    const ElementLoop loop = BeginElementLoop(index, open, block_length);
    llvm::PHINode* at = loop.at;
    llvm::PHINode* found = builder_.CreatePHI(builder_.getInt64Ty(), 2);  // its tape index, 0: none yet
    found->addIncoming(builder_.getInt64(0), loop.entry);
    builder_.CreateCondBr(builder_.CreateICmpULT(at, loop.end), body, searched);
    builder_.SetInsertPoint(body);
    llvm::Value* truthy = EmitBlockOn(in, at, after);
    llvm::Value* keep = builder_.CreateAnd(truthy, builder_.CreateICmpEQ(found, builder_.getInt64(0)));
    llvm::Value* kept = builder_.CreateSelect(keep, at, found);
    llvm::Value* following = After(at, TapeWord(at));
    at->addIncoming(following, builder_.GetInsertBlock());
    found->addIncoming(kept, builder_.GetInsertBlock());
    builder_.CreateBr(loop.header);

    builder_.SetInsertPoint(searched);
    llvm::BasicBlock* view = Block("search_found");
    builder_.CreateCondBr(builder_.CreateICmpNE(found, builder_.getInt64(0)), view, none);
    builder_.SetInsertPoint(view);
    llvm::Value* place = RegisterPlace(in.r);
    ClearPlace(place);
    StoreView(place, found);
    SetReg(in.r, place);
    Next(region, pc);
    builder_.SetInsertPoint(none);
    SetReg(in.r, TableValue(view::kNativeNullValue));
    Next(region, pc);
  }
  // A register's place made a plain value by the runtime before native code writes a view into
  // it: set_number lets go of what the place held (the places are shared with Exec's runs of the
  // kind's programs, which may leave a value that owns memory there).
  void ClearPlace(llvm::Value* place) { SetNumberAt(place, llvm::ConstantFP::get(builder_.getDoubleTy(), 0.0)); }
  // The runtime's set_number: `number` (a double) into `place`, letting go of what it held.
  void SetNumberAt(llvm::Value* place, llvm::Value* number) {
    auto* set_type = llvm::FunctionType::get(builder_.getVoidTy(), {builder_.getPtrTy(), builder_.getDoubleTy()}, false);
    builder_.CreateCall(set_type, Field(helpers_, 6), {place, number});
  }
  // Register r's place in the runtime's scratch values (FillPlan's layout): where a value the
  // code computes lives when it may outlive the code.
  llvm::Value* RegisterPlace(uint32_t r) {
    return builder_.CreateConstInBoundsGEP1_64(builder_.getInt8Ty(), scratch_, uint64_t{r} * layout_.value_size);
  }
  // The instructions of the block at `start`, to its kReturn.
  size_t BlockLength(size_t start) const {
    const std::vector<view::FlatInstr>& code = plan_->code->code;
    size_t pc = start;
    while (code[pc].op != view::FlatOp::kReturn) ++pc;
    return pc - start + 1;
  }

  // kFieldCompare `.key OP constant`: the member, tested by the runtime against the constant.
  void EmitFieldCompare(const view::FlatInstr& in, size_t pc, const Region& region) {
    const view::VNode& node = plan_->program->nodes[in.n];
    llvm::Value* value = EmitMember(Reg(in.a), node.keys[0]);
    SetReg(in.r, BoolValue(HoldsAgainstConstant(static_cast<uint8_t>(node.a), value, node.c)));
    builder_.CreateBr(region.At(pc + 1));
  }
  // Whether `value OP constant c` holds: `==` and `!=` against a string constant inline on a view
  // of the document (a string's size and bytes against immediates; any other kind differs from
  // a string), everything else through the runtime's HoldsAgainstConstant.
  llvm::Value* HoldsAgainstConstant(uint8_t op, llvm::Value* value, uint32_t c) {
    const Value& constant = plan_->program->consts[c];
    const auto binary = static_cast<ir::BinaryOp>(op);
    const auto by_runtime_test = [&] {  // NativeViewHelpers::holds_against_constant
      return builder_.CreateICmpNE(CallHelper(0, builder_.getInt32Ty(), {builder_.getInt32(op), value, ConstantWmValue(c)}),
                                   builder_.getInt32(0));
    };
    const bool inline_test = constant.IsString() && (binary == ir::BinaryOp::Eq || binary == ir::BinaryOp::Ne);
    if (!inline_test) return by_runtime_test();
    const std::string text(constant.AsString());
    llvm::BasicBlock* string = Block("string");
    llvm::BasicBlock* other_view = Block("other_view");
    llvm::BasicBlock* runtime = Block("runtime");
    llvm::BasicBlock* sized = Block("sized");
    llvm::BasicBlock* done = Block("compared");
    llvm::Value* tag = builder_.CreateLoad(builder_.getInt8Ty(),
                                           builder_.CreateConstInBoundsGEP1_64(builder_.getInt8Ty(), value, layout_.tag_offset));
    llvm::BasicBlock* view = Block("view");
    builder_.CreateCondBr(builder_.CreateICmpEQ(tag, I8(layout_.view_tag)), view, runtime);
    builder_.SetInsertPoint(view);
    llvm::Value* word = TapeWord(ViewIndex(value));
    builder_.CreateCondBr(builder_.CreateICmpEQ(TypeOf(word), I8('"')), string, other_view);
    builder_.SetInsertPoint(string);  // its size (4 bytes), then its bytes, in the string buffer
    llvm::Value* at = builder_.CreateInBoundsGEP(builder_.getInt8Ty(), strings_, builder_.CreateAnd(word, I64(kPayloadMask)));
    llvm::Value* size = builder_.CreateAlignedLoad(builder_.getInt32Ty(), at, llvm::Align(1));
    builder_.CreateCondBr(builder_.CreateICmpEQ(size, I32(text.size())), sized, other_view);
    builder_.SetInsertPoint(sized);
    llvm::Value* same = SameBytes(builder_.CreateConstInBoundsGEP1_64(builder_.getInt8Ty(), at, 4), text);
    llvm::Value* equal_holds_value = binary == ir::BinaryOp::Eq ? same : builder_.CreateNot(same);
    llvm::BasicBlock* sized_end = builder_.GetInsertBlock();
    builder_.CreateBr(done);
    builder_.SetInsertPoint(other_view);  // another kind, or a string of another size
    builder_.CreateBr(done);
    builder_.SetInsertPoint(runtime);
    llvm::Value* by_runtime = by_runtime_test();
    llvm::BasicBlock* runtime_end = builder_.GetInsertBlock();
    builder_.CreateBr(done);
    builder_.SetInsertPoint(done);
    const bool equal_holds = binary == ir::BinaryOp::Eq;
    llvm::PHINode* holds = builder_.CreatePHI(builder_.getInt1Ty(), 3);
    holds->addIncoming(equal_holds_value, sized_end);
    holds->addIncoming(builder_.getInt1(!equal_holds), other_view);
    holds->addIncoming(by_runtime, runtime_end);
    return holds;
  }
  // kField `.key` (`.key // constant` with b): the member, or the constant where it is falsy.
  void EmitField(const view::FlatInstr& in, size_t pc, const Region& region) {
    llvm::Value* place = nullptr;  // the value's place when it outlives the function
    if (view::NativeFieldEscapes(*plan_->code, pc)) {
      place = RegisterPlace(in.r);
    }
    llvm::Value* value = EmitMember(Reg(in.a), plan_->program->nodes[in.n].keys[0], place);
    if (in.b != view::kNoConst) value = builder_.CreateSelect(Truthy(value), value, ConstantValue(in.b));
    SetReg(in.r, value);
    builder_.CreateBr(region.At(pc + 1));
  }
  // `input.key` where input is an object of the document: its members scanned for the key (the
  // last one found is the value, as the DOM's lookups), in a stack slot of this instruction's (or
  // in `place`, a register's place, when not null), or null; null's member is null (the runtime's
  // null: a missing path's, a search's that found none); anything else declines (Exec's FieldOf
  // and FieldPath).
  llvm::Value* EmitMember(llvm::Value* input, const std::string& key, llvm::Value* place = nullptr) {
    llvm::BasicBlock* object = Block("object");
    llvm::BasicBlock* not_object = Block("not_object");
    llvm::BasicBlock* of_null = Block("member_of_null");
    llvm::Value *index, *open;
    BranchOnViewOf(input, kObjectType, object, not_object, &index, &open);
    builder_.SetInsertPoint(not_object);
    llvm::Value* tag = builder_.CreateLoad(builder_.getInt8Ty(),
                                           builder_.CreateConstInBoundsGEP1_64(builder_.getInt8Ty(), input, layout_.tag_offset));
    builder_.CreateCondBr(builder_.CreateICmpEQ(tag, builder_.getInt8(layout_.null_tag)), of_null, decline_);
    builder_.SetInsertPoint(object);
    llvm::AllocaInst* found_at = EntryAlloca(builder_.getInt64Ty());  // the value's index, 0: none
    builder_.CreateStore(I64(0), found_at);
    llvm::BasicBlock* scanned = Block("scanned");
    const MemberLoop member = BeginMembers(index, open, scanned);
    llvm::BasicBlock* sized = Block("sized");
    llvm::BasicBlock* matched = Block("matched");
    builder_.CreateCondBr(builder_.CreateICmpEQ(member.key_size, I32(key.size())), sized, member.next);
    builder_.SetInsertPoint(sized);
    builder_.CreateCondBr(SameBytes(member.key_bytes, key), matched, member.next);
    builder_.SetInsertPoint(matched);
    builder_.CreateStore(member.value_at, found_at);
    builder_.CreateBr(member.next);
    EndMembers(member);

    builder_.SetInsertPoint(scanned);
    llvm::Value* found = builder_.CreateLoad(builder_.getInt64Ty(), found_at);
    llvm::Value* field = place != nullptr ? place : EntryAlloca(builder_.getInt8Ty(), layout_.value_size);
    llvm::BasicBlock* present = Block("present");
    llvm::BasicBlock* test = Block("test");
    builder_.CreateCondBr(builder_.CreateICmpNE(found, builder_.getInt64(0)), present, test);
    builder_.SetInsertPoint(present);
    if (place != nullptr) ClearPlace(place);
    StoreView(field, found);
    builder_.CreateBr(test);
    builder_.SetInsertPoint(test);
    llvm::PHINode* value = builder_.CreatePHI(builder_.getPtrTy(), 3);
    value->addIncoming(TableValueIn(scanned, view::kNativeNullValue), scanned);
    value->addIncoming(field, present);
    builder_.SetInsertPoint(of_null);
    value->addIncoming(TableValue(view::kNativeNullValue), of_null);
    builder_.CreateBr(test);
    builder_.SetInsertPoint(test);
    return value;
  }
  // Table entry `index`, loaded at the end of `block` (before its terminator).
  llvm::Value* TableValueIn(llvm::BasicBlock* block, uint64_t index) {
    llvm::IRBuilder<> at(block->getTerminator());
    return at.CreateAlignedLoad(at.getPtrTy(), at.CreateConstInBoundsGEP1_64(at.getPtrTy(), table_, index), llvm::Align(8));
  }
 private:
  llvm::Value* Field(llvm::Value* base, uint64_t index) {
    return builder_.CreateAlignedLoad(builder_.getPtrTy(),
                                      builder_.CreateConstInBoundsGEP1_64(builder_.getPtrTy(), base, index), llvm::Align(8));
  }
  llvm::Value* Reg(uint32_t r) { return builder_.CreateLoad(builder_.getPtrTy(), registers_[r]); }
  void SetReg(uint32_t r, llvm::Value* value) { builder_.CreateStore(value, registers_[r]); }
  llvm::Value* TableValue(uint64_t index) { return Field(table_, index); }
  llvm::Value* ConstantValue(uint32_t c) { return TableValue(view::kNativeConstants + c); }
  llvm::Value* ConstantWmValue(uint32_t c) { return TableValue(view::kNativeConstants + plan_->constants + c); }
  llvm::Value* BoolValue(llvm::Value* holds) {
    return builder_.CreateSelect(holds, TableValue(view::kNativeTrueValue), TableValue(view::kNativeFalseValue));
  }
  // helpers_->field(args...): NativeViewHelpers' fields, in order.
  llvm::Value* CallHelper(uint64_t index, llvm::Type* result, std::vector<llvm::Value*> call_args) {
    std::vector<llvm::Type*> types;
    for (llvm::Value* a : call_args) types.push_back(a->getType());
    auto* type = llvm::FunctionType::get(result, types, false);
    return builder_.CreateCall(type, Field(helpers_, index), call_args);
  }
  void Next(const Region& region, size_t pc) { builder_.CreateBr(region.At(pc + 1)); }

  // jq's truthiness of the value at `value`: the scalar tags and views inline, the rest by the runtime.
  llvm::Value* Truthy(llvm::Value* value) {
    llvm::Value* tag = builder_.CreateLoad(builder_.getInt8Ty(),
                                           builder_.CreateConstInBoundsGEP1_64(builder_.getInt8Ty(), value, layout_.tag_offset));
    llvm::BasicBlock* start = builder_.GetInsertBlock();
    llvm::BasicBlock* view = Block("view");
    llvm::BasicBlock* other = Block("other");
    llvm::BasicBlock* done = Block("truthy");
    llvm::Value* scalar = builder_.CreateICmpULT(tag, builder_.getInt8(layout_.view_tag));
    llvm::Value* scalar_truthy = builder_.CreateICmpUGE(tag, builder_.getInt8(layout_.falsy_tags));
    llvm::BasicBlock* not_scalar = Block("not_scalar");
    builder_.CreateCondBr(scalar, done, not_scalar);
    builder_.SetInsertPoint(not_scalar);
    builder_.CreateCondBr(builder_.CreateICmpEQ(tag, builder_.getInt8(layout_.view_tag)), view, other);
    builder_.SetInsertPoint(view);  // a view: its tape word's type is neither null nor false
    llvm::Value* index = builder_.CreateAlignedLoad(
        builder_.getInt64Ty(), builder_.CreateConstInBoundsGEP1_64(builder_.getInt8Ty(), value, layout_.view_offset + 8),
        llvm::Align(8));
    llvm::Value* word = builder_.CreateAlignedLoad(builder_.getInt64Ty(),
                                                   builder_.CreateInBoundsGEP(builder_.getInt64Ty(), tape_, index), llvm::Align(8));
    llvm::Value* type = builder_.CreateTrunc(builder_.CreateLShr(word, 56), builder_.getInt8Ty());
    llvm::Value* view_truthy = builder_.CreateAnd(builder_.CreateICmpNE(type, builder_.getInt8(kNullType)),
                                                  builder_.CreateICmpNE(type, builder_.getInt8('f')));
    builder_.CreateBr(done);
    builder_.SetInsertPoint(other);
    llvm::Value* other_truthy = builder_.CreateICmpNE(CallHelper(2, builder_.getInt32Ty(), {value}), builder_.getInt32(0));
    builder_.CreateBr(done);
    builder_.SetInsertPoint(done);
    llvm::PHINode* truthy = builder_.CreatePHI(builder_.getInt1Ty(), 3);
    truthy->addIncoming(scalar_truthy, start);
    truthy->addIncoming(view_truthy, view);
    truthy->addIncoming(other_truthy, other);
    return truthy;
  }

  // Whether `order` (<0, 0, >0) satisfies the comparison `op` (ir::BinaryOp), as ComparisonHolds.
  llvm::Value* Holds(uint8_t op, llvm::Value* order) {
    llvm::Value* zero = builder_.getInt32(0);
    switch (static_cast<ir::BinaryOp>(op)) {
      case ir::BinaryOp::Eq: return builder_.CreateICmpEQ(order, zero);
      case ir::BinaryOp::Ne: return builder_.CreateICmpNE(order, zero);
      case ir::BinaryOp::Lt: return builder_.CreateICmpSLT(order, zero);
      case ir::BinaryOp::Le: return builder_.CreateICmpSLE(order, zero);
      case ir::BinaryOp::Gt: return builder_.CreateICmpSGT(order, zero);
      default: return builder_.CreateICmpSGE(order, zero);
    }
  }

  // A trie read (kPath, kPathOrConst) of absolute node `node`: the error or bail of its state ends
  // the run; a missing node reads null; `or_const` (unless kNoConst) where the value is falsy.
  // kPathBelow reads node a below the iteration at the current element: its place in the
  // element's arrays instead.
  void EmitPath(const view::FlatInstr& in, size_t pc, uint32_t or_const, const Region& region, bool below = false) {
    llvm::Value* states = below ? below_states_ : states_;
    llvm::Value* values = below ? below_values_ : values_;
    const uint64_t place = below ? below_index_->at(in.a) : in.a;
    llvm::Value* state = builder_.CreateLoad(builder_.getInt8Ty(),
                                             builder_.CreateConstInBoundsGEP1_64(builder_.getInt8Ty(), states, place));
    llvm::BasicBlock* known = Block("known");
    llvm::BasicBlock* missing = Block("missing");
    llvm::BasicBlock* not_known = Block("not_known");
    llvm::BasicBlock* read = Block("read");
    builder_.CreateCondBr(builder_.CreateICmpEQ(state, builder_.getInt8(layout_.known_state)), known, not_known);
    builder_.SetInsertPoint(not_known);
    llvm::BasicBlock* failed = Block("failed");
    builder_.CreateCondBr(builder_.CreateICmpEQ(state, builder_.getInt8(layout_.missing_state)), missing, failed);
    builder_.SetInsertPoint(failed);  // FlowOf: an error's state is an error, anything else a bail
    builder_.CreateCondBr(builder_.CreateICmpEQ(state, builder_.getInt8(layout_.error_state)), ErrorAt(pc), failed_[1]);
    builder_.SetInsertPoint(known);
    llvm::Value* at = builder_.CreateConstInBoundsGEP1_64(builder_.getInt8Ty(), values, place * layout_.value_size);
    builder_.CreateBr(read);
    builder_.SetInsertPoint(missing);
    llvm::Value* null = TableValue(view::kNativeNullValue);
    builder_.CreateBr(read);
    builder_.SetInsertPoint(read);
    llvm::PHINode* value = builder_.CreatePHI(builder_.getPtrTy(), 2);
    value->addIncoming(at, known);
    value->addIncoming(null, missing);
    if (or_const == view::kNoConst) {
      SetReg(in.r, value);
    } else {
      SetReg(in.r, builder_.CreateSelect(Truthy(value), value, ConstantValue(or_const)));
    }
    Next(region, pc);
  }

  void EmitInstruction(const view::FlatInstr& in, size_t pc, const Region& region) {
    using view::FlatOp;
    switch (in.op) {
      case FlatOp::kConst: SetReg(in.r, ConstantValue(in.a)); Next(region, pc); return;
      case FlatOp::kPath: EmitPath(in, pc, view::kNoConst, region); return;
      case FlatOp::kPathOrConst: EmitPath(in, pc, in.b, region); return;
      case FlatOp::kPathBelow: EmitPath(in, pc, in.b, region, /*below=*/true); return;
      case FlatOp::kArith: EmitArith(in, pc, region); return;
      case FlatOp::kAnyAll: EmitAnyAll(in, pc, region); return;
      case FlatOp::kFieldCompare: EmitFieldCompare(in, pc, region); return;
      case FlatOp::kField: EmitField(in, pc, region); return;
      case FlatOp::kObject: EmitObject(in, pc, region); return;
      case FlatOp::kSumIsEmpty: EmitSumIsEmpty(in, pc, region); return;
      case FlatOp::kToNumber: EmitToNumber(in, pc, region); return;
      case FlatOp::kFirstWhere: EmitFirstWhere(in, pc, region); return;
      case FlatOp::kLength: EmitLength(in, pc, region); return;
      case FlatOp::kCompare: {
        llvm::Value* order = CallHelper(1, builder_.getInt32Ty(), {Reg(in.a), Reg(in.b)});
        SetReg(in.r, BoolValue(Holds(in.cmp, order)));
        Next(region, pc);
        return;
      }
      case FlatOp::kCompareConst:
        SetReg(in.r, BoolValue(HoldsAgainstConstant(in.cmp, Reg(in.a), in.b)));
        Next(region, pc);
        return;
      case FlatOp::kNot: SetReg(in.r, BoolValue(builder_.CreateNot(Truthy(Reg(in.a))))); Next(region, pc); return;
      case FlatOp::kTruthy: SetReg(in.r, BoolValue(Truthy(Reg(in.a)))); Next(region, pc); return;
      case FlatOp::kSetBool: SetReg(in.r, TableValue(in.cmp != 0 ? view::kNativeTrueValue : view::kNativeFalseValue)); Next(region, pc); return;
      case FlatOp::kMove: SetReg(in.r, Reg(in.a)); Next(region, pc); return;
      case FlatOp::kVar:  // the bound variable (NativeProgramSupported)
        SetReg(in.r, builder_.CreateLoad(builder_.getPtrTy(), bound_));
        Next(region, pc);
        return;
      case FlatOp::kJump: builder_.CreateBr(region.At(in.b)); return;
      case FlatOp::kJumpIfFalsy: builder_.CreateCondBr(Truthy(Reg(in.a)), region.At(pc + 1), region.At(in.b)); return;
      case FlatOp::kJumpIfTruthy: builder_.CreateCondBr(Truthy(Reg(in.a)), region.At(in.b), region.At(pc + 1)); return;
      case FlatOp::kMemoLoad: {
        llvm::Value* kept = CallHelper(3, builder_.getPtrTy(), {evaluator_, builder_.getInt32(in.a)});
        llvm::BasicBlock* found = Block("memo");
        builder_.CreateCondBr(builder_.CreateIsNotNull(kept), found, region.At(pc + 1));
        builder_.SetInsertPoint(found);
        SetReg(in.r, kept);
        builder_.CreateBr(region.At(in.b));
        return;
      }
      case FlatOp::kMemoStore:
        SetReg(in.r, CallHelper(4, builder_.getPtrTy(), {evaluator_, builder_.getInt32(in.a), Reg(in.r)}));
        Next(region, pc);
        return;
      case FlatOp::kReturn:
        if (region.on_return.after == nullptr) {  // the program's value
          builder_.CreateAlignedStore(Reg(in.a), result_, llvm::Align(8));
          builder_.CreateRet(builder_.getInt32(view::kNativeContinue));
        } else {  // a block's, back in its loop
          builder_.CreateStore(Reg(in.a), region.on_return.value);
          builder_.CreateBr(region.on_return.after);
        }
        return;
      default:  // not NativeProgramSupported: the plan never holds it
        builder_.CreateBr(failed_[1]);
        return;
    }
  }

  const FillPlan& layout_;
  const view::ProgramPlan* plan_ = nullptr;
  llvm::Value *result_ = nullptr, *states_ = nullptr, *values_ = nullptr,
              *table_ = nullptr, *helpers_ = nullptr, *evaluator_ = nullptr, *document_ = nullptr,
              *step_limit_ = nullptr;
  llvm::BasicBlock* entry_ = nullptr;
  llvm::AllocaInst* steps_ = nullptr;
  llvm::AllocaInst* bound_ = nullptr;  // `E as $x`: where E's value is
  llvm::Value *input_ = nullptr, *below_states_ = nullptr, *below_values_ = nullptr, *scratch_ = nullptr;
  const std::vector<uint32_t>* below_index_ = nullptr;
  std::vector<llvm::AllocaInst*> registers_;
  std::array<llvm::BasicBlock*, 2> failed_{};  // error, bail
  llvm::BasicBlock* caught_ = nullptr;         // `try`'s body failed (kNativeCaught); null without `try`
  llvm::BasicBlock* decline_ = nullptr;
};

std::string FillSymbol(size_t root) { return "wm_view_fill_" + std::to_string(root); }
std::string ProgramSymbol(size_t program) { return "wm_view_program_" + std::to_string(program); }

class JitViewCode : public view::NativeViewCode {
 public:
  JitViewCode(std::shared_ptr<llvm::orc::LLJIT> jit, std::vector<view::NativeFillFn> fills,
              std::vector<view::NativeProgramFn> programs)
      : jit_(std::move(jit)), fills_(std::move(fills)), programs_(std::move(programs)) {}
  view::NativeFillFn Fill(size_t root) const override { return fills_[root]; }
  view::NativeProgramFn Program(size_t program) const override { return programs_[program]; }

 private:
  std::shared_ptr<llvm::orc::LLJIT> jit_;  // owns the code fills_ point into
  std::vector<view::NativeFillFn> fills_;
  std::vector<view::NativeProgramFn> programs_;
};

class JitViewCompiler : public view::NativeViewCompiler {
 public:
  explicit JitViewCompiler(CodegenOptions options) : options_(std::move(options)) {}

  std::shared_ptr<const view::NativeViewCode> Compile(const view::NativeViewPlan& plan, std::string* error) const override {
    internal::InitializeNativeTargetOnce();
    auto fail = [&](llvm::Error e) -> std::shared_ptr<const view::NativeViewCode> {
      *error = "LLVM JIT (view fills): " + llvm::toString(std::move(e));
      return nullptr;
    };
    auto machine_builder = llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!machine_builder) return fail(machine_builder.takeError());
    machine_builder->setCodeGenOptLevel(internal::CodegenLevel(options_.opt_level));
    // Baseline x86-64 code (SSE2), not the host's: this code is scalar and gains nothing from
    // AVX, and the host's VEX-encoded floating point, called between the runtime's SSE code per
    // element, ran slower than Exec's (a JobSet's `.replicas * 2` per element: b2r 1.44 against
    // Exec's 1.26; with baseline code 1.35 against 1.47: bench/RESULTS.md 0u).
    if (machine_builder->getTargetTriple().getArch() == llvm::Triple::x86_64) {
      machine_builder->setCPU("x86-64");
      machine_builder->getFeatures() = llvm::SubtargetFeatures();
    }
    internal::SetCodegenOptions(options_.opt_level, &machine_builder->getOptions());
    auto machine = machine_builder->createTargetMachine();
    if (!machine) return fail(machine.takeError());

    auto context = std::make_unique<llvm::LLVMContext>();
    context->setDiscardValueNames(true);
    auto module = std::make_unique<llvm::Module>("wm_view_fill", *context);
    module->setDataLayout((*machine)->createDataLayout());
    module->setTargetTriple((*machine)->getTargetTriple().str());
    FillEmitter fill_emitter(*module, plan.fills);
    for (size_t r = 0; r < plan.fills.roots.size(); ++r) fill_emitter.Emit(plan.fills.roots[r], FillSymbol(r));
    ProgramEmitter program_emitter(*module, plan.fills, plan.below_index);
    for (size_t p = 0; p < plan.programs.size(); ++p) {
      if (plan.programs[p].program == nullptr ||
          !view::NativeProgramSupported(*plan.programs[p].code, *plan.programs[p].program)) {
        *error = "view program " + std::to_string(p) + ": not supported by native code";
        return nullptr;
      }
      program_emitter.Emit(plan.programs[p], ProgramSymbol(p));
    }
    std::string broken;
    llvm::raw_string_ostream os(broken);
    if (llvm::verifyModule(*module, &os)) {
      *error = "view fill: invalid LLVM IR: " + os.str();
      return nullptr;
    }
    internal::OptimizeModule(*module, **machine, options_.opt_level);

    auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*machine_builder)).create();
    if (!jit) return fail(jit.takeError());
    if (llvm::Error e = (*jit)->addIRModule(llvm::orc::ThreadSafeModule(std::move(module), std::move(context)))) {
      return fail(std::move(e));
    }
    std::vector<view::NativeFillFn> fills;
    for (size_t r = 0; r < plan.fills.roots.size(); ++r) {
      auto address = (*jit)->lookup(FillSymbol(r));
      if (!address) return fail(address.takeError());
      fills.push_back(address->toPtr<view::NativeFillFn>());
    }
    std::vector<view::NativeProgramFn> programs;
    for (size_t p = 0; p < plan.programs.size(); ++p) {
      auto address = (*jit)->lookup(ProgramSymbol(p));
      if (!address) return fail(address.takeError());
      programs.push_back(address->toPtr<view::NativeProgramFn>());
    }
    return std::make_shared<JitViewCode>(std::move(*jit), std::move(fills), std::move(programs));
  }

 private:
  CodegenOptions options_;
};

}  // namespace

std::shared_ptr<const view::NativeViewCompiler> MakeNativeViewCompiler(const CodegenOptions& options) {
  return std::make_shared<JitViewCompiler>(options);
}

}  // namespace wm::codegen
