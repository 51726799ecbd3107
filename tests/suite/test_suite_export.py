"""The self-describing export and the selection of vectors: every exported file opens with
a header, the export carries its manifest (counts, checksums, the referee that wrote it), its schema,
a README and the comparison rules; the vectors can be selected by id, topic, clause, endpoint and
decision in the export, the run and the listing of ids alike; a released id withdrawn without a
changelog entry is caught."""
from __future__ import annotations

import fnmatch
import json
from pathlib import Path

import jsonschema
import pytest

from kalooki_referee import __version__
from kalooki_referee.rules.wire.variant import load_variant
from kalooki_referee.vectors import lint, runner
from kalooki_referee.vectors.export import export, verify
from kalooki_referee.vectors.suite import ROOT, Selection, load_vectors

VECTORS = load_vectors()
SCHEMA = json.loads((ROOT / "vector-file.schema.json").read_text())


def _validator(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator({"$defs": SCHEMA["$defs"], "$ref": f"#/$defs/{name}"})


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    directory = tmp_path_factory.mktemp("export")
    assert export(directory) == len(VECTORS)
    return directory


def test_every_exported_file_opens_with_its_header(exported):
    files = sorted(exported.glob("*/*.json"))
    assert files and not list(exported.rglob("*.jsonl"))
    seen = []
    for path in files:
        text = path.read_text()
        first = text.split("\n", 1)[0]
        assert first.endswith('"vectors":[') and '"id"' not in first  # the header alone on the first line
        doc = json.loads(text)
        assert list(_validator("exportFile").iter_errors(doc)) == []
        assert list(doc)[-1] == "vectors" and doc["schema"] == "vector-file.schema.json#/$defs/exportFile"
        assert (doc["variant"], doc["topic"]) == (path.parent.name, path.stem)
        assert doc["suite_version"] == (ROOT / "VERSION").read_text().strip()
        assert doc["number_of_vectors"] == len(doc["vectors"]) == len(text.splitlines()) - 1
        assert doc["endpoints"] == sorted({v["endpoint"] for v in doc["vectors"]})
        used = {v["decision"] for v in doc["vectors"] if v.get("decision")}
        assert set(doc["decisions"]) == used
        for did, note in doc["decisions"].items():  # the variant file's own words on the ruling
            stated = next(d for d in load_variant(doc["variant"]).decisions if d.id == did)
            assert (note["ruling"], note["reason"], note["switch"]) == (stated.ruling, stated.reason, stated.switch)
            assert note["vectors"] == sum(v.get("decision") == did for v in doc["vectors"])
        seen += doc["vectors"]
    assert [v["id"] for v in seen] == [v.id for v in VECTORS]
    assert seen == [v.data for v in VECTORS]
    # and the suite's own loader reads the export back as the same vectors
    assert [(v.id, v.data) for v in load_vectors(exported)] == [(v.id, v.data) for v in VECTORS]


def test_the_manifest_counts_and_checksums_the_export(exported):
    manifest = json.loads((exported / "manifest.json").read_text())
    assert list(_validator("exportManifest").iter_errors(manifest)) == []
    assert manifest["produced_by"] == {"name": "kalooki-referee", "version": __version__}
    assert manifest["selection"] == {}
    assert manifest["counts"]["vectors"] == len(VECTORS)
    assert manifest["counts"]["files"] == len(list(exported.glob("*/*.json")))
    assert sum(manifest["counts"]["by_variant"].values()) == len(VECTORS)
    assert manifest["counts"]["by_endpoint"]["adjudicate"] == sum(v.endpoint == "adjudicate" for v in VECTORS)
    assert manifest["counts"]["by_decision"]["none"] == sum(not v.data.get("decision") for v in VECTORS)
    listed = {e["path"] for e in manifest["files"]}
    assert {"README.md", "conformance.md", "vector-file.schema.json"} <= listed
    assert listed == {p.relative_to(exported).as_posix() for p in exported.rglob("*") if p.is_file()} - {"manifest.json"}
    assert (exported / "conformance.md").read_text() == (ROOT.parent / "docs" / "conformance.md").read_text()
    assert verify(exported) == [] and lint.lint(exported) == []


def test_a_changed_or_stray_file_is_caught(tmp_path):
    export(tmp_path, selection=Selection(topics=("draw",)))
    assert verify(tmp_path) == []
    path = tmp_path / "british" / "draw.json"
    path.write_text(path.read_text().replace('"legal":true', '"legal":false', 1))
    (tmp_path / "british" / "extra.json").write_text("{}")
    problems = verify(tmp_path)
    assert any(p.startswith("british/draw.json: its sha256") for p in problems)
    assert any(p.startswith("british/extra.json: not listed") for p in problems)


def test_the_export_is_the_same_byte_for_byte_each_time(tmp_path):
    selection = Selection(variants=("swedish",))
    export(tmp_path / "a", selection=selection)
    export(tmp_path / "b", selection=selection)
    a = {p.relative_to(tmp_path / "a"): p.read_bytes() for p in (tmp_path / "a").rglob("*") if p.is_file()}
    b = {p.relative_to(tmp_path / "b"): p.read_bytes() for p in (tmp_path / "b").rglob("*") if p.is_file()}
    assert a == b and len(a) > 4


def _cited(v) -> set[str]:
    return set(v.data["clauses"]) | set(v.expected.get("violations", [])) | set(v.expected.get("undetermined", []))


# each selection option, and what it must take, worked out here from the vectors' own fields
SELECTIONS = [
    (["--id", "british.draw.*"], lambda v: v.id.startswith("british.draw.")),
    (["--id", "*.inherited.builds-*", "--variant", "swedish"],
     lambda v: v.variant == "swedish" and v.id.startswith("swedish.inherited.builds-")),
    (["--topic", "melds", "--topic", "unseen"], lambda v: v.file.split("/")[1] in ("melds.json", "unseen.json")),
    (["--clause", "build.run_max_two_per_end_per_turn"], lambda v: "build.run_max_two_per_end_per_turn" in _cited(v)),
    (["--clause", "joker.*", "--variant", "british"],
     lambda v: v.variant == "british" and any(c.startswith("joker.") for c in _cited(v))),
    (["--endpoint", "melds/check", "--variant", "british"], lambda v: v.variant == "british" and v.endpoint == "melds/check"),
    (["--decision", "dec.two_per_end_counting"], lambda v: v.data.get("decision") == "dec.two_per_end_counting"),
    (["--decision", "none", "--topic", "draw", "--variant", "british"],
     lambda v: v.variant == "british" and v.topic == "draw" and not v.data.get("decision")),
]


@pytest.mark.parametrize("options,wanted", SELECTIONS, ids=[" ".join(o) for o, _ in SELECTIONS])
def test_selection_in_the_export_and_the_listing_of_ids(options, wanted, tmp_path, capsys):
    expected = [v.id for v in VECTORS if wanted(v)]
    assert expected, options  # the selection takes something, and (below) not everything
    assert len(expected) < len(VECTORS)
    assert runner.main(["export", str(tmp_path), *options]) == 0
    assert [v.id for v in load_vectors(tmp_path)] == expected
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["counts"]["vectors"] == len(expected) and verify(tmp_path) == []
    given: dict[str, list[str]] = {}
    for flag, value in zip(options[::2], options[1::2]):
        given.setdefault(flag.lstrip("-"), []).append(value)
    assert manifest["selection"] == given
    capsys.readouterr()
    assert runner.main(["ids", *options]) == 0
    assert capsys.readouterr().out.split() == sorted(expected)


def test_selection_in_a_run(capsys):
    options = ["--id", "british.draw.*", "--endpoint", "adjudicate"]
    wanted = [v for v in VECTORS if fnmatch.fnmatchcase(v.id, "british.draw.*") and v.endpoint == "adjudicate"]
    assert runner.main([*options, "-v"]) == 0
    out = capsys.readouterr().out
    assert f"vectors: {len(wanted)} passed, 0 failed, 0 errors, 0 skipped" in out
    assert {line.split()[1] for line in out.splitlines() if line.startswith("PASS")} == {v.id for v in wanted}


@pytest.mark.parametrize("command", [[], ["ids"], ["export", "OUT"]], ids=["run", "ids", "export"])
def test_a_selection_that_takes_nothing_is_an_error(command, tmp_path, capsys):
    argv = [str(tmp_path / "out") if a == "OUT" else a for a in command]
    with pytest.raises(SystemExit) as stopped:
        runner.main([*argv, "--id", "no.such.vector.*", "--variant", "british"])
    assert stopped.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and "matches the selection" in captured.err
    assert not (tmp_path / "out").exists()


def test_every_released_id_is_still_here_or_withdrawn_in_the_changelog(tmp_path):
    current = {v.id for v in VECTORS}
    released = sorted((ROOT / "released-ids").glob("*.txt"))
    assert released, "no released list of ids"
    assert lint.released_id_problems(current) == []
    # the check can fail: an id of a release gone from the suite, named nowhere after that release
    listing = tmp_path / "released"
    listing.mkdir()
    (listing / "2.3.0.txt").write_text("british.draw.not-below-top-card\nbritish.draw.a-withdrawn-case\n")
    problems = lint.released_id_problems(current, listing)
    assert problems == ["british.draw.a-withdrawn-case: released in 2.3.0, gone from the suite, and named by no "
                        "newer section of CHANGELOG.md"]
    changelog = tmp_path / "CHANGELOG.md"
    text = (ROOT / "CHANGELOG.md").read_text()
    changelog.write_text("## 9.0.0\n\n* withdrawn: `british.draw.a-withdrawn-case`\n\n" + text)
    assert lint.released_id_problems(current, listing, changelog) == []
    # an entry older than the release does not count
    changelog.write_text(text + "\n## 0.0.1\n\n* `british.draw.a-withdrawn-case`\n")
    assert lint.released_id_problems(current, listing, changelog) == problems
