"""The self-describing export: the suite as plain self-contained vectors, inheritance resolved.

    DIR/manifest.json               what the export holds: counts, every file's sha256, who wrote it
    DIR/README.md                   how to read and run it (vectors/export-README.md)
    DIR/conformance.md              the comparison rules (docs/conformance.md)
    DIR/wire-format.md              the wire format (docs/wire-format.md)
    DIR/shuffle.md                  the deal and its shuffle, specified with worked values (docs/shuffle.md)
    DIR/variants.json               each variant the vectors use, with all its parameters resolved
    DIR/vector-file.schema.json     the schema: an exported file is #/$defs/exportFile, the manifest
                                    #/$defs/exportManifest, a vector #/$defs/plainVector
    DIR/<variant>/<topic>.json      a header (suite version, variant, topic, number of vectors, the
                                    schema, the rulings its vectors depend on) and its vectors, one a line

Everything written is a function of the suite and the selection (no date, no path of the machine),
so two exports of the same suite are byte for byte the same and the checksums can be compared.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Callable

from .build import SUITE, SUITE_VERSION
from .suite import ROOT, Selection, Vector, load_vectors

SCHEMA_NAME = "vector-file.schema.json"
FILE_SCHEMA = f"{SCHEMA_NAME}#/$defs/exportFile"
MANIFEST_SCHEMA = f"{SCHEMA_NAME}#/$defs/exportManifest"
# the documents the export carries beside its vectors: (name in the export, where it comes from)
# The comparison rules are docs/conformance.md; the wheel carries a copy beside this module (setup.py).
# So are the wire format (docs/wire-format.md) and the deal's specification (docs/shuffle.md).


def _document(name: str) -> Path:
    """A page of docs/ as the export carries it: beside this module in the wheel, in docs/ in a checkout."""
    return next((p for p in (ROOT / name, ROOT.parent / "docs" / name) if p.is_file()), ROOT / name)


CONFORMANCE = _document("conformance.md")
DOCUMENTS = (("README.md", ROOT / "export-README.md"), ("conformance.md", CONFORMANCE),
             ("wire-format.md", _document("wire-format.md")), ("shuffle.md", _document("shuffle.md")),
             (SCHEMA_NAME, ROOT / SCHEMA_NAME))
VARIANTS = "variants.json"


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=False)


def _decision_notes(variant: str, used: list[str]) -> dict[str, dict[str, Any]]:
    """Each ruling the file's vectors depend on, as the variant file states it: the ruling, the
    reason, and the parameter that selects the other reading (``switch``, null for an API ruling)."""
    from kalooki_referee.rules.wire.variant import load_variant

    by_id = {d.id: d for d in load_variant(variant).decisions}
    return {d: {"ruling": by_id[d].ruling, "reason": by_id[d].reason, "switch": by_id[d].switch}
            for d in used}


def variants_document(variants: list[str]) -> dict[str, Any]:
    """Every variant the vectors run under, with all its parameters resolved (its parents' under its
    own, every default written): what a request's house rules are laid over (shuffle.md, section 5)."""
    from kalooki_referee.rules.wire.variant import load_variant
    from kalooki_referee.rules.wire.params import wire_value

    out = {}
    for vid in variants:
        variant = load_variant(vid)
        out[vid] = {"name": variant.name, "extends": variant.extends, "parameters": wire_value(variant.rules)}
    return {"suite": SUITE, "variants": out}


def file_header(variant: str, topic: str, vectors: list[Vector], version: str) -> dict[str, Any]:
    decisions = sorted({v.data["decision"] for v in vectors if v.data.get("decision")})
    counts = {d: sum(v.data.get("decision") == d for v in vectors) for d in decisions}
    notes = _decision_notes(variant, decisions)
    return {"suite": SUITE, "suite_version": version, "schema": FILE_SCHEMA, "variant": variant, "topic": topic,
            "number_of_vectors": len(vectors),
            "endpoints": sorted({v.endpoint for v in vectors}),
            "decisions": {d: {**notes[d], "vectors": counts[d]} for d in decisions}}


