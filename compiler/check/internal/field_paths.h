// Where each jq field sits in its definition, as the dotted path Go validation errors and the
// loader's messages use ("spec.structureDefinition.childComponents[0].specDefinition.
// podTemplateSpecPath"), keyed by the field's address in the definition model.
#pragma once

#include <map>
#include <string>

#include "compiler/definition/model.h"

namespace wm::check::internal {

std::map<const definition::JqField*, std::string> JqFieldPaths(const definition::Definition& def);

}  // namespace wm::check::internal
