"""Listing the legal actions of the player to act.

Candidates are generated from the hand and the table in a canonical form, then each is put to the
engine (``adjudicate``), so that every listed action is one the referee accepts: the listing and
the adjudication can never disagree.  The generation is bounded:

* single melds are canonical (a set's naturals in suit order and its jokers as ``JK(=R)``; a run as
  a window of ranks with jokers declared as the exact cards they fill), each multiset once;
* an opening (a player who has not opened) is a combination of disjoint single melds, taken in the
  canonical order of the melds (a combination, never an ordering), and a combination is not
  extended once it reaches the minimum: further melds can be laid by separate actions once open;
* the number of candidates put to the engine is capped; ``truncated`` says when the cap cut the
  list.
"""
from __future__ import annotations

import json
from collections import Counter
from itertools import combinations
from typing import Any

from .actions import action_from_dict
from .cards import JOKER, RANK_CODES, SUITS, Card, rank_code
from .engine import adjudicate
from .melds import Meld, run_lines, extend_run, extend_set, tokens_of
from .state import State
from .variant import Variant

DEFAULT_CAP = 400
MAX_OPENINGS_EXPLORED = 20000
BASIC = ("announce", "pass", "draw", "discard")
TYPE_ORDER = {"announce": 0, "pass": 1, "draw": 1, "meld": 2, "build": 3, "swap_joker": 4, "discard": 5}


def _code(rank: int, suit: str) -> str:
    return rank_code(rank) + suit


def _rank_value(rank: int, variant: Variant) -> int:
    if rank == 1:
        return variant.rules.values.low_ace_in_meld
    if rank == 14:
        return variant.rules.values.ace
    return variant.rules.values.picture if rank >= 10 else rank


def single_melds(hand: tuple[Card, ...], variant: Variant) -> list[tuple[str, tuple[str, ...], int]]:
    """Every canonical single meld the hand can make: (kind, token codes, value in the meld)."""
    worth = {r: _rank_value(r, variant) for r in range(1, 15)}
    jokers = sum(1 for c in hand if c.is_joker)
    naturals = {(c.rank, c.suit) for c in hand if not c.is_joker}
    found: dict[tuple, tuple[str, tuple[str, ...]]] = {}
    set_rules = variant.rules.melds.set
    by_rank: dict[int, list[str]] = {}
    for rank, suit in sorted(naturals, key=lambda x: (x[0], SUITS.index(x[1]))):
        by_rank.setdefault(rank, []).append(suit)
    for rank, suits in by_rank.items():
        for k in range(0, min(jokers, set_rules.max - 1) + 1):
            for m in range(1, len(suits) + 1):
                if not set_rules.min <= m + k <= set_rules.max:
                    continue
                for subset in combinations(suits, m):
                    cards = tuple(_code(rank, s) for s in subset) + (f"JK(={rank_code(rank)})",) * k
                    found[("set",) + cards] = ("set", cards, worth[rank] * (m + k))
    if set_rules.all_jokers:
        for k in range(set_rules.min, min(jokers, set_rules.max) + 1):
            found[("set",) + ("JK",) * k] = ("set", ("JK",) * k, variant.rules.values.joker_set_each * k)
    run_min = variant.rules.melds.run.min
    for suit in SUITS:
        for lo, hi in run_lines(variant):
            for start in range(lo, hi + 1):
                for end in range(start + run_min - 1, hi + 1):
                    cards, missing, present = [], 0, 0
                    for r in range(start, end + 1):
                        real = 14 if r == 1 else r
                        if (real, suit) in naturals:
                            cards.append(_code(real, suit))
                            present += 1
                        else:
                            cards.append(f"JK(={_code(real, suit)})")
                            missing += 1
                    if present and missing <= jokers:
                        value = sum(worth[r] for r in range(start, end + 1))
                        found[("run",) + tuple(cards)] = ("run", tuple(cards), value)
    return [found[k] for k in sorted(found)]


def _needs(cards: tuple[str, ...]) -> Counter:
    return Counter("JK" if c.startswith("JK") else c for c in cards)


