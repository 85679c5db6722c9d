#!/usr/bin/env python3
"""Self-test of the layering check (CTest `layering-self-test`): runs check_includes.py on the
deliberately broken tree under fixtures/ and requires it to fail with exactly the report in
fixtures.expected (one line per broken rule, plus the stale known exception, which the fixture
tree does not contain). Proves the `layering` test can fail.

  self_test.py [--update]   (--update rewrites fixtures.expected from the checker's output)
"""
import difflib
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EXPECTED = os.path.join(HERE, "fixtures.expected")


def main():
    checker = os.path.join(HERE, "check_includes.py")
    # One exception the fixture tree does not need: the checker must call it stale.
    stale = "runtime/ir/ir.cpp:runtime/eval/builtins.h"
    run = subprocess.run([sys.executable, checker, "--root", os.path.join(HERE, "fixtures"),
                          "--exception", stale],
                         capture_output=True, text=True)
    if "--update" in sys.argv[1:]:
        with open(EXPECTED, "w") as f:
            f.write(run.stdout)
        return 0
    with open(EXPECTED) as f:
        expected = f.read()
    problems = []
    if run.returncode != 1:
        problems.append(f"the checker exited {run.returncode} on the broken tree, expected 1\n"
                        f"{run.stderr}")
    if run.stdout != expected:
        diff = difflib.unified_diff(expected.splitlines(True), run.stdout.splitlines(True),
                                    "fixtures.expected", "check_includes.py output")
        problems.append("the checker's report differs from fixtures.expected:\n" + "".join(diff))
    for problem in problems:
        print(problem)
    if problems:
        return 1
    broken = len(expected.splitlines()) - 1  # the last line is the summary
    print(f"layering self-test: the checker reports all {broken} broken rules")
    return 0


if __name__ == "__main__":
    sys.exit(main())
