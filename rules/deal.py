"""Dealing a hand from a seed.

The pack starts in the order of ``cards.pack_order`` (deck by deck; suits S H D C; A K Q ... 2;
then the jokers) and is shuffled by ``shuffle.shuffled(pack, seed, "deal")``.  The player on the
dealer's right cuts: the cut is recorded, and as it moves no card it is not applied to the order.
The dealer then gives one card at a time, starting with the player on the dealer's left and going
clockwise, until everyone has the variant's number of cards; the shuffled pack is dealt from its
first card.  If the variant turns an upcard, the next card starts the discard pile; the rest,
in order, is the stock (first card on top).
"""
from __future__ import annotations

from .cards import canonical, pack_order
from .errors import MalformedInput, Problem, pointer
from .shuffle import ALGORITHM, seed_text, shuffled
from .state import Player, State, check_state
from .variant import Variant


def deal(variant: Variant, players: list[str], seed: str | int, dealer: str | None = None,
         scores: dict[str, int] | None = None) -> tuple[State, dict]:
    """The state at the start of a hand, and a record of how it was dealt."""
    problems = []
    if len(set(players)) != len(players):
        problems.append(Problem("/players", "player ids must be unique"))
    lo, hi = variant.p("players", "min"), variant.p("players", "max")
    if not lo <= len(players) <= hi:
        problems.append(Problem("/players", f"{len(players)} players; this variant is for {lo} to {hi} "
                                            "(players.count.two_to_five)"))
    if dealer is not None and dealer not in players:
        problems.append(Problem("/dealer", f"{dealer!r} is not one of the players"))
    if problems:
        raise MalformedInput(problems)
    dealer = dealer if dealer is not None else players[-1]
    seed = seed_text(seed)
    cards = shuffled(pack_order(variant.p("pack", "decks"), variant.p("pack", "jokers")), seed, "deal")
    n = len(players)
    start = (players.index(dealer) + 1) % n
    order = [players[(start + k) % n] for k in range(n)]
    each = variant.p("deal", "cards_each")
    hands: dict[str, list] = {pid: [] for pid in players}
    pos = 0
    for _ in range(each):
        for pid in order:
            hands[pid].append(cards[pos])
            pos += 1
    discard = ()
    if variant.p("deal", "upcard"):
        discard = (cards[pos],)
        pos += 1
    scores = scores or {}
    state = State(
        players=tuple(Player(pid, canonical(hands[pid]), score=int(scores.get(pid, 0))) for pid in players),
        dealer=dealer, to_act=order[0], phase="draw", stock=tuple(cards[pos:]), discard=discard,
        first_play=True, seed=seed)
    assert not check_state(state, variant), check_state(state, variant)
    record = {"algorithm": ALGORITHM, "seed": seed, "dealer": dealer, "first_to_play": order[0],
              "cut_by": players[(players.index(dealer) - 1) % n], "cards_each": each,
              "upcard": discard[0].code if discard else None}
    return state, record
