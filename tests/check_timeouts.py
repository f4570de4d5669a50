"""Every ctest has a TIMEOUT of its own, so that one hang cannot eat a CI
run (ctest's default is 25 minutes). Reads the suite as ctest lists it.

usage: check_timeouts.py CTEST BUILD_DIR
"""
import json
import subprocess
import sys

ctest, build = sys.argv[1:3]
listing = subprocess.run([ctest, "--test-dir", build, "--show-only=json-v1"],
                         capture_output=True, text=True, check=True, timeout=60)
tests = json.loads(listing.stdout)["tests"]
missing = [t["name"] for t in tests
           if not any(p["name"] == "TIMEOUT" for p in t.get("properties", []))]
if missing:
    sys.exit("tests without a TIMEOUT (set_tests_properties(NAME PROPERTIES TIMEOUT S), "
             "long enough under ASan on a loaded machine): " + " ".join(missing))
print(f"all {len(tests)} tests have a TIMEOUT")
