"""Compile the hand-written vector sources (``vectors/src/<variant>/<topic>.yaml``) into the vector
files of the suite (``vectors/<variant>/<topic>.json``).

A source vector may describe its state compactly with ``setup``: the builder completes it into a
full, conserved state by putting every card of the variant's pack that the setup does not place
into the stock (after any ``stock_top`` cards, in the pack's documented order), or into the discard
pile (below the given discards) with ``fill: discard``.  With ``fill: unseen`` it describes a
position with unseen cards (a real table): the players' ``hidden`` counts are kept and the stock
holds, beneath any ``stock_top`` cards, as many unseen cards (``stock_hidden``) as the pack has
cards the setup neither lists nor counts.  The expected verdicts are written by hand;
the builder adds only, beside each violated clause a vector expects, the rulings the variant file
links to that clause (its decisions' ``clauses``, ``Variant.rulings``): they are part of the
variant's rules, written once there.  ``python -m kalooki_referee.vectors.build`` rewrites the JSON files;
``--check`` fails if any is out of date.
"""
from __future__ import annotations

from typing import Any

import argparse
import copy
import functools
import json
import sys
from collections import Counter
from pathlib import Path

import yaml

from kalooki_referee.rules.cards import canonical, pack_order, parse_card
from kalooki_referee.rules.errors import RefereeInputError
from kalooki_referee.rules.melds import parse_token
from kalooki_referee.rules.wire.variant import load_variant

from .suite import CLAUSE_POINTERS, hand_states, with_stock_rest

ROOT = Path(__file__).resolve().parent
SRC = ROOT / "src"
SUITE = "kalooki-referee-vectors"
SUITE_VERSION = (ROOT / "VERSION").read_text().strip() if (ROOT / "VERSION").exists() else "0.0.0"

SETUP_KEYS = {"players", "dealer", "to_act", "phase", "first_play", "discard", "stock_top", "stock", "fill", "stock_hidden",
              "allow_extra", "melds", "turn", "announcement", "reshuffles", "seed", "result", "dealer_option", "first_round",
              "hand_number", "calls", "stock_owed"}


class BuildError(Exception):
    pass


def _codes_used(setup: dict[str, Any]) -> Counter[str]:
    used: Counter[str] = Counter()
    for p in setup.get("players", []):
        used.update(parse_card(c).code for c in p.get("hand", []))
    for key in ("discard", "stock_top"):
        used.update(parse_card(c).code for c in setup.get(key, []))
    if isinstance(setup.get("stock"), list):
        used.update(parse_card(c).code for c in setup["stock"])
    for m in setup.get("melds", []):
        used.update(parse_token(c).card.code for c in m["cards"])
    used["JK"] += (setup.get("turn") or {}).get("pending_jokers", 0)
    return +used


def expand_setup(setup: dict[str, Any], variant_id: str, rules: dict[str, Any] | None, where: str) -> dict[str, Any]:
    unknown = set(setup) - SETUP_KEYS
    if unknown:
        raise BuildError(f"{where}: unknown setup keys {sorted(unknown)}")
    variant = load_variant(variant_id, rules)
    table_pack = variant.rules.pack_for(len(setup.get("players", ())))
    pack = pack_order(table_pack.decks, table_pack.jokers)
    remaining = Counter(c.code for c in pack) - Counter()
    used = _codes_used(setup)
    over = used - Counter(c.code for c in pack)
    if over and not setup.get("allow_extra"):
        raise BuildError(f"{where}: the setup uses more cards than the pack has: {dict(over)}")
    remaining = Counter(c.code for c in pack)
    remaining.subtract(used)
    rest = []
    for card in pack:
        if remaining[card.code] > 0:
            rest.append(card.code)
            remaining[card.code] -= 1
    state = {k: v for k, v in setup.items() if k not in ("stock_top", "fill", "allow_extra")}
    state["players"] = [{**p, "hand": [c.code for c in canonical(parse_card(x) for x in p["hand"])]}
                        for p in setup["players"]]
    fill = setup.get("fill", "stock")
    if isinstance(setup.get("stock"), list):
        if fill == "stock":
            raise BuildError(f"{where}: an explicit stock needs fill: discard (or none)")
        state["stock"] = list(setup["stock"])
    else:
        state["stock"] = list(setup.get("stock_top", []))
    state.setdefault("discard", [])
    if fill == "stock":
        state["stock"] += rest
    elif fill == "discard":
        state["discard"] = list(state["discard"]) + rest
    elif fill == "unseen":
        counted = sum(p.get("hidden", 0) for p in setup["players"])
        if counted > len(rest):
            raise BuildError(f"{where}: the hidden counts exceed the cards the setup does not list")
        if len(rest) > counted:
            state["stock_hidden"] = len(rest) - counted
    elif fill != "none":
        raise BuildError(f"{where}: fill is stock, discard, unseen or none")
    state.setdefault("melds", [])
    return state


