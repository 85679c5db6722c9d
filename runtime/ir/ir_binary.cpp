// Binary encoding of ir::Program (ir_binary.h). Layout, all integers little-endian:
//   "WMIR" u32:version  str:source
//   u32:n consts    value*       (value: u8 kind; number f64 bits; string str; array u32:n value*;
//                                 object u32:n (str value)*) - exact doubles, NaN and inf included
//   u32:n nodes     (u8 op, u32 a, u32:n u32*, u32:n u32*, str, u32 begin, u32 end)*
//   u32:n patterns  (u8 kind, u32 slot, u32:n u32*, u32:n (u32 key, i32 bind, i32 value)*)*
//   u32:n functions (str name, u32 closure params, u32:n u32*, u32 slots, u32 body, i32 parent)*
// where str = u32 length + bytes. The reader checks every length against the bytes left before
// allocating, and runs the verifier (verify.h) so engines can trust indexes and shapes.
#include "runtime/ir/ir_binary.h"

#include "runtime/ir/verify.h"

#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace wm::ir {
namespace {

constexpr char kMagic[4] = {'W', 'M', 'I', 'R'};
// Nesting limit of an encoded constant (literals come from jq source, which is far shallower).
constexpr size_t kMaxConstDepth = 10000;

class Writer {
 public:
  void U8(uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void U32(uint32_t v) {
    for (int i = 0; i < 4; ++i) out_.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
  }
  void I32(int32_t v) { U32(static_cast<uint32_t>(v)); }
  void U64(uint64_t v) {
    for (int i = 0; i < 8; ++i) out_.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
  }
  void Str(std::string_view s) {
    U32(static_cast<uint32_t>(s.size()));
    out_.append(s);
  }
  void U32List(const std::vector<uint32_t>& list) {
    U32(static_cast<uint32_t>(list.size()));
    for (uint32_t v : list) U32(v);
  }

  // Pre-order with an explicit stack; object members interleave key strings and values.
  void WriteValue(const Value& root) {
    struct Item {
      const Value* value;   // null: write `key` instead
      std::string_view key;
    };
    std::vector<Item> stack = {{&root, {}}};
    while (!stack.empty()) {
      Item item = stack.back();
      stack.pop_back();
      if (item.value == nullptr) {
        Str(item.key);
        continue;
      }
      const Value& v = *item.value;
      U8(static_cast<uint8_t>(v.kind()));
      switch (v.kind()) {
        case Kind::Null:
        case Kind::False:
        case Kind::True: break;
        case Kind::Number: {
          uint64_t bits;
          double d = v.AsNumber();
          std::memcpy(&bits, &d, sizeof(bits));
          U64(bits);
          break;
        }
        case Kind::String: Str(v.AsString()); break;
        case Kind::Array: {
          const Array& elements = v.AsArray();
          U32(static_cast<uint32_t>(elements.size()));
          for (auto it = elements.rbegin(); it != elements.rend(); ++it) stack.push_back({&*it, {}});
          break;
        }
        case Kind::Object: {
          const auto& members = v.AsObject();
          U32(static_cast<uint32_t>(members.size()));
          for (auto it = members.rbegin(); it != members.rend(); ++it) {
            stack.push_back({&it->second, {}});
            stack.push_back({nullptr, it->first.AsString()});
          }
          break;
        }
      }
    }
  }

  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}

  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }
  size_t remaining() const { return bytes_.size() - pos_; }
  bool AtEnd() const { return pos_ == bytes_.size(); }

  bool Fail(const std::string& message) {
    if (error_.empty()) error_ = message + " (at byte " + std::to_string(pos_) + ")";
    return false;
  }

