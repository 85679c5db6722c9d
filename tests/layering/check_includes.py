#!/usr/bin/env python3
"""The layering of wmc, checked on every #include (CTest `layering`).

Reads every C/C++ file under the project folders, resolves each `#include "..."` and
`#include <...>` to a project folder or a third-party library, and fails with
`file:line: <from> may not include <to> (rule: ...)` when a layer includes a layer above it or a
library it must not see. LAYERS below is the table (keep it in sync with the wm_layer() targets of
CMakeLists.txt, which fence the coarse tiers at compile time); KNOWN_EXCEPTIONS lists includes
that are tolerated until the work package named in their comment lands.

  check_includes.py [--root DIR] [--no-known-exceptions] [--exception FILE:INCLUDE] [--list-layers]
"""
import argparse
import os
import re
import sys
from dataclasses import dataclass, field

# Folders scanned for includes, and the folders an include path can start with.
SCANNED = ("base", "runtime", "compiler", "tools", "bench", "tests")
# Not project code: the self-test's deliberately broken tree is checked only by the self-test.
SKIPPED = ("tests/layering/fixtures",)
SOURCE_SUFFIXES = (".h", ".hpp", ".cpp", ".cc", ".c", ".inc", ".def")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')

EVERYTHING = "*"


@dataclass
class Layer:
    folder: str  # a file belongs to the layer of the longest folder prefix of its path
    uses: list  # layers it may include, directly; their own `uses` follow (transitive)
    libraries: list = field(default_factory=list)  # third-party headers it may include


RUNTIME_ORDER = "value -> ir -> eval -> catalog -> bundle -> workload -> c"
COMPILER_ORDER = ("source -> jq -> lower -> definition; source -> schema; definition, schema -> "
                  "check -> codegen, bundle -> driver")

# Lowest first. `uses` names the layers directly below; a layer sees their closure.
LAYERS = [
    # base: files, YAML-to-value, did-you-mean, GVK, diagnostics; only the standard library.
    Layer("base", []),
    Layer("base/yaml", ["base"], ["yaml-cpp"]),
    # runtime: what loads and runs a bundle. No compiler/, tools/, yaml-cpp, ANTLR or LLVM.
    Layer("runtime/value", ["base"], ["simdjson"]),
    Layer("runtime/ir", ["runtime/value"]),
    Layer("runtime/eval", ["runtime/ir"], ["oniguruma"]),
    # the view engine evaluates on simdjson's DOM (json_dom.h), beside the engines it falls back to
    Layer("runtime/eval/view", ["runtime/eval"], ["simdjson"]),
    Layer("runtime/catalog", ["runtime/eval"]),
    # native code through dlopen, not LLVM; its compiler hook (native_compiler.h) also hands the
    # view engine's native-code compiler to workload resolution (NativeCompiler::ViewCompiler)
    Layer("runtime/bundle", ["runtime/catalog", "runtime/eval/view"]),
    # workload reads objects given as JSON text on the view engine (runtime/workload/fused.h)
    Layer("runtime/workload", ["runtime/bundle", "runtime/eval/view"]),
    Layer("runtime/c", ["runtime/workload"]),  # the C API, top of the runtime
    # compiler stages in pipeline order; each may use the whole runtime but its C API.
    Layer("compiler/source", ["runtime/workload", "base/yaml"], ["nlohmann_json"]),
    Layer("compiler/jq", ["compiler/source"], ["antlr"]),
    Layer("compiler/lower", ["compiler/jq"]),
    Layer("compiler/schema", ["compiler/source"], ["nlohmann_json", "yaml-cpp"]),
    # The definition rules lower every jq field to collect its diagnostics, hence above lower.
    Layer("compiler/definition", ["compiler/lower"], ["nlohmann_json", "yaml-cpp"]),
    Layer("compiler/check", ["compiler/definition", "compiler/schema"], ["nlohmann_json"]),
    Layer("compiler/codegen", ["compiler/check"], ["llvm"]),
    # The bundle builder takes native code from its caller, so it stays beside codegen, LLVM-free.
    Layer("compiler/bundle", ["compiler/check"]),
    Layer("compiler/driver", ["compiler/codegen", "compiler/bundle"]),
    Layer("tools", ["compiler/driver", "runtime/c", "runtime/eval/view"], ["CLI11", "nlohmann_json", "yaml-cpp"]),
    Layer("bench", [EVERYTHING], ["benchmark", "libjq", "nlohmann_json", "simdjson", "yaml-cpp"]),
    # Test code sees every layer, and every library but the fenced LLVM and ANTLR.
    Layer("tests", [EVERYTHING], ["gtest", "libjq", "nlohmann_json", "simdjson", "yaml-cpp"]),
]

