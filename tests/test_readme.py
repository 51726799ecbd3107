"""README.md's examples give the answers it shows: each `$ curl ...` line of the "Try it" section
is sent to the app (the Flask test client stands in for localhost:8000), piped through the same
`python3 -c` filter when the example has one, and compared with the lines printed under it.  The
first two commands of README.md are the ones CI runs (`.ci/run`)."""
from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def examples() -> list[tuple[str, str]]:
    section = README.split("## Try it", 1)[1].split("\n## ", 1)[0]
    found = []
    for block in re.findall(r"```\n(.*?)```", section, flags=re.S):
        lines = block.rstrip("\n").split("\n")
        assert lines[0].startswith("$ curl ")
        found.append((lines[0][2:], "\n".join(lines[1:])))
    return found


def run(client, command: str) -> str:
    curl, _, pipe = command.partition(" | ")
    args = shlex.split(curl)[1:]
    url = next(a for a in args if a.startswith("localhost:8000"))
    path = url[len("localhost:8000"):]
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


@pytest.mark.parametrize("command,shown", examples(), ids=lambda x: x[:50] if isinstance(x, str) else None)
def test_readme_example_gives_the_answer_shown(client, command, shown):
    assert run(client, command) == shown
