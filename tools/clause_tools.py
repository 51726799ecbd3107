"""Clause ids as code: the generator of ``rules/clause_ids.py`` and the rewrite that makes code name
a clause only through its constant.

    python -m tools.clause_tools --generate          # write rules/clause_ids.py from the registry
    python -m tools.clause_tools --check             # exit 1 if rules/clause_ids.py is out of date
    python -m tools.clause_tools --rewrite [FILE...]  # clause-id literals (and the retired slots) -> constants
    python -m tools.clause_tools --lint [FILE...]     # list what --rewrite would still change (exit 1 if any)

``--rewrite`` works on ``rules/*.py`` and ``api/*.py`` by default and can be run again at any time
(after a merge that brought back literals, say): a string literal that is a registered clause id
becomes its constant; a clause id inside a message (``"... (stakes.ledger_balances)"``) becomes an
f-string field; the retired slot indirection (``clause_for(variant, "opening_minimum")``,
``CITE["identical_set"]``, ``DEFAULT_CLAUSES``; ``rules/citations.yaml``) becomes the constant of
the slot's clause; and each file's ``from .clause_ids import ...`` line is rewritten to import
exactly the constants it uses.  Docstrings and comments are left alone.

A maintainer's tool, not part of the installed package.
It reads the registry's YAML itself and imports nothing of the rules package, so that it also runs
when a stale ``clause_ids.py`` stops the package from importing.
"""
from __future__ import annotations

import argparse
import functools
import ast
import io
import re
import sys
import tokenize
from pathlib import Path
from typing import Any, Iterable

import yaml

ROOT = Path(__file__).resolve().parent.parent
HERE = ROOT / "rules"  # the registry it reads and the module it writes
REGISTRY_FILES = (HERE / "clauses.yaml", HERE / "referee-clauses.yaml")
TARGET = HERE / "clause_ids.py"
CODE_GLOBS = ("rules/*.py", "api/*.py")
SKIP = {"clause_ids.py", "clause_tools.py"}

# The retired slots of rules/citations.yaml: the engine's names for a rule, each now the constant of
# the clause it cited by default.  Two defaults were shared with another rule a variant maps apart,
# so they became referee clauses of their own (rules/referee-clauses.yaml): the first draw without
# an upcard (was turn.draw_meld_discard) and the exchange of a full set's joker for one natural (was
# joker_reuse.set_single_natural_north_american, as for a set that is not full).
RETIRED_SLOTS = {
    "opening_minimum": "initial_meld.minimum_40",
    "run_end_limit": "build.run_max_two_per_end_per_turn",
    "run_total_limit": "build.run_max_two_total_per_turn",
    "run_joker_interior": "joker_reuse.run_interior_only",
    "elimination_limit": "elimination.over_150",
    "first_draw": "referee.first_draw_without_upcard",
    "set_exchange_open": "joker_reuse.set_single_natural_north_american",
    "set_exchange_full": "referee.full_set_joker_one_natural",
    "all_joker_set": "meld.set.scarne_all_joker_set",
    "identical_set": "meld.set.griffin_identical_triple",
    "no_buy_in": "buyin.none_north_america",
}
RETIRED_CALLS = {"clause_for"}                    # clause_for(variant, "slot") -> CONSTANT
RETIRED_MAPS = {"CITE", "DEFAULT_CLAUSES"}          # CITE["slot"] -> CONSTANT
RETIRED_NAMES = RETIRED_CALLS | RETIRED_MAPS | {"default_citations", "CITATIONS_PATH"}


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml where PyYAML has it: the registry is long


# -- the registry and the constants --------------------------------------------------------------

def load_clauses() -> list[tuple[Path, dict[str, Any]]]:
    """Every clause of the registry, in file order, with the file it comes from."""
    out: list[tuple[Path, dict[str, Any]]] = []
    for path in REGISTRY_FILES:
        with open(path, encoding="utf-8") as fh:
            out.extend((path, c) for c in yaml.load(fh, Loader=_LOADER)["clauses"])
    return out


def constant_name(clause_id: str) -> str:
    return re.sub(r"[^0-9A-Za-z]", "_", clause_id).upper()


def constants() -> dict[str, str]:
    """Clause id -> constant name; refuses two ids that would make one name."""
    return dict(_constants())


@functools.lru_cache(maxsize=1)
def _constants() -> dict[str, str]:
    names: dict[str, str] = {}
    seen: dict[str, str] = {}
    for _, c in load_clauses():
        name = constant_name(c["id"])
        if name in seen and seen[name] != c["id"]:
            raise SystemExit(f"clause ids {seen[name]!r} and {c['id']!r} both make the constant {name}")
        seen[name] = c["id"]
        names[c["id"]] = name
    return names


