"""Tests of the project as a whole: packaging, layers, types, README and docs, the benchmarks' floor."""
