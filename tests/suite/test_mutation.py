"""The mutation run's tooling (tools/mutation.py): the sample is spread and reproducible, the
survivors' file is read as the report reads it, mutants inside annotations are recognised; and (slow)
a tiny run over one module works end to end without touching the repository's files."""
from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import pytest

from tools import mutation

ROOT = Path(__file__).resolve().parents[2]


def _items(counts: dict[str, int]) -> list:
    return [SimpleNamespace(job_id=f"{m}-{k}", mutations=[SimpleNamespace(module_path=Path(m), operator_name="op", occurrence=k)])
            for m, n in counts.items() for k in range(n)]


def test_the_share_of_each_module_is_proportional_and_adds_up():
    counts = {"rules/a.py": 700, "rules/b.py": 200, "rules/c.py": 95, "rules/d.py": 5}
    share = mutation.allocate(counts, 100)
    assert sum(share.values()) == 100
    assert share == {"rules/a.py": 70, "rules/b.py": 20, "rules/c.py": 10, "rules/d.py": 0}  # 9.5 and 0.5: the larger remainder first
    assert mutation.allocate(counts, 5000) == counts  # a sample larger than the whole is the whole


def test_the_sample_is_reproducible_and_spread_over_the_modules():
    items = _items({"rules/a.py": 300, "rules/b.py": 100, "rules/c.py": 100})
    first = [i.job_id for i in mutation.draw(items, 50, "15")]
    again = [i.job_id for i in mutation.draw(list(reversed(items)), 50, "15")]  # the order given does not matter
    other = [i.job_id for i in mutation.draw(items, 50, "16")]
    assert first == again and first != other
    assert len(set(first)) == 50
    assert Counter(j.split("-")[0] for j in first) == {"rules/a.py": 30, "rules/b.py": 10, "rules/c.py": 10}


def test_the_mutated_modules_are_the_rule_modules_but_the_generated_ones():
    found = mutation.modules()
    assert "rules/engine.py" in found and "rules/search.py" in found and "rules/settlement.py" in found
    assert not {"rules/clause_ids.py", "rules/clause_tools.py", "rules/__init__.py"} & set(found)


def test_a_mutant_inside_an_annotation_is_recognised(tmp_path):
    src = tmp_path / "m.py"
    src.write_text("def f(x: int | None) -> list[int]:\n    return [x or 0 | 1]\n")
    spans = mutation._annotation_lines(src)
    assert mutation._inside((1, 11), spans)       # the `|` of the parameter's annotation
    assert not mutation._inside((2, 17), spans)   # the `|` of the body


def test_every_equivalent_survivor_names_a_mutated_module_and_says_why():
    rows = mutation.equivalents()
    text = mutation.EQUIVALENTS.read_text(encoding="utf-8")
    assert rows, "the survivors' file lists no row"
    for module, operator, occurrence, line in rows:
        assert module in mutation.modules(), module
        assert operator.startswith("core/")
        assert line is not None and line > 0, (module, operator, occurrence)  # rows name their line
    # every row gives its reason (the last cell is not empty)
    for line in text.splitlines():
        if mutation.ROW.match(line):
            assert line.rstrip().endswith("|") and line.rstrip("| ").rsplit("|", 1)[1].strip(), line


def test_every_equivalent_is_explained_by_a_known_kind():
    kinds = mutation.equivalents().values()
    assert kinds and set(kinds) <= set(mutation.KINDS), sorted(set(kinds) - set(mutation.KINDS))


def test_the_figure_carries_wilsons_95_percent_interval():
    low, high = mutation.wilson(9, 10)  # the textbook case: 9 of 10 gives 59.6% to 98.2%
    assert (round(low, 1), round(high, 1)) == (59.6, 98.2)
    low, high = mutation.wilson(270, 300)
    assert low < 90.0 < high and high - low < 7.0
    assert mutation.wilson(0, 0) == (0.0, 100.0)


def test_a_figure_is_held_out_only_for_a_drawn_seed_and_untouched_vectors(tmp_path):
    def said(**record) -> str:
        (tmp_path / "run.json").write_text(json.dumps({"seed": "ab12", "commit": "c0ffee", "started": "now", **record}))
        return mutation.held_out(tmp_path)
    assert said(seed_drawn_at_run_time=True, rechecked=False).startswith("figure: held out")
    assert said(seed_drawn_at_run_time=False, rechecked=False).startswith("figure: fitted")
    assert said(seed_drawn_at_run_time=True, rechecked=True).startswith("figure: fitted")
    (tmp_path / "run.json").unlink()
    assert mutation.held_out(tmp_path).startswith("figure: fitted")


def _digest(folder: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(folder.glob("*.py")):
        h.update(p.name.encode() + p.read_bytes())
    return h.hexdigest()


@pytest.mark.slow
def test_a_small_mutation_run_works_end_to_end(tmp_path):
    pytest.importorskip("cosmic_ray")
    before = _digest(ROOT / "rules")
    proc = subprocess.run([sys.executable, "-m", "tools.mutation", "run", "--sample", "3", "--module", "rules/shuffle.py",
                           "--dir", str(tmp_path / "run"), "--timeout", "60", "--jobs", "2"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    out = proc.stdout + proc.stderr
    assert "baseline: vectors:" in out, out
    m = re.search(r"mutants: (\d+) run \((\d+) pending\), (\d+) killed \(\d+ by the timeout\), (\d+) equivalent, "
                  r"(\d+) surviving unexplained", out)
    assert m and m.group(1) == "3" and m.group(2) == "0", out
    # a change to the shuffle changes every deal the vectors pin down: each mutant is killed, but for
    # one the survivors' file explains (the rejection limit doubled, which no draw reaches)
    assert int(m.group(3)) + int(m.group(4)) == 3 and m.group(5) == "0", out
    killed = m.group(3)
    assert f"killed: {killed}/{killed} non-equivalent mutants = 100.0%" in out
    # no seed given: it was drawn at run time, recorded with the commit, and the figure is held out
    record = json.loads((tmp_path / "run" / "run.json").read_text(encoding="utf-8"))
    assert record["seed_drawn_at_run_time"] and len(record["seed"]) == 12 and not record["rechecked"]
    assert f"figure: held out: the seed was drawn at run time" in out and record["seed"] in out
    assert proc.returncode == 0, out
    assert _digest(ROOT / "rules") == before  # the mutants were made in the scratch copy only