GAME_DEFAULTS: dict[str, Any] = {"hands_played": 0, "last_hand": None, "last_winner": None, "buy_in_queue": [],
                 "buy_in_score": None, "winner": None, "sheet": []}


def expand_game(setup: dict[str, Any], variant_id: str, rules: dict[str, Any] | None, where: str) -> dict[str, Any]:
    """A game: ``players`` may give only ids and scores; everyone has paid the initial stake unless
    ``paid_to_pool`` says otherwise, and the pool is what was paid in unless given; ``hand`` is a
    hand ``setup`` (its players' scores are taken from the game, unless a hand player gives its own:
    a penalty told during the hand stands on the hand's score until the hand is settled)."""
    variant = load_variant(variant_id, rules)
    stakes = setup.get("stakes")  # a preset name, the four stakes, or the variant's own stakes
    presets = variant.rules.stake_presets
    stake_values = (dict(load_variant(variant_id).rules.stakes.as_pairs()) if stakes is None  # as agreed, not a request's override
                    else dict(presets[stakes].as_pairs()) if isinstance(stakes, str) else dict(stakes))
    players = []
    for p in setup["players"]:
        players.append({"id": p["id"], "score": p.get("score", 0), "payments": p.get("payments", 0),
                        "paid_to_pool": p.get("paid_to_pool", stake_values["initial"] + stake_values["buy_in"] * p.get("buy_ins", 0)),
                        "buy_ins": p.get("buy_ins", 0), "out": p.get("out", False)})
    game = {**GAME_DEFAULTS, **{k: v for k, v in setup.items() if k not in ("players", "hand")}}
    game["players"] = players
    game["stakes"] = stake_values
    game.setdefault("pool", sum(p["paid_to_pool"] for p in players))
    game["hand"] = None
    if setup.get("hand") is not None:
        hand = dict(setup["hand"])
        scores = {p["id"]: p["score"] for p in players}
        hand["players"] = [{**hp, "score": hp.get("score", scores.get(hp["id"], 0))} for hp in hand["players"]]
        game["hand"] = expand_setup(hand, variant_id, {**(rules or {}), "stakes": stake_values}, where)
    return game


def _canonical_expected(expected: dict[str, Any]) -> dict[str, Any]:
    out = dict(expected)
    if "state" in out:
        fixed = {}
        for ptr, value in out["state"].items():
            if ptr.endswith("/hand") and isinstance(value, list):
                value = [c.code for c in canonical(parse_card(x) for x in value)]
            fixed[ptr] = value
        out["state"] = fixed
    return out


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml where PyYAML has it


# Where an answer names a violated clause, by endpoint: the pointer of its clause in `response`, or
# (adjudicate) the verdict's `violations`; the rulings sit beside the clause.


def _with_rulings(expected: dict[str, Any], variant_id: str, rules: dict[str, Any] | None) -> dict[str, Any]:
    """``expected`` with the rulings each violated clause it names rests on under the variant."""
    if expected.get("status", 200) != 200:
        return expected
    variant = load_variant(variant_id, rules)
    response = dict(expected.get("response", {}))
    for i, clause in enumerate(expected.get("violations", [])):
        response.setdefault(f"/violations/{i}/rulings", list(variant.rulings(clause)))
    for ptr in CLAUSE_POINTERS:
        if ptr in response:
            response.setdefault(ptr.rsplit("/", 1)[0] + "/rulings", list(variant.rulings(response[ptr])))
    return {**expected, "response": response} if response else expected


def _source(path: Path) -> dict[str, Any]:
    """A source file, parsed once per build (inherited topics read their parent's files again and
    again), as a fresh copy the caller may change."""
    return copy.deepcopy(_parsed(path, path.stat().st_mtime_ns))


@functools.lru_cache(maxsize=512)
def _parsed(path: Path, mtime: int) -> dict[str, Any]:
    parsed: dict[str, Any] = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)  # noqa: S506 (a safe loader)
    return parsed


# -- the grouped files -------------------------------------------------------------------------

