"""Positions with unseen cards and seat views, over random play (tests/support/random_play.py).

* Agreement: on the acting seat's view of a position (every other hand and the stock as counts,
  the seed hidden), every verdict the referee decides is the one it gives on the whole position,
  and nothing it decides on the whole position is contradicted on the view.
* No leak: two whole positions that differ only in what a seat may not see give that seat the same
  view; the commitment catches a tampered reveal.
"""
from __future__ import annotations

import functools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kalooki_referee.rules import action_from_dict, adjudicate, state_from_dict
from kalooki_referee.rules.invariants import check_state
from kalooki_referee.rules.state import Source, replace
from kalooki_referee.rules.views import view_of
from kalooki_referee.rules.wire.views import commitment, hidden_parts, reveal_matches
from kalooki_referee.rules.wire.verdicts import verdict_wire
from kalooki_referee.rules.wire.state import state_wire
from tests.support.random_play import _corruptions, positions


@functools.lru_cache(maxsize=None)
def _positions(count: int, seed: int) -> list:
    return list(positions(count, seed=seed))


def _extra_actions(state, rng: random.Random) -> list[dict]:
    """Actions beyond the listing: every draw, and discards of held and of unheld cards."""
    out = [{"type": "draw", "source": "stock"}, {"type": "draw", "source": "discard"}]
    hand = sorted({c.code for c in state.current.hand})
    if hand:
        out.append({"type": "discard", "card": rng.choice(hand)})
        out.append({"type": "meld", "melds": [{"cards": hand[:3]}]})
    out.append({"type": "discard", "card": rng.choice(["AS", "7H", "QD", "2C", "JK"])})
    return out


def _check_agreement(variant, state, listed: list[dict], chosen: dict, rng: random.Random) -> dict:
    view = view_of(state, state.to_act)
    assert not check_state(view, variant)
    # the view survives its own wire form
    assert state_wire(state_from_dict(state_wire(view), variant)) == state_wire(view)
    seen = {"decided": 0, "undetermined": 0}
    for wire in listed + _corruptions(state, chosen, rng) + _extra_actions(state, rng):
        action = action_from_dict(wire)
        try:
            whole = adjudicate(variant, state, action)
        except Exception as exc:  # a malformed reference (e.g. no such meld) is so on both
            with pytest.raises(type(exc)):
                adjudicate(variant, view, action)
            continue
        partial = adjudicate(variant, view, action)
        if partial.legal is None:
            seen["undetermined"] += 1
            assert partial.undetermined and not partial.violations
            assert all(u.needs for u in partial.undetermined)
            continue
        seen["decided"] += 1
        assert partial.legal == whole.legal, (wire, verdict_wire(whole)["violations"], verdict_wire(partial)["violations"])
        # every rule the view finds broken is broken in the whole position, in the same order; the view may
        # list fewer, where its unseen cards could be the cards the action names (a card played from an
        # unseen hand is shown, not refused) or a rule turns on them
        told, broken = [v.clause for v in partial.violations], iter([v.clause for v in whole.violations])
        assert all(clause in broken for clause in told) and bool(told) != whole.legal, wire
        assert all(u.needs for u in partial.undetermined), wire
    return seen


def test_views_agree_with_the_whole_position_over_random_play():
    rng = random.Random(11)
    totals = {"decided": 0, "undetermined": 0}
    for variant, state, listed, chosen in _positions(160, 5):
        for k, n in _check_agreement(variant, state, listed, chosen, rng).items():
            totals[k] += n
    assert totals["decided"] > 1000


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, 159), seed=st.integers(0, 2**32 - 1))
def test_views_agree_hypothesis(index, seed):
    variant, state, listed, chosen = _positions(160, 5)[index]
    _check_agreement(variant, state, listed, chosen, random.Random(seed))


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, 1499), seed=st.integers(0, 2**32 - 1))
def test_views_agree_hypothesis_long(index, seed):
    variant, state, listed, chosen = _positions(1500, 17)[index]
    _check_agreement(variant, state, listed, chosen, random.Random(seed))


# -- no leak ------------------------------------------------------------------------------------

