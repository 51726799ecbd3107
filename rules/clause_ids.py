"""Every clause of the registry as a constant: code names a clause only through its constant,
so that "find usages" of a constant finds the code that enforces the clause.

GENERATED from rules/clauses.yaml and rules/referee-clauses.yaml by
``python -m tools.clause_tools --generate``; do not edit (tests/rules/test_clause_reach.py fails when it is
out of date).  Each comment gives the clause's kind and level.  Rewrite literals into constants
with ``python -m tools.clause_tools --rewrite`` (see tools/clause_tools.py).
"""
from __future__ import annotations

from typing import Final

# -- players (clauses.yaml)
PLAYERS_COUNT_TWO_TO_FIVE: Final[str] = "players.count.two_to_five"  # action, hand
PLAYERS_COUNT_NORTH_AMERICAN_TWO_TO_SIX: Final[str] = "players.count.north_american_two_to_six"  # action, hand
PLAYERS_COUNT_JAMAICAN_THREE_TO_EIGHT: Final[str] = "players.count.jamaican_three_to_eight"  # outcome, hand
PLAYERS_COUNT_DENEXA_TWO_TO_FOUR: Final[str] = "players.count.denexa_two_to_four"  # action, hand

# -- deck (clauses.yaml)
DECK_TWO_PACKS_TWO_JOKERS: Final[str] = "deck.two_packs_two_jokers"  # outcome, hand
DECK_THREE_PACKS_THREE_JOKERS: Final[str] = "deck.three_packs_three_jokers"  # outcome, hand
DECK_TWO_PACKS_FOUR_JOKERS: Final[str] = "deck.two_packs_four_jokers"  # outcome, hand
DECK_JAMAICAN_PACKS_BY_PLAYERS: Final[str] = "deck.jamaican_packs_by_players"  # outcome, hand

# -- card_values (clauses.yaml)
VALUES_ACE11_PICTURES10_PIPS: Final[str] = "values.ace11_pictures10_pips"  # outcome, hand
VALUES_JOKER_IN_MELD_TAKES_REPRESENTED_VALUE: Final[str] = "values.joker_in_meld_takes_represented_value"  # outcome, hand
VALUES_JOKER_IN_HAND_15: Final[str] = "values.joker_in_hand_15"  # outcome, hand
VALUES_GRIFFIN_JOKER_IN_HAND_25: Final[str] = "values.griffin_joker_in_hand_25"  # outcome, hand
VALUES_NORTH_AMERICAN_ACE15_JOKER25: Final[str] = "values.north_american_ace15_joker25"  # outcome, hand
VALUES_ACE_LOW_COUNTS_ONE_WHEN_LAID: Final[str] = "values.ace_low_counts_one_when_laid"  # outcome, hand
VALUES_JAMAICAN_HAND_POINTS: Final[str] = "values.jamaican_hand_points"  # outcome, hand

# -- seating (clauses.yaml)
SEATING_ACE_TO_N_DRAW: Final[str] = "seating.ace_to_n_draw"  # outcome, game
DEALER_ROTATION_LEFT: Final[str] = "dealer.rotation_left"  # outcome, game
DEALER_ROTATION_JAMAICAN: Final[str] = "dealer.rotation_jamaican"  # outcome, game

# -- cut (clauses.yaml)
CUT_BY_PLAYER_ON_DEALERS_RIGHT: Final[str] = "cut.by_player_on_dealers_right"  # outcome, hand
CUT_JOKER_EXPOSED_KEPT_BY_CUTTER: Final[str] = "cut.joker_exposed_kept_by_cutter"  # action, hand
CUT_DEALER_EXACT_COUNT_BONUS: Final[str] = "cut.dealer_exact_count_bonus"  # outcome, hand

