"""Tests of the rules core: the engine, variants, games, settlement, tournaments, unseen cards, random play."""