def _reshuffled_unseen(state, seat: str, rng: random.Random):
    """A whole position that differs from ``state`` only in what ``seat`` may not see: the cards of
    every other hand and of the stock dealt again among those places (each keeping its count), the
    seed changed, and another player's card drawn from the stock one of their new cards."""
    others = [p for p in state.players if p.id != seat]
    pool = [c for p in others for c in p.hand] + list(state.stock)
    rng.shuffle(pool)
    players, at = [], 0
    for p in state.players:
        if p.id == seat:
            players.append(p)
        else:
            players.append(replace(p, hand=tuple(pool[at:at + len(p.hand)])))
            at += len(p.hand)
    other = replace(state, players=tuple(players), stock=tuple(pool[at:]), seed=state.seed + "-other")
    t = other.turn
    if t.source == Source.STOCK and t.drawn is not None and other.to_act != seat:
        other = replace(other, turn=replace(t, drawn=rng.choice(other.current.hand)))
    return other


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, 159), seed=st.integers(0, 2**32 - 1))
def test_a_view_leaks_nothing_the_seat_may_not_see(index, seed):
    variant, state, _, _ = _positions(160, 5)[index]
    rng = random.Random(seed)
    seat = rng.choice(state.players).id
    other = _reshuffled_unseen(state, seat, rng)
    assert not check_state(other, variant)
    assert state_wire(view_of(state, seat)) == state_wire(view_of(other, seat))
    # what the view hides is what the commitment covers: another deal of it is another commitment
    salt = f"salt-{seed:032d}"
    made = commitment(state, seat, salt)
    assert reveal_matches(made, state, seat, salt)
    if hidden_parts(other, seat) != hidden_parts(state, seat):
        assert not reveal_matches(made, other, seat, salt)
    assert not reveal_matches(made, state, seat, salt + "x")


def test_a_tampered_reveal_fails_the_commitment():
    variant, state, _, _ = _positions(160, 5)[40]
    seat = state.to_act
    salt = "a-secret-of-the-server-0123456789"
    made = commitment(state, seat, salt)
    victim = next(p for p in state.players if p.id != seat)
    # one card of another hand exchanged with one of the stock (each place keeps its count)
    card = next(c for c in victim.hand if c not in state.stock[:1])
    hand = list(victim.hand)
    hand[hand.index(card)] = state.stock[0]
    tampered = replace(state.with_player(victim.id, hand=tuple(hand)), stock=(card,) + state.stock[1:])
    assert not check_state(tampered, variant)
    assert state_wire(view_of(tampered, seat)) == state_wire(view_of(state, seat))
    assert reveal_matches(made, state, seat, salt)
    assert not reveal_matches(made, tampered, seat, salt)
    # the stock's order is covered too
    if len(set(state.stock[:2])) == 2:
        swapped = replace(state, stock=(state.stock[1], state.stock[0]) + state.stock[2:])
        assert not reveal_matches(made, swapped, seat, salt)


# -- particular rules ---------------------------------------------------------------------------

def _hide(state_dict: dict, *seats: int, stock: bool = True) -> dict:
    """``state_dict`` with the hands of ``seats`` (and the stock) given as counts."""
    out = {**state_dict, "players": [dict(p) for p in state_dict["players"]]}
    for i in seats:
        p = out["players"][i]
        p["hidden"], p["hand"] = len(p["hand"]), []
    if stock and out["stock"]:
        out["stock_hidden"], out["stock"] = len(out["stock"]), []
    return out


def _reshuffle_position(seed: str) -> dict:
    from kalooki_referee.vectors.build import expand_setup
    return expand_setup({"players": [{"id": "P1", "hand": ["2H", "3H"], "opened": True},
                                      {"id": "P2", "hand": ["4H", "5H", "6H", "7H"]}],
                         "dealer": "P2", "to_act": "P1", "phase": "play", "seed": seed,
                         "turn": {"drawn": "3H", "source": "stock"}, "discard": ["9C"], "stock": [], "fill": "discard"},
                        "british", None, "test")


