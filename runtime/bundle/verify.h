// What the loader checks about a bundle's definitions beyond their JSON shape (which
// catalog::FromJson checks, with every resolver index): the guarantees the compiler's rules give
// (WM011 unique component names, WM013/WM015/WM016/WM017 one root and acyclic ownership, WM050
// gang members that exist, WM080 one definition per root kind) plus unique definition names.
// The runtime relies on them (the tree renderer walks owners, lookups take the first match), so a
// bundle that breaks one is refused, not run.
#pragma once

#include <string>
#include <vector>

#include "runtime/catalog/definition.h"

namespace wm::bundle {

// "" when the definitions hold every guarantee, else the first problem, naming the definition
// and component ("definition 'x': components 'a' and 'b' own each other in a cycle").
std::string VerifyDefinitions(const std::vector<catalog::Definition>& definitions);

}  // namespace wm::bundle