# -- deal (clauses.yaml)
DEAL_SINGLY_THIRTEEN_EACH: Final[str] = "deal.singly_thirteen_each"  # outcome, hand
DEAL_NORTH_AMERICAN_COUNT_BY_PLAYERS: Final[str] = "deal.north_american_count_by_players"  # outcome, hand
DEAL_DENEXA_FIFTEEN_EACH: Final[str] = "deal.denexa_fifteen_each"  # outcome, hand
DEAL_UK_PACKETS_3_2_3_2_3: Final[str] = "deal.uk_packets_3_2_3_2_3"  # outcome, hand
DEAL_JAMAICAN_CARDS_PER_HAND: Final[str] = "deal.jamaican_cards_per_hand"  # outcome, hand
DEAL_JAMAICAN_TWELVE_IN_FIRST_THREE_HANDS: Final[str] = "deal.jamaican_twelve_in_first_three_hands"  # outcome, hand
DEAL_BABY_SIX_SEVEN_EIGHT: Final[str] = "deal.baby_six_seven_eight"  # outcome, hand
DEAL_BABY_EIGHT_EVERY_HAND: Final[str] = "deal.baby_eight_every_hand"  # outcome, hand
DEAL_UPCARD_STARTS_DISCARD_PILE: Final[str] = "deal.upcard_starts_discard_pile"  # outcome, hand
DEAL_UK_NO_UPCARD: Final[str] = "deal.uk_no_upcard"  # outcome, hand

# -- game_structure (clauses.yaml)
GAME_ELIMINATION_LAST_SURVIVOR_WINS: Final[str] = "game.elimination_last_survivor_wins"  # outcome, game
GAME_JAMAICAN_NINE_HANDS_LOWEST_TOTAL: Final[str] = "game.jamaican_nine_hands_lowest_total"  # outcome, game
GAME_JAMAICAN_KALOOKI_HANDS_1_4: Final[str] = "game.jamaican_kalooki_hands_1_4"  # outcome, game
GAME_JAMAICAN_SUPER_KALOOKI_HANDS_5_9: Final[str] = "game.jamaican_super_kalooki_hands_5_9"  # outcome, game
GAME_BABY_THREE_HANDS: Final[str] = "game.baby_three_hands"  # outcome, game
GAME_NORTH_AMERICAN_WINNER_COLLECTS_POINTS: Final[str] = "game.north_american_winner_collects_points"  # outcome, game
GAME_EACH_HAND_SETTLED_SEPARATELY: Final[str] = "game.each_hand_settled_separately"  # outcome, game

# -- turn (clauses.yaml)
TURN_LEFT_OF_DEALER_STARTS_CLOCKWISE: Final[str] = "turn.left_of_dealer_starts_clockwise"  # action, hand
TURN_DRAW_MELD_DISCARD: Final[str] = "turn.draw_meld_discard"  # action, hand
TURN_MELDING_OPTIONAL: Final[str] = "turn.melding_optional"  # outcome, hand

# -- penalty (clauses.yaml)
TURN_JAMAICAN_MISSING_PLUCK_OR_DISCARD_PENALTY: Final[str] = "turn.jamaican_missing_pluck_or_discard_penalty"  # outcome, hand

# -- draw (clauses.yaml)
DRAW_ONLY_TOP_CARD: Final[str] = "draw.only_top_card"  # action, hand
DRAW_FIRST_PLAY_FREE_UPCARD: Final[str] = "draw.first_play_free_upcard"  # action, hand
DRAW_DISCARD_ONLY_WITH_INITIAL_MELD: Final[str] = "draw.discard_only_with_initial_meld"  # action, hand
DRAW_DISCARD_FREE_AFTER_INITIAL_MELD: Final[str] = "draw.discard_free_after_initial_meld"  # action, hand
DRAW_UK_DISCARD_MUST_COMPLETE_SET_NOW: Final[str] = "draw.uk_discard_must_complete_set_now"  # action, hand
DRAW_UK_DISCARD_NOT_AS_GOER: Final[str] = "draw.uk_discard_not_as_goer"  # action, hand
DRAW_UK_FIRST_PLAYER_FROM_STOCK: Final[str] = "draw.uk_first_player_from_stock"  # action, hand
DRAW_SCARNE_DISCARD_USED_IMMEDIATELY: Final[str] = "draw.scarne_discard_used_immediately"  # action, hand
DRAW_DEALER_UPCARD_OPTION: Final[str] = "draw.dealer_upcard_option"  # action, hand
DRAW_JAMAICAN_DISCARD_OPEN_BEFORE_LAYING: Final[str] = "draw.jamaican_discard_open_before_laying"  # action, hand
DRAW_JAMAICAN_STOCK_ONLY_AFTER_LAYING: Final[str] = "draw.jamaican_stock_only_after_laying"  # action, hand