@pytest.mark.parametrize("seed", ["", "club-7"])
def test_a_reshuffle_without_the_seed_gives_an_unseen_stock(seed):
    from kalooki_referee.rules import load_variant
    variant = load_variant("british", {"positions": {"counted": False}})   # (a position composed for the reshuffle)
    whole = _reshuffle_position(seed)
    partial = state_from_dict(_hide(whole, 1, stock=False), variant)
    below = len(whole["discard"])  # the whole pile under the new top card (2H)
    after = adjudicate(variant, partial, action_from_dict({"type": "discard", "card": "2H"}))
    assert after.legal is True and after.state.reshuffles == 1
    wire = state_wire(after.state)
    if seed:  # the discard pile is seen and the seed orders it: the new stock is listed
        full = adjudicate(variant, state_from_dict(whole, variant), action_from_dict({"type": "discard", "card": "2H"}))
        assert wire["stock"] == state_wire(full.state)["stock"] and len(wire["stock"]) == below
        assert "stock_hidden" not in wire
    else:
        assert wire["stock"] == [] and wire["stock_hidden"] == below
    assert wire["discard"] == ["2H"]
    assert state_wire(state_from_dict(wire, variant)) == wire  # the answer reads back as the same position


def test_an_answer_with_unseen_cards_reads_back_after_they_are_all_shown():
    """A hand of one unseen card draws another unseen card and shows both: the turn record's card
    drawn stays unknown (null) and the answer is still a position the referee accepts."""
    from kalooki_referee.rules import load_variant
    from kalooki_referee.vectors.build import expand_setup
    variant = load_variant("british", {"positions": {"counted": False}})   # (two hands composed short)
    setup = {"players": [{"id": "P1", "hand": ["9S", "2C"], "hidden": 1, "opened": True},
                         {"id": "P2", "hand": [], "hidden": 9}],
             "dealer": "P2", "to_act": "P1", "phase": "draw", "discard": ["4C"], "fill": "unseen"}
    state = state_from_dict(expand_setup(setup, "british", None, "test"), variant)
    turn = action_from_dict({"type": "turn", "actions": [{"type": "draw", "source": "stock"},
                                                          {"type": "meld", "melds": [{"cards": ["9S", "9D", "9H"]}]}]})
    verdict = adjudicate(variant, state, turn)
    assert verdict.legal is True
    wire = state_wire(verdict.state)
    assert wire["players"][0]["hand"] == ["2C"] and "hidden" not in wire["players"][0]
    assert wire["turn"]["drawn"] is None
    assert state_wire(state_from_dict(wire, variant)) == wire


def test_a_game_hand_with_unseen_cards_is_played(client):
    started = client.post("/v1/games", json={"variant": "british", "players": ["A", "B", "C"], "seed": "g"})
    assert started.status_code == 200
    game = started.get_json()["game"]
    game["hand"] = _hide(game["hand"], 1)
    r = client.post("/v1/adjudicate", json={"variant": "british", "game": game, "action": {"type": "draw", "source": "stock"}})
    assert r.status_code == 200, r.get_json()
    answer = r.get_json()
    assert answer["legal"] is True and "settlement" not in answer
    before = started.get_json()["game"]["hand"]
    drew = [p["id"] for p in before["players"]].index(before["to_act"])
    assert answer["game"]["hand"]["players"][1]["hidden"] == len(before["players"][1]["hand"]) + (drew == 1)
    assert answer["game"]["hand"]["stock"] == [] and answer["game"]["hand"]["stock_hidden"] == len(before["stock"]) - 1
    # the answer's game reads back: the player who drew discards a card it holds (or one of its unseen cards)
    held = answer["state"]["players"][drew]["hand"] or [c for c in before["players"][drew]["hand"]]
    again = client.post("/v1/adjudicate", json={"variant": "british", "game": answer["game"],
                                                "action": {"type": "discard", "card": held[0]}})
    assert again.status_code == 200 and again.get_json()["legal"] is True, again.get_json()


def test_views_endpoint_commitment_checks_the_revealed_position(client):
    variant, state, _, _ = _positions(160, 5)[70]
    salt = "0123456789abcdef0123"
    body = {"variant": variant.id, "state": state_wire(state), "seat": state.players[0].id, "salt": salt}
    r = client.post("/v1/views", json=body)
    assert r.status_code == 200
    answer = r.get_json()
    assert answer["view"] == state_wire(view_of(state, state.players[0].id))
    # the commitment is a text beside the view (api/games.py once typed the answer as views only)
    assert isinstance(answer["commitment"], str) and answer["commitment"] == commitment(state, state.players[0].id, salt)
    assert reveal_matches(answer["commitment"], state, state.players[0].id, salt)
    unsalted = client.post("/v1/views", json={k: v for k, v in body.items() if k != "salt"}).get_json()
    assert "commitment" not in unsalted and unsalted["view"] == answer["view"]
    # the same request, the same bytes
    assert client.post("/v1/views", json=body).get_data() == r.get_data()
    # a short salt is refused by the request's shape, with its pointer
    short = client.post("/v1/views", json={**body, "salt": "short"})
    assert short.status_code == 422 and short.get_json()["errors"][0]["pointer"] == "/salt"


