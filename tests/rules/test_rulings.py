"""A verdict names the referee's rulings (``dec.*``) its answer rests on, beside the clause: each
decision of a variant file names the clauses it decides (``clauses``), and ``Variant.citation`` (the
one place every violation is cited) adds the rulings linked to the clause it cites.  The links are
checked when a variant file is loaded."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from kalooki_referee.rules import InvalidRules, all_variants, load_variant
from kalooki_referee.rules.wire.variant import VARIANT_DIR
from kalooki_referee.vectors.suite import load_vectors

def _vector(vector_id: str):
    return next(v for v in load_vectors() if v.id == vector_id)


def test_a_build_of_three_on_one_end_rests_on_the_counting_ruling(client):
    vector = _vector("british.builds.three-cards-on-one-end")
    assert vector.data["decision"] == "dec.two_per_end_counting"
    answer = client.post("/v1/adjudicate", json=vector.data["request"]).get_json()
    [violation] = answer["violations"]
    assert violation["clause"] == "build.run_max_two_per_end_per_turn"
    assert violation["rulings"] == ["dec.two_per_end_counting"]
    decisions = {d["id"]: d for d in client.get("/v1/variants/british").get_json()["decisions"]}
    assert violation["clause"] in decisions["dec.two_per_end_counting"]["clauses"]


def test_a_ruling_follows_the_clause_the_variant_cites():
    """A decision naming the engine's clause also touches the variant's own statement of it (its
    clause_map) and the referee's statement a house rule's number brings in (``otherwise``)."""
    for variant in all_variants():
        for decision in variant.decisions:
            for named in decision.clauses:
                assert decision.id in variant.rulings(variant.cite(named)), (variant.id, decision.id, named)
    uk = load_variant("kalooki_co_uk")
    mapped = uk.cite("joker_reuse.released_joker_used_at_once")
    assert mapped != "joker_reuse.released_joker_used_at_once"
    assert {"dec.released_joker_next_action", "dec.uk_released_joker_new_set"} <= set(uk.rulings(mapped))
    plain, sixty = load_variant("british"), load_variant("british", {"opening": {"minimum": 60}})
    assert plain.cite("initial_meld.minimum_40") != sixty.cite("initial_meld.minimum_40")
    assert "dec.opening_in_one_action" in plain.citation("initial_meld.minimum_40").rulings
    assert "dec.opening_in_one_action" in sixty.citation("initial_meld.minimum_40").rulings


def test_a_clause_no_ruling_touches_cites_none():
    british = load_variant("british")
    touched = {c for d in british.decisions for named in d.clauses for c in (named, british.cite(named))}
    untouched = [c for c in british.clauses if c not in touched]
    assert untouched
    assert all(british.citation(c).rulings == () for c in untouched)


def _copy_variants(tmp_path: Path) -> Path:
    """The variants' folder and the rulings file beside it (rules/decisions.yaml), copied."""
    target = tmp_path / "variants"
    shutil.copytree(VARIANT_DIR, target)
    shutil.copy(VARIANT_DIR.parent / "decisions.yaml", tmp_path / "decisions.yaml")
    return target


def _edit_rulings(directory: Path, edit) -> None:
    path = directory.parent / "decisions.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    edit(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")


def _edit_decision(directory: Path, variant_id: str, decision_id: str, **changes) -> None:
    _edit_rulings(directory, lambda data: next(d for d in data[variant_id] if d["id"] == decision_id).update(changes))


@pytest.mark.parametrize("changes, words", [
    ({"clauses": ["build.no_such_rule"]}, "not in the clause registry"),
    ({"clauses": ["meld.set.scarne_all_joker_set"]}, "does not play under"),
    ({"switch": "/building/no_such_parameter"}, "is not a parameter"),
])
def test_a_ruling_with_a_bad_link_is_refused_on_load(tmp_path, changes, words):
    directory = _copy_variants(tmp_path)
    _edit_decision(directory, "british", "dec.two_per_end_counting", **changes)
    with pytest.raises(InvalidRules) as err:
        load_variant("british", directory=directory)
    assert words in err.value.detail and "dec.two_per_end_counting" in err.value.detail


def test_a_ruling_must_say_which_clauses_it_decides(tmp_path):
    directory = _copy_variants(tmp_path)
    _edit_rulings(directory, lambda data: data["british"][0].pop("clauses"))
    with pytest.raises(InvalidRules) as err:
        load_variant("british", directory=directory)
    assert "/british/0" in [p.pointer for p in err.value.problems]


def test_rulings_are_written_once_in_the_rulings_file_never_in_a_variant_file(tmp_path):
    directory = _copy_variants(tmp_path)
    path = directory / "british_max501.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    ruling = yaml.safe_load((VARIANT_DIR.parent / "decisions.yaml").read_text(encoding="utf-8"))["british"][0]
    path.write_text(yaml.safe_dump({**data, "decisions": [ruling]}, sort_keys=False), encoding="utf-8")
    with pytest.raises(InvalidRules) as err:
        load_variant("british_max501", directory=directory)
    assert [p.pointer for p in err.value.problems] == ["/decisions"] and "decisions.yaml" in err.value.detail


def test_the_rulings_file_names_only_variants_that_exist(tmp_path):
    directory = _copy_variants(tmp_path)
    _edit_rulings(directory, lambda data: data.update(british_max999=data["british"][:1]))
    with pytest.raises(InvalidRules) as err:
        load_variant("british", directory=directory)
    assert "/british_max999" in [p.pointer for p in err.value.problems]


def test_a_house_variation_inherits_its_parents_rulings_and_adds_its_own():
    british, blackpool = load_variant("british"), load_variant("british_blackpool")
    own = [d.id for d in blackpool.decisions if d.id not in {b.id for b in british.decisions}]
    assert own and all(i.startswith("dec.blackpool") for i in own)
    assert [d.id for d in british.decisions] == [d.id for d in blackpool.decisions][:len(british.decisions)]