# -- meld_validity (clauses.yaml)
MELD_SET_THREE_OR_FOUR_DISTINCT_SUITS: Final[str] = "meld.set.three_or_four_distinct_suits"  # action, hand
MELD_SET_GRIFFIN_IDENTICAL_TRIPLE: Final[str] = "meld.set.griffin_identical_triple"  # action, hand
MELD_SET_JAMAICAN_THREE_ANY_SUITS: Final[str] = "meld.set.jamaican_three_any_suits"  # action, hand
MELD_SET_SCARNE_ALL_JOKER_SET: Final[str] = "meld.set.scarne_all_joker_set"  # action, hand
MELD_RUN_THREE_PLUS_SAME_SUIT: Final[str] = "meld.run.three_plus_same_suit"  # action, hand
MELD_RUN_ACE_HIGH_ONLY: Final[str] = "meld.run.ace_high_only"  # action, hand
MELD_RUN_ACE_HIGH_OR_LOW_NOT_BOTH: Final[str] = "meld.run.ace_high_or_low_not_both"  # action, hand
MELD_RUN_LONG_SEQUENCE_MAY_SPLIT: Final[str] = "meld.run.long_sequence_may_split"  # action, hand
MELD_RUN_JAMAICAN_FOUR_IS_FOUR_PLUS: Final[str] = "meld.run.jamaican_four_is_four_plus"  # action, hand
MELD_RUN_JAMAICAN_ACE_ONLY_AT_ENDS: Final[str] = "meld.run.jamaican_ace_only_at_ends"  # action, hand
MELD_JAMAICAN_SEVERAL_4S_DISTINCT_SUITS: Final[str] = "meld.jamaican.several_4s_distinct_suits"  # action, hand
MELD_JAMAICAN_SEVERAL_3S_DISTINCT_RANKS: Final[str] = "meld.jamaican.several_3s_distinct_ranks"  # action, hand
MELD_JAMAICAN_FULL_SUIT_FOR_THREE_4S: Final[str] = "meld.jamaican.full_suit_for_three_4s"  # action, hand
MELD_PERMANENT_NO_REARRANGEMENT: Final[str] = "meld.permanent_no_rearrangement"  # action, hand

# -- jokers (clauses.yaml)
JOKER_WILD_FOR_ANY_CARD: Final[str] = "joker.wild_for_any_card"  # action, hand
JOKER_DECLARE_RUN_END_JOKER: Final[str] = "joker.declare_run_end_joker"  # action, hand
JOKER_DECLARE_NATURAL_PLUS_TWO_JOKERS: Final[str] = "joker.declare_natural_plus_two_jokers"  # action, hand
JOKER_SET_JOKER_SUIT_UNDECLARED: Final[str] = "joker.set_joker_suit_undeclared"  # action, hand
JOKER_UK_REPRESENTATION_MUST_BE_CLEAR: Final[str] = "joker.uk_representation_must_be_clear"  # action, hand
JOKER_JAMAICAN_NO_ADJACENT_JOKERS_IN_4: Final[str] = "joker.jamaican_no_adjacent_jokers_in_4"  # action, hand
JOKER_JAMAICAN_3_NEEDS_TWO_NATURALS: Final[str] = "joker.jamaican_3_needs_two_naturals"  # action, hand
JOKER_JAMAICAN_ONLY_ON_OWN_SETS: Final[str] = "joker.jamaican_only_on_own_sets"  # action, hand
JOKER_JAMAICAN_NEVER_REMOVED: Final[str] = "joker.jamaican_never_removed"  # action, hand
JOKER_JAMAICAN_MOVE_UP_IN_4: Final[str] = "joker.jamaican_move_up_in_4"  # action, hand