# The part of a request a group gives once for all its tests (a position, a game, a replay's start, a tournament);
# each test gives the rest (an action, a cap, a log, a score sheet's hands...).
CONTEXT_KEYS = ("state", "game", "start", "tournament")
# Endpoints whose vectors an inheriting variant does not run, with the reason (see _manifest).
NOT_INHERITED = {
    "legal-actions": "a listing holds every legal action, so any parameter the variant changes can change it, "
                     "whatever clauses the vector cites",
    "replay": "a replay's hashes cover the whole position, which an inheriting variant with another pack changes",
    "views": "a view's counts and its commitment cover the whole position, which an inheriting variant with another pack changes",
    "notation": "a notation names its variant and lists the whole position, which an inheriting variant with another pack changes",
}


def _request(src: dict[str, Any], variant_id: str, where: str) -> tuple[dict[str, Any], str]:
    """A source vector's request body, complete, and the pile that holds the cards its setup did
    not place (``stock`` unless the setup filled the discard pile)."""
    vid = src.get("variant", variant_id)
    rules = src.get("rules")
    endpoint = src.get("endpoint", "adjudicate")
    request: dict[str, Any] = {"variant": vid}
    if rules:
        request["rules"] = rules
    fill = "stock"
    position = None
    if "game_setup" in src:
        position = {"game": expand_game(src["game_setup"], vid, rules, where)}
        fill = (src["game_setup"].get("hand") or {}).get("fill", "stock")
    elif "setup" in src:
        position = {"state": expand_setup(src["setup"], vid, rules, where)}
        fill = src["setup"].get("fill", "stock")
    if position is not None:  # a replay starts from it; every other endpoint reads it at the top
        request.update({"start": position} if endpoint == "replay" else position)
    request.update(src.get("request", {}))
    if "action" in src:
        request["action"] = src["action"]
    return request, fill


def _group_and_test(src: dict[str, Any], variant_id: str, where: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The group context a source vector belongs to, and the test it becomes under that group."""
    request, fill = _request(src, variant_id, where)
    ctx: dict[str, Any] = {"endpoint": src.get("endpoint", "adjudicate"), "variant": request.pop("variant")}
    if "rules" in request and not src.get("composed"):   # (a composed test keeps its rules: its position is
        ctx["rules"] = request.pop("rules")               # its siblings', and the group is written once)
    if src.get("decision"):
        ctx["decision"] = src["decision"]
    ctx["source"] = src["source"]
    if src.get("notes"):
        ctx["notes"] = " ".join(src["notes"].split())
    if fill == "discard":
        ctx["fill"] = "discard"
    shared = {k: request.pop(k) for k in CONTEXT_KEYS if k in request}
    if shared:
        ctx["request"] = shared
    test = {"id": src["id"], "description": " ".join(src["description"].split()), "clauses": src["clauses"]}
    if src.get("composed"):   # a puzzle play cannot reach, and why (sent with positions.counted false)
        test["composed"] = " ".join(src["composed"].split())
    if request:
        test["request"] = request
    test["expected"] = _with_rulings(_canonical_expected(src["expected"]), ctx["variant"],
                                     ctx.get("rules", request.get("rules")))
    return ctx, test


def _header(data: dict[str, Any]) -> dict[str, Any]:
    out = {"$schema": "../vector-file.schema.json", "suite": SUITE, "suite_version": SUITE_VERSION,
           "variant": data["variant"], "topic": data["topic"]}
    if data.get("description"):
        out["description"] = " ".join(data["description"].split())
    return out


def _pack(variant_id: str) -> list[str]:
    r = load_variant(variant_id).rules
    return [c.code for c in pack_order(r.pack.decks, r.pack.jokers)]


def _manifest(data: dict[str, Any]) -> dict[str, Any]:
    """An inheriting variant's manifest: which parent files it runs, which of their vectors it
    leaves out and why, and the cards its pack has beyond the parent's (the runner adds them to
    each inherited position).  A parent vector is left out when it is named, when it cites or
    expects a clause the variant's file does not list, or when its endpoint is not inherited."""
    spec = data["inherit"]
    variant_id, parent = data["variant"], spec["from"]
    own = set(load_variant(variant_id).clauses)
    files, ids, cited, answered = [], set(), set(), set()
    for path in sorted((SRC / parent).glob("*.yaml")):
        doc = _source(path)
        if "inherit" in doc:
            continue
        files.append(path.stem + ".json")
        for src in doc["vectors"]:
            ids.add(src["id"])
            if src.get("endpoint", "adjudicate") not in NOT_INHERITED:
                expected = src.get("expected", {})
                cited |= set(src["clauses"]) | set(expected.get("violations", []))
                answered |= set(expected.get("violations", []))
                answered |= {expected.get("response", {}).get(p) for p in CLAUSE_POINTERS} - {None}
    unknown = {e["id"] for e in spec.get("exclude", [])} - ids
    if unknown:
        raise BuildError(f"{variant_id}: exclusions name no vector: {sorted(unknown)}")
    extra = Counter(_pack(variant_id)) - Counter(_pack(parent))
    if Counter(_pack(parent)) - Counter(_pack(variant_id)):
        raise BuildError(f"{variant_id}: its pack lacks cards of {parent}'s; inheritance cannot adapt the positions")
    extra_cards = []
    for code in _pack(variant_id):
        if extra[code] > 0:
            extra_cards.append(code)
            extra[code] -= 1
    inherits: dict[str, Any] = {"from": parent, "files": files,
                      "exclude_endpoints": [{"endpoint": e, "reason": r} for e, r in sorted(NOT_INHERITED.items())],
                      "exclude_clauses": [{"clause": c, "reason": f"not a clause of {variant_id} (its variant file does not list it)"}
                                          for c in sorted(cited - own)],
                      "exclude": [{"id": e["id"], "reason": " ".join(e["reason"].split())} for e in spec.get("exclude", [])]}
    if extra_cards:
        inherits["extra_cards"] = extra_cards
    if spec.get("composed"):   # the parent's positions add up to its own deal, not this variant's
        inherits["composed"] = " ".join(spec["composed"].split())
    # the rulings a verdict citing each clause rests on under this variant (they replace the parent's)
    variant = load_variant(variant_id)
    inherits["rulings"] = {c: list(variant.rulings(c)) for c in sorted(answered & own)}
    return {**_header(data), "inherits": inherits}


