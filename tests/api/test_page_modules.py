"""The page's code (api/static/): ES modules only, none defining a global, and the pure ones unit-tested
by node's own test runner (tests/page_js/*.test.mjs, run here so the default run runs them)."""
from __future__ import annotations

import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "api" / "static"
IMPORT = re.compile(r"""^\s*(?:import|export)\b[^;]*?\bfrom\s+["'](\./[\w.-]+\.js)["']|^\s*import\s+["'](\./[\w.-]+\.js)["']""", re.M)
# assignments that make a global from inside a module
GLOBAL_WRITE = re.compile(r"\b(?:window|globalThis|self)\s*(?:\.\s*[\w$]+|\[[^\]]+\])\s*=(?!=)")


class _Scripts(HTMLParser):
    def __init__(self):
        super().__init__()
        self.scripts: list[dict] = []

    def handle_starttag(self, tag, attrs):
        if tag == "script":
            self.scripts.append(dict(attrs))


def _node() -> str:
    node = shutil.which("node")
    assert node, "node is needed for the page's unit tests (.ci/run installs nodejs when missing)"
    return node


def test_the_pages_unit_tests_pass_under_node():
    tests = sorted((ROOT / "tests" / "page_js").glob("*.test.mjs"))
    assert len(tests) >= 3
    run = subprocess.run([_node(), "--test", *map(str, tests)], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert re.search(r"^# fail 0$", run.stdout, re.M) and not re.search(r"^# pass 0$", run.stdout, re.M)


def test_every_script_is_a_module_and_every_module_is_reached_from_the_page():
    parser = _Scripts()
    parser.feed((STATIC / "index.html").read_text(encoding="utf-8"))
    assert parser.scripts and all(s.get("type") == "module" and s.get("src") for s in parser.scripts)
    seen, todo = set(), [Path(s["src"]).name for s in parser.scripts]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        text = (STATIC / name).read_text(encoding="utf-8")
        todo += [Path(a or b).name for a, b in IMPORT.findall(text)]
    assert seen == {p.name for p in STATIC.glob("*.js")}


def test_no_module_defines_a_global():
    node = _node()
    for path in sorted(STATIC.glob("*.js")):
        text = path.read_text(encoding="utf-8")
        # it parses as a module (where top-level names stay in the module)...
        check = subprocess.run([node, "--input-type=module", "--check"], input=text, capture_output=True, text=True,
                               timeout=60)
        assert check.returncode == 0, (path.name, check.stderr)
        # ...and writes nothing onto the global object
        assert not GLOBAL_WRITE.search(text), (path.name, GLOBAL_WRITE.search(text).group(0))


def test_the_global_check_sees_a_global():
    for text in ["window.page = {}", "globalThis.x=1", "self['y'] = 2"]:
        assert GLOBAL_WRITE.search(text), text
    for text in ["if (window.isSecureContext) go()", "window.addEventListener('x', f)", "a = window.crypto === b"]:
        assert not GLOBAL_WRITE.search(text), text


# words a player does not use, in a ruling or a reason shown on the page: a status number, a problem code,
# a field or parameter name, a house rule's pointer, an ambiguity id
NOT_A_PLAYERS_WORD = re.compile(r"\b4\d\d\b|\b[A-Z]{2,}_[A-Z_]+\b|\b[a-z]+_[a-z_]+\b|(?<![\w.])/[a-z_]+/|\bamb\.\w")


def test_every_ruling_of_every_variant_reads_in_a_players_words(client, tmp_path):
    """Each ruling and its reason, for every variant, as the page shows them (rulewords.js's
    ``plainWords``, run by node on the texts the API serves): no status number, code, field name,
    house-rule pointer or ambiguity id left in the words."""
    import json

    sources = client.get("/v1/sources").get_json()["sources"]
    clauses = client.get("/v1/clauses").get_json()["clauses"]
    texts = set()
    for variant in client.get("/v1/variants").get_json()["variants"]:
        for ruling in client.get(f"/v1/variants/{variant['id']}/rulings").get_json()["rulings"]:
            texts.update(t for t in (ruling["ruling"], ruling.get("reason")) if t)
    data = tmp_path / "texts.json"
    data.write_text(json.dumps({"sources": sources, "clauses": clauses, "texts": sorted(texts)}), encoding="utf-8")
    script = f"""
      import {{plainWords}} from {json.dumps((STATIC / "rulewords.js").as_uri())};
      import {{readFileSync}} from "node:fs";
      const d = JSON.parse(readFileSync({json.dumps(str(data))}, "utf8"));
      const byId = list => new Map(list.map(x => [x.id, x]));
      const res = {{sources: byId(d.sources), clauses: byId(d.clauses)}};
      process.stdout.write(JSON.stringify(d.texts.map(t => plainWords(t, res))));
    """
    out = subprocess.run([_node(), "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    shown = json.loads(out.stdout)
    assert len(shown) == len(texts) > 50
    unplain = [(NOT_A_PLAYERS_WORD.search(words).group(0), words) for words in shown if NOT_A_PLAYERS_WORD.search(words)]
    assert unplain == [], "\n".join(f"{w!r}: {t}" for w, t in unplain)