# -- initial_meld (clauses.yaml)
INITIAL_MELD_MINIMUM_40: Final[str] = "initial_meld.minimum_40"  # action, hand
INITIAL_MELD_MINIMUM_51_BLACKPOOL: Final[str] = "initial_meld.minimum_51_blackpool"  # action, hand
INITIAL_MELD_MINIMUM_51_NORTH_AMERICAN: Final[str] = "initial_meld.minimum_51_north_american"  # action, hand
INITIAL_MELD_SEVERAL_MELDS_SUMMED: Final[str] = "initial_meld.several_melds_summed"  # action, hand
INITIAL_MELD_BUILDS_NOT_COUNTED: Final[str] = "initial_meld.builds_not_counted"  # action, hand
INITIAL_MELD_LAYOFFS_COUNT_WITH_OWN_MELD: Final[str] = "initial_meld.layoffs_count_with_own_meld"  # action, hand
INITIAL_MELD_LATER_MELDS_ANY_VALUE: Final[str] = "initial_meld.later_melds_any_value"  # action, hand
INITIAL_MELD_KALOOKIE_EXEMPT: Final[str] = "initial_meld.kalookie_exempt"  # action, hand
INITIAL_MELD_JAMAICAN_COMPLETE_CONTRACT_FIRST: Final[str] = "initial_meld.jamaican_complete_contract_first"  # action, hand

# -- contract (clauses.yaml)
CONTRACT_JAMAICAN_SCHEDULE: Final[str] = "contract.jamaican_schedule"  # outcome, hand
CONTRACT_BABY_SCHEDULE: Final[str] = "contract.baby_schedule"  # outcome, hand

# -- building (clauses.yaml)
BUILD_ONLY_AFTER_OWN_OPENING: Final[str] = "build.only_after_own_opening"  # action, hand
BUILD_ONTO_ANY_PLAYERS_MELD: Final[str] = "build.onto_any_players_meld"  # action, hand
BUILD_SET_TO_FOUR_CARDS: Final[str] = "build.set_to_four_cards"  # action, hand
BUILD_RUN_EXTEND_AT_ENDS: Final[str] = "build.run_extend_at_ends"  # action, hand
BUILD_RUN_MAX_TWO_PER_END_PER_TURN: Final[str] = "build.run_max_two_per_end_per_turn"  # action, hand
BUILD_RUN_MAX_TWO_TOTAL_PER_TURN: Final[str] = "build.run_max_two_total_per_turn"  # action, hand
BUILD_JOKER_USABLE_IN_BUILDS: Final[str] = "build.joker_usable_in_builds"  # action, hand
BUILD_JAMAICAN_TACK_ONLY_AFTER_CONTRACT: Final[str] = "build.jamaican_tack_only_after_contract"  # action, hand
BUILD_JAMAICAN_TACK_SAME_RANK_ON_3: Final[str] = "build.jamaican_tack_same_rank_on_3"  # action, hand
BUILD_JAMAICAN_TACK_ON_4_UNTIL_SUIT_COMPLETE: Final[str] = "build.jamaican_tack_on_4_until_suit_complete"  # action, hand

# -- going_out (clauses.yaml)
BUILD_NONE_AFTER_SOMEONE_GOES_OUT: Final[str] = "build.none_after_someone_goes_out"  # action, hand