def build_file(path: Path) -> dict[str, Any]:
    data = _source(path)
    if "inherit" in data:
        return _manifest(data)
    groups: dict[str, dict[str, Any]] = {}
    for i, src in enumerate(data["vectors"]):
        ctx, test = _group_and_test(src, data["variant"], f"{path.name}#{i} ({src.get('id')})")
        key = json.dumps(ctx, sort_keys=True)
        groups.setdefault(key, {**ctx, "tests": []})["tests"].append(test)
    return {**_header(data), **_file_defaults(data["variant"], [_rest_left_out(_composed_group(g)) for g in groups.values()])}


def _rest_left_out(group: dict[str, Any]) -> dict[str, Any]:
    """A group whose position's stock ends with every card of the pack the position holds nowhere else,
    in the pack's order: those cards left out and the group marked ``rest: "stock"`` (the reader puts
    them back, ``suite.pack_rest``).  Only where putting them back gives the position as it was."""
    request = group.get("request")
    if not request or group.get("fill") == "discard":
        return group
    positions = [*hand_states(request), *hand_states(request.get("start") or {})]
    if len(positions) != 1 or not isinstance(positions[0].get("stock"), list) or "stock_hidden" in positions[0]:
        return group
    stock = positions[0]["stock"]
    for keep in range(len(stock) + 1):
        short = copy.deepcopy(request)
        [*hand_states(short), *hand_states(short.get("start") or {})][0]["stock"] = stock[:keep]
        try:
            back = with_stock_rest(short, group["variant"], group.get("rules"))
        except RefereeInputError:   # rules the service refuses: the position stays as it is
            return group
        if back == request:
            if keep == len(stock):
                return group
            out = {k: v for k, v in group.items() if k not in ("request", "tests")}
            return {**out, "rest": "stock", "request": short, "tests": group["tests"]}
    return group


def _composed_group(group: dict[str, Any]) -> dict[str, Any]:
    """A group whose every test is composed for the same reason and sends the same rules: the reason
    (``composed``) and the rules said once, by the group."""
    tests = group["tests"]
    marks = {(t.get("composed"), _compact(t.get("request", {}).get("rules"))) for t in tests}
    if len(marks) != 1 or not tests[0].get("composed") or "rules" in group:
        return group
    rules = tests[0]["request"]["rules"]
    out = {k: v for k, v in group.items() if k != "tests"}
    out = {**{k: out.pop(k) for k in ("endpoint", "variant") if k in out}, "rules": rules,
           "composed": tests[0]["composed"], **out, "tests": []}
    for test in tests:
        test = {k: v for k, v in test.items() if k != "composed"}
        request = {k: v for k, v in test["request"].items() if k != "rules"}
        test = {k: v for k, v in test.items() if k != "request"} if not request else {**test, "request": request}
        out["tests"].append({k: test[k] for k in ("id", "description", "clauses", "request", "expected") if k in test})
    return out


