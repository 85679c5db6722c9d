// YAML/JSON -> definition model (see loader.h). yaml-cpp builds the node tree (it keeps duplicate
// keys and a byte offset per node); this file walks it against the Karta schema, one function per
// schema object, reporting unknown fields, duplicate keys and type errors with file positions, and
// finally parses every jq field with jq::Parse through a SourceMap into the file.
#include "compiler/definition/loader.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "base/did_you_mean.h"
#include "base/yaml/yaml_json.h"
#include "compiler/definition/internal/scalar_map.h"
#include "compiler/jq/parser.h"

namespace wm::definition {

namespace {

using internal::LineIndex;

// Plain scalars are typed by the one rule of base/yaml (the Kubernetes reader's): a field that must
// be a string rejects `yes`, `3` or `~` written without quotes.
using base::yaml::ClassifyPlain;
using base::yaml::PlainKind;

bool IsQuoted(const YAML::Node& node) { return node.Tag() == "!"; }

// The value of the first `key` of a mapping, or an undefined node. (yaml-cpp's operator[] returns
// a "zombie" node for a missing key that throws on most accessors.)
YAML::Node Lookup(const YAML::Node& map, std::string_view key) {
  if (!map.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
  for (auto it = map.begin(); it != map.end(); ++it) {
    if (it->first.IsScalar() && it->first.Scalar() == key) return it->second;
  }
  return YAML::Node(YAML::NodeType::Undefined);
}

// "a boolean", "a mapping", ... for type errors.
std::string Describe(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Null: return "null";
    case YAML::NodeType::Sequence: return "a sequence";
    case YAML::NodeType::Map: return "a mapping";
    case YAML::NodeType::Scalar: break;
    default: return "an undefined value";
  }
  if (IsQuoted(node)) return "a string";
  switch (ClassifyPlain(node.Scalar())) {
    case PlainKind::kNull: return "null";
    case PlainKind::kBool: return "a boolean";
    case PlainKind::kInt: return "an integer";
    case PlainKind::kFloat: return "a number";
    case PlainKind::kString: return "a string";
  }
  return "a string";
}

// The keys of one YAML mapping after duplicate and unknown keys were reported and dropped.
struct Fields {
  struct Entry {
    std::string key;
    YAML::Node key_node;
    YAML::Node value;
  };
  std::vector<Entry> entries;
  Location location;  // of the mapping

  const Entry* Find(std::string_view key) const {
    for (const Entry& e : entries) {
      if (e.key == key) return &e;
    }
    return nullptr;
  }
};

using Keys = std::vector<std::string_view>;

// Field path for messages: "spec.structureDefinition", or "component 'w' specDefinition" once the
// path starts at a named component.
std::string Join(std::string_view what, std::string_view key) {
  if (!what.empty() && what.back() == '\'') return std::string(what) + " " + std::string(key);
  return std::string(what) + "." + std::string(key);
}

class Loader {
 public:
  Loader(std::string_view file, std::string_view text, const LoadOptions& options,
         DiagnosticSink& sink)
      : file_(file), text_(text), lines_(text), options_(options), sink_(sink) {}

  LoadResult Run();

 private:
  // Where the documents of a file start: offsets of `---` lines (and 0).
  std::vector<size_t> DocumentStarts() const;
  Location MarkLocation(const YAML::Mark& mark) const;
  void LoadOneByOne(LoadResult& result);

 private:
  // ---- diagnostics and positions
  Location At(size_t offset) const {
    auto [line, column] = lines_.LineCol(std::min(offset, text_.size()));
    return Location{file_, line, column};
  }
  Location Loc(const YAML::Node& node) const {
    if (!node.IsDefined()) return Location{file_, 1, 1};
    return At(base_ + node.Mark().pos);
  }
  // Severity comes from the rule registry (base/rules.def): WM009 is a warning, the rest errors.
  void Report(const char* rule, const Location& at, std::string message,
              std::vector<std::string> notes = {}, uint32_t length = 1) {
    sink_.Report(
        MakeDiagnostic(rule, at, std::move(message)).Length(length).Notes(std::move(notes)));
  }
  void Error(const char* rule, const Location& at, std::string message,
             std::vector<std::string> notes = {}, uint32_t length = 1) {
    Report(rule, at, std::move(message), std::move(notes), length);
  }

