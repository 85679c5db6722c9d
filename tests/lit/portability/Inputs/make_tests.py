#!/usr/bin/env python3
"""Drafts tests/lit/portability/wmNNN.test from the current wmc output for each Inputs/wmNNN.yaml
(review the CHECK lines before committing: they pin the message, the source line, the caret,
the notes and the fix-it). Usage: python3 make_tests.py WMC_BINARY"""
import subprocess, sys, os, re

wmc = sys.argv[1]
here = os.path.dirname(os.path.abspath(__file__))
SUMMARY = {
    "wm300": "`keys_unsorted` does not exist in gojq (fix-it: `keys`)",
    "wm301": "`$__loc__` does not exist in gojq (fix-it: the literal wmc gives)",
    "wm302": "`input_line_number` does not exist in gojq (wmc does not define it either)",
    "wm303": "`get_search_list` does not exist in gojq (wmc does not define it either)",
    "wm304": "`get_prog_origin` does not exist in gojq (wmc does not define it either)",
    "wm305": "`get_jq_origin` does not exist in gojq (wmc does not define it either)",
    "wm306": "`recurse_down` does not exist in gojq (wmc does not define it either)",
    "wm307": "gojq refuses a function named after a keyword",
    "wm309": "unary minus before `as` binds differently in gojq (fix-it: jq 1.7's reading)",
    "wm310": "an integer literal beyond 2^53 keeps its precision in gojq only",
    "wm311": "a negative fractional index rounds differently in gojq",
    "wm312": "indexing a string by a number works in gojq only",
    "wm313": "`index` on strings counts characters in gojq, bytes in jq 1.7",
    "wm314": "`@base32d` does not exist in gojq",
    "wm315": "`@base64d` keeps binary bytes in gojq",
    "wm316": "`$ENV` is empty in gojq (shown once the policy allows `$ENV`)",
    "wm317": "a regex backreference: Go's RE2 has none",
    "wm318": "a regex look-ahead: Go's RE2 has none",
    "wm319": "a possessive quantifier: Go's RE2 has none",
    "wm320": "Oniguruma's `\\h`: Go's RE2 refuses it",
    "wm321": "regex flag `x`: gojq accepts only g, i, m",
    "wm322": "an object literal serialized in key order: gojq sorts its keys",
    "wm323": "`ltrimstr` with a non-string argument raises an error in gojq",
    "wm330": "`A[].x // d` in a per-instance field (fix-it: `A[] | (.x // d)`)",
}
for rule, summary in SUMMARY.items():
    extra = " --allow '$ENV'" if rule == "wm316" else ""
    out = subprocess.run(f"{wmc} check --no-schema-check{extra} {rule}.yaml", shell=True, cwd=here,
                         capture_output=True, text=True)
    errors = out.returncode != 0
    lines = [l for l in out.stdout.splitlines()]
    checks, first = [], True
    for l in lines:
        if re.match(r"^wm\d+\.yaml:\d+:\d+: ", l):
            checks.append(("CHECK: " if first or True else "CHECK-NEXT: ") + l)
            first = False
        elif l.startswith("  ") and l.strip().startswith("^"):
            checks.append("CHECK-NEXT: {{^ +}}" + l.strip() + "{{$}}")
        else:
            checks.append("CHECK-NEXT: " + l.strip())
    upper = rule.upper()
    run = [f"# {upper}: {summary} (warning).",
           "# The failing case warns at the construct; the passing case is the portable spelling;",
           "# --target=jq (wmc evaluates jq 1.7 itself) does not report it."]
    notcmd = "not %wmc" if errors else "%wmc"
    run.append(f"RUN: cd %S/Inputs && {notcmd} check --no-schema-check{extra} {rule}.yaml | FileCheck %s --implicit-check-not='[WM'")
    run.append(f"RUN: cd %S/Inputs && %wmc check --no-schema-check --werror {rule}-ok.yaml | count 0")
    if rule == "wm322":
        run.append("# The workload's own objects are key-sorted in gojq and in wmc's runtime: iterating")
        run.append("# a map in an instanceIdPath is not reported.")
        run.append(f"RUN: cd %S/Inputs && %wmc check --no-schema-check --werror wm322-instance.yaml | count 0")
    if rule == "wm330":
        run[2] = "# WM330 does not depend on the target: --target=jq reports it too."
        run.append(f"RUN: cd %S/Inputs && %wmc check --no-schema-check --target=jq {rule}.yaml | FileCheck %s --implicit-check-not='[WM'")
        run.append(f"RUN: cd %S/Inputs && %wmc check --no-schema-check --werror --allow stream-alternative {rule}.yaml | count 0")
    elif errors:
        run.append(f"RUN: cd %S/Inputs && not %wmc check --no-schema-check --target=jq{extra} {rule}.yaml | FileCheck %s --check-prefix=JQ --implicit-check-not='[{upper}]'")
        run.append(f"JQ: [WM")
    else:
        run.append(f"RUN: cd %S/Inputs && %wmc check --no-schema-check --werror --target=jq{extra} {rule}.yaml | count 0")
    with open(os.path.join(here, "..", rule + ".test"), "w") as f:
        f.write("\n".join(run + checks) + "\n")