def layoff_items(table, hand: tuple[Card, ...], variant: Variant) -> list[tuple]:
    """Where the opening counts lay-offs (``opening.counts_builds``): the cards of the hand that can
    be laid off on each meld on the table, as opening items ``(("build", meld id, end), cards,
    value)``; one item at most is taken per meld and end.  Runs take chains of up to three cards
    (within the variant's limit per end), sets up to their free places."""
    if not variant.rules.opening.counts_builds:
        return []
    worth = {r: _rank_value(r, variant) for r in range(1, 15)}
    jokers = sum(1 for c in hand if c.is_joker)
    naturals = {(c.rank, c.suit) for c in hand if not c.is_joker}
    per_end = min(3, variant.rules.building.max_per_run_end_per_turn or 3)
    out: list[tuple] = []
    for tm in table:
        m = tm.meld
        if m.kind == "set":
            room = variant.rules.melds.set.max - len(m.slots)
            if m.rank == 0 or room < 1:
                continue
            present = {sl.suit for sl in m.slots if not sl.is_joker}
            pool = [_code(m.rank, s) for s in SUITS if s not in present and (m.rank, s) in naturals]
            pool += [f"JK(={rank_code(m.rank)})"] * min(jokers, room)
            for k in range(1, room + 1):
                for combo in sorted(set(combinations(pool, k))):
                    if isinstance(extend_set(m, tokens_of(combo), variant), Meld):
                        out.append((("build", tm.id, ""), combo, worth[m.rank] * k))
            continue
        for end, step in (("low", -1), ("high", 1)):
            chain: list[str] = []
            value, used = 0, 0
            r = m.low - 1 if end == "low" else m.high + 1
            for _ in range(per_end):
                if not 1 <= r <= 14:
                    break
                real = 14 if r == 1 else r
                if (real, m.suit) in naturals:
                    chain.append(_code(real, m.suit))
                elif used < jokers:
                    chain.append(f"JK(={_code(real, m.suit)})")
                    used += 1
                else:
                    break
                value += worth[r]
                cards = tuple(reversed(chain)) if end == "low" else tuple(chain)
                if not isinstance(extend_run(m, tokens_of(cards), end, variant), Meld):
                    break
                out.append((("build", tm.id, end), cards, value))
                r += step
    return out


def _openings(melds: list[tuple], hand: Counter, minimum: int, variant: Variant, limit: int,
              have_meld: bool = False, groups: frozenset = frozenset()) -> tuple[list[list[tuple]], bool]:
    """Combinations of opening items (new melds, and lay-offs where they count) worth ``minimum``,
    leaving a card to discard, with at least one new meld (``have_meld``: one is already chosen)."""
    values = [v for _, _, v in melds]
    needs = [_needs(c) for _, c, _ in melds]
    sizes = [sum(n.values()) for n in needs]
    group = [k if isinstance(k, tuple) else None for k, _, _ in melds]
    out: list[list[tuple]] = []
    explored = 0
    cut = False

    def walk(start: int, left: Counter, held: int, chosen: list[int], total: int, used: frozenset,
             meld_in: bool) -> None:
        nonlocal explored, cut
        for i in range(start, len(melds)):
            if len(out) >= limit or explored >= MAX_OPENINGS_EXPLORED:
                cut = True
                return
            explored += 1
            if held - sizes[i] < 1:
                continue  # a card must be left to discard
            if group[i] is not None and group[i][:2] in used:
                continue  # one lay-off per meld on the table
            if any(left[c] < n for c, n in needs[i].items()):
                continue
            value = total + values[i]
            with_meld = meld_in or group[i] is None
            if value >= minimum and with_meld:
                out.append([melds[j] for j in chosen + [i]])
            else:
                walk(i + 1, left - needs[i], held - sizes[i], chosen + [i], value,
                     used | {group[i][:2]} if group[i] is not None else used, with_meld)

    walk(0, hand, sum(hand.values()), [], 0, groups, have_meld)
    return out, cut


