"""Benchmarks, run by `make bench`: figures and ratios, written to benchmarks/RESULTS.md."""
