"""The distribution: one version read from one place, one installed package, and a wheel that works
however it is installed.

The slow test builds the wheel and the sdist with the standard ``build`` frontend, installs the
wheel alone into a fresh virtual environment in a folder with no repository beside it, where the rules
core adjudicates README's first turn with Flask, werkzeug and gunicorn not importable and ``serve``
says to install the ``server`` extra; it then adds the extra, serves with ``kalooki-referee serve`` and
runs the whole vector suite against it with ``kalooki-conformance --base-url``.  Another clones the repository as Windows would (``core.symlinks=false``: a link would
come out as a short text file), installs the clone into a fresh virtual environment and runs vectors
with it: the repository holds no symbolic link, and a checkout imports its own folders."""
from __future__ import annotations

import importlib.metadata
import json
import os
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
import yaml

import kalooki_referee
from kalooki_referee.api import create_app
from tests.support.helpers import free_port, served_by

ROOT = Path(__file__).resolve().parents[2]
GENERIC = ("api", "rules", "vectors")
# run in an environment holding the base wheel alone: which of the web stack cannot be imported, then
# the verdict on README's first turn (examples/first-turn.json) from the rules core
BASE_ONLY = """
import importlib.util, json
from pathlib import Path
from kalooki_referee.rules import action_from_dict, adjudicate, load_variant, state_from_dict, verdict_wire
body = json.loads(Path("first-turn.json").read_text())
variant = load_variant(body["variant"], body.get("rules"))
verdict = adjudicate(variant, state_from_dict(body["state"], variant), action_from_dict(body["action"]))
import sys
print("absent:", *[m for m in ("flask", "gunicorn", "werkzeug") if importlib.util.find_spec(m) is None])
print(json.dumps(verdict_wire(verdict)))
assert not [m for m in sys.modules if m.split(".")[0] in ("flask", "werkzeug", "gunicorn")]
"""


def test_one_version_everywhere():
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    assert importlib.metadata.version("kalooki-referee") == kalooki_referee.__version__
    assert spec["info"]["version"] == kalooki_referee.__version__
    health = create_app().test_client().get("/health").get_json()
    assert health["version"] == kalooki_referee.__version__


def test_the_code_imports_only_the_distribution_package():
    # api/, rules/ and vectors/ are importable as top-level names in a checkout, but the code must
    # name them only under kalooki_referee (else a module could load twice, under two names)
    code = subprocess.run(
        [sys.executable, "-c",
         "import sys, kalooki_referee.api as a, kalooki_referee.vectors.runner, kalooki_referee.cli\n"
         "a.create_app()\n"
         f"print(sorted(m for m in sys.modules if m.split('.')[0] in {GENERIC!r}))"],
        cwd=ROOT, capture_output=True, text=True, check=True)
    assert code.stdout.strip() == "[]"


def test_the_repository_holds_no_symbolic_link():
    listed = subprocess.run(["git", "ls-files", "-s"], cwd=ROOT, capture_output=True, text=True)
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    assert listed.stdout.count("\n") > 100
    assert [line for line in listed.stdout.splitlines() if line.startswith("120000 ")] == []