def opening_items(hand: tuple[Card, ...], table, variant: Variant) -> list[tuple]:
    """What an opening can be made of: the hand's single melds, then its lay-offs where they count."""
    return single_melds(hand, variant) + layoff_items(table, hand, variant)


def _openings_with(code: str, items: list, hand: tuple[Card, ...], counts: Counter, minimum: int,
                   variant: Variant, table=(), limit: int = DEFAULT_CAP) -> tuple[list, bool]:
    """Openings one of whose items uses ``code`` (a taken discard that must be part of the opening):
    each item holding it, completed by openings of what the hand has left."""
    out: list = []
    cut = False
    for item in items:
        need = _needs(item[1])
        if code not in need or any(counts[c] < n for c, n in need.items()) or sum((counts - need).values()) < 1:
            continue
        is_meld = not isinstance(item[0], tuple)
        if item[2] >= minimum and is_meld:
            out.append([item])
        else:
            rest = list(hand)
            for c, n in need.items():
                for _ in range(n):
                    rest.remove(next(x for x in rest if x.code == c))
            groups = frozenset() if is_meld else frozenset({item[0][:2]})
            more, more_cut = _openings(opening_items(tuple(rest), table, variant), counts - need,
                                       max(0, minimum - item[2]), variant, 20, is_meld, groups)
            cut = cut or more_cut
            out.extend(sorted(([item] + combo for combo in more), key=repr))
        if len(out) >= limit:
            return out[:limit], True
    return out, cut


def opening_action(combo: list[tuple]) -> dict:
    """The ``meld`` action laying an opening: its new melds, and its lay-offs as ``builds``."""
    action: dict[str, Any] = {"type": "meld", "melds": [{"cards": list(c), "kind": k} for k, c, _ in combo
                                                       if not isinstance(k, tuple)]}
    builds = [{"meld": k[1], "cards": list(c), **({"end": k[2]} if k[2] else {})}
              for k, c, _ in combo if isinstance(k, tuple)]
    if builds:
        action["builds"] = builds
    return action


def _run_ends(meld) -> tuple[tuple[int, str] | None, tuple[int, str] | None]:
    first, last = meld.slots[0], meld.slots[-1]
    return (first.rank - 1, first.suit), (last.rank + 1, last.suit)


