"""A simple, deterministic Kalookie player that speaks only the wire format.

It knows nothing of the engine: it reads a state as JSON and proposes actions as JSON, and the
tests send them to the service and check every verdict.  Its play is greedy: draw from the stock,
open with the most valuable combination of melds once it reaches the opening minimum, then lay
new melds and build single cards onto the table, discard its costliest card, and announce when one
to three cards are left.  Jokers go into sets (two naturals and a joker) or inside runs, where
their reading is unique.
"""
from __future__ import annotations

from itertools import combinations

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
ORDER = {r: i + 2 for i, r in enumerate(RANKS)}  # ace high only (the British game)


def rank(code: str) -> str:
    return code[:-1]


def suit(code: str) -> str:
    return code[-1]


def meld_value(code: str) -> int:
    """A card's value in a meld; a joker token ``JK(=7H)`` or ``JK(=7)`` counts as that card."""
    if code.startswith("JK(="):
        inner = code[4:-1]
        code = inner + "S" if inner in RANKS else inner  # a set joker names only a rank
    r = rank(code)
    return 11 if r == "A" else 10 if r in ("K", "Q", "J", "10") else int(r)


def hand_value(code: str) -> int:
    """The penalty a card left in hand costs (joker 15)."""
    return 15 if code == "JK" else meld_value(code)


def _take(pool: list[str], cards: list[str]) -> list[str] | None:
    rest = list(pool)
    for c in cards:
        c = "JK" if c.startswith("JK") else c
        if c not in rest:
            return None
        rest.remove(c)
    return rest


def candidate_melds(hand: list[str]) -> list[list[str]]:
    naturals = [c for c in hand if c != "JK"]
    jokers = hand.count("JK")
    found: list[list[str]] = []
    by_rank: dict[str, list[str]] = {}
    for c in sorted(set(naturals)):
        by_rank.setdefault(rank(c), []).append(c)
    for r, cards in by_rank.items():
        if len(cards) >= 3:
            for k in (4, 3):
                found.extend(list(combo) for combo in combinations(cards, k) if k <= len(cards))
        if len(cards) >= 2 and jokers:
            found.append([cards[0], cards[1], f"JK(={r})"])
    for s in "SHDC":
        ranks = sorted({ORDER[rank(c)] for c in naturals if suit(c) == s})
        name = {v: k for k, v in ORDER.items()}
        for lo in ranks:
            run = [lo]
            while run[-1] + 1 in ranks:
                run.append(run[-1] + 1)
                if len(run) >= 3:
                    found.append([name[v] + s for v in run])
            if jokers and run[-1] + 2 in ranks:  # one interior joker bridging a gap
                hi = [run[-1] + 2]
                while hi[-1] + 1 in ranks:
                    hi.append(hi[-1] + 1)
                gap = name[run[-1] + 1] + s
                cards = [name[v] + s for v in run] + [f"JK(={gap})"] + [name[v] + s for v in hi]
                if len(cards) >= 3:
                    found.append(cards)
    return found


def best_combination(hand: list[str], keep: int = 1) -> tuple[int, list[list[str]]]:
    """The most valuable set of disjoint candidate melds leaving at least ``keep`` cards."""
    cands = candidate_melds(hand)
    best: tuple[int, list[list[str]]] = (0, [])

    def search(i: int, pool: list[str], chosen: list[list[str]], value: int) -> None:
        nonlocal best
        if value > best[0] and len(pool) >= keep:
            best = (value, list(chosen))
        for j in range(i, len(cands)):
            rest = _take(pool, cands[j])
            if rest is not None and len(rest) >= keep:
                chosen.append(cands[j])
                search(j + 1, rest, chosen, value + sum(meld_value(c) for c in cands[j]))
                chosen.pop()

    search(0, list(hand), [], 0)
    return best


def _build_for(meld: dict, card: str) -> dict | None:
    cards = meld["cards"]
    if card == "JK":
        return None
    if meld["kind"] == "set":
        r = rank(cards[0]) if not cards[0].startswith("JK") else cards[0][4:-1]
        suits = {suit(c) for c in cards if not c.startswith("JK")}
        if len(cards) < 4 and rank(card) == r and suit(card) not in suits:
            return {"type": "build", "meld": meld["id"], "cards": [card]}
        return None
    first, last = cards[0], cards[-1]
    first = first[4:-1] if first.startswith("JK") else first
    last = last[4:-1] if last.startswith("JK") else last
    if suit(card) != suit(first):
        return None
    if ORDER[rank(card)] == ORDER[rank(first)] - 1:
        return {"type": "build", "meld": meld["id"], "cards": [card], "end": "low"}
    if ORDER[rank(card)] == ORDER[rank(last)] + 1:
        return {"type": "build", "meld": meld["id"], "cards": [card], "end": "high"}
    return None


def me(state: dict) -> dict:
    return next(p for p in state["players"] if p["id"] == state["to_act"])


def play_phase_action(state: dict, minimum: int, built: set) -> dict | None:
    """The next meld or build the bot makes in the play phase, or None when it is ready to discard."""
    player = me(state)
    hand = player["hand"]
    value, melds = best_combination(hand)
    if melds and (player["opened"] or value >= minimum):
        return {"type": "meld", "melds": [{"cards": m} for m in melds]}
    if player["opened"] and len(hand) > 1:
        for meld in state["melds"]:
            for card in hand:
                build = _build_for(meld, card)
                if build and (meld["id"], build.get("end")) not in built:
                    built.add((meld["id"], build.get("end")))
                    return build
    return None


def discard_choice(state: dict) -> dict:
    hand = me(state)["hand"]
    naturals = [c for c in hand if c != "JK"] or hand
    return {"type": "discard", "card": max(naturals, key=lambda c: (hand_value(c), c))}


def listed_choice(actions: list[dict], hand: list[str]) -> dict:
    """A play phase action chosen from a listing of the legal actions (``POST /v1/legal-actions``),
    for games whose openings the bot does not construct itself (a contract): the first meld, else
    the first build, else the discard of the costliest card that may be discarded."""
    for kind in ("meld", "build"):
        chosen = [a for a in actions if a["type"] == kind]
        if chosen:
            return chosen[0]
    discards = [a for a in actions if a["type"] == "discard"]
    return max(discards, key=lambda a: (hand_value(a["card"]), a["card"]))