# (file, included path): tolerated violations, each naming the change that removes it. A stale
# entry (the include is gone) fails the check too, so the table never outlives its reason.
KNOWN_EXCEPTIONS: set = set()

# Third-party headers by library; anything not matched is the standard library or the system.
LIBRARY_HEADERS = [
    ("llvm", re.compile(r"^llvm(-c)?/")),
    ("antlr", re.compile(r"^(antlr4-runtime|Jq[A-Za-z]*\.h$)")),
    ("yaml-cpp", re.compile(r"^yaml-cpp/")),
    ("nlohmann_json", re.compile(r"^nlohmann/")),
    ("CLI11", re.compile(r"^CLI/")),
    ("gtest", re.compile(r"^(gtest|gmock)/")),
    ("benchmark", re.compile(r"^benchmark/")),
    ("simdjson", re.compile(r"^simdjson")),
    ("oniguruma", re.compile(r"^onig")),
    ("libjq", re.compile(r"^(jq|jv)\.h$")),
]


@dataclass
class Violation:
    path: str
    line: int
    source: str  # layer of the including file
    target: str  # the included path, as resolved; None when the file itself is in no layer
    rule: str

    def __str__(self):
        if self.target is None:
            return f"{self.path}:{self.line}: {self.source} is in no layer (rule: {self.rule})"
        return (f"{self.path}:{self.line}: {self.source} may not include {self.target} "
                f"(rule: {self.rule})")


class LayerTable:
    """Maps paths to layers and answers which layers and libraries a layer may include."""

    def __init__(self, layers):
        self.layers = {layer.folder: layer for layer in layers}
        self.visible = {name: self._closure(name) for name in self.layers}

    def _closure(self, name):
        seen, todo = set(), list(self.layers[name].uses)
        while todo:
            below = todo.pop()
            if below == EVERYTHING:
                return set(self.layers)
            if below not in seen:
                seen.add(below)
                todo.extend(self.layers[below].uses)
        return seen

    def layer_of(self, path):
        """The layer of a project path (longest folder prefix), or None when no layer owns it."""
        best = None
        for folder in self.layers:
            if path == folder or path.startswith(folder + "/"):
                if best is None or len(folder) > len(best):
                    best = folder
        return best

    def may_include(self, source, target):
        return source == target or target in self.visible[source]

    def may_use_library(self, source, library):
        return library in self.layers[source].libraries


def library_of(header):
    for name, pattern in LIBRARY_HEADERS:
        if pattern.search(header):
            return name
    return None


def resolve(root, including_file, quote, header):
    """('project', path) for a project header, ('library', name) or ('system', header)."""
    if quote == '"':
        beside = os.path.normpath(os.path.join(os.path.dirname(including_file), header))
        if os.path.isfile(os.path.join(root, beside)) and not beside.startswith(".."):
            return "project", beside
    first = header.split("/", 1)[0]
    if first in SCANNED:
        return "project", os.path.normpath(header)
    library = library_of(header)
    if library:
        return "library", library
    if quote == '"':
        return "unresolved", header
    return "system", header


def rule_for(source, target):
    """The rule an include from layer `source` to project layer `target` breaks, in words."""
    if source.startswith(("runtime/", "base")) and target.split("/")[0] in ("compiler", "tools"):
        return "runtime and base never include compiler/ or tools/"
    if source.startswith("base") and target.startswith("runtime/"):
        return "base is under the runtime"
    if source.startswith("runtime/") and target.startswith("runtime/"):
        return f"runtime order {RUNTIME_ORDER}"
    if source.startswith("compiler/") and target.startswith("compiler/"):
        return f"compiler stage order {COMPILER_ORDER}"
    visible = ", ".join(sorted(TABLE.visible[source])) or "nothing"
    return f"layer order: {source} sees {visible}"


