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
upcard not counted), which a game adds to the dealer's total; the cut moves no card that matters.
A table may report its cut instead (``ReportedCut``: the cards lifted and by whom): the count then
replaces the seeded one, for the card the cut shows and for the dealer's bonus alike.  If the variant turns
an upcard, the next card starts the discard pile; the rest, in order, is the stock (first card on
top).  Where the dealer has the upcard option the dealer acts first.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NotRequired, TypedDict

from .cards import Card, canonical, pack_order
from .errors import MalformedInput, Problem
from .shuffle import ALGORITHM, seed_text, seeded_number, shuffled
from .invariants import check_state, player_list_problems
from .state import Phase, Player, State
from .variant import Variant
from .clause_ids import (CUT_BY_PLAYER_ON_DEALERS_RIGHT, CUT_DEALER_EXACT_COUNT_BONUS, CUT_JOKER_EXPOSED_KEPT_BY_CUTTER,
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
    cut_reported: NotRequired[bool]         # the cut is the one the table reported, not the seed's


def cut_count(seed: str, pack_size: int) -> int:
    """How many cards a seeded cut lifts: ``4 + x mod (n - 7)`` (see the module's text)."""
    return 4 + seeded_number(seed, "cut") % (pack_size - 7)


@dataclass(frozen=True)
class ReportedCut:
    """A cut the table reports instead of one drawn from the seed: how many cards were lifted, and by
    whom (None: the player who cuts in this variant)."""
    count: int
    by: str | None = None


def _deal_problems(variant: Variant, players: list[str], dealer: str | None, hand: int | None) -> list[Problem]:
    """Why a deal cannot be made as asked: the hand number, the players, the dealer."""
    problems = []
    contract = variant.rules.contract
    if contract is None and hand is not None:
        problems.append(Problem("/hand", "this variant does not number its hands (it has no contracts)"))
    elif contract is not None and hand is not None and not contract.first <= hand <= contract.last:
        problems.append(Problem("/hand", f"the hands of this game are numbered {contract.first} to {contract.last}"))
    problems += player_list_problems(players, variant)
    if dealer is not None and dealer not in players:
        problems.append(Problem("/dealer", f"{dealer!r} is not one of the players"))
    return problems


# CUT_DEALER_EXACT_COUNT_BONUS: where the variant has the bonus the dealer cuts; a reported cut by another player
#   is refused
def _cut_of(variant: Variant, seed: str, pack_size: int, dealer: str, cutter: str, cut: ReportedCut | None) -> int:
    """How many cards the cut lifts: as the table reports it, checked against who cuts in this variant
    (the dealer where an exact cut earns a bonus, else the player on the dealer's right) and the pack;
    else drawn from the seed (``cut_count``)."""
    if cut is None:
        return cut_count(seed, pack_size)
    who = dealer if variant.rules.deal.dealer_cut_bonus is not None else cutter
    problems = []
    if cut.by is not None and cut.by != who:
        clause = (CUT_DEALER_EXACT_COUNT_BONUS if variant.rules.deal.dealer_cut_bonus is not None
                  else CUT_BY_PLAYER_ON_DEALERS_RIGHT)
        problems.append(Problem("/cut/by", f"{who} cuts at this table, not {cut.by} ({variant.cite(clause)})"))
    if not 1 <= cut.count < pack_size:
        problems.append(Problem("/cut/count", f"a cut lifts 1 to {pack_size - 1} of the {pack_size} cards of the pack"))
    if problems:
        raise MalformedInput(problems)
    return cut.count


@enforces(DECK_TWO_PACKS_TWO_JOKERS, DECK_THREE_PACKS_THREE_JOKERS, DECK_TWO_PACKS_FOUR_JOKERS,
          DECK_JAMAICAN_PACKS_BY_PLAYERS, CUT_BY_PLAYER_ON_DEALERS_RIGHT, CUT_JOKER_EXPOSED_KEPT_BY_CUTTER,
          DEAL_SINGLY_THIRTEEN_EACH, DEAL_NORTH_AMERICAN_COUNT_BY_PLAYERS, DEAL_DENEXA_FIFTEEN_EACH,
          DEAL_UK_PACKETS_3_2_3_2_3, DEAL_JAMAICAN_CARDS_PER_HAND, DEAL_JAMAICAN_TWELVE_IN_FIRST_THREE_HANDS,
          DEAL_BABY_SIX_SEVEN_EIGHT, DEAL_BABY_EIGHT_EVERY_HAND, DEAL_UPCARD_STARTS_DISCARD_PILE,
          DEAL_UK_NO_UPCARD)
def deal(variant: Variant, players: list[str], seed: str | int, dealer: str | None = None,
         scores: dict[str, int] | None = None, hand: int | None = None,
         cut: ReportedCut | None = None) -> tuple[State, DealRecord]:
    """The state at the start of a hand (hand number ``hand`` of a contract game: its first hand
    when not given), and a record of how it was dealt; ``cut``: the cut as the table reports it (else
    drawn from the seed)."""
    problems = _deal_problems(variant, players, dealer, hand)
    if problems:
        raise MalformedInput(problems)
    contract = variant.rules.contract
    number = (hand or contract.first) if contract is not None else 0
    dealer = dealer if dealer is not None else players[-1]
    seed = seed_text(seed)
    n = len(players)
    table_pack = variant.rules.pack_for(n)
    cards = shuffled(pack_order(table_pack.decks, table_pack.jokers), seed, "deal")
    start = (players.index(dealer) + 1) % n
    order = [players[(start + k) % n] for k in range(n)]
    cutter = players[(players.index(dealer) - 1) % n]
    lifted = _cut_of(variant, seed, len(cards), dealer, cutter, cut)
    each = variant.cards_for(n, number)
    hands: dict[str, list[Card]] = {pid: [] for pid in players}
    shown = None
    if variant.rules.deal.joker_on_cut:
        shown = cards[lifted - 1]
        cards = cards[lifted:] + cards[:lifted]
        if shown.is_joker:
            hands[cutter].append(cards.pop())
    pos = _deal_out(variant, cards, order, hands, each)
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
        record["dealer_cut"] = lifted
        record["dealer_cut_bonus"] = bonus if lifted == n * each else 0
    if shown is not None:
        record["cut_shows"] = shown.code
        record["cutter_keeps_joker"] = shown.is_joker
    if cut is not None:
        record["cut_reported"] = True
    return state, record


def _deal_out(variant: Variant, cards: list[Card], order: list[str], hands: dict[str, list[Card]], each: int) -> int:
    """Deal ``each`` cards to every player in ``order``, one at a time or in the variant's packets, from
    the top of ``cards``; the position of the first card not dealt."""
    packets = list(variant.rules.deal.packets or [1] * each)
    pos = 0
    for size in packets:
        for pid in order:
            give = min(size, each - len(hands[pid]))
            hands[pid].extend(cards[pos:pos + give])
            pos += give
    return pos