def generate() -> str:
    names = constants()
    lines = [
        '"""Every clause of the registry as a constant: code names a clause only through its constant,',
        'so that "find usages" of a constant finds the code that enforces the clause.',
        "",
        "GENERATED from rules/clauses.yaml and rules/referee-clauses.yaml by",
        "``python -m tools.clause_tools --generate``; do not edit (tests/rules/test_clause_reach.py fails when it is",
        "out of date).  Each comment gives the clause's kind and level.  Rewrite literals into constants",
        "with ``python -m tools.clause_tools --rewrite`` (see tools/clause_tools.py).",
        '"""',
        "from __future__ import annotations",
        "",
        "from typing import Final",
    ]
    current = None
    for path, c in load_clauses():
        group = (path.name, c.get("category"))
        if group != current:
            current = group
            lines += ["", f"# -- {c.get('category')} ({path.name})"]
        lines.append(f'{names[c["id"]]}: Final[str] = "{c["id"]}"  # {c["kind"]}, {c.get("level")}')
    lines += [""]
    return "\n".join(lines)


# -- the rewrite -----------------------------------------------------------------------------------

class _Text:
    """A source text addressed by (line, column) as ``ast`` (UTF-8 byte columns) and ``tokenize``
    (character columns) give them."""

    def __init__(self, src: str):
        self.src = src
        self.starts = [0]
        for line in src.splitlines(keepends=True):
            self.starts.append(self.starts[-1] + len(line))
        self.lines = src.splitlines(keepends=True)

    def char(self, line: int, col: int) -> int:
        return self.starts[line - 1] + col

    def byte(self, line: int, col: int) -> int:
        text = self.lines[line - 1] if line - 1 < len(self.lines) else ""
        return self.starts[line - 1] + len(text.encode("utf-8")[:col].decode("utf-8", "replace"))

    def node(self, node: Any) -> tuple[int, int]:
        return (self.byte(node.lineno, node.col_offset), self.byte(node.end_lineno, node.end_col_offset))


def _alternatives(ids: Iterable[str]) -> str:
    return "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True))


def _id_pattern(ids: Iterable[str]) -> re.Pattern[str]:
    """A clause id as a word of a text."""
    return re.compile(r"(?<![\w.])(" + _alternatives(ids) + r")(?![\w])")


def _quoted_pattern(ids: Iterable[str]) -> re.Pattern[str]:
    """A clause id as a string literal inside an f-string's field."""
    return re.compile(r"(['\"])(" + _alternatives(ids) + r")\1")


def _docstring_starts(tree: ast.AST) -> set[tuple[int, int]]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = getattr(node, "body", [])
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                out.add((body[0].value.lineno, body[0].value.col_offset))
    return out


def _split_prefix(token: str) -> tuple[str, str, str]:
    """A string token's prefix, quote and body."""
    m = re.match(r"^([A-Za-z]*)('''|\"\"\"|'|\")", token)
    assert m, token
    prefix, quote = m.group(1), m.group(2)
    return prefix, quote, token[len(prefix) + len(quote):-len(quote)]


def _field(m: re.Match[str], names: dict[str, str], used: set[str]) -> str:
    """A clause id in a text, as the f-string field of its constant."""
    used.add(names[m.group(1)])
    return "{" + names[m.group(1)] + "}"


def _rewrite_fstring_body(body: str, names: dict[str, str], used: set[str]) -> str:
    """Clause ids in an f-string's text become fields; quoted ids in its fields become constants."""
    words, quoted = _id_pattern(names), _quoted_pattern(names)

    def field(m: re.Match[str]) -> str:
        return _field(m, names, used)

    def constant(m: re.Match[str]) -> str:
        used.add(names[m.group(2)])
        return names[m.group(2)]

    out: list[str] = []
    literal: list[str] = []
    i = 0
    while i < len(body):
        if body.startswith("{{", i) or body.startswith("}}", i):
            literal.append(body[i:i + 2])
            i += 2
        elif body[i] == "{":
            out.append(words.sub(field, "".join(literal)))
            literal.clear()
            start, depth = i, 0
            while i < len(body):
                depth += {"{": 1, "}": -1}.get(body[i], 0)
                i += 1
                if depth == 0:
                    break
            out.append(quoted.sub(constant, body[start:i]))
        else:
            literal.append(body[i])
            i += 1
    out.append(words.sub(field, "".join(literal)))
    return "".join(out)