def test_a_checkout_imports_its_own_folders(tmp_path):
    # a copy of the checkout (as tools/mutation.py makes) imports the copy's rules/api/vectors, even
    # with this checkout installed in editable mode
    for name in ("kalooki_referee", "rules", "api", "vectors"):
        subprocess.run(["cp", "-r", str(ROOT / name), str(tmp_path / name)], check=True)
    (tmp_path / "openapi.yaml").write_text((ROOT / "openapi.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    code = subprocess.run(
        [sys.executable, "-c",
         "import kalooki_referee.rules.cards as r, kalooki_referee.rules.wire.contract as a, kalooki_referee.vectors.suite as v\n"
         "print(r.__file__, a.__file__, v.__file__, a.OPENAPI_PATH, sep='\\n')"],
        cwd=tmp_path, capture_output=True, text=True, check=True)
    paths = [Path(line) for line in code.stdout.split()]
    assert len(paths) == 4 and all(p.is_relative_to(tmp_path.resolve()) for p in paths), code.stdout


@pytest.mark.slow
def test_a_clone_without_symbolic_links_installs_and_runs_vectors(tmp_path):
    if subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True).returncode != 0:
        pytest.skip("not a git checkout")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "-c", "core.symlinks=false", str(ROOT), str(clone)],
                   check=True, timeout=300)
    # nothing in the clone is a link's stand-in: every tracked file is a regular file or folder
    tracked = subprocess.run(["git", "ls-files"], cwd=clone, capture_output=True, text=True, check=True).stdout
    assert (clone / "kalooki_referee" / "__init__.py").is_file() and (clone / "openapi.yaml").stat().st_size > 10_000
    assert not [f for f in tracked.split() if (clone / f).is_symlink() or not (clone / f).exists()]

    work = tmp_path / "elsewhere"
    work.mkdir()
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    bin_ = venv / "bin"
    # (with the server extra: the clone's app is made below, and its vectors run in process)
    subprocess.run([str(bin_ / "pip"), "install", "-q", "-e", f"{clone}[server]"], check=True, cwd=work, timeout=900)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    for cwd in (work, clone):  # through the installed package, and from the clone's own folder
        code = subprocess.run(
            [str(bin_ / "python"), "-c",
             "import kalooki_referee, kalooki_referee.rules.cards as r, kalooki_referee.api as a\n"
             "a.create_app(); print(r.__file__)"],
            cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
        assert code.returncode == 0, code.stderr[-3000:]
        assert Path(code.stdout.strip()) == clone.resolve() / "rules" / "cards.py"
    run = subprocess.run([str(bin_ / "kalooki-vectors"), "--variant", "british_max151", "--variant", "jamaican_baby"],
                         cwd=work, env=env, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    summary = re.search(r"vectors: (\d+) passed, (\d+) failed, (\d+) errors", run.stdout)
    assert summary and int(summary[1]) >= 20 and summary.group(2, 3) == ("0", "0"), run.stdout[-2000:]


@pytest.mark.slow
def test_the_wheel_installs_serves_and_passes_the_suite(tmp_path):
    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "build", "--outdir", str(dist), str(ROOT)],
                   check=True, capture_output=True, timeout=600)
    wheel = next(dist.glob("*.whl"))
    sdist = next(dist.glob("*.tar.gz"))

    # neither archive holds a link, and the wheel holds nothing at the top but the one package
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names}
    assert tops == {"kalooki_referee", f"kalooki_referee-{kalooki_referee.__version__}.dist-info"}
    for needed in ("kalooki_referee/rules/openapi.yaml", "kalooki_referee/vectors/conformance.md", "kalooki_referee/api/gunicorn_conf.py",
                   "kalooki_referee/vectors/wire-format.md", "kalooki_referee/vectors/shuffle.md",
                   "kalooki_referee/rules/variants/british.yaml", "kalooki_referee/vectors/VERSION",
                   "kalooki_referee/py.typed"):
        assert needed in names
    with tarfile.open(sdist) as archive:
        assert not [m.name for m in archive.getmembers() if m.issym() or m.islnk()]

    # a fresh virtual environment, in a folder with no repository beside it, with the base wheel alone
    work = tmp_path / "elsewhere"
    work.mkdir()
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    bin_ = venv / "bin"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    subprocess.run([str(bin_ / "pip"), "install", "-q", str(wheel)], check=True, cwd=work, timeout=600)
    shown = subprocess.run([str(bin_ / "pip"), "show", "-f", "kalooki-referee"], check=True, cwd=work,
                           capture_output=True, text=True).stdout
    files = shown.split("Files:", 1)[1].split()
    assert not [f for f in files if f.split("/")[0] in GENERIC]
    assert any(f.startswith("kalooki_referee/rules/") for f in files)

    # the core alone adjudicates README's first turn, giving the service's answer, with no web stack
    request = (ROOT / "examples" / "first-turn.json").read_text(encoding="utf-8")
    (work / "first-turn.json").write_text(request, encoding="utf-8")
    core = subprocess.run([str(bin_ / "python"), "-c", BASE_ONLY], cwd=work, env=env, capture_output=True, text=True,
                          timeout=300)
    assert core.returncode == 0, core.stderr[-3000:]
    absent, answer = core.stdout.split("\n", 1)
    assert absent == "absent: flask gunicorn werkzeug"
    served = create_app({"KALOOKI_LOG_STREAM": open(os.devnull, "wb")}).test_client().post(
        "/v1/adjudicate", data=request, content_type="application/json")
    assert json.loads(answer) == served.get_json() and served.get_json()["legal"] is True
    # the runner's HTTP mode is there; serving and the in-process run say what to install, in one line
    for command in (["kalooki-referee", "serve"], ["kalooki-conformance", "--variant", "swedish"]):
        refused = subprocess.run([str(bin_ / command[0]), *command[1:]], cwd=work, env=env, capture_output=True,
                                 text=True, timeout=300)
        assert refused.returncode == 2 and refused.stderr.count("\n") == 1, refused.stderr[-3000:]
        assert "kalooki-referee[server]" in refused.stderr

    # with the server extra, the same environment serves (on the port given by --port)
    subprocess.run([str(bin_ / "pip"), "install", "-q", f"{wheel}[server]"], check=True, cwd=work, timeout=600)
    # every example of docs/library.md runs against the installed wheel, in order, from an empty folder
    # (one of them signs a ruling, which takes the server extra's cryptography)
    examples = work / "library-examples"
    examples.mkdir()
    blocks = re.findall(r"^```python\n(.*?)^```", (ROOT / "docs" / "library.md").read_text(encoding="utf-8"), re.S | re.M)
    script = "namespace = {'__name__': 'library_md'}\n" + "".join(
        f"exec(compile({code!r}, 'library.md block {i + 1}', 'exec'), namespace)\n" for i, code in enumerate(blocks))
    ran = subprocess.run([str(bin_ / "python"), "-c", script], cwd=examples, env=env, capture_output=True, text=True,
                         timeout=300)
    assert ran.returncode == 0 and len(blocks) >= 6, ran.stderr[-3000:]
    assert len([line for line in ran.stdout.splitlines() if line.strip()]) >= 8, ran.stdout[-2000:]
    assert list(examples.iterdir()) == []
    port = free_port()
    command = [str(bin_ / "kalooki-referee"), "serve", "--port", str(port), "--workers", "2"]
    with served_by(command, port=port, cwd=work, env=env, log=tmp_path / "server.log") as base:
        run = subprocess.run([str(bin_ / "kalooki-conformance"), "--base-url", base],
                             cwd=work, env=env, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    summary = re.search(r"vectors: (\d+) passed, (\d+) failed, (\d+) errors, (\d+) skipped", run.stdout)
    assert summary and int(summary[1]) >= 3000 and summary.group(2, 3, 4) == ("0", "0", "0"), run.stdout[-2000:]


@pytest.mark.parametrize("command", [["serve"], ["serve", "--bind", "127.0.0.1:1"], ["verify", "ruling.json"]])
def test_serve_and_verify_without_the_server_extra_say_what_to_install(command, monkeypatch, capsys):
    # as in a base install: the web layer's packages cannot be found (the slow wheel test above runs a real one)
    from kalooki_referee import cli

    real = cli.importlib.util.find_spec
    monkeypatch.setattr(cli.importlib.util, "find_spec",
                        lambda name, *a: None if name in ("flask", "gunicorn") else real(name, *a))
    assert cli.main(command) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert "kalooki-referee[server]" in captured.err and "flask, gunicorn missing" in captured.err