@pytest.mark.parametrize("where,value", [("/state/players/1/hidden", -1), ("/state/stock_hidden", -3),
                                         ("/state/players/1/hidden", 61)])
def test_counts_out_of_range_are_refused_with_a_pointer(client, where, value):
    variant, state, _, _ = _positions(160, 5)[3]
    wire = state_wire(state)
    if where.endswith("stock_hidden"):
        wire["stock_hidden"] = value
    else:
        wire["players"][1]["hidden"] = value
    r = client.post("/v1/adjudicate", json={"variant": variant.id, "state": wire, "action": {"type": "draw", "source": "stock"}})
    assert r.status_code == 422
    assert where in [e["pointer"] for e in r.get_json()["errors"]]


# -- settling a hand won while cards are unseen ---------------------------------------------------

def _figures(result) -> dict:
    """Every figure of a settlement (a ``HandResult`` or an ``OpenSettlement``) by (figure, player)."""
    out = {}
    for name in ("penalties", "payments", "scores", "credits"):
        for pid, value in getattr(result, name) or ():
            out[name, pid] = value
    return out


def _hidden_at_random(state, keep: str, rng: random.Random):
    """``state`` as a table may see it: ``keep``'s hand listed, each other hand listed, hidden as a
    count or partly listed (at random), the stock a count."""
    from kalooki_referee.rules.cards import UNSEEN
    players = []
    for p in state.players:
        hand = list(p.hand)
        if p.id != keep and hand:
            shown = {0: 0, 1: len(hand), 2: rng.randint(0, len(hand))}[rng.randint(0, 2)]
            rng.shuffle(hand)
            hand = sorted(hand[:shown], key=lambda c: c.order) + [UNSEEN] * (len(hand) - shown)
        players.append(replace(p, hand=tuple(hand)))
    return replace(state, players=tuple(players), stock=(UNSEEN,) * len(state.stock), seed="")


def _check_settlement(variant, whole, view, winner: str, kalookie: bool) -> tuple[int, int]:
    """The hand ``winner`` won (``kalookie``: by a kalookie) settled on the whole position and on a
    view of it: every figure decided on the view is the whole position's, every other one is bounded
    around it and names the counts it needs; a view hiding no loser's card decides everything."""
    from kalooki_referee.rules.engine import open_settlement
    from kalooki_referee.rules.settlement import Seat, settle_won
    full = settle_won(variant.rules, winner, kalookie, [Seat(p.id, p.score, p.hand) for p in whole.players])
    partial = open_settlement(variant, view, winner, kalookie)
    decided = open_ = 0
    for key, amount in _figures(partial).items():
        value = _figures(full)[key]
        assert amount.low <= value <= amount.high, (key, amount, value)
        if amount.decided:
            decided += 1
            assert not amount.needs
        else:
            open_ += 1
            assert amount.needs and all(n.endswith("/hidden") for n in amount.needs), (key, amount)
    assert _figures(partial).keys() == _figures(full).keys()
    if not view.partial or all(p.hidden == 0 for p in view.players):
        assert partial.decided and partial.result() == full
    if partial.decided:
        assert partial.result() == full
    return decided, open_


def _won_by_the_player_to_act(state):
    """``state`` as if the player to act had just gone out (their cards laid on the discard pile)."""
    winner = state.current
    return replace(state.with_player(winner.id, hand=()), discard=winner.hand + state.discard), winner.id


@functools.lru_cache(maxsize=None)
def _positions_of_every_variant(per_variant: int, seed: int) -> list:
    from kalooki_referee.rules import variant_ids
    out = []
    for vid in variant_ids():
        out += list(positions(per_variant, seed=seed, variants=[vid]))
    return out