  // ---- schema walking helpers
  // Opens a mapping: reports (and drops) duplicate and unknown keys. nullopt if not a mapping.
  std::optional<Fields> Open(const YAML::Node& node, std::string_view what, const Keys& allowed,
                             const char* unknown_rule = "WM002");
  // Field accessors: absent or null -> nullopt silently; wrong type -> WM004 and nullopt.
  std::optional<Text> String(const Fields& f, std::string_view key, std::string_view what);
  std::optional<JqField> Jq(const Fields& f, std::string_view key, std::string_view what);
  std::optional<Fields> Map(const Fields& f, std::string_view key, std::string_view what,
                            const Keys& allowed, const char* unknown_rule = "WM002");
  std::optional<std::vector<YAML::Node>> Seq(const Fields& f, std::string_view key,
                                             std::string_view what);
  std::optional<Text> ScalarString(const YAML::Node& node, std::string_view what);
  std::optional<JqField> ScalarJq(const YAML::Node& node, std::string_view what);
  // One definition document (or List item).
  void Document(const YAML::Node& doc, int index, LoadResult& result, int list_depth);
  void DefinitionSpec(const Fields& top, Definition& def);
  std::optional<GroupVersionKind> Gvk(const YAML::Node& node, std::string_view what);
  void ComponentFrom(const YAML::Node& node, Component& c, size_t child_index);
  std::optional<SpecDefinition> Spec(const Fields& f, std::string_view what);
  std::optional<StatusDefinition> Status(const Fields& f, std::string_view what);
  std::optional<StatusMatcher> Matcher(const YAML::Node& node, std::string_view what);
  std::optional<PodSelector> Selector(const Fields& f, std::string_view what);
  std::optional<SuspendDefinition> Suspend(const Fields& f, std::string_view what);
  std::vector<SuspendAction> Actions(const Fields& f, std::string_view key, std::string_view what);
  std::optional<JsonText> Json(const YAML::Node& node, std::string_view what);
  // A free-form value (suspend/resume `value`) through base/yaml's conversion and budgets.
  bool ToJson(const YAML::Node& node, nlohmann::ordered_json& out);
  void Instructions(const Fields& f, Definition& def);
  std::optional<Topology> TopologyFrom(const Fields& f, std::string_view key, std::string_view what);
  std::vector<JqField> JqList(const Fields& f, std::string_view key, std::string_view what);
  void ParseJq(Definition& def);

