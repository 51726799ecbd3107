"""What the tests use and are not tests: the random player, the fuzzer of the vectors' requests, the wire-format bot, helpers."""
