"""Every parameter declared once (the dataclasses of rules/params.py with their ``param`` metadata):
the marshmallow schema that loads them is built from the declarations, and the files derived from
them (rules/variant.schema.yaml's ``$defs``, openapi.yaml's ``Rules``, docs/parameters.md) are what
``python -m tools.params --write`` gives, so none can drift; the JSON Schemas accept every variant and
every house rule the service accepts, and refuse a misspelt or mistyped one as the service does."""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from kalooki_referee.rules.errors import InvalidRules
from kalooki_referee.rules.params import Rules, declared
from kalooki_referee.rules.wire.params import RULES_SCHEMA
from kalooki_referee.rules.wire.variant import VARIANT_DIR, all_variants, load_variant, variant_schema, variant_wire
from kalooki_referee.vectors.suite import plain_vectors

ROOT = Path(__file__).resolve().parents[2]


def test_the_marshmallow_schema_is_the_declarations():
    """Every declared parameter, and no other, is a field of the loading schema, required exactly
    where the declaration has no default, nullable exactly where its type admits None."""
    def walk(group: type, schema: object, at: str) -> None:
        fields = schema.fields  # type: ignore[attr-defined]
        assert set(fields) == {p.name for p in declared(group)}, at
        for p in declared(group):
            f = fields[p.name]
            assert f.required == p.required and f.allow_none == p.nullable, at + "/" + p.name
            if hasattr(p.kind, "__dataclass_fields__"):
                walk(p.kind, f.schema, at + "/" + p.name)
    walk(Rules, RULES_SCHEMA, "")


def _openapi_rules() -> jsonschema.Draft202012Validator:
    """openapi.yaml's Rules, its references (the groups that may be null) read in the document."""
    doc = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator({"$ref": "#/components/schemas/Rules", "components": doc["components"]})


def test_every_variant_file_meets_the_variant_schema_with_its_parameters_typed():
    validator = jsonschema.Draft202012Validator(variant_schema())
    for path in sorted(VARIANT_DIR.glob("*.yaml")):
        errors = [e.message for e in validator.iter_errors(yaml.safe_load(path.read_text(encoding="utf-8")))]
        assert not errors, (path.name, errors)
    full = jsonschema.Draft202012Validator(variant_schema()["$defs"]["parameters"])
    for v in all_variants():  # the loaded (merged) parameters are complete
        assert not list(full.iter_errors(json.loads(json.dumps(variant_wire(v)["parameters"])))), v.id


def _house_rules_of_the_vectors() -> list[tuple[str, dict]]:
    found: list[tuple[str, dict]] = []
    for path in sorted((ROOT / "vectors").glob("*/*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        for vector in plain_vectors(doc) if "groups" in doc else ():
            rules = vector["request"].get("rules")
            if isinstance(rules, dict) and rules:
                found.append((vector["request"]["variant"], rules))
    return found


def test_openapi_rules_agree_with_the_service_on_the_vectors_house_rules():
    """A house rule the service takes is valid under openapi.yaml's Rules; one refused for its shape
    (an unknown key, a wrong type, a value out of range) is refused by Rules too."""
    validator = _openapi_rules()
    cases = _house_rules_of_the_vectors()
    assert len(cases) > 20
    accepted = refused = 0
    for variant, rules in cases:
        try:
            load_variant(variant, rules)
        except InvalidRules as exc:
            shape = [p for p in exc.problems if "unknown rule" in p.detail or "Not a valid" in p.detail
                     or "greater than or equal" in p.detail or "less than or equal" in p.detail]
            if shape:
                refused += 1
                assert list(validator.iter_errors(rules)), (variant, rules, shape)
            continue
        accepted += 1
        assert not list(validator.iter_errors(rules)), (variant, rules)
    assert accepted and refused


@pytest.mark.parametrize("rules, where", [
    ({"opening": {"minimun": 30}}, "/rules/opening/minimun"),
    ({"opening": {"minimum": "30"}}, "/rules/opening/minimum"),
    ({"melds": {"run": {"ace": "middle"}}}, "/rules/melds/run/ace"),
    ({"game": {"limit": 0}}, "/rules/game/limit"),
    ({"deal": {"cards_by_players": {"9": 7}}}, "/rules/deal/cards_by_players"),
])
def test_a_misspelt_or_mistyped_house_rule_is_refused_by_both(rules, where):
    assert list(_openapi_rules().iter_errors(rules))
    with pytest.raises(InvalidRules) as caught:
        load_variant("british", rules)
    assert any(p.pointer.startswith(where) for p in caught.value.problems), caught.value.problems


def test_the_parameter_table_lists_every_parameter():
    text = (ROOT / "docs" / "parameters.md").read_text(encoding="utf-8")

    def pointers(group: type, at: str) -> list[str]:
        out = []
        for p in declared(group):
            out.append(f"{at}/{p.name}")
            if hasattr(p.kind, "__dataclass_fields__"):
                out += pointers(p.kind, f"{at}/{p.name}")
        return out
    for pointer in pointers(Rules, ""):
        assert f"| `{pointer}` |" in text, pointer