  std::string file_;
  std::string_view text_;
  LineIndex lines_;
  // Offset of the text yaml-cpp is parsing within text_ (non-zero when documents are loaded one
  // by one after a syntax error; yaml-cpp marks are relative to what it was given).
  size_t base_ = 0;
  // Most nodes one suspend/resume value may expand to (aliases included).
  static constexpr size_t kMaxJsonNodes = 100000;
  const LoadOptions& options_;
  DiagnosticSink& sink_;
};

std::optional<Fields> Loader::Open(const YAML::Node& node, std::string_view what,
                                   const Keys& allowed, const char* unknown_rule) {
  if (!node.IsMap()) {
    Error("WM004", Loc(node), std::string(what) + " must be a mapping, not " + Describe(node));
    return std::nullopt;
  }
  Fields fields;
  fields.location = Loc(node);
  std::map<std::string, Location> seen;
  for (auto it = node.begin(); it != node.end(); ++it) {
    const YAML::Node key_node = it->first;  // a copy: the iterator's pair is a temporary
    if (!key_node.IsScalar()) {
      Error("WM004", Loc(key_node), "keys of " + std::string(what) + " must be strings, not " +
                                        Describe(key_node));
      continue;
    }
    std::string key = key_node.Scalar();
    Location key_loc = Loc(key_node);
    auto [prev, inserted] = seen.emplace(key, key_loc);
    if (!inserted) {
      Error("WM003", key_loc, "duplicate key '" + key + "' in " + std::string(what),
            {"first defined at line " + std::to_string(prev->second.line) + ", column " +
             std::to_string(prev->second.column)},
            static_cast<uint32_t>(std::max<size_t>(1, key.size())));
      continue;
    }
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      std::string suggestion = base::ClosestMatch(key, allowed);
      std::string message = "unknown field '" + key + "' in " + std::string(what);
      if (!suggestion.empty()) message += "; did you mean '" + suggestion + "'?";
      std::string known;
      for (std::string_view k : allowed) known += (known.empty() ? "" : ", ") + std::string(k);
      sink_.Report(MakeDiagnostic(unknown_rule, key_loc, std::move(message))
                       .Length(static_cast<uint32_t>(key.size()))
                       .Note("known fields: " + known)
                       .Fixit(suggestion));
      continue;
    }
    fields.entries.push_back({key, key_node, it->second});
  }
  return fields;
}

std::optional<Text> Loader::ScalarString(const YAML::Node& node, std::string_view what) {
  if (node.IsNull()) return std::nullopt;
  if (!node.IsScalar() || (!IsQuoted(node) && ClassifyPlain(node.Scalar()) != PlainKind::kString)) {
    std::vector<std::string> notes;
    if (node.IsScalar()) notes.push_back("quote the value to make it a string: \"" +
                                         node.Scalar() + "\"");
    Error("WM004", Loc(node), std::string(what) + " must be a string, not " + Describe(node),
          std::move(notes));
    return std::nullopt;
  }
  return Text{node.Scalar(), Loc(node)};
}

std::optional<JqField> Loader::ScalarJq(const YAML::Node& node, std::string_view what) {
  auto text = ScalarString(node, what);
  if (!text) return std::nullopt;
  JqField field;
  field.text = text->value;
  field.location = text->location;
  field.map =
      internal::BuildScalarSourceMap(file_, text_, lines_, base_ + node.Mark().pos, field.text);
  // Point the field's own location at the expression's first byte (past a quote or a `|`).
  field.location = field.map.Map(0);
  if (field.location.line == 0) field.location = text->location;
  return field;
}

std::optional<Text> Loader::String(const Fields& f, std::string_view key, std::string_view what) {
  const Fields::Entry* e = f.Find(key);
  if (!e) return std::nullopt;
  return ScalarString(e->value, Join(what, key));
}

std::optional<JqField> Loader::Jq(const Fields& f, std::string_view key, std::string_view what) {
  const Fields::Entry* e = f.Find(key);
  if (!e) return std::nullopt;
  return ScalarJq(e->value, Join(what, key));
}

std::optional<Fields> Loader::Map(const Fields& f, std::string_view key, std::string_view what,
                                  const Keys& allowed, const char* unknown_rule) {
  const Fields::Entry* e = f.Find(key);
  if (!e || e->value.IsNull()) return std::nullopt;
  auto fields = Open(e->value, Join(what, key), allowed, unknown_rule);
  // A mapping's position is its key's: that is the line a reader looks for.
  if (fields) fields->location = Loc(e->key_node);
  return fields;
}

std::optional<std::vector<YAML::Node>> Loader::Seq(const Fields& f, std::string_view key,
                                                   std::string_view what) {
  const Fields::Entry* e = f.Find(key);
  if (!e || e->value.IsNull()) return std::nullopt;
  if (!e->value.IsSequence()) {
    Error("WM004", Loc(e->value),
          Join(what, key) + " must be a sequence, not " +
              Describe(e->value));
    return std::nullopt;
  }
  std::vector<YAML::Node> items;
  for (auto it = e->value.begin(); it != e->value.end(); ++it) items.push_back(*it);
  return items;
}

std::vector<JqField> Loader::JqList(const Fields& f, std::string_view key, std::string_view what) {
  std::vector<JqField> out;
  auto items = Seq(f, key, what);
  if (!items) return out;
  for (size_t i = 0; i < items->size(); ++i) {
    auto field = ScalarJq((*items)[i], Join(what, key) + "[" +
                                           std::to_string(i) + "]");
    if (field) out.push_back(std::move(*field));
  }
  return out;
}

const Keys kGvkKeys = {"group", "version", "kind"};

std::optional<GroupVersionKind> Loader::Gvk(const YAML::Node& node, std::string_view what) {
  if (node.IsNull()) return std::nullopt;
  auto f = Open(node, what, kGvkKeys);
  if (!f) return std::nullopt;
  GroupVersionKind gvk;
  gvk.location = f->location;
  if (auto t = String(*f, "group", what)) gvk.group = *t;
  if (auto t = String(*f, "version", what)) gvk.version = *t;
  if (auto t = String(*f, "kind", what)) gvk.kind = *t;
  // Missing members point at the mapping itself.
  for (Text* t : {&gvk.group, &gvk.version, &gvk.kind}) {
    if (t->location.line == 0) t->location = gvk.location;
  }
  return gvk;
}

const Keys kFragmentedKeys = {"schedulerNamePath", "labelsPath",         "annotationsPath",
                              "resourcesPath",     "resourceClaimsPath", "podAffinityPath",
                              "nodeAffinityPath",  "containersPath",     "containerPath",
                              "priorityClassNamePath", "imagePath"};

std::optional<SpecDefinition> Loader::Spec(const Fields& parent, std::string_view what) {
  std::string path = Join(what, "specDefinition");
  auto f = Map(parent, "specDefinition", what,
               {"podTemplateSpecPath", "podSpecPath", "metadataPath", "fragmentedPodSpecDefinition"});
  if (!f) return std::nullopt;
  SpecDefinition spec;
  spec.location = f->location;
  spec.pod_template_spec_path = Jq(*f, "podTemplateSpecPath", path);
  spec.pod_spec_path = Jq(*f, "podSpecPath", path);
  spec.metadata_path = Jq(*f, "metadataPath", path);
  if (auto fr = Map(*f, "fragmentedPodSpecDefinition", path, kFragmentedKeys)) {
    std::string fpath = path + ".fragmentedPodSpecDefinition";
    FragmentedPodSpecDefinition frag;
    frag.location = fr->location;
    frag.scheduler_name_path = Jq(*fr, "schedulerNamePath", fpath);
    frag.labels_path = Jq(*fr, "labelsPath", fpath);
    frag.annotations_path = Jq(*fr, "annotationsPath", fpath);
    frag.resources_path = Jq(*fr, "resourcesPath", fpath);
    frag.resource_claims_path = Jq(*fr, "resourceClaimsPath", fpath);
    frag.pod_affinity_path = Jq(*fr, "podAffinityPath", fpath);
    frag.node_affinity_path = Jq(*fr, "nodeAffinityPath", fpath);
    frag.containers_path = Jq(*fr, "containersPath", fpath);
    frag.container_path = Jq(*fr, "containerPath", fpath);
    frag.priority_class_name_path = Jq(*fr, "priorityClassNamePath", fpath);
    frag.image_path = Jq(*fr, "imagePath", fpath);
    spec.fragmented = std::move(frag);
  }
  return spec;
}

const Keys kStatusKeys = {"initializing", "running",    "completed", "failed",
                          "suspended",    "suspending", "resuming",  "degraded"};

std::optional<StatusMatcher> Loader::Matcher(const YAML::Node& node, std::string_view what) {
  auto f = Open(node, what, {"byPhase", "byConditions", "byExpression"});
  if (!f) return std::nullopt;
  StatusMatcher m;
  m.location = f->location;
  m.by_phase = String(*f, "byPhase", what);
  if (auto items = Seq(*f, "byConditions", what)) {
    std::vector<ExpectedCondition> conditions;
    for (size_t i = 0; i < items->size(); ++i) {
      std::string cpath = Join(what, "byConditions[" + std::to_string(i) + "]");
      auto cf = Open((*items)[i], cpath, {"type", "status", "reason"});
      if (!cf) continue;
      ExpectedCondition c;
      c.location = cf->location;
      c.type = String(*cf, "type", cpath);
      c.status = String(*cf, "status", cpath);
      c.reason = String(*cf, "reason", cpath);
      conditions.push_back(std::move(c));
    }
    m.by_conditions = std::move(conditions);
  } else if (const Fields::Entry* e = f->Find("byConditions")) {
    // `byConditions:` with no value still states an intent the rules should see.
    if (e->value.IsNull()) m.by_conditions = std::vector<ExpectedCondition>{};
  }
  std::string epath = Join(what, "byExpression");
  if (auto ef = Map(*f, "byExpression", what, {"expression", "expectedResult"})) {
    ExpressionMatcher em;
    em.location = ef->location;
    em.expression = Jq(*ef, "expression", epath);
    em.expected_result = String(*ef, "expectedResult", epath);
    m.by_expression = std::move(em);
  }
  return m;
}

std::optional<StatusDefinition> Loader::Status(const Fields& parent, std::string_view what) {
  std::string path = Join(what, "statusDefinition");
  auto f = Map(parent, "statusDefinition", what,
               {"phaseDefinition", "conditionsDefinition", "statusMappings"});
  if (!f) return std::nullopt;
  StatusDefinition status;
  status.location = f->location;
  if (auto pf = Map(*f, "phaseDefinition", path, {"path"})) {
    PhaseDefinition phase;
    phase.location = pf->location;
    phase.path = Jq(*pf, "path", path + ".phaseDefinition");
    status.phase = std::move(phase);
  }
  if (auto cf = Map(*f, "conditionsDefinition", path,
                    {"path", "typeFieldName", "statusFieldName", "messageFieldName",
                     "reasonFieldName"})) {
    std::string cpath = path + ".conditionsDefinition";
    ConditionsDefinition conditions;
    conditions.location = cf->location;
    conditions.path = Jq(*cf, "path", cpath);
    if (auto t = String(*cf, "typeFieldName", cpath)) conditions.type_field_name = *t;
    if (auto t = String(*cf, "statusFieldName", cpath)) conditions.status_field_name = *t;
    if (auto t = String(*cf, "messageFieldName", cpath)) conditions.message_field_name = *t;
    if (auto t = String(*cf, "reasonFieldName", cpath)) conditions.reason_field_name = *t;
    for (Text* t : {&conditions.type_field_name, &conditions.status_field_name,
                    &conditions.message_field_name, &conditions.reason_field_name}) {
      if (t->location.line == 0) t->location = conditions.location;
    }
    status.conditions = std::move(conditions);
  }
  // Unknown status keys get their own rule id: a misspelt status silently never matches.
  if (auto mf = Map(*f, "statusMappings", path, kStatusKeys, "WM030")) {
    status.mappings_location = mf->location;
    for (const Fields::Entry& e : mf->entries) {
      StatusMapping mapping;
      mapping.status = *StatusFromKey(e.key);
      mapping.location = Loc(e.key_node);
      std::string mpath = path + ".statusMappings." + e.key;
      if (e.value.IsSequence()) {
        size_t i = 0;
        for (auto it = e.value.begin(); it != e.value.end(); ++it, ++i) {
          if (auto m = Matcher(*it, mpath + "[" + std::to_string(i) + "]")) {
            mapping.matchers.push_back(std::move(*m));
          }
        }
      } else if (!e.value.IsNull()) {
        Error("WM004", Loc(e.value), mpath + " must be a sequence of matchers, not " +
                                         Describe(e.value));
      }
      status.mappings.push_back(std::move(mapping));
    }
  }
  return status;
}

std::optional<PodSelector> Loader::Selector(const Fields& parent, std::string_view what) {
  std::string path = Join(what, "podSelector");
  auto f = Map(parent, "podSelector", what,
               {"componentTypeSelector", "componentInstanceSelector", "replicaSelector"});
  if (!f) return std::nullopt;
  PodSelector selector;
  selector.location = f->location;
  if (auto tf = Map(*f, "componentTypeSelector", path, {"keyPath", "value", "matchLabels"})) {
    std::string tpath = path + ".componentTypeSelector";
    ComponentTypeSelector type;
    type.location = tf->location;
    type.key_path = Jq(*tf, "keyPath", tpath);
    type.value = String(*tf, "value", tpath);
    if (const Fields::Entry* e = tf->Find("matchLabels")) {
      std::vector<LabelMatch> labels;
      if (e->value.IsMap()) {
        // Label keys are data, not schema: every key is allowed, duplicates are still errors.
        std::map<std::string, Location> seen;
        for (auto it = e->value.begin(); it != e->value.end(); ++it) {
          auto key = ScalarString(it->first, tpath + ".matchLabels key");
          if (!key) continue;
          auto [prev, inserted] = seen.emplace(key->value, key->location);
          if (!inserted) {
            Error("WM003", key->location, "duplicate key '" + key->value + "' in " + tpath +
                                              ".matchLabels",
                  {"first defined at line " + std::to_string(prev->second.line)});
            continue;
          }
          auto value = ScalarString(it->second, tpath + ".matchLabels." + key->value);
          if (!value) {
            if (!it->second.IsNull()) continue;
            value = Text{"", Loc(it->first)};
          }
          labels.push_back({*key, *value});
        }
        type.match_labels = std::move(labels);
      } else if (e->value.IsNull()) {
        type.match_labels = std::move(labels);
      } else {
        Error("WM004", Loc(e->value), tpath + ".matchLabels must be a mapping, not " +
                                          Describe(e->value));
      }
    }
    selector.component_type_selector = std::move(type);
  }
  if (auto inf = Map(*f, "componentInstanceSelector", path, {"idPath"})) {
    ComponentInstanceSelector instance;
    instance.location = inf->location;
    instance.id_path = Jq(*inf, "idPath", path + ".componentInstanceSelector");
    selector.component_instance_selector = std::move(instance);
  }
  if (auto rf = Map(*f, "replicaSelector", path, {"keyPath"})) {
    ReplicaSelector replica;
    replica.location = rf->location;
    replica.key_path = Jq(*rf, "keyPath", path + ".replicaSelector");
    selector.replica_selector = std::move(replica);
  }
  return selector;
}

bool Loader::ToJson(const YAML::Node& node, nlohmann::ordered_json& out) {
  base::yaml::Limits limits;
  limits.max_depth = options_.max_depth;
  limits.max_nodes = kMaxJsonNodes;
  std::string text;
  base::yaml::Error error;
  if (!base::yaml::NodeToJson(node, limits, &text, &error)) {
    const char* rule = "WM007";  // kTooDeep, kTooManyNodes: an input limit
    if (error.kind == base::yaml::ErrorKind::kDuplicateKey) rule = "WM003";
    if (error.kind == base::yaml::ErrorKind::kNonStringKey) rule = "WM004";
    if (error.kind == base::yaml::ErrorKind::kSyntax) rule = "WM001";
    Error(rule, At(base_ + error.offset), error.message);
    return false;
  }
  // Re-read as nlohmann JSON so numbers print in one canonical form (1e3 -> 1000.0).
  out = nlohmann::ordered_json::parse(text);
  return true;
}

std::optional<JsonText> Loader::Json(const YAML::Node& node, std::string_view what) {
  JsonText value;
  value.location = Loc(node);
  if (node.IsScalar() && IsQuoted(node)) {
    value.from_string = true;
    value.json = node.Scalar();
    return value;
  }
  nlohmann::ordered_json json;
  if (!ToJson(node, json)) return std::nullopt;
  value.json = json.dump();
  return value;
}

std::vector<SuspendAction> Loader::Actions(const Fields& f, std::string_view key,
                                           std::string_view what) {
  std::vector<SuspendAction> actions;
  auto items = Seq(f, key, what);
  if (!items) return actions;
  for (size_t i = 0; i < items->size(); ++i) {
    std::string apath = Join(what, key) + "[" + std::to_string(i) + "]";
    auto af = Open((*items)[i], apath, {"path", "value"});
    if (!af) continue;
    SuspendAction action;
    action.location = af->location;
    action.path = Jq(*af, "path", apath);
    if (const Fields::Entry* e = af->Find("value")) action.value = Json(e->value, apath + ".value");
    actions.push_back(std::move(action));
  }
  return actions;
}

std::optional<SuspendDefinition> Loader::Suspend(const Fields& parent, std::string_view what) {
  std::string path = Join(what, "suspendDefinition");
  auto f = Map(parent, "suspendDefinition", what, {"suspendActions", "resumeActions"});
  if (!f) return std::nullopt;
  SuspendDefinition suspend;
  suspend.location = f->location;
  suspend.suspend_actions = Actions(*f, "suspendActions", path);
  suspend.resume_actions = Actions(*f, "resumeActions", path);
  return suspend;
}

const Keys kComponentKeys = {"name",           "kind",           "ownerRef",
                             "specDefinition", "scaleDefinition", "statusDefinition",
                             "suspendDefinition", "instanceIdPath", "podSelector"};

void Loader::ComponentFrom(const YAML::Node& node, Component& c, size_t child_index) {
  std::string what = c.is_root ? std::string("spec.structureDefinition.rootComponent")
                              : "spec.structureDefinition.childComponents[" +
                                    std::to_string(child_index) + "]";
  // Name the component in every message about it, even those found before `name` is read.
  if (node.IsMap()) {
    YAML::Node name = Lookup(node, "name");
    if (name.IsScalar() && !name.Scalar().empty() &&
        (IsQuoted(name) || ClassifyPlain(name.Scalar()) == PlainKind::kString)) {
      what = "component '" + name.Scalar() + "'";
    }
  }
  auto f = Open(node, what, kComponentKeys);
  if (!f) return;
  if (auto name = String(*f, "name", what)) c.name = *name;
  if (c.location.line == 0) c.location = f->location;
  if (c.name.location.line == 0) c.name.location = c.location;
  if (!c.name.value.empty()) what = "component '" + c.name.value + "'";
  if (const Fields::Entry* e = f->Find("kind")) c.kind = Gvk(e->value, Join(what, "kind"));
  c.owner_ref = String(*f, "ownerRef", what);
  c.instance_id_path = Jq(*f, "instanceIdPath", what);
  c.spec = Spec(*f, what);
  if (auto sf = Map(*f, "scaleDefinition", what,
                    {"replicasPath", "minReplicasPath", "maxReplicasPath"})) {
    std::string spath = Join(what, "scaleDefinition");
    ScaleDefinition scale;
    scale.location = sf->location;
    scale.replicas_path = Jq(*sf, "replicasPath", spath);
    scale.min_replicas_path = Jq(*sf, "minReplicasPath", spath);
    scale.max_replicas_path = Jq(*sf, "maxReplicasPath", spath);
    c.scale = std::move(scale);
  }
  c.status = Status(*f, what);
  c.pod_selector = Selector(*f, what);
  c.suspend = Suspend(*f, what);
}

std::optional<Topology> Loader::TopologyFrom(const Fields& f, std::string_view key,
                                             std::string_view what) {
  std::string path = Join(what, key);
  auto tf = Map(f, key, what, {"topologyName", "requiredTopologyLevel", "preferredTopologyLevel"});
  if (!tf) return std::nullopt;
  Topology topology;
  topology.location = tf->location;
  topology.topology_name = String(*tf, "topologyName", path);
  topology.required_topology_level = String(*tf, "requiredTopologyLevel", path);
  topology.preferred_topology_level = String(*tf, "preferredTopologyLevel", path);
  return topology;
}

void Loader::Instructions(const Fields& spec, Definition& def) {
  auto f = Map(spec, "optimizationInstructions", "spec", {"gangScheduling"});
  if (!f) return;
  def.instructions.location = f->location;
  const std::string path = "spec.optimizationInstructions.gangScheduling";
  auto gf = Map(*f, "gangScheduling", "spec.optimizationInstructions", {"podGroup", "podGroups"});
  if (!gf) return;
  GangScheduling gang;
  gang.location = gf->location;
  if (auto pf = Map(*gf, "podGroup", path, {"name", "subGroups", "topology"})) {
    std::string ppath = path + ".podGroup";
    PodGroup group;
    group.location = pf->location;
    group.name = String(*pf, "name", ppath);
    if (auto items = Seq(*pf, "subGroups", ppath)) {
      for (size_t i = 0; i < items->size(); ++i) {
        std::string spath = ppath + ".subGroups[" + std::to_string(i) + "]";
        auto sf = Open((*items)[i], spath, {"componentName", "topology"});
        if (!sf) continue;
        SubGroup sub;
        sub.location = sf->location;
        sub.component_name = String(*sf, "componentName", spath);
        sub.topology = TopologyFrom(*sf, "topology", spath);
        group.sub_groups.push_back(std::move(sub));
      }
    }
    group.topology = TopologyFrom(*pf, "topology", ppath);
    gang.pod_group = std::move(group);
  }
  if (auto items = Seq(*gf, "podGroups", path)) {
    std::vector<PodGroupDefinition> groups;
    for (size_t i = 0; i < items->size(); ++i) {
      std::string gpath = path + ".podGroups[" + std::to_string(i) + "]";
      auto pf = Open((*items)[i], gpath, {"name", "members"});
      if (!pf) continue;
      PodGroupDefinition group;
      group.location = pf->location;
      group.name = String(*pf, "name", gpath);
      if (auto members = Seq(*pf, "members", gpath)) {
        for (size_t j = 0; j < members->size(); ++j) {
          std::string mpath = gpath + ".members[" + std::to_string(j) + "]";
          auto mf = Open((*members)[j], mpath, {"componentName", "filters", "groupByKeyPaths"});
          if (!mf) continue;
          PodGroupMember member;
          member.location = mf->location;
          member.component_name = String(*mf, "componentName", mpath);
          member.filters = JqList(*mf, "filters", mpath);
          member.group_by_key_paths = JqList(*mf, "groupByKeyPaths", mpath);
          group.members.push_back(std::move(member));
        }
      }
      groups.push_back(std::move(group));
    }
    gang.pod_groups = std::move(groups);
  }
  def.instructions.gang_scheduling = std::move(gang);
}

void Loader::DefinitionSpec(const Fields& top, Definition& def) {
  auto spec = Map(top, "spec", "definition", {"structureDefinition", "optimizationInstructions"});
  if (!spec) return;
  auto structure = Map(*spec, "structureDefinition", "spec",
                       {"rootComponent", "childComponents", "additionalChildKinds"});
  if (structure) {
    if (const Fields::Entry* e = structure->Find("rootComponent"); e && !e->value.IsNull()) {
      def.has_root = true;
      def.root.is_root = true;
      def.root.location = Loc(e->key_node);
      ComponentFrom(e->value, def.root, 0);
    }
    if (auto items = Seq(*structure, "childComponents", "spec.structureDefinition")) {
      for (size_t i = 0; i < items->size(); ++i) {
        const YAML::Node& item = (*items)[i];
        Component child;
        child.location = Loc(item);
        ComponentFrom(item, child, i);
        def.children.push_back(std::move(child));
      }
    }
    if (auto items = Seq(*structure, "additionalChildKinds", "spec.structureDefinition")) {
      for (size_t i = 0; i < items->size(); ++i) {
        auto gvk = Gvk((*items)[i], "spec.structureDefinition.additionalChildKinds[" +
                                        std::to_string(i) + "]");
        if (gvk) def.additional_child_kinds.push_back(std::move(*gvk));
      }
    }
  }
  Instructions(*spec, def);
}

const Keys kMetadataKeys = {"name",          "generateName",  "namespace",
                            "labels",        "annotations",   "uid",
                            "resourceVersion", "generation",  "creationTimestamp",
                            "deletionTimestamp", "deletionGracePeriodSeconds", "ownerReferences",
                            "finalizers",    "managedFields", "selfLink"};

void Loader::Document(const YAML::Node& doc, int index, LoadResult& result, int list_depth) {
  if (doc.IsNull()) return;  // an empty document (e.g. a trailing `---`)
  ++result.documents;
  if (!doc.IsMap()) {
    Error("WM004", Loc(doc), "a definition document must be a mapping, not " + Describe(doc));
    return;
  }
  YAML::Node api = Lookup(doc, "apiVersion");
  YAML::Node kind = Lookup(doc, "kind");
  std::string api_version = api.IsScalar() ? api.Scalar() : "";
  std::string kind_name = kind.IsScalar() ? kind.Scalar() : "";
  if (kind_name == "List" && list_depth == 0) {
    auto f = Open(doc, "List", {"apiVersion", "kind", "metadata", "items"});
    if (!f) return;
    if (auto items = Seq(*f, "items", "List")) {
      for (const YAML::Node& item : *items) Document(item, index++, result, list_depth + 1);
    }
    return;
  }
  DefinitionKind def_kind;
  std::string expected_api;
  if (kind_name == "Karta") {
    def_kind = DefinitionKind::kKarta;
    expected_api = "run.ai/v1alpha1";
  } else if (kind_name == "ResourceInterface") {
    def_kind = DefinitionKind::kResourceInterface;
    expected_api = "optimization.nvidia.com/v1alpha1";
  } else {
    if (options_.report_foreign_documents) {
      Location at = kind.IsDefined() ? Loc(kind) : Loc(doc);
      Error("WM005", at,
            kind_name.empty() ? "document has no kind; expected kind: Karta (apiVersion: "
                                "run.ai/v1alpha1)"
                              : "document of kind '" + kind_name + "' (apiVersion '" +
                                    api_version + "') is not a workload map definition",
            {"definitions are `apiVersion: run.ai/v1alpha1, kind: Karta` or "
             "`apiVersion: optimization.nvidia.com/v1alpha1, kind: ResourceInterface`"});
    }
    return;
  }
  if (api_version != expected_api) {
    Error("WM005", api.IsDefined() ? Loc(api) : Loc(doc),
          "unsupported apiVersion '" + api_version + "' for kind " + kind_name + "; expected '" +
              expected_api + "'");
  }
  auto top = Open(doc, kind_name, {"apiVersion", "kind", "metadata", "spec", "status"});
  if (!top) return;
  Definition def;
  def.kind = def_kind;
  def.file = file_;
  def.document_index = index;
  def.location = top->location;
  def.api_version = Text{api_version, api.IsDefined() ? Loc(api) : top->location};
  def.name.location = top->location;
  if (auto meta = Map(*top, "metadata", kind_name, kMetadataKeys)) {
    def.name.location = meta->location;
    if (auto name = String(*meta, "name", "metadata")) def.name = *name;
    if (const Fields::Entry* ns = meta->Find("namespace")) {
      Report("WM009", Loc(ns->key_node),
             kind_name + " is cluster-scoped; metadata.namespace is ignored");
    }
  }
  DefinitionSpec(*top, def);
  if (options_.parse_jq) ParseJq(def);
  result.definitions.push_back(std::move(def));
}

void Loader::ParseJq(Definition& def) {
  ForEachJqField(def, [&](std::string_view, JqRole, JqField& field) {
    jq::ParseOptions parse_options;
    parse_options.source_map = field.map;
    jq::ParseResult parsed = jq::Parse(field.text, parse_options);
    for (Diagnostic& d : parsed.diagnostics) sink_.Report(std::move(d));
    field.ast = std::move(parsed.ast);
  });
}

std::vector<size_t> Loader::DocumentStarts() const {
  std::vector<size_t> starts = {0};
  size_t line = 0;
  while (line < text_.size()) {
    size_t end = text_.find('\n', line);
    if (end == std::string_view::npos) end = text_.size();
    std::string_view content = text_.substr(line, end - line);
    if (content.substr(0, 3) == "---" &&
        (content.size() == 3 || content[3] == ' ' || content[3] == '\t' || content[3] == '\r')) {
      if (line != 0) starts.push_back(line);
    }
    line = end + 1;
  }
  return starts;
}

Location Loader::MarkLocation(const YAML::Mark& mark) const {
  if (mark.is_null()) return At(base_);
  // Some yaml-cpp errors carry a line and column but no offset.
  if (mark.pos == 0 && mark.line > 0) {
    auto [line, column] = lines_.LineCol(base_);
    return Location{file_, static_cast<uint32_t>(line + mark.line),
                    static_cast<uint32_t>(mark.column + 1)};
  }
  return At(base_ + mark.pos);
}

void Loader::LoadOneByOne(LoadResult& result) {
  std::vector<size_t> starts = DocumentStarts();
  for (size_t i = 0; i < starts.size(); ++i) {
    base_ = starts[i];
    size_t end = i + 1 < starts.size() ? starts[i + 1] : text_.size();
    try {
      YAML::Node doc = YAML::Load(std::string(text_.substr(base_, end - base_)));
      Document(doc, static_cast<int>(i), result, 0);
    } catch (const YAML::Exception& e) {
      Error("WM001", MarkLocation(e.mark), "malformed YAML: " + e.msg);
    } catch (const std::exception& e) {
      Error("WM001", At(base_), std::string("malformed YAML: ") + e.what());
    }
  }
  base_ = 0;
}

LoadResult Loader::Run() {
  LoadResult result;
  if (text_.size() > options_.max_file_bytes) {
    Error("WM007", Location{file_, 1, 1},
          "file is " + std::to_string(text_.size()) + " bytes; the limit is " +
              std::to_string(options_.max_file_bytes));
    return result;
  }
  base::yaml::Error stuck;
  if (!base::yaml::CheckYamlCppTerminates(text_, {}, &stuck)) {  // else LoadAll may never return
    Error("WM001", At(stuck.offset), stuck.message);
    return result;
  }
  std::vector<YAML::Node> docs;
  try {
    docs = YAML::LoadAll(std::string(text_));
  } catch (const std::exception&) {
    // One bad document must not hide the findings of the others: load them one at a time.
    LoadOneByOne(result);
    return result;
  }
  int index = 0;
  for (const YAML::Node& doc : docs) {
    try {
      Document(doc, index, result, 0);
    } catch (const YAML::Exception& e) {
      // yaml-cpp can still throw on conversions of unusual nodes; keep the stage boundary clean.
      Error("WM001", Loc(doc), "malformed YAML: " + e.msg);
    }
    ++index;
  }
  return result;
}

}  // namespace

LoadResult LoadDefinitions(std::string_view file_name, std::string_view text,
                           const LoadOptions& options, DiagnosticSink& sink) {
  Loader loader(file_name, text, options, sink);
  try {
    return loader.Run();
  } catch (const std::exception& e) {
    sink.Report(MakeDiagnostic("WM001", Location{std::string(file_name), 1, 1},
                               std::string("cannot load definitions: ") + e.what()));
    return {};
  }
}

}  // namespace wm::definition