def candidates(variant: Variant, state: State) -> tuple[list[dict], bool]:
    """Candidate actions (wire form) for whoever may act now, and whether the opening search was cut."""
    out: list[dict] = []
    cut = False
    if state.phase == "ended":
        return out, cut
    if state.announcement is not None:
        out.append({"type": "announce", "count": state.announcement.count, "player": state.announcement.player})
    player = state.current
    hand = player.hand
    if state.phase == "draw":
        out.append({"type": "draw", "source": "stock"})
        if state.discard:
            out.append({"type": "draw", "source": "discard"})
        if state.dealer_option:
            out.append({"type": "pass"})
        return out, cut
    if state.dealer_option:  # the dealer took the upcard in exchange: only a discard can follow
        return [{"type": "discard", "card": code} for code in sorted({c.code for c in hand})], cut
    pending = state.turn.pending_jokers
    if pending:
        # a released joker waits to be placed: only melds and builds that use it can come next
        hand = hand + (JOKER,) * pending
    counts = Counter(c.code for c in hand)
    melds = single_melds(hand, variant)
    if pending:
        melds = [(k, c, v) for k, c, v in melds if any(x.startswith("JK") for x in c)]
    if player.opened:
        out.extend({"type": "meld", "melds": [{"cards": list(c), "kind": k}]} for k, c, _ in melds)
    else:
        minimum = variant.rules.opening.minimum or 0
        items = melds + layoff_items(state.melds, hand, variant)
        if state.turn.must_use is not None:
            openings, cut = _openings_with(state.turn.must_use.code, items, hand, counts, minimum, variant, state.melds)
        else:
            openings, cut = _openings(items, counts, minimum, variant, DEFAULT_CAP)
        out.extend(opening_action(combo) for combo in openings)
    naturals = sorted({c.code for c in hand if not c.is_joker})
    has_joker = counts["JK"] > 0
    for tm in state.melds:
        meld = tm.meld
        if meld.kind == "set" and meld.rank == 0:  # a set of jokers alone takes only jokers
            if has_joker:
                out.append({"type": "build", "meld": tm.id, "cards": ["JK"]})
            continue
        if meld.kind == "set":
            rank = meld.slots[0].rank
            present = {s.suit for s in meld.slots if not s.is_joker}
            missing = [_code(rank, s) for s in SUITS if s not in present]
            for code in missing:
                if code in counts:
                    out.append({"type": "build", "meld": tm.id, "cards": [code]})
            if has_joker:
                out.append({"type": "build", "meld": tm.id, "cards": [f"JK(={rank_code(rank)})"]})
            if meld.jokers:
                held = [c for c in missing if c in counts]
                for n in (1, 2):
                    for combo in combinations(held, n):
                        out.append({"type": "swap_joker", "meld": tm.id, "naturals": list(combo)})
        else:
            (lo_r, suit), (hi_r, _) = _run_ends(meld)
            for end, step, first in (("low", -1, lo_r), ("high", 1, hi_r)):
                seq: list[str] = []
                r = first
                for _ in range(2):
                    real = 14 if r == 1 else r
                    if not 1 <= r <= 14 or (r == 1 and not any(line[0] == 1 for line in run_lines(variant))):
                        break
                    if real in RANK_CODES and _code(real, suit) in counts:
                        seq.append(_code(real, suit))
                    elif has_joker and real in RANK_CODES:
                        seq.append(f"JK(={_code(real, suit)})")
                    else:
                        break
                    cards = list(reversed(seq)) if end == "low" else list(seq)
                    out.append({"type": "build", "meld": tm.id, "cards": cards, "end": end})
                    r += step
            for slot in meld.slots:
                if slot.is_joker and _code(slot.rank if slot.rank != 1 else 14, slot.suit) in counts:
                    out.append({"type": "swap_joker", "meld": tm.id,
                                "naturals": [_code(slot.rank if slot.rank != 1 else 14, slot.suit)]})
    for code in sorted(counts):
        out.append({"type": "discard", "card": code})
    return out, cut


def legal_actions(variant: Variant, state: State, cap: int = DEFAULT_CAP, verify_all: bool = False) -> dict[str, Any]:
    """The legal actions of the player to act (and an owed announcement), in canonical order.

    Every candidate is put to the engine, except that new melds are checked once: they are valid,
    held, worth the minimum and leave a card to discard by construction, so what can still refuse
    them (whose turn it is, the phase, an owed obligation) is the same for all of them.  With a
    released joker to place, or ``verify_all``, each is checked."""
    found, cut = candidates(variant, state)
    unique = {json.dumps(a, sort_keys=True): a for a in found}
    order = sorted(unique, key=lambda k: (TYPE_ORDER[unique[k]["type"]], k))
    # The cap cuts the melds, builds and exchanges, never the few moves that end or pass a turn
    # (draws, discards, an owed announcement, the dealer's pass): a cut list stays playable.
    basic = [k for k in order if unique[k]["type"] in BASIC]
    plays = [k for k in order if unique[k]["type"] not in BASIC]
    room = max(0, cap - len(basic))
    kept = set(plays[:room] + basic[:cap])
    ordered = [unique[k] for k in order if k in kept]
    truncated = cut or len(order) > cap
    legal = []
    melds_ok: bool | None = None
    shortcut = not verify_all and state.turn.pending_jokers == 0 and state.turn.must_use is None
    for action in ordered:
        if action["type"] == "meld" and shortcut and melds_ok is not None and "builds" not in action:
            if melds_ok:
                legal.append(action)
            continue
        ok = adjudicate(variant, state, action_from_dict(action)).legal
        if action["type"] == "meld" and "builds" not in action:
            melds_ok = ok
        if ok:
            legal.append(action)
    return {"player": state.to_act if state.phase != "ended" else None, "phase": state.phase,
            "actions": legal, "truncated": truncated, "cap": cap}