  bool Bytes(size_t n, std::string_view* out) {
    if (failed()) return false;
    if (remaining() < n) return Fail("truncated IR: need " + std::to_string(n) + " more bytes");
    *out = bytes_.substr(pos_, n);
    pos_ += n;
    return true;
  }
  bool U8(uint8_t* v) {
    std::string_view b;
    if (!Bytes(1, &b)) return false;
    *v = static_cast<uint8_t>(b[0]);
    return true;
  }
  bool U32(uint32_t* v) {
    std::string_view b;
    if (!Bytes(4, &b)) return false;
    uint32_t r = 0;
    for (int i = 0; i < 4; ++i) r |= static_cast<uint32_t>(static_cast<uint8_t>(b[i])) << (8 * i);
    *v = r;
    return true;
  }
  bool I32(int32_t* v) {
    uint32_t u;
    if (!U32(&u)) return false;
    *v = static_cast<int32_t>(u);
    return true;
  }
  bool U64(uint64_t* v) {
    std::string_view b;
    if (!Bytes(8, &b)) return false;
    uint64_t r = 0;
    for (int i = 0; i < 8; ++i) r |= static_cast<uint64_t>(static_cast<uint8_t>(b[i])) << (8 * i);
    *v = r;
    return true;
  }
  bool Str(std::string* s) {
    uint32_t n;
    std::string_view b;
    if (!U32(&n) || !Bytes(n, &b)) return false;
    s->assign(b);
    return true;
  }
  // A count of items that each take at least `min_item_bytes`: rejecting counts the remaining
  // bytes cannot hold bounds every allocation by the blob's size.
  bool Count(size_t min_item_bytes, const char* what, uint32_t* n) {
    if (!U32(n)) return false;
    if (static_cast<uint64_t>(*n) * min_item_bytes > remaining()) {
      return Fail(std::string("corrupt IR: ") + what + " count " + std::to_string(*n) +
                  " exceeds the data left");
    }
    return true;
  }
  bool U32List(const char* what, std::vector<uint32_t>* list) {
    uint32_t n;
    if (!Count(4, what, &n)) return false;
    list->resize(n);
    for (uint32_t i = 0; i < n; ++i) {
      if (!U32(&(*list)[i])) return false;
    }
    return true;
  }

  // Iterative decoding with a nesting limit.
  bool ReadValue(Value* out) {
    struct Open {
      Value container;
      uint32_t left;
      std::string key;  // objects: key of the member being read
    };
    std::vector<Open> stack;
    for (;;) {
      Value current;
      bool have_value = false;
      // Objects read the member key before its value.
      if (!stack.empty() && stack.back().container.IsObject()) {
        if (!Str(&stack.back().key)) return false;
      }
      uint8_t kind;
      if (!U8(&kind)) return false;
      switch (kind) {
        case static_cast<uint8_t>(Kind::Null): have_value = true; break;
        case static_cast<uint8_t>(Kind::False):
        case static_cast<uint8_t>(Kind::True):
          current = Value::Bool(kind == static_cast<uint8_t>(Kind::True));
          have_value = true;
          break;
        case static_cast<uint8_t>(Kind::Number): {
          uint64_t bits;
          if (!U64(&bits)) return false;
          double d;
          std::memcpy(&d, &bits, sizeof(d));
          current = Value::Number(d);
          have_value = true;
          break;
        }
        case static_cast<uint8_t>(Kind::String): {
          std::string s;
          if (!Str(&s)) return false;
          current = Value::String(s);
          have_value = true;
          break;
        }
        case static_cast<uint8_t>(Kind::Array):
        case static_cast<uint8_t>(Kind::Object): {
          bool is_array = kind == static_cast<uint8_t>(Kind::Array);
          uint32_t n;
          // Each element takes at least 1 byte, each member at least 4 (key length) + 1.
          if (!Count(is_array ? 1 : 5, "constant element", &n)) return false;
          if (stack.size() >= kMaxConstDepth) return Fail("corrupt IR: constant nested too deeply");
          Value container = is_array ? Value::EmptyArray() : Value::EmptyObject();
          if (n == 0) {
            current = std::move(container);
            have_value = true;
          } else {
            if (is_array) container.MutableArray().reserve(n);
            stack.push_back(Open{std::move(container), n, {}});
          }
          break;
        }
        default: return Fail("corrupt IR: unknown constant kind " + std::to_string(kind));
      }
      if (!have_value) continue;
      // Attach to parents, closing those that are complete.
      for (;;) {
        if (stack.empty()) {
          *out = std::move(current);
          return true;
        }
        Open& top = stack.back();
        if (top.container.IsArray()) {
          top.container.MutableArray().push_back(std::move(current));
        } else {
          if (top.container.Find(top.key) != nullptr) return Fail("corrupt IR: duplicate constant key");
          top.container.Set(top.key, std::move(current));
        }
        if (--top.left > 0) break;
        current = std::move(top.container);
        stack.pop_back();
      }
    }
  }

 private:
  std::string_view bytes_;
  size_t pos_ = 0;
  std::string error_;
};

}  // namespace