# -- joker_reuse (clauses.yaml)
JOKER_REUSE_REQUIRES_OPENING: Final[str] = "joker_reuse.requires_opening"  # action, hand
JOKER_REUSE_RELEASED_JOKER_USED_AT_ONCE: Final[str] = "joker_reuse.released_joker_used_at_once"  # action, hand
JOKER_REUSE_UK_INTO_NEW_SET_ONLY: Final[str] = "joker_reuse.uk_into_new_set_only"  # action, hand
JOKER_REUSE_SET_NEEDS_BOTH_MISSING_NATURALS: Final[str] = "joker_reuse.set_needs_both_missing_naturals"  # action, hand
JOKER_REUSE_SET_SINGLE_NATURAL_CLOSES_SET: Final[str] = "joker_reuse.set_single_natural_closes_set"  # action, hand
JOKER_REUSE_SET_TWO_JOKERS_RELEASE_ONE: Final[str] = "joker_reuse.set_two_jokers_release_one"  # action, hand
JOKER_REUSE_RUN_EXACT_NATURAL: Final[str] = "joker_reuse.run_exact_natural"  # action, hand
JOKER_REUSE_RUN_INTERIOR_ONLY: Final[str] = "joker_reuse.run_interior_only"  # action, hand
JOKER_REUSE_SET_SINGLE_NATURAL_NORTH_AMERICAN: Final[str] = "joker_reuse.set_single_natural_north_american"  # action, hand
JOKER_REUSE_UK_THREE_CARD_SET_EITHER_NATURAL: Final[str] = "joker_reuse.uk_three_card_set_either_natural"  # action, hand
JOKER_REUSE_UK_FOUR_CARD_SET_LAST_NATURAL: Final[str] = "joker_reuse.uk_four_card_set_last_natural"  # action, hand

# -- discard (clauses.yaml)
DISCARD_JAMAICAN_JOKER_FORBIDDEN: Final[str] = "discard.jamaican_joker_forbidden"  # action, hand
DISCARD_JAMAICAN_ANY_OTHER_CARD: Final[str] = "discard.jamaican_any_other_card"  # action, hand

# -- going_out (clauses.yaml)
GO_OUT_FINAL_DISCARD_REQUIRED: Final[str] = "go_out.final_discard_required"  # action, hand
GO_OUT_DENEXA_OUT_OF_CARDS: Final[str] = "go_out.denexa_out_of_cards"  # outcome, hand

# -- scoring (clauses.yaml)
GO_OUT_WINNER_SCORES_NOTHING: Final[str] = "go_out.winner_scores_nothing"  # outcome, hand

# -- bonus (clauses.yaml)
KALOOKIE_DEFINITION: Final[str] = "kalookie.definition"  # outcome, hand
KALOOKIE_BUILDS_NEED_FORTY_NEW_FIRST: Final[str] = "kalookie.builds_need_forty_new_first"  # action, hand

# -- payments (clauses.yaml)
KALOOKIE_PAYS_KALOOKIE_STAKE: Final[str] = "kalookie.pays_kalookie_stake"  # outcome, hand

# -- bonus (clauses.yaml)
KALOOKIE_NO_BONUS_NORTH_AMERICA: Final[str] = "kalookie.no_bonus_north_america"  # outcome, hand
KALUKI_DOUBLES_PER_CARD_PAYMENTS: Final[str] = "kaluki.doubles_per_card_payments"  # outcome, hand
KALOOKIE_DOUBLE_PENALTIES_VARIANT: Final[str] = "kalookie.double_penalties_variant"  # outcome, hand
BEND_JAMAICAN_DOUBLES_POINTS: Final[str] = "bend.jamaican_doubles_points"  # outcome, hand

# -- warning (clauses.yaml)
WARNING_ANNOUNCE_ONE_TO_THREE_CARDS: Final[str] = "warning.announce_one_to_three_cards"  # action, hand

# -- calling (clauses.yaml)
CALL_ELIGIBILITY: Final[str] = "call.eligibility"  # action, hand
CALL_TURN_PLAYER_ALLOWS_OR_REFUSES: Final[str] = "call.turn_player_allows_or_refuses"  # action, hand
CALL_ALLOWED_CALL_EFFECTS: Final[str] = "call.allowed_call_effects"  # action, hand
CALL_FIRST_CALLER_PRIORITY: Final[str] = "call.first_caller_priority"  # outcome, hand
CALL_NOT_BEFORE_CARD_LANDS: Final[str] = "call.not_before_card_lands"  # action, hand
CALL_DEAD_AFTER_STOCK_PLUCK: Final[str] = "call.dead_after_stock_pluck"  # action, hand
CALL_LIMIT_THREE_PER_HAND: Final[str] = "call.limit_three_per_hand"  # action, hand
CALL_LAID_DOWN_TURN_PLAYER_MUST_ALLOW: Final[str] = "call.laid_down_turn_player_must_allow"  # action, hand