def test_a_settlement_with_unseen_cards_agrees_with_the_whole_position_in_every_variant():
    """Over random play in every variant, each position read as won by the player to act (with and
    without a kalookie) and seen with cards hidden at random: decided figures equal, the rest bounded."""
    rng = random.Random(26)
    decided = open_ = 0
    seen_variants = set()
    for variant, state, _, _ in _positions_of_every_variant(6, 3):
        whole, winner = _won_by_the_player_to_act(state)
        for _ in range(2):
            view = _hidden_at_random(whole, rng.choice(whole.players).id, rng)
            d, o = _check_settlement(variant, whole, view, winner, rng.random() < 0.5)
            decided, open_ = decided + d, open_ + o
        seen_variants.add(variant.id)
    from kalooki_referee.rules import variant_ids
    assert seen_variants == set(variant_ids())
    assert decided > 300 and open_ > 100, (decided, open_)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, 6 * 24 - 1), seed=st.integers(0, 2**32 - 1), kalookie=st.booleans())
def test_a_settlement_with_unseen_cards_hypothesis(index, seed, kalookie):
    variant, state, _, _ = _positions_of_every_variant(6, 3)[index % len(_positions_of_every_variant(6, 3))]
    rng = random.Random(seed)
    whole, winner = _won_by_the_player_to_act(state)
    _check_settlement(variant, whole, _hidden_at_random(whole, rng.choice(whole.players).id, rng), winner, kalookie)


def _check_going_out_on_a_view(variant, before, action: dict, rng: random.Random) -> None:
    """The hand's last action adjudicated on a view of the position before it: legal, and every
    figure of the whole position's result decided alike or bounded around it (``settlement``)."""
    whole = adjudicate(variant, before, action_from_dict(action))
    view = _hidden_at_random(before, before.to_act, rng)
    partial = adjudicate(variant, view, action_from_dict(action))
    assert partial.legal is True and whole.legal is True
    if whole.state.result.how == "void" or partial.settlement is None:
        assert partial.state.result == whole.state.result and not partial.undetermined
        return
    assert partial.state.result is None and partial.undetermined
    assert partial.undetermined[0].needs == partial.settlement.needs()
    for key, amount in _figures(partial.settlement).items():
        value = _figures(whole.state.result)[key]
        assert amount.low <= value <= amount.high and (amount.decided or amount.needs), (key, amount, value)
    wire = verdict_wire(partial)["settlement"]
    assert wire["winner"] == whole.state.result.winner and wire["how"] == whole.state.result.how


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant_index=st.integers(0, 23), seed=st.integers(0, 2**32 - 1))
def test_going_out_on_a_view_agrees_with_the_whole_position_long(variant_index, seed):
    from kalooki_referee.rules import load_variant, variant_ids
    vid = variant_ids()[variant_index % len(variant_ids())]
    for before, action in _finished_hands_cached(vid):
        _check_going_out_on_a_view(load_variant(vid), before, action, random.Random(seed))


@functools.lru_cache(maxsize=None)
def _finished_hands_cached(vid: str) -> list:
    from tests.rules.test_settlement import _finished_hands
    return list(_finished_hands(vid))


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, 40 * 24 - 1), seed=st.integers(0, 2**32 - 1), kalookie=st.booleans())
def test_a_settlement_with_unseen_cards_hypothesis_long(index, seed, kalookie):
    variant, state, _, _ = _positions_of_every_variant(40, 19)[index]
    rng = random.Random(seed)
    whole, winner = _won_by_the_player_to_act(state)
    _check_settlement(variant, whole, _hidden_at_random(whole, rng.choice(whole.players).id, rng), winner, kalookie)


# -- a game whose hand is won while cards are unseen ----------------------------------------------

def _game_around(variant, before, rng: random.Random):
    """A game whose current hand is ``before``: the players' totals drawn near the limit (where
    there is one), buy-ins used at random and, in a contract game, the hand made the last one at
    random, so that eliminations, buy-in offers and the end of the game all occur."""
    from kalooki_referee.rules.game import Game, GamePlayer, resolve_stakes
    limit, most = variant.rules.game.limit, variant.rules.game.buy_ins_max
    stakes = resolve_stakes(variant, None)
    initial, price = dict(stakes)["initial"], dict(stakes)["buy_in"]
    players, hand = [], before
    for p in before.players:
        score = rng.randint(max(0, limit - 45), limit) if limit is not None else rng.randint(0, 300)
        bought = rng.randint(0, most if most is not None else 3)
        players.append(GamePlayer(p.id, score, paid_to_pool=initial + bought * price, buy_ins=bought))
        hand = hand.with_player(p.id, score=score)
    contract = variant.rules.contract
    rows = (contract.last - contract.first if contract is not None and rng.random() < 0.5 else 0)
    sheet = tuple({"hand": i + 1, "how": "call_up"} for i in range(rows))
    return Game(tuple(players), before.dealer, stakes, sum(p.paid_to_pool for p in players), "hand", hand,
                rows, "call_up" if rows else None, None, sheet=sheet)