std::string SerializeProgram(const Program& program) {
  Writer w;
  for (char c : kMagic) w.U8(static_cast<uint8_t>(c));
  w.U32(kIrBinaryVersion);
  w.Str(program.source);
  w.U32(static_cast<uint32_t>(program.consts.size()));
  for (const Value& v : program.consts) w.WriteValue(v);
  w.U32(static_cast<uint32_t>(program.nodes.size()));
  for (const Node& n : program.nodes) {
    w.U8(static_cast<uint8_t>(n.op));
    w.U32(n.a);
    w.U32List(n.kids);
    w.U32List(n.patterns);
    w.Str(n.str);
    w.U32(n.source_begin);
    w.U32(n.source_end);
  }
  w.U32(static_cast<uint32_t>(program.patterns.size()));
  for (const Pattern& p : program.patterns) {
    w.U8(static_cast<uint8_t>(p.kind));
    w.U32(p.slot);
    w.U32List(p.elements);
    w.U32(static_cast<uint32_t>(p.entries.size()));
    for (const Pattern::Entry& e : p.entries) {
      w.U32(e.key);
      w.I32(e.bind_slot);
      w.I32(e.value_pattern);
    }
  }
  w.U32(static_cast<uint32_t>(program.functions.size()));
  for (const Function& f : program.functions) {
    w.Str(f.name);
    w.U32(f.num_closure_params);
    w.U32List(f.value_param_slots);
    w.U32(f.num_slots);
    w.U32(f.body);
    w.I32(f.parent);
  }
  return w.Take();
}

bool DeserializeProgram(std::string_view bytes, Program* out, std::string* error) {
  Reader r(bytes);
  Program program;
  auto fail = [&]() {
    *error = r.error();
    return false;
  };
  std::string_view magic;
  if (!r.Bytes(4, &magic)) return fail();
  if (std::memcmp(magic.data(), kMagic, 4) != 0) {
    r.Fail("not an IR blob (bad magic)");
    return fail();
  }
  uint32_t version;
  if (!r.U32(&version)) return fail();
  if (version != kIrBinaryVersion) {
    r.Fail("unsupported IR version " + std::to_string(version) + " (this build reads version " +
           std::to_string(kIrBinaryVersion) + "; recompile the bundle with this wmc)");
    return fail();
  }
  if (!r.Str(&program.source)) return fail();

  uint32_t n;
  if (!r.Count(1, "constant", &n)) return fail();
  program.consts.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    if (!r.ReadValue(&program.consts[i])) return fail();
  }

  // Minimum encoded sizes: node 1+4+4+4+4+4+4 = 25, pattern 1+4+4+4 = 13, function 4+4+4+4+4+4 = 24.
  if (!r.Count(25, "node", &n)) return fail();
  program.nodes.resize(n);
  for (Node& node : program.nodes) {
    uint8_t op;
    if (!r.U8(&op)) return fail();
    if (op >= kOpCount) {
      r.Fail("corrupt IR: unknown op " + std::to_string(op));
      return fail();
    }
    node.op = static_cast<Op>(op);
    if (!r.U32(&node.a) || !r.U32List("child", &node.kids) || !r.U32List("pattern", &node.patterns) ||
        !r.Str(&node.str) || !r.U32(&node.source_begin) || !r.U32(&node.source_end)) {
      return fail();
    }
  }

  if (!r.Count(13, "pattern", &n)) return fail();
  program.patterns.resize(n);
  for (Pattern& p : program.patterns) {
    uint8_t kind;
    if (!r.U8(&kind)) return fail();
    if (kind > static_cast<uint8_t>(Pattern::Kind::Object)) {
      r.Fail("corrupt IR: unknown pattern kind " + std::to_string(kind));
      return fail();
    }
    p.kind = static_cast<Pattern::Kind>(kind);
    uint32_t entries;
    if (!r.U32(&p.slot) || !r.U32List("pattern element", &p.elements) ||
        !r.Count(12, "pattern entry", &entries)) {
      return fail();
    }
    p.entries.resize(entries);
    for (Pattern::Entry& e : p.entries) {
      if (!r.U32(&e.key) || !r.I32(&e.bind_slot) || !r.I32(&e.value_pattern)) return fail();
    }
  }

  if (!r.Count(24, "function", &n)) return fail();
  program.functions.resize(n);
  for (Function& f : program.functions) {
    if (!r.Str(&f.name) || !r.U32(&f.num_closure_params) ||
        !r.U32List("value parameter", &f.value_param_slots) || !r.U32(&f.num_slots) ||
        !r.U32(&f.body) || !r.I32(&f.parent)) {
      return fail();
    }
  }
  if (!r.AtEnd()) {
    r.Fail("corrupt IR: " + std::to_string(r.remaining()) + " unexpected trailing bytes");
    return fail();
  }
  if (!Verify(program, error)) {
    *error = "invalid IR: " + *error;
    return false;
  }
  *out = std::move(program);
  return true;
}

}  // namespace wm::ir
