# Runs a command and succeeds only if it exits with exactly the given code (lit's `not` accepts
# any non-zero code): expect_exit.py CODE COMMAND [ARGS...]
import subprocess
import sys

code = int(sys.argv[1])
result = subprocess.run(sys.argv[2:])
if result.returncode != code:
    sys.stderr.write(f"expected exit code {code}, got {result.returncode}\n")
    sys.exit(1)
