#!/usr/bin/env python3
"""Writes the definitions of the portability lit tests: one failing (wmNNN.yaml) and one passing
(wmNNN-ok.yaml) definition per rule. Each puts the jq expression on line 19 (a child
component's replicasPath, or the field named in FIELD) so the CHECK lines can name the column.
Run it from this directory after changing a case: python3 make_inputs.py"""

SINGLE = """apiVersion: run.ai/v1alpha1
kind: Karta
metadata:
  name: {name}
spec:
  structureDefinition:
    rootComponent:
      name: top
      kind: {{group: example.com, version: v1, kind: Top}}
      statusDefinition:
        phaseDefinition: {{path: .status.phase}}
        statusMappings:
          running: [{{byPhase: Running}}]
    childComponents:
    - name: worker
      ownerRef: top
      specDefinition: {{podTemplateSpecPath: .spec.template}}
      scaleDefinition:
        replicasPath: '{expr}'
"""

# A multi-instance component: the expression is its instanceIdPath or its replicasPath (line 19).
MULTI = """apiVersion: run.ai/v1alpha1
kind: Karta
metadata:
  name: {name}
spec:
  structureDefinition:
    rootComponent:
      name: top
      kind: {{group: example.com, version: v1, kind: Top}}
      statusDefinition:
        phaseDefinition: {{path: .status.phase}}
        statusMappings:
          running: [{{byPhase: Running}}]
    childComponents:
    - name: worker
      ownerRef: top
      podSelector: {{componentInstanceSelector: {{idPath: '.metadata.labels["replica"]'}}}}
      specDefinition: {{podTemplateSpecPath: '.spec.jobs[] | .template'}}
      {field}: '{expr}'
      {other}
"""

CASES = {
    # rule: (failing expression, passing expression, template)
    "wm300": (".spec | keys_unsorted | length", ".spec | keys | length", "single"),
    "wm301": ("$__loc__.line", ".spec.replicas", "single"),
    "wm302": ("input_line_number", ".spec.replicas", "single"),
    "wm303": ("get_search_list | length", ".spec.replicas", "single"),
    "wm304": ("get_prog_origin | length", ".spec.replicas", "single"),
    "wm305": ("get_jq_origin | length", ".spec.replicas", "single"),
    "wm306": ("[recurse_down] | length", ".spec.replicas", "single"),
    "wm307": ("def true: 1; .spec.replicas", "def one: 1; .spec.replicas", "single"),
    "wm309": ("-1 as $x | .spec.replicas", "(-1) as $x | .spec.replicas", "single"),
    "wm310": (".spec.replicas + 100000000000000000001", ".spec.replicas + 1", "single"),
    "wm311": (".spec.counts[-0.5]", ".spec.counts[-1]", "single"),
    "wm312": ("\"123\"[0] | tonumber", "\"123\"[0:1] | tonumber", "single"),
    "wm313": (".spec.name | index(\"-\")", ".spec.name | split(\"-\") | length", "single"),
    "wm314": (".spec.count | @base32d | tonumber", ".spec.count | tonumber", "single"),
    "wm315": (".spec.count | @base64d | tonumber", ".spec.count | tonumber", "single"),
    "wm316": ("$ENV.REPLICAS | tonumber", ".spec.replicas", "single"),
    "wm317": ("if (.spec.name | test(\"(a)\\\\1\")) then 2 else 1 end", "if (.spec.name | test(\"aa\")) then 2 else 1 end", "single"),
    "wm318": ("if (.spec.name | test(\"w(?!-0)\")) then 2 else 1 end", "if (.spec.name | test(\"w-0\") | not) then 2 else 1 end", "single"),
    "wm319": ("if (.spec.name | test(\"a++b\")) then 2 else 1 end", "if (.spec.name | test(\"a+b\")) then 2 else 1 end", "single"),
    "wm320": ("if (.spec.hash | test(\"^\\\\h+$\")) then 2 else 1 end", "if (.spec.hash | test(\"^[0-9a-f]+$\")) then 2 else 1 end", "single"),
    "wm321": ("if (.spec.name | test(\"a b\"; \"x\")) then 2 else 1 end", "if (.spec.name | test(\"ab\"; \"i\")) then 2 else 1 end", "single"),
    "wm322": ("{name: .spec.name, count: 1} | tojson | length", "{count: 1, name: .spec.name} | tojson | length", "single"),
    "wm322-instance": (".spec.jobs | to_entries[] | .key", ".spec.jobs | keys[]", "instance"),
    "wm323": (".spec.name | ltrimstr(1) | length", ".spec.name | ltrimstr(\"1\") | length", "single"),
    "wm330": (".spec.jobs[].replicas // 1", ".spec.jobs[] | (.replicas // 1)", "replicas"),
}

def render(name, expr, template):
    if template == "single":
        return SINGLE.format(name=name, expr=expr)
    if template == "instance":
        return MULTI.format(name=name, field="instanceIdPath", expr=expr,
                            other="scaleDefinition: {replicasPath: '.spec.jobs[] | (.replicas // 1)'}")
    return MULTI.format(name=name, field="instanceIdPath", expr=".spec.jobs[].name",
                        other="scaleDefinition: {replicasPath: '" + expr + "'}")

for rule, (bad, good, template) in CASES.items():
    with open(rule + ".yaml", "w") as f:
        f.write(render(rule, bad, template))
    with open(rule + "-ok.yaml", "w") as f:
        f.write(render(rule + "-ok", good, template))
