# Writes a copy of a rule input with its replicasPath expression replaced, for inputs too large
# to commit: make_large.py INPUT OUTPUT tokens|deep|ok (see wm102.test and wm114.test).
import sys

SHAPES = {
    # 100,003 tokens in a flat array: over the token limit, shallow.
    "tokens": "[" + ",".join(["1"] * 50001) + "] | length",
    # 5,000 pipes: a syntax tree deeper than 4096 levels.
    "deep": ".spec.replicas" + " | ." * 5000,
    # 1,000 pipes: within both limits.
    "ok": ".spec.replicas" + " | ." * 1000,
    # 66,000 pattern variables (more frame slots than lowering allows) need 132,000 tokens.
    "variables": ". as [" + ",".join(["$a"] * 66000) + "] | 1",
}

source, target, shape = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(source).read()
marker = "'del(.spec.extra) | .spec.replicas'"
if marker not in text:
    sys.exit("make_large.py: " + source + " has no replicasPath " + marker)
open(target, "w").write(text.replace(marker, "'" + SHAPES[shape] + "'"))
