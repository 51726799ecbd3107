"""Seeded random play with invariants checked after every step.

A player that chooses only among the actions ``legal_actions`` lists plays hand after hand of every
variant present.  After every step:

* the resulting state is possible (``check_state`` under the variant as it stands: every card of the
  pack in exactly one place, and the hands and the table what the deal, the draws and the calls gave
  each seat, the piles the rest: ``/positions/counted``, on by default);
* the same request gives the same bytes (each step is adjudicated twice and serialised);
* the chosen action, taken from the listing, is accepted by ``adjudicate`` (and, on sampled steps,
  every listed action is);
* a random corruption of the chosen action (another player acting, a card the player does not
  hold) is refused with a clause id;
* nothing raises.

    python -m tests.support.random_play --turns 100000          # the long run (all variants)
    python -m tests.support.random_play --turns 2000 --seed 7   # what CI runs, via tests/rules/test_random_play.py
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter

from kalooki_referee.rules import action_from_dict, adjudicate, deal, load_variant, variant_ids
from kalooki_referee.rules.cards import pack
from kalooki_referee.rules.legal import legal_actions
from kalooki_referee.rules.wire.legal import listing_wire
from kalooki_referee.rules.invariants import check_state
from kalooki_referee.rules.wire.verdicts import verdict_wire
from kalooki_referee.rules.wire.state import state_wire


class InvariantBroken(AssertionError):
    pass


def _cards(state) -> Counter:
    seen = Counter(c.code for c in state.stock) + Counter(c.code for c in state.discard)
    for p in state.players:
        seen.update(c.code for c in p.hand)
    for m in state.melds:
        seen.update(s.card.code for s in m.meld.slots)
    seen["JK"] += state.turn.pending_jokers
    return +seen


def _corruptions(state, action: dict, rng: random.Random) -> list[dict]:
    out = []
    others = [p.id for p in state.players if p.id != state.to_act]
    if action["type"] == "call":  # the player to act does not call: a call is made by another seat
        out.append({**action, "player": state.to_act})
    elif action["type"] != "announce" and others:
        out.append({**action, "player": rng.choice(others)})
    if action["type"] == "discard":
        held = {c.code for c in state.current.hand}
        absent = [c for c in ("AS", "KH", "QD", "JC", "10S", "9H", "8D", "7C", "2S") if c not in held]
        if absent:
            out.append({**action, "card": rng.choice(absent)})
    return out


def _choose(actions: list[dict], rng: random.Random) -> dict:
    """The random player's choice among the listed actions: an owed announcement mostly, else a
    meld, build or exchange more often than not."""
    announce = [a for a in actions if a["type"] == "announce"]
    if announce and rng.random() < 0.9:
        return announce[0]
    plays = [a for a in actions if a["type"] in ("meld", "build", "swap_joker")]
    rest = [a for a in actions if a["type"] not in ("meld", "build", "swap_joker", "announce")]
    pool = plays if plays and rng.random() < 0.6 else (rest or actions)
    return rng.choice(pool)


def positions(steps: int, seed: int = 0, variants: list[str] | None = None):
    """``steps`` positions of random play (the same player as ``play``), each as (variant, state,
    the listed legal actions, the action chosen), hand after hand of every variant present."""
    rng = random.Random(seed)
    variants = variants or variant_ids()
    hand_no = taken = 0
    while taken < steps:
        variant = load_variant(variants[hand_no % len(variants)])
        n = rng.randint(variant.rules.players.min, variant.rules.players.max)
        state, _ = deal(variant, [f"P{i}" for i in range(1, n + 1)], f"positions-{seed}-{hand_no}")
        hand_no += 1
        while state.phase != "ended" and taken < steps:
            actions = listing_wire(legal_actions(variant, state))["actions"]
            action = _choose(actions, rng)
            yield variant, state, actions, action
            taken += 1
            state = adjudicate(variant, state, action_from_dict(action)).state


def play(turns: int, seed: int = 0, variants: list[str] | None = None, check_every_listed: int = 25,
         log=None) -> dict:
    rng = random.Random(seed)
    variants = variants or variant_ids()
    stats = Counter()
    hand_no = 0
    while stats["turns"] < turns:
        variant_id = variants[hand_no % len(variants)]
        variant = load_variant(variant_id)
        # the exact count of every seat and of the piles is the default (/positions/counted): checked as the
        # service checks a position it is sent
        if not variant.rules.positions.counted:
            raise InvariantBroken(f"{variant_id} does not count its positions by default")
        n = rng.randint(variant.rules.players.min, variant.rules.players.max)
        table_pack = variant.rules.pack_for(n)
        full = pack(table_pack.decks, table_pack.jokers)
        contract = variant.rules.contract  # a contract game: any of its hands
        number = rng.randint(contract.first, contract.last) if contract is not None else None
        state, _ = deal(variant, [f"P{i}" for i in range(1, n + 1)], f"random-{seed}-{hand_no}", hand=number)
        hand_no += 1
        steps = 0
        while state.phase != "ended" and stats["turns"] < turns:
            listing = listing_wire(legal_actions(variant, state))
            actions = listing["actions"]
            if not actions:
                raise InvariantBroken(f"no legal action in hand {hand_no}, step {steps}: {json.dumps(state_wire(state))}")
            action = _choose(actions, rng)
            if steps % check_every_listed == 0:
                for other in actions:
                    if not adjudicate(variant, state, action_from_dict(other)).legal:
                        raise InvariantBroken(f"listed but refused: {other}")
                stats["listed_checked"] += len(actions)
            parsed = action_from_dict(action)
            verdict = adjudicate(variant, state, parsed)
            if not verdict.legal:
                raise InvariantBroken(f"the chosen listed action was refused: {action} {verdict_wire(verdict)['violations']}")
            again = adjudicate(variant, state, action_from_dict(json.loads(json.dumps(action))))
            if json.dumps(verdict_wire(verdict), sort_keys=True) != json.dumps(verdict_wire(again), sort_keys=True):
                raise InvariantBroken(f"the same request gave two answers: {action}")
            for bad in _corruptions(state, action, rng):
                refused = adjudicate(variant, state, action_from_dict(bad))
                if refused.legal or not refused.violations or not refused.violations[0].clause:
                    raise InvariantBroken(f"a corrupted action was not refused with a clause: {bad}")
                stats["corruptions_refused"] += 1
            state = verdict.state
            problems = check_state(state, variant)
            if problems:
                raise InvariantBroken(f"impossible state after {action}: {[p.detail for p in problems][:3]}")
            if _cards(state) != +full:
                raise InvariantBroken(f"cards not conserved after {action}")
            steps += 1
            stats["steps"] += 1
            stats[f"action:{action['type']}"] += 1
            if action["type"] == "discard":
                stats["turns"] += 1
            if listing["truncated"]:
                stats["truncated_listings"] += 1
        stats[f"variant:{variant_id}"] += 1
        if state.result is not None:
            stats[f"hand:{state.result.how}"] += 1
            if sum(dict(state.result.payments).values()) != 0:
                raise InvariantBroken("a hand's payments do not sum to zero")
        if log:
            log(f"hand {hand_no} ({variant_id}): {state.result.how if state.result else 'unfinished'}; "
                f"{stats['turns']} turns so far")
    stats["hands"] = hand_no
    return dict(stats)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Seeded random play with invariant checks.")
    parser.add_argument("--turns", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", action="append")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    stats = play(args.turns, args.seed, args.variant, log=None if args.quiet else print)
    print(json.dumps(stats, sort_keys=True, indent=1))
    print(f"{stats['turns']} turns, {stats['steps']} steps in {time.perf_counter() - t0:.1f} s: no invariant broken")
    return 0


if __name__ == "__main__":
    sys.exit(main())