def render_file(header: dict[str, Any], vectors: list[Vector]) -> str:
    """The file's text: its header on the first line, then one vector a line (as the grouped files
    are laid out: a change to one vector changes one line)."""
    head = _compact({**header, "vectors": []})[:-3]  # the header, up to the opening of its vector list
    return head + "[\n" + ",\n".join(_compact(v.data) for v in vectors) + "]}\n"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def export(directory: Path, root: Path = ROOT, selection: Selection = Selection()) -> int:
    """Write the vectors of the suite at ``root`` that ``selection`` takes (all by default) to
    ``directory`` as described above; the number of vectors written."""
    from kalooki_referee import __version__

    version = SUITE_VERSION
    by_file: dict[tuple[str, str], list[Vector]] = {}
    for vec in load_vectors(root, selection=selection):
        by_file.setdefault((vec.file.split("/", 1)[0], vec.topic), []).append(vec)
    directory.mkdir(parents=True, exist_ok=True)
    entries = []
    for (variant, topic), vectors in by_file.items():
        name = f"{variant}/{topic}.json"
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(render_file(file_header(variant, topic, vectors, version), vectors), encoding="utf-8")
        entries.append({"path": name, "variant": variant, "topic": topic, "vectors": len(vectors),
                        "sha256": sha256(path)})
    variants = sorted({v.variant for vs in by_file.values() for v in vs})
    (directory / VARIANTS).write_text(json.dumps(variants_document(variants), indent=1, ensure_ascii=False, sort_keys=True)
                                      + "\n", encoding="utf-8")
    entries.append({"path": VARIANTS, "sha256": sha256(directory / VARIANTS)})
    for name, source in DOCUMENTS:
        (directory / name).write_bytes(source.read_bytes())
        entries.append({"path": name, "sha256": sha256(directory / name)})
    all_vectors = [v for vs in by_file.values() for v in vs]

    def tally(key: Callable[[Vector], Any]) -> dict[str, int]:
        out: dict[str, int] = {}
        for v in all_vectors:
            out[key(v)] = out.get(key(v), 0) + 1
        return dict(sorted(out.items()))
    manifest = {"suite": SUITE, "suite_version": version, "schema": MANIFEST_SCHEMA,
                "produced_by": {"name": "kalooki-referee", "version": __version__},
                "selection": selection.to_dict(),
                "counts": {"files": len(by_file), "vectors": len(all_vectors),
                           "by_variant": tally(lambda v: v.variant), "by_endpoint": tally(lambda v: v.endpoint),
                           "by_decision": tally(lambda v: v.data.get("decision") or "none")},
                "files": entries}
    (directory / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return len(all_vectors)


def verify(directory: Path) -> list[str]:
    """What is wrong with an export: a file missing, changed (its sha256) or not listed, a header
    whose count, variant or topic is not its file's."""
    problems = []
    manifest = json.loads((directory / "manifest.json").read_text(encoding="utf-8"))
    listed = {e["path"]: e for e in manifest["files"]}
    for name, entry in listed.items():
        path = directory / name
        if not path.is_file():
            problems.append(f"{name}: listed in manifest.json but missing")
        elif sha256(path) != entry["sha256"]:
            problems.append(f"{name}: its sha256 is not the one manifest.json gives")
    for path in sorted(directory.glob("*/*.json")):
        name = path.relative_to(directory).as_posix()
        if name not in listed:
            problems.append(f"{name}: not listed in manifest.json")
            continue
        doc = json.loads(path.read_text(encoding="utf-8"))
        if doc.get("number_of_vectors") != len(doc.get("vectors", [])) or doc["number_of_vectors"] != listed[name]["vectors"]:
            problems.append(f"{name}: number_of_vectors {doc.get('number_of_vectors')} is not the file's count")
        if f"{doc.get('variant')}/{doc.get('topic')}.json" != name:
            problems.append(f"{name}: its header says {doc.get('variant')}/{doc.get('topic')}")
        used = sorted({v["decision"] for v in doc.get("vectors", []) if v.get("decision")})
        if sorted(doc.get("decisions", {})) != used:
            problems.append(f"{name}: the header's decisions {sorted(doc.get('decisions', {}))} are not the ones used {used}")
    if sum(e.get("vectors", 0) for e in manifest["files"]) != manifest["counts"]["vectors"]:
        problems.append("manifest.json: counts.vectors is not the sum of the files' counts")
    return problems