def library_rule(source, library):
    if library == "llvm":
        return "LLVM headers stay in compiler/codegen"
    if library == "antlr":
        return "ANTLR and generated Jq* headers stay in compiler/jq"
    allowed = ", ".join(TABLE.layers[source].libraries) or "no third-party library"
    return f"third-party headers: {source} may use {allowed}"


def check_include(rel, line_number, quote, header, root):
    """The violation of one include line, or None."""
    source = TABLE.layer_of(rel)
    kind, what = resolve(root, rel, quote, header)
    if kind == "system":
        return None
    if kind == "unresolved":
        return Violation(rel, line_number, source, header,
                         "a quoted include is a project path or a file beside the includer")
    if kind == "library":
        if TABLE.may_use_library(source, what):
            return None
        return Violation(rel, line_number, source, header, library_rule(source, what))
    target = TABLE.layer_of(what)
    if target is None:
        return Violation(rel, line_number, source, what,
                         "every project folder is in the layer table")
    # A layer nested in the owner's folder (runtime/eval/view in runtime/eval) is part of it.
    inside = source == target or source.startswith(target + "/")
    if "/internal/" in what and not inside and not source.startswith(("tests", "bench")):
        return Violation(rel, line_number, source, what, "internal/ headers stay in their folder")
    if TABLE.may_include(source, target):
        return None
    return Violation(rel, line_number, source, what, rule_for(source, target))


def project_files(root):
    for top in SCANNED:
        for directory, subdirs, files in os.walk(os.path.join(root, top)):
            rel_dir = os.path.relpath(directory, root)
            subdirs[:] = sorted(d for d in subdirs if os.path.join(rel_dir, d) not in SKIPPED)
            for name in sorted(files):
                if name.endswith(SOURCE_SUFFIXES):
                    yield os.path.join(rel_dir, name)


def check_tree(root):
    """(violations, [(file, header) of every include that broke a rule])."""
    violations = []
    for rel in project_files(root):
        if TABLE.layer_of(rel) is None:
            violations.append(Violation(rel, 1, os.path.dirname(rel), None,
                                        "every project folder is in the layer table"))
            continue
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            for line_number, line in enumerate(f, 1):
                match = INCLUDE.match(line)
                if match:
                    quote, header = match.group(1), match.group(2)
                    violation = check_include(rel, line_number, quote, header, root)
                    if violation:
                        violations.append(violation)
    return violations


TABLE = LayerTable(LAYERS)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(__file__), "..", ".."),
                        help="the source tree to check (default: this checkout)")
    parser.add_argument("--no-known-exceptions", action="store_true",
                        help="report the KNOWN_EXCEPTIONS too (the self-test's fixture tree)")
    parser.add_argument("--exception", action="append", default=[], metavar="FILE:INCLUDE",
                        help="tolerate one more violation (the self-test checks stale ones)")
    parser.add_argument("--list-layers", action="store_true", help="print the layer table")
    args = parser.parse_args()
    if args.list_layers:
        for layer in LAYERS:
            below = ", ".join(sorted(TABLE.visible[layer.folder])) or "-"
            print(f"{layer.folder:22} sees {below}; libraries: {', '.join(layer.libraries) or '-'}")
        return 0

    root = os.path.normpath(args.root)
    exceptions = set() if args.no_known_exceptions else set(KNOWN_EXCEPTIONS)
    exceptions |= {tuple(e.split(":", 1)) for e in args.exception}
    failures, used = [], set()
    for violation in check_tree(root):
        key = (violation.path, violation.target)
        if key in exceptions:
            used.add(key)
            print(f"{violation} [known exception]")
        else:
            failures.append(violation)
            print(violation)
    for stale in sorted(exceptions - used):
        failures.append(stale)
        print(f"{stale[0]}: known exception for {stale[1]} no longer needed: delete it from "
              "KNOWN_EXCEPTIONS in tests/layering/check_includes.py")
    if failures:
        print(f"layering: {len(failures)} problem(s)")
        return 1
    print("layering: every include follows the layer table")
    return 0


if __name__ == "__main__":
    sys.exit(main())
