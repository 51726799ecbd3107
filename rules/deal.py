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
number of cards for that many players (in a contract game, for the hand number: the hand's row of
the variant's contract table); the pack is dealt from its first card.  Where the variant rewards a
dealer who cuts exactly the cards to be dealt (``deal.dealer_cut_bonus``) the dealer cuts, at the
same seeded count as above; the record gives the count and the bonus (players x cards each, the
upcard not counted), which a game adds to the dealer's total; the cut moves no card that matters.  If the variant turns
an upcard, the next card starts the discard pile; the rest, in order, is the stock (first card on
top).  Where the dealer has the upcard option the dealer acts first.
"""
from __future__ import annotations

from typing import NotRequired, TypedDict

from .cards import Card, canonical, pack_order
from .errors import MalformedInput, Problem
from .shuffle import ALGORITHM, seed_text, seeded_number, shuffled
from .invariants import check_state, player_list_problems
from .state import Phase, Player, State
from .variant import Variant
from .clause_ids import (CUT_BY_PLAYER_ON_DEALERS_RIGHT, CUT_JOKER_EXPOSED_KEPT_BY_CUTTER,
                         DEAL_BABY_EIGHT_EVERY_HAND, DEAL_BABY_SIX_SEVEN_EIGHT, DEAL_DENEXA_FIFTEEN_EACH,
                         DEAL_JAMAICAN_CARDS_PER_HAND, DEAL_JAMAICAN_TWELVE_IN_FIRST_THREE_HANDS,
                         DEAL_NORTH_AMERICAN_COUNT_BY_PLAYERS, DEAL_SINGLY_THIRTEEN_EACH, DEAL_UK_NO_UPCARD,
                         DEAL_UK_PACKETS_3_2_3_2_3, DEAL_UPCARD_STARTS_DISCARD_PILE,
                         DECK_JAMAICAN_PACKS_BY_PLAYERS, DECK_THREE_PACKS_THREE_JOKERS,
                         DECK_TWO_PACKS_FOUR_JOKERS, DECK_TWO_PACKS_TWO_JOKERS)
from .clauses import enforces


class DealRecord(TypedDict):
    """How a hand was dealt."""
    algorithm: str
    seed: str
    dealer: str
    first_to_play: str
    cut_by: str
    cards_each: int
    pack: dict[str, int]                    # the packs and jokers of this table
    upcard: str | None
    cut_shows: NotRequired[str]             # where the cut is shown (``deal.joker_on_cut``)
    cutter_keeps_joker: NotRequired[bool]
    hand_number: NotRequired[int]           # a contract game's hand
    dealer_cut: NotRequired[int]            # the cards the dealer cut (``deal.dealer_cut_bonus``)
    dealer_cut_bonus: NotRequired[int]      # the bonus it earned (0 unless exact)


def cut_count(seed: str, pack_size: int) -> int:
    """How many cards a seeded cut lifts: ``4 + x mod (n - 7)`` (see the module's text)."""
    return 4 + seeded_number(seed, "cut") % (pack_size - 7)


@enforces(DECK_TWO_PACKS_TWO_JOKERS, DECK_THREE_PACKS_THREE_JOKERS, DECK_TWO_PACKS_FOUR_JOKERS,
          DECK_JAMAICAN_PACKS_BY_PLAYERS, CUT_BY_PLAYER_ON_DEALERS_RIGHT, CUT_JOKER_EXPOSED_KEPT_BY_CUTTER,
          DEAL_SINGLY_THIRTEEN_EACH, DEAL_NORTH_AMERICAN_COUNT_BY_PLAYERS, DEAL_DENEXA_FIFTEEN_EACH,
          DEAL_UK_PACKETS_3_2_3_2_3, DEAL_JAMAICAN_CARDS_PER_HAND, DEAL_JAMAICAN_TWELVE_IN_FIRST_THREE_HANDS,
          DEAL_BABY_SIX_SEVEN_EIGHT, DEAL_BABY_EIGHT_EVERY_HAND, DEAL_UPCARD_STARTS_DISCARD_PILE,
          DEAL_UK_NO_UPCARD)
def deal(variant: Variant, players: list[str], seed: str | int, dealer: str | None = None,
         scores: dict[str, int] | None = None, hand: int | None = None) -> tuple[State, DealRecord]:
    """The state at the start of a hand (hand number ``hand`` of a contract game: its first hand
    when not given), and a record of how it was dealt."""
    problems = []
    contract = variant.rules.contract
    if contract is None and hand is not None:
        problems.append(Problem("/hand", "this variant does not number its hands (it has no contracts)"))
    elif contract is not None and hand is not None and not contract.first <= hand <= contract.last:
        problems.append(Problem("/hand", f"the hands of this game are numbered {contract.first} to {contract.last}"))
    number = (hand or contract.first) if contract is not None else 0
    problems += player_list_problems(players, variant)
    if dealer is not None and dealer not in players:
        problems.append(Problem("/dealer", f"{dealer!r} is not one of the players"))
    if problems:
        raise MalformedInput(problems)
    dealer = dealer if dealer is not None else players[-1]
    seed = seed_text(seed)
    n = len(players)
    table_pack = variant.rules.pack_for(n)
    cards = shuffled(pack_order(table_pack.decks, table_pack.jokers), seed, "deal")
    start = (players.index(dealer) + 1) % n
    order = [players[(start + k) % n] for k in range(n)]
    cutter = players[(players.index(dealer) - 1) % n]
    each = variant.cards_for(n, number)
    hands: dict[str, list[Card]] = {pid: [] for pid in players}
    shown = None
    if variant.rules.deal.joker_on_cut:
        cut = cut_count(seed, len(cards))
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
        first_round=variant.rules.draw.free_discard_first_round, hand_number=number)
    assert not check_state(state, variant), check_state(state, variant)
    record: DealRecord
    record = {"algorithm": ALGORITHM, "seed": seed, "dealer": dealer, "first_to_play": state.to_act,
              "cut_by": cutter, "cards_each": each, "pack": {"decks": table_pack.decks, "jokers": table_pack.jokers},
              "upcard": discard[0].code if discard else None}
    if number:
        record["hand_number"] = number
    bonus = variant.rules.deal.dealer_cut_bonus
    if bonus is not None:
        record["cut_by"] = dealer
        record["dealer_cut"] = cut_count(seed, len(cards))
        record["dealer_cut_bonus"] = bonus if record["dealer_cut"] == n * each else 0
    if shown is not None:
        record["cut_shows"] = shown.code
        record["cutter_keeps_joker"] = shown.is_joker
    return state, record
