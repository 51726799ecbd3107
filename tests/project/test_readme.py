"""README.md and the manual (docs/*.md) give the answers they show: each `$ curl ...` line of README's
"Try it" section and of every page of docs/ is sent to the app (the Flask test client stands in for
localhost:$PORT), piped through the same `python3 -c` filter when the example has one, and compared
with the lines printed under it.  The first two commands of README.md are the ones CI runs
(`.ci/run`); README stays a front door (under 250 lines, every page of docs/ linked from it).
"""
from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = sorted((ROOT / "docs").glob("*.md"))
HOST = "localhost:$PORT"  # every example takes the port from one variable


def _curl_blocks(text: str) -> list[tuple[str, str]]:
    found = []
    for block in re.findall(r"```\n(.*?)```", text, flags=re.S):
        lines = block.rstrip("\n").split("\n")
        if lines[0].startswith("$ curl "):
            found.append((lines[0][2:], "\n".join(lines[1:])))
    return found


def examples() -> list[tuple[str, str]]:
    """(command, the answer shown) of README's "Try it" and of every page of docs/."""
    section = README.split("## Try it", 1)[1].split("\n## ", 1)[0]
    found = _curl_blocks(section)
    assert found and all(not block.strip() or block.startswith("$ curl ")
                         for block in re.findall(r"```\n(.*?)```", section, flags=re.S))
    for page in DOCS:
        found += _curl_blocks(page.read_text(encoding="utf-8"))
    return found


def run(client, command: str) -> str:
    curl, _, pipe = command.partition(" | ")
    args = shlex.split(curl)[1:]
    url = next(a for a in args if a.startswith(HOST))
    path = url[len(HOST):]
    data = None
    if "-d" in args:
        data = args[args.index("-d") + 1]
        if data.startswith("@"):
            data = (ROOT / data[1:]).read_text(encoding="utf-8")
    if data is None:
        body = client.get(path).get_data(as_text=True)
    else:
        body = client.post(path, data=data, content_type="application/json").get_data(as_text=True)
    if not pipe:
        return body
    argv = shlex.split(pipe)
    assert argv[:2] == ["python3", "-c"]
    done = subprocess.run([sys.executable, "-c", argv[2]], input=body, capture_output=True, text=True, check=True)
    return done.stdout.rstrip("\n")


def test_readme_opens_with_the_two_commands_and_ci_runs_the_second():
    commands = re.findall(r"^    (python3 -m venv .*)$", README, flags=re.M)
    assert len(commands) >= 2 and "kalooki-referee serve" in commands[0] and "pytest" in commands[1]
    assert commands[1] in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_readme_is_a_front_door():
    assert len(README.splitlines()) < 250
    # the port comes from one variable: no example names a port of its own
    assert "PORT=8000" in README and not re.search(r"localhost:\d", README)
    for page in DOCS:
        assert not re.search(r"localhost:\d", page.read_text(encoding="utf-8")), page.name
    # every page of the manual is linked from README
    assert DOCS and [p.name for p in DOCS if f"](docs/{p.name})" not in README] == []
    # the slow step and the tests that skip without ../shared are said
    assert "pytest -m slow" in README and "../shared" in README


def test_readme_lists_every_variant_the_service_serves(client):
    listed = README.split("Variants built so far", 1)[1].split("\n\n", 1)[1].split("\n\n", 1)[0]
    named = re.findall(r"`([a-z0-9_]+)`", listed)
    served = [v["id"] for v in client.get("/v1/variants").get_json()["variants"]]
    assert len(named) == len(set(named)) and sorted(named) == sorted(served)


def test_readme_shows_a_body_inline_a_house_rule_and_how_to_choose_the_port():
    section = README.split("## Try it", 1)[1].split("\n## ", 1)[0]
    inline = [command for command, _ in _curl_blocks(section) if re.search(r" -d '\{", command)]
    assert any("/v1/deal" in c or "/v1/adjudicate" in c for c in inline)
    assert any('"rules": {' in c for c in inline)
    assert "kalooki-referee serve --port " in README and "KALOOKI_BIND" in README
    # the install says what is true: from a checkout or a built wheel, the service as the `server` extra
    assert "not on the package index" in README and "pip install kalooki-referee" not in README


def test_every_page_has_its_examples_checked():
    # the pages with a `$ curl` example are read by examples() (a page's first example is among them)
    for page in DOCS:
        blocks = _curl_blocks(page.read_text(encoding="utf-8"))
        assert all(b in examples() for b in blocks[:1]), page.name
    assert any(_curl_blocks(p.read_text(encoding="utf-8")) for p in DOCS)


@pytest.mark.parametrize("command,shown", examples(), ids=lambda x: x[:50] if isinstance(x, str) else None)
def test_readme_example_gives_the_answer_shown(client, command, shown):
    assert run(client, command) == shown


@pytest.mark.slow
def test_readme_first_command_installs_and_serves(tmp_path):
    # README's first command, run as written in a copy of the repository (its own .venv), with only
    # the address changed through KALOOKI_BIND: it installs the package and serves the API
    import os
    import shutil
    import urllib.request

    from tests.support.helpers import free_port, served_by

    command = re.findall(r"^    (python3 -m venv .*)$", README, flags=re.M)[0]
    checkout = tmp_path / "checkout"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(checkout)], check=True, timeout=120)
    for path in subprocess.run(["git", "ls-files", "--others", "--exclude-standard", "-m"], cwd=ROOT,
                               capture_output=True, text=True, check=True).stdout.split():
        source = ROOT / path  # the work tree as it is, uncommitted changes included
        if source.is_file():
            (checkout / path).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, checkout / path)
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env["KALOOKI_BIND"] = f"127.0.0.1:{port}"
    env["KALOOKI_WORKERS"] = "2"
    with served_by(["bash", "-c", command], port=port, cwd=checkout, env=env, log=tmp_path / "first-command.log",
                   seconds=600) as base:
        for path in ("/", "/docs", "/v1/variants", "/openapi.yaml"):
            with urllib.request.urlopen(base + path, timeout=5) as response:
                assert response.status == 200