def _string_edits(src: str, text: _Text, tree: ast.AST, names: dict[str, str], pattern: re.Pattern[str],
                  used: set[str]) -> list[tuple[int, int, str]]:
    docstrings = _docstring_starts(tree)
    edits = []
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        if tok.type != tokenize.STRING or tok.start in docstrings:
            continue
        prefix, quote, body = _split_prefix(tok.string)
        lower = prefix.lower()
        if "b" in lower:
            continue
        start, end = text.char(*tok.start), text.char(*tok.end)
        if "f" in lower:
            new_body = _rewrite_fstring_body(body, names, used)
            if new_body != body:
                edits.append((start, end, prefix + quote + new_body + quote))
            continue
        try:
            value = ast.literal_eval(tok.string)
        except (ValueError, SyntaxError):
            continue
        if value in names:
            used.add(names[value])
            edits.append((start, end, names[value]))
        elif isinstance(value, str) and pattern.search(body):
            escaped = body.replace("{", "{{").replace("}", "}}")
            new_body = pattern.sub(lambda m: _field(m, names, used), escaped)
            edits.append((start, end, "f" + prefix + quote + new_body + quote))
    return edits


def _slot_constant(node: ast.AST, names: dict[str, str]) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        clause = RETIRED_SLOTS.get(node.value, node.value if node.value in names else None)
        if clause is None:
            raise SystemExit(f"line {node.lineno}: unknown slot {node.value!r}: add it to RETIRED_SLOTS")
        return names[clause]
    return None


def _slot_expression(node: ast.AST, src: str, text: _Text, names: dict[str, str], used: set[str]) -> str:
    """The source of ``node`` with each slot name in it replaced by its clause's constant."""
    lo, hi = text.node(node)
    inner = []
    for sub in ast.walk(node):
        name = _slot_constant(sub, names)
        if name:
            used.add(name)
            inner.append((*text.node(sub), name))
    piece = src[lo:hi]
    for a, b, name in sorted(inner, reverse=True):
        piece = piece[:a - lo] + name + piece[b - lo:]
    return piece if isinstance(node, ast.Constant) else f"({piece})"


def _retired_edits(src: str, text: _Text, tree: ast.Module, names: dict[str, str],
                   used: set[str]) -> list[tuple[int, int, str]]:
    # definitions of the retired helpers go (with the comment lines right above them)
    removed = []
    for node in tree.body:
        retired: bool
        if isinstance(node, ast.FunctionDef):
            retired = node.name in RETIRED_NAMES
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            retired = any(isinstance(t, ast.Name) and t.id in RETIRED_NAMES for t in targets)
        else:
            retired = False
        if not retired:
            continue
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        while first > 1 and text.lines[first - 2].lstrip().startswith("#"):
            first -= 1
        while first > 1 and not text.lines[first - 2].strip():
            first -= 1  # the blank lines above it too: those below it stay
        removed.append((text.starts[first - 1], text.starts[_end(node)]))
    edits = []
    for sub in ast.walk(tree):
        arg: ast.expr
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id in RETIRED_CALLS:
            if len(sub.args) != 2:
                raise SystemExit(f"line {sub.lineno}: {sub.func.id} with {len(sub.args)} arguments")
            span, arg = text.node(sub), sub.args[1]
        elif isinstance(sub, ast.Subscript) and isinstance(sub.value, ast.Name) and sub.value.id in RETIRED_MAPS:
            span, arg = text.node(sub), sub.slice
        else:
            continue
        if not any(a <= span[0] and span[1] <= b for a, b in removed):
            edits.append((*span, _slot_expression(arg, src, text, names, used)))
    return edits + [(a, b, "") for a, b in removed]


def _end(node: ast.stmt) -> int:
    return node.end_lineno or node.lineno


def _import_text(names: list[str], module: str, width: int = 110) -> str:
    head = f"from {module} import "
    if len(head) + len(", ".join(names)) <= width:
        return head + ", ".join(names) + "\n"
    indent = " " * (len(head) + 1)
    lines, line = [], head + "("
    for i, name in enumerate(names):
        piece = name + ("," if i < len(names) - 1 else ")")
        if line.endswith("(") or len(line) + 1 + len(piece) <= width:
            line += ("" if line.endswith("(") else " ") + piece
        else:
            lines.append(line)
            line = indent + piece
    return "\n".join(lines + [line]) + "\n"


def _module_of(path: Path) -> tuple[str, str]:
    """How ``path`` imports clause_ids and the registry's module (relative inside ``rules``)."""
    return (".clause_ids", ".") if path.parent.name == "rules" else ("kalooki_referee.rules.clause_ids", "kalooki_referee.rules.")