# -- penalty (clauses.yaml)
CALL_OVERCALL_CHALLENGE: Final[str] = "call.overcall_challenge"  # action, hand
PENALTY_JAMAICAN_INCORRECT_LAY_BEFORE_DISCARD: Final[str] = "penalty.jamaican_incorrect_lay_before_discard"  # outcome, hand
PENALTY_JAMAICAN_INCORRECT_LAY_AFTER_DISCARD: Final[str] = "penalty.jamaican_incorrect_lay_after_discard"  # outcome, hand
PENALTY_JAMAICAN_HOUSE_RULE_INFRACTIONS: Final[str] = "penalty.jamaican_house_rule_infractions"  # outcome, hand

# -- stock (clauses.yaml)
STOCK_RESHUFFLE_ONCE: Final[str] = "stock.reshuffle_once"  # outcome, hand
STOCK_SECOND_EXHAUSTION_VOIDS_HAND: Final[str] = "stock.second_exhaustion_voids_hand"  # action, hand
STOCK_NO_RESHUFFLE_VARIANT: Final[str] = "stock.no_reshuffle_variant"  # action, hand
STOCK_JAMAICAN_REDEAL_SAME_CONTRACT: Final[str] = "stock.jamaican_redeal_same_contract"  # outcome, hand
VOID_NO_SCORE_NO_PAYMENT: Final[str] = "void.no_score_no_payment"  # outcome, hand

# -- scoring (clauses.yaml)
SCORE_PENALTY_POINTS_CUMULATIVE: Final[str] = "score.penalty_points_cumulative"  # outcome, game
SCORE_JAMAICAN_CUMULATIVE_LOWEST_WINS: Final[str] = "score.jamaican_cumulative_lowest_wins"  # outcome, game
SCORE_PER_CARD_PAYMENTS: Final[str] = "score.per_card_payments"  # outcome, game

# -- elimination (clauses.yaml)
ELIMINATION_OVER_150: Final[str] = "elimination.over_150"  # outcome, game
ELIMINATION_OVER_151: Final[str] = "elimination.over_151"  # outcome, game
ELIMINATION_OVER_301: Final[str] = "elimination.over_301"  # outcome, game
ELIMINATION_OVER_501: Final[str] = "elimination.over_501"  # outcome, game
ELIMINATION_OVER_100: Final[str] = "elimination.over_100"  # action, game
ELIMINATION_GAME_OVER_AT_ONE_SURVIVOR: Final[str] = "elimination.game_over_at_one_survivor"  # action, game

# -- buy_in (clauses.yaml)
BUYIN_SCORE_RESET_TO_HIGHEST_SURVIVOR: Final[str] = "buyin.score_reset_to_highest_survivor"  # outcome, game
BUYIN_MAX_TWO_PER_GAME: Final[str] = "buyin.max_two_per_game"  # action, game
BUYIN_NEEDS_TWO_SURVIVORS: Final[str] = "buyin.needs_two_survivors"  # action, game
BUYIN_DECISION_ORDER: Final[str] = "buyin.decision_order"  # action, game
BUYIN_STAKE_PAID_TO_POOL: Final[str] = "buyin.stake_paid_to_pool"  # outcome, game
BUYIN_UK_NUMBER_AGREED: Final[str] = "buyin.uk_number_agreed"  # action, game
BUYIN_UK_THREE_PLAYERS_STILL_IN: Final[str] = "buyin.uk_three_players_still_in"  # action, game
BUYIN_UK_STAKE_HALF_MAIN: Final[str] = "buyin.uk_stake_half_main"  # outcome, game
BUYIN_NONE_NORTH_AMERICA: Final[str] = "buyin.none_north_america"  # action, game

# -- tournament (clauses.yaml)
BUYIN_BLACKPOOL_MOVES_TO_NEW_TABLE: Final[str] = "buyin.blackpool_moves_to_new_table"  # action, game
TOURNAMENT_BLACKPOOL_SEMIS_AND_FINAL: Final[str] = "tournament.blackpool_semis_and_final"  # outcome, game