def _full_standing(variant, game, after) -> dict:
    """What settling the hand did to the game: by (fact, player) as ``OpenHand`` names them."""
    limit = variant.rules.game.limit
    out = {}
    for p in after.players:
        if game.player(p.id).out:
            continue
        out["over_limit", p.id] = limit is not None and dict(after.sheet[-1]["scores"])[p.id] > limit
        out["eliminated", p.id] = p.out
        out["buy_in", p.id] = p.id in after.buy_in_queue
    out["over", None], out["winner", None] = after.phase == "over", after.winner
    return out


def _check_game_on_a_view(variant, before, action: dict, rng: random.Random) -> tuple[int, int]:
    """The hand's last action on a game around ``before`` and on the same game with its hand seen
    from the acting seat: every fact the view decides is the whole game's, the rest name counts; a
    decided payout is the whole game's, a bounded one holds it."""
    from kalooki_referee.rules.game import adjudicate_game
    from kalooki_referee.rules.wire.game import game_wire
    from kalooki_referee.rules.state import Phase
    game = _game_around(variant, before, rng)
    whole = adjudicate_game(variant, game, action_from_dict(action))
    view = replace(game, hand=_hidden_at_random(game.hand, game.hand.to_act, rng))
    partial = adjudicate_game(variant, view, action_from_dict(action))
    assert whole.legal and partial.legal and whole.open is None
    if partial.open is None:  # every figure decided: settled as the whole game is
        assert game_wire(partial.game) == game_wire(whole.game)
        return 0, 0
    assert whole.hand.phase == Phase.ENDED and partial.game.hand.phase == Phase.ENDED
    full, o = _full_standing(variant, game, whole.game), partial.open
    facts = {("over", None): o.over, ("winner", None): o.winner}
    facts.update({("eliminated", pid): f for pid, f in o.eliminated})
    facts.update({("buy_in", pid): f for pid, f in o.buy_in or ()})
    decided = open_ = 0
    for key, fact in facts.items():
        if fact.decided:
            decided += 1
            assert fact.value == full[key], (key, fact, full[key])
        else:
            open_ += 1
            assert fact.needs and all(n.endswith("/hidden") for n in fact.needs), (key, fact)
    for pid, amount in o.over_limit:
        assert not amount.decided or bool(amount.low) == full["over_limit", pid], (pid, amount)
    if o.buy_in is None:
        assert not any(full["buy_in", pid] for pid, _ in o.eliminated)
    if o.payout is not None:
        settled = whole.game.sheet[-1]["settlement"]
        assert full["over", None] and dict(o.payout).keys() == settled.keys()
        for pid, amount in o.payout:
            assert amount.low <= settled[pid] <= amount.high and (amount.decided or amount.needs), (pid, amount)
    return decided, open_


def test_a_game_with_unseen_cards_agrees_with_the_whole_game_in_every_variant():
    """Over seeded finished hands of every variant, each put in a game near its limit (or its last
    hand) and won on the acting seat's view: the standing and the game's outcome agree with the whole
    game's wherever the view decides them."""
    from kalooki_referee.rules import load_variant, variant_ids
    rng = random.Random(2612)
    decided = open_ = 0
    for vid in variant_ids():
        variant = load_variant(vid)
        for before, action in _finished_hands_cached(vid):
            if adjudicate(variant, before, action_from_dict(action)).state.result.how == "void":
                continue
            for _ in range(2):
                d, o = _check_game_on_a_view(variant, before, action, rng)
                decided, open_ = decided + d, open_ + o
    assert decided > 200 and open_ > 20, (decided, open_)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant_index=st.integers(0, 23), seed=st.integers(0, 2**32 - 1))
def test_a_game_with_unseen_cards_hypothesis(variant_index, seed):
    from kalooki_referee.rules import load_variant, variant_ids
    vid = variant_ids()[variant_index % len(variant_ids())]
    variant = load_variant(vid)
    for before, action in _finished_hands_cached(vid):
        if adjudicate(variant, before, action_from_dict(action)).state.result.how != "void":
            _check_game_on_a_view(variant, before, action, random.Random(seed))
