"""web_get.py - what test_web_views.sh's Python blocks share (on PYTHONPATH):
a JSON page of a running `arena serve` (an HTTP error ends the test, with
the page's words), and the one compact form that JSON values are compared in
(keys in their order, no spaces)."""
import json
import sys
import urllib.error
import urllib.request


def getter(url):
    """get(path): the JSON at url + path."""
    def get(path):
        try:
            with urllib.request.urlopen(url + path, timeout=30) as r:
                return json.load(r)
        except urllib.error.HTTPError as e:
            sys.exit(f"GET {path}: {e.code} {e.read().decode(errors='replace')}")
    return get


def canon(v):
    return json.dumps(v, separators=(",", ":"), ensure_ascii=False)