def _file_defaults(variant_id: str, groups: list[dict[str, Any]]) -> dict[str, Any]:
    """The groups, with what most of them share said once, in the file's header: the endpoint most of
    them POST to (``endpoint``) and the sources most of them cite (``source``); a group that shares
    them names neither, and a group under the file's variant does not name it."""
    endpoint = Counter(g["endpoint"] for g in groups).most_common(1)[0][0]
    groups = [{k: v for k, v in g.items() if not (k == "endpoint" and v == endpoint or k == "variant" and v == variant_id)}
              for g in groups]
    return {"endpoint": endpoint, **_shared_source(groups)}


def _shared_source(groups: list[dict[str, Any]]) -> dict[str, Any]:
    """The groups, with the sources most of them cite said once, in the file's header (``source``):
    a group that cites those names none of its own."""
    counts = Counter(_compact(g["source"]) for g in groups)
    top, n = counts.most_common(1)[0]
    if n < 2:
        return {"groups": groups}
    return {"source": json.loads(top),
            "groups": [{k: v for k, v in g.items() if not (k == "source" and _compact(v) == top)} for g in groups]}


def _compact(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _render_manifest(doc: dict[str, Any]) -> str:
    """An inheriting variant's manifest in the same spirit: one line for the header, one for each entry
    of ``inherits`` (each exclusion, each clause's rulings on a line of its own)."""
    head = {k: v for k, v in doc.items() if k != "inherits"}
    lines = [_compact(head)[:-1] + ',"inherits":{']
    entries = list(doc["inherits"].items())
    for i, (key, value) in enumerate(entries):
        end = "," if i < len(entries) - 1 else ""
        if isinstance(value, list) and value and isinstance(value[0], dict):
            items = [_compact(item) for item in value]
        elif isinstance(value, dict) and value:
            items = [f"{_compact(k)}:{_compact(v)}" for k, v in value.items()]
        else:
            lines.append(f"{_compact(key)}:{_compact(value)}{end}")
            continue
        opening, closing = ("[", "]") if isinstance(value, list) else ("{", "}")
        lines.append(f"{_compact(key)}:{opening}")
        lines.extend(item + "," for item in items[:-1])
        lines.append(items[-1] + closing + end)
    lines.append("}}")
    return "\n".join(lines) + "\n"


def render(doc: dict[str, Any]) -> str:
    """Compact JSON, one line for a file's header, one for each group's context and one for each
    test, so that a change to one vector changes one line (a manifest: ``_render_manifest``)."""
    if "groups" not in doc:
        return _render_manifest(doc)
    head = {k: v for k, v in doc.items() if k != "groups"}
    lines = [_compact(head)[:-1] + ',"groups":[']
    for gi, group in enumerate(doc["groups"]):
        ctx = {k: v for k, v in group.items() if k != "tests"}
        lines.append(_compact(ctx)[:-1] + (',' if ctx else '') + '"tests":[')
        tests = group["tests"]
        for ti, test in enumerate(tests):
            end = "," if ti < len(tests) - 1 else "]}" + ("," if gi < len(doc["groups"]) - 1 else "")
            lines.append(_compact(test) + end)
    lines.append("]}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if a vector file is out of date")
    parser.add_argument("files", nargs="*", type=Path, help="source files to build (default: all)")
    args = parser.parse_args(argv)
    stale, broken = [], []
    for path in [f.resolve() for f in args.files] or sorted(SRC.glob("*/*.yaml")):
        try:
            doc = build_file(path)
        except (BuildError, RefereeInputError, KeyError, TypeError, ValueError, yaml.YAMLError) as exc:
            broken.append(f"{path.relative_to(ROOT.parent)}: {type(exc).__name__}: {exc}")
            continue
        target = ROOT / path.parent.name / (path.stem + ".json")
        text = render(doc)
        if args.check:
            if not target.exists() or target.read_text(encoding="utf-8") != text:
                stale.append(str(target.relative_to(ROOT.parent)))
        else:
            target.parent.mkdir(exist_ok=True)
            target.write_text(text, encoding="utf-8")
    if not args.files:  # a built file whose source is gone would still be run: it must go too
        sources = {(f.parent.name, f.stem) for f in SRC.glob("*/*.yaml")}
        orphans = [str(f.relative_to(ROOT.parent)) for f in sorted(ROOT.glob("*/*.json"))
                   if f.parent.name != "src" and (f.parent.name, f.stem) not in sources]
        if orphans:
            broken += [f"{o}: no source (vectors/src/<variant>/<topic>.yaml); delete it" for o in orphans]
    if broken:
        print("cannot build:", *broken, sep="\n  ")
    if stale:
        print("out of date (run python -m kalooki_referee.vectors.build):", *stale, sep="\n  ")
    return 1 if broken or stale else 0


if __name__ == "__main__":
    sys.exit(main())
