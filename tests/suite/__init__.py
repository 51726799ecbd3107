"""Tests of the conformance suite: the vectors, the runners, the export, the mutation tooling."""
