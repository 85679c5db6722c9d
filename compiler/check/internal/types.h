// The type checker's lattice: AType (a set of JSON types plus what is known of the schema node,
// enum values, element and field types), Card (how many outputs), Result (both plus the iterated
// collection), their joins and sequencing (Compose: `a | b`), and how they are printed in
// messages and dumps.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compiler/schema/registry.h"
#include "compiler/schema/schema.h"

namespace wm::check::internal {

using schema::Schema;

inline constexpr uint8_t kNull = schema::kNullBit, kBool = schema::kBooleanBit,
                         kInt = schema::kIntegerBit, kNum = schema::kNumberBit,
                         kStr = schema::kStringBit, kArr = schema::kArrayBit,
                         kObj = schema::kObjectBit;
inline constexpr uint8_t kNumeric = kInt | kNum;

// ---- the abstract value

struct AType {
  bool any = true;                  // nothing known
  uint8_t kinds = 0;                // possible JSON types when !any
  const Schema* schema = nullptr;   // the (dereferenced) schema node describing the value
  std::string path;                 // its schema path (".spec.replicatedJobs[]"), with schema
  std::vector<std::string> enums;   // known possible values (JSON text), when finite
  std::shared_ptr<AType> elem;      // element type of arrays built by [...], keys, to_entries
  // For keys / to_entries of a schema object: the path of that object, so iterating the result
  // counts as iterating the object itself (`to_entries[]` and `.[]` name the same instances).
  std::optional<std::string> elem_source;
  std::shared_ptr<std::map<std::string, AType>> fields;  // fields of objects built by {...}
  std::string optional_at;          // schema path of the first non-required field passed
  std::string default_json;         // the schema default of the value, if any

  static AType Any() { return AType{}; }
  static AType Of(uint8_t k) {
    AType t;
    t.any = false;
    t.kinds = k;
    return t;
  }
  bool Only(uint8_t mask) const { return !any && kinds != 0 && (kinds & ~mask) == 0; }
  bool May(uint8_t mask) const { return any || (kinds & mask) != 0; }
};

// Union of two abstract values: keeps structure only when both agree on it.
AType Join(const AType& a, const AType& b);
// "string", "array of object", "integer|string", "unknown".
std::string Describe(const AType& t, int depth = 0);
// The schema path of a value, "." for the root.
std::string PathOf(const AType& t);
// The abstract value a schema node describes (dereferenced through the registry).
AType FromSchema(const schema::SchemaRegistry& schemas, const Schema* node, std::string path,
                 std::string optional_at);
// A literal: its kind and its only value as JSON text.
AType Literal(uint8_t kind, std::string json);
std::string JsonString(const std::string& s);

// ---- cardinality: min 0/1; max 0, 1, kMany, or kUnknownMax (cannot tell)

inline constexpr uint8_t kMany = 2, kUnknownMax = 3;
struct Card {
  uint8_t min = 1, max = 1;
};
Card Seq(Card a, Card b);     // a | b
Card Both(Card a, Card b);    // a , b
Card Either(Card a, Card b);  // if/else branches
// "none", "one", "optional", "many", "unknown".
std::string DescribeCard(Card c);

// ---- what an expression yields

// An iteration of a list-map array (`x-kubernetes-list-type: map`): its key fields, and the count
// and collection of what was being iterated before it, so that a select comparing every key
// with a constant (`.containers[] | select(.name == "main")`) can undo the multiplication: at
// most one element per parent passes.
struct ListMapIteration {
  std::vector<std::string> keys;
  Card outer_card;
  std::string outer_origin;
  bool outer_origin_known = true;
  bool outer_filtered = false;
};

struct Result {
  AType type;
  Card card;
  std::string origin;          // schema path of the last iterated collection
  bool origin_known = true;    // false: outputs multiply for a reason we cannot name
  bool defaulted = false;      // ends in `// default`
  // How many outputs there are depends on the data beyond the collections' lengths: a select,
  // a `?` or a `//` dropped some of the iterated values. A count finding is then possible, not
  // certain (WM209 / WM210 become warnings).
  bool filtered = false;
  // Set while the last multiplication is an iteration of a list-map (see ListMapIteration).
  std::shared_ptr<const ListMapIteration> list_map;
  // The fields a select compared with constants, through `and` (`select(.name == "main")`).
  std::vector<std::string> selected_keys;
};

// `a | b`: b runs on each output of a. Count, origin, filtering and list-map bookkeeping.
Result Compose(const Result& a, const Result& b);

Result One(AType t);
// Nothing is known: any type, any number of outputs, from no nameable collection.
Result Unknown();

}  // namespace wm::check::internal