# -- payments (clauses.yaml)
STAKES_AGREED_IN_ADVANCE: Final[str] = "stakes.agreed_in_advance"  # action, game
STAKES_INITIAL_STAKE_TO_POOL: Final[str] = "stakes.initial_stake_to_pool"  # action, game
STAKES_WINNER_PAID_BY_EACH_ACTIVE_PLAYER: Final[str] = "stakes.winner_paid_by_each_active_player"  # outcome, game
STAKES_BRITISH_SCHEMES: Final[str] = "stakes.british_schemes"  # outcome, game
STAKES_SWEDISH_RATIO: Final[str] = "stakes.swedish_ratio"  # outcome, game
STAKES_UK_REWARD_PAYMENTS: Final[str] = "stakes.uk_reward_payments"  # outcome, game
STAKES_POOL_TO_LAST_SURVIVOR: Final[str] = "stakes.pool_to_last_survivor"  # outcome, game
STAKES_LEDGER_BALANCES: Final[str] = "stakes.ledger_balances"  # outcome, game
STAKES_DENEXA_TOKENS: Final[str] = "stakes.denexa_tokens"  # outcome, game

# -- turn (referee-clauses.yaml)
REFEREE_CARDS_HELD: Final[str] = "referee.cards_held"  # action, hand

# -- draw (referee-clauses.yaml)
REFEREE_FIRST_DRAW_WITHOUT_UPCARD: Final[str] = "referee.first_draw_without_upcard"  # action, hand

# -- joker_reuse (referee-clauses.yaml)
REFEREE_FULL_SET_JOKER_ONE_NATURAL: Final[str] = "referee.full_set_joker_one_natural"  # action, hand

# -- initial_meld (referee-clauses.yaml)
REFEREE_OPENING_MINIMUM: Final[str] = "referee.opening_minimum"  # action, hand

# -- score (referee-clauses.yaml)
REFEREE_SETTLEMENT_HAND_PENALTY: Final[str] = "referee.settlement_hand_penalty"  # outcome, game
REFEREE_SETTLEMENT_KALOOKIE_PENALTY: Final[str] = "referee.settlement_kalookie_penalty"  # outcome, game
REFEREE_SETTLEMENT_WINNER_POINTS: Final[str] = "referee.settlement_winner_points"  # outcome, game
REFEREE_SETTLEMENT_RUNNING_TOTAL: Final[str] = "referee.settlement_running_total"  # outcome, game
REFEREE_SETTLEMENT_HAND_PAYMENT: Final[str] = "referee.settlement_hand_payment"  # outcome, game
REFEREE_SETTLEMENT_KALOOKIE_PAYMENT: Final[str] = "referee.settlement_kalookie_payment"  # outcome, game
REFEREE_SETTLEMENT_PAYMENTS_BALANCE: Final[str] = "referee.settlement_payments_balance"  # outcome, game
REFEREE_SETTLEMENT_VOID_PENALTY: Final[str] = "referee.settlement_void_penalty"  # outcome, game
REFEREE_SETTLEMENT_VOID_PAYMENT: Final[str] = "referee.settlement_void_payment"  # outcome, game

# -- jokers (referee-clauses.yaml)
REFEREE_JOKER_NEVER_RELEASED: Final[str] = "referee.joker_never_released"  # action, hand

# -- building (referee-clauses.yaml)
REFEREE_RUN_COMPLETE_SUIT: Final[str] = "referee.run_complete_suit"  # action, hand

# -- turn (referee-clauses.yaml)
REFEREE_POSITION_REFERENCES: Final[str] = "referee.position_references"  # outcome, hand

# -- deck (referee-clauses.yaml)
REFEREE_CARDS_CONSERVED: Final[str] = "referee.cards_conserved"  # outcome, hand

# -- turn (referee-clauses.yaml)
REFEREE_POSITION_PROGRESS: Final[str] = "referee.position_progress"  # outcome, hand
REFEREE_HAND_SIZES: Final[str] = "referee.hand_sizes"  # outcome, hand
