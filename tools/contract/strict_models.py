"""A post-generation hook for openapi-python-client (its config's ``post_hooks``): the models of the
schemas openapi.yaml closes (``additionalProperties: false``, as ``Rules`` and each of its groups)
refuse a key they do not know.

openapi-python-client 0.29.1 reads a closed schema into a model without an ``additional_properties``
field, but its ``from_dict`` still drops any key it does not name: ``Rules.from_dict({"opening":
{"minimun": 51}})`` would send ``{"opening": {}}`` and the referee would judge under the variant's
own rules.  This hook adds, to the ``from_dict`` of every such model, a check that nothing is left of
the input once every known property has been taken from it: a ``ValueError`` naming the keys.

    python tools/contract/strict_models.py [PACKAGE_DIR]   (default: the current directory)
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path


def _closing_line(tree: ast.Module) -> list[tuple[str, int, int]]:
    """(class, line, indent) before which each closed model's ``from_dict`` builds its instance."""
    found = []
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        fields = {t.target.id for t in node.body if isinstance(t, ast.AnnAssign) and isinstance(t.target, ast.Name)}
        method = next((f for f in node.body if isinstance(f, ast.FunctionDef) and f.name == "from_dict"), None)
        if method is None or "additional_properties" in fields:
            continue  # an open schema: its model keeps the unknown keys
        names = {t.id for s in ast.walk(method) if isinstance(s, ast.Assign) for t in s.targets if isinstance(t, ast.Name)}
        if "d" not in names:
            continue  # a model with no property reads nothing
        build = next(s for s in method.body if isinstance(s, ast.Assign) and isinstance(s.value, ast.Call)
                     and isinstance(s.value.func, ast.Name) and s.value.func.id == "cls")
        found.append((node.name, build.lineno, build.col_offset))
    return found


def tighten(path: Path) -> bool:
    """Add the check to the closed models of one generated module; whether it changed."""
    text = path.read_text(encoding="utf-8")
    if "unknown key" in text:
        return False
    lines = text.splitlines(keepends=True)
    places = _closing_line(ast.parse(text))
    for name, line, indent in sorted(places, key=lambda p: -p[1]):
        pad = " " * indent
        lines[line - 1:line - 1] = [
            f"{pad}if d:  # a closed schema (additionalProperties: false): an unknown key is an error, not dropped\n",
            f"{pad}    raise ValueError(f\"{name}: unknown key(s) {{sorted(d)}}\")\n",
            "\n"]
    if places:
        path.write_text("".join(lines), encoding="utf-8")
    return bool(places)


def main(argv: list[str]) -> int:
    package = Path(argv[0]) if argv else Path(".")
    changed = [p for p in sorted((package / "models").glob("*.py")) if tighten(p)]
    print(f"strict_models: {len(changed)} closed models refuse unknown keys")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