def _fix_imports(src: str, path: Path, constants_by_name: set[str]) -> str:
    """Import exactly the constants the file uses; drop imports of the retired names."""
    module, prefix = _module_of(path)
    tree = ast.parse(src)
    text = _Text(src)
    used = sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id in constants_by_name})
    edits = []
    existing = None
    imports = []
    for node in tree.body:
        if not isinstance(node, ast.ImportFrom):
            continue
        mod = "." * node.level + (node.module or "")
        imports.append((mod, node))
        if mod == module:
            existing = node
            continue
        retired = [a for a in node.names if a.name in RETIRED_NAMES]
        if retired:
            kept = [a.name + (f" as {a.asname}" if a.asname else "") for a in node.names if a not in retired]
            span = (text.starts[node.lineno - 1], text.starts[_end(node)])
            edits.append((*span, _import_text(kept, mod) if kept else ""))
    new_import = _import_text(used, module) if used else ""
    if existing is not None:
        edits.append((text.starts[existing.lineno - 1], text.starts[_end(existing)], new_import))
    elif used:
        ours = [(m, n) for m, n in imports if m.startswith(prefix)]
        after = [n for m, n in ours if m > module]
        if after:
            at = text.starts[after[0].lineno - 1]
        elif ours:
            at = text.starts[_end(ours[-1][1])]
        elif imports:
            at = text.starts[_end(imports[-1][1])]
        else:
            raise SystemExit(f"{path}: no import block to add the clause constants to")
        edits.append((at, at, new_import))
    return _apply(src, edits)


def _apply(src: str, edits: list[tuple[int, int, str]]) -> str:
    for start, end, new in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        src = src[:start] + new + src[end:]
    return src


def rewrite_source(src: str, path: Path, names: dict[str, str] | None = None) -> str:
    names = names or constants()
    pattern = _id_pattern(names)
    tree = ast.parse(src)
    text = _Text(src)
    used: set[str] = set()
    retired = _retired_edits(src, text, tree, names, used)
    strings = _string_edits(src, text, tree, names, pattern, used)
    # a string inside a retired call was replaced with the call
    inside = [(a, b) for a, b, _ in retired]
    strings = [e for e in strings if not any(a <= e[0] and e[1] <= b for a, b in inside)]
    new = _apply(src, retired + strings)
    new = _fix_imports(new, path, set(names.values()))
    ast.parse(new)  # still Python
    return new


def code_files(files: list[Path] | None = None) -> list[Path]:
    if files:
        return [f.resolve() for f in files]
    return sorted(p for g in CODE_GLOBS for p in ROOT.glob(g) if p.name not in SKIP)


def leftovers(path: Path, names: dict[str, str] | None = None) -> list[str]:
    """What ``--rewrite`` would still change in ``path``: clause-id literals outside docstrings and
    comments, and the retired slot names."""
    return leftovers_in(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)), names)


def leftovers_in(src: str, label: str, names: dict[str, str] | None = None) -> list[str]:
    names = names or constants()
    pattern = _id_pattern(names)
    tree = ast.parse(src)
    docstrings = _docstring_starts(tree)
    found = []
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        if tok.type == tokenize.STRING and tok.start not in docstrings:
            prefix, quote, body = _split_prefix(tok.string)
            if "f" in prefix.lower():
                # ids in an f-string's text, or quoted in its fields
                body = re.sub(r"\{[A-Z0-9_]+\}", "", body)
            for m in pattern.finditer(body):
                found.append(f"{label}:{tok.start[0]}: clause id {m.group(1)!r} in a string")
        elif tok.type == tokenize.NAME and tok.string in RETIRED_NAMES:
            found.append(f"{label}:{tok.start[0]}: retired name {tok.string}")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--generate", action="store_true", help="write rules/clause_ids.py")
    group.add_argument("--check", action="store_true", help="fail if rules/clause_ids.py is out of date")
    group.add_argument("--rewrite", action="store_true", help="replace clause-id literals by constants")
    group.add_argument("--lint", action="store_true", help="list clause-id literals left in code")
    parser.add_argument("files", nargs="*", type=Path)
    args = parser.parse_args(argv)
    if args.generate:
        TARGET.write_text(generate(), encoding="utf-8")
        print(f"wrote {TARGET.relative_to(ROOT)} ({len(constants())} clauses)")
        return 0
    if args.check:
        if not TARGET.exists() or TARGET.read_text(encoding="utf-8") != generate():
            print(f"{TARGET.relative_to(ROOT)} is out of date: run python -m tools.clause_tools --generate")
            return 1
        return 0
    names = constants()
    if args.rewrite:
        for path in code_files(args.files):
            src = path.read_text(encoding="utf-8")
            new = rewrite_source(src, path, names)
            if new != src:
                path.write_text(new, encoding="utf-8")
                print(f"rewrote {path.relative_to(ROOT)}")
        args.lint = True
    found = [line for path in code_files(args.files) for line in leftovers(path, names)]
    print(*found, sep="\n") if found else None
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
