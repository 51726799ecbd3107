"""Dealing a hand from a seed.

The pack starts in the order of ``cards.pack_order`` (deck by deck; suits S H D C; A K Q ... 2;
then the jokers) and is shuffled by ``shuffle.shuffled(pack, seed, "deal")``.  The player on the
dealer's right cuts.  Where the variant shows the bottom card of the cut (``deal.joker_on_cut``) the
cut is made at ``4 + x mod (n - 7)`` cards, ``x`` the first number of the seed's ``cut`` stream
(``shuffle.seeded_number``), ``n`` the pack size: the lifted packet's bottom card is shown, the pack
is completed under it (the cards below the cut first), and a shown joker goes to the cutter, who is
then passed over once in the last round of dealing; elsewhere the cut is recorded and, as it moves
no card that matters, not applied.  The dealer then deals clockwise from the player on the dealer's
left, one card at a time or in rounds of the variant's packets, until everyone has the variant's
number of cards for that many players; the pack is dealt from its first card.  If the variant turns
an upcard, the next card starts the discard pile; the rest, in order, is the stock (first card on
top).  Where the dealer has the upcard option the dealer acts first.
"""
from __future__ import annotations

from typing import NotRequired, TypedDict

from .cards import Card, canonical, pack_order
from .clause_ids import PLAYERS_COUNT_TWO_TO_FIVE
from .errors import MalformedInput, Problem
from .shuffle import ALGORITHM, seed_text, seeded_number, shuffled
from .state import Phase, Player, State, check_state
from .variant import Variant


class DealRecord(TypedDict):
    """How a hand was dealt."""
    algorithm: str
    seed: str
    dealer: str
    first_to_play: str
    cut_by: str
    cards_each: int
    upcard: str | None
    cut_shows: NotRequired[str]             # where the cut is shown (``deal.joker_on_cut``)
    cutter_keeps_joker: NotRequired[bool]


def deal(variant: Variant, players: list[str], seed: str | int, dealer: str | None = None,
         scores: dict[str, int] | None = None) -> tuple[State, DealRecord]:
    """The state at the start of a hand, and a record of how it was dealt."""
    problems = []
    if len(set(players)) != len(players):
        problems.append(Problem("/players", "player ids must be unique"))
    lo, hi = variant.rules.players.min, variant.rules.players.max
    if not lo <= len(players) <= hi:
        problems.append(Problem("/players", f"{len(players)} players; this variant is for {lo} to {hi} "
                                            f"({variant.cite(PLAYERS_COUNT_TWO_TO_FIVE)})"))
    if dealer is not None and dealer not in players:
        problems.append(Problem("/dealer", f"{dealer!r} is not one of the players"))
    if problems:
        raise MalformedInput(problems)
    dealer = dealer if dealer is not None else players[-1]
    seed = seed_text(seed)
    cards = shuffled(pack_order(variant.rules.pack.decks, variant.rules.pack.jokers), seed, "deal")
    n = len(players)
    start = (players.index(dealer) + 1) % n
    order = [players[(start + k) % n] for k in range(n)]
    cutter = players[(players.index(dealer) - 1) % n]
    each = variant.cards_for(n)
    hands: dict[str, list[Card]] = {pid: [] for pid in players}
    shown = None
    if variant.rules.deal.joker_on_cut:
        cut = 4 + seeded_number(seed, "cut") % (len(cards) - 7)
        shown = cards[cut - 1]
        cards = cards[cut:] + cards[:cut]
        if shown.is_joker:
            hands[cutter].append(cards.pop())
    packets = list(variant.rules.deal.packets or [1] * each)
    pos = 0
    for k, size in enumerate(packets):
        for pid in order:
            give = min(size, each - len(hands[pid]))
            hands[pid].extend(cards[pos:pos + give])
            pos += give
    discard: tuple[Card, ...] = ()
    if variant.rules.deal.upcard:
        discard = (cards[pos],)
        pos += 1
    scores = scores or {}
    option = variant.rules.draw.dealer_upcard_option
    state = State(
        players=tuple(Player(pid, canonical(hands[pid]), score=int(scores.get(pid, 0))) for pid in players),
        dealer=dealer, to_act=dealer if option else order[0], phase=Phase.DRAW, stock=tuple(cards[pos:]),
        discard=discard, first_play=True, seed=seed, dealer_option=option,
        first_round=variant.rules.draw.free_discard_first_round)
    assert not check_state(state, variant), check_state(state, variant)
    record: DealRecord
    record = {"algorithm": ALGORITHM, "seed": seed, "dealer": dealer, "first_to_play": state.to_act,
              "cut_by": cutter, "cards_each": each,
              "upcard": discard[0].code if discard else None}
    if shown is not None:
        record["cut_shows"] = shown.code
        record["cutter_keeps_joker"] = shown.is_joker
    return state, record
