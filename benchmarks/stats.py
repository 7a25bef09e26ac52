"""Percentiles and timing helpers shared by the benchmarks."""

from __future__ import annotations

import statistics
import time


def percentile(samples: list[float], pct: float) -> float:
    ordered = sorted(samples)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(pct / 100 * (len(ordered) - 1))))
    return ordered[index]


def summary_ms(samples_s: list[float]) -> dict[str, float]:
    ms = [s * 1000 for s in samples_s]
    return {"p50": statistics.median(ms), "p95": percentile(ms, 95), "p99": percentile(ms, 99), "n": len(ms)}


def timed(fn, *args, **kwargs) -> tuple[float, object]:
    start = time.perf_counter()
    result = fn(*args, **kwargs)
    return time.perf_counter() - start, result


def fmt(summary: dict[str, float]) -> str:
    return f"p50 {summary['p50']:.2f} ms · p95 {summary['p95']:.2f} ms · p99 {summary['p99']:.2f} ms (n={summary['n']})"


def calibration() -> float:
    """CPU ms of ``sum(range(1_000_000))`` (median of 5): about 8-10 ms on a current laptop core;
    divide a benchmark's figures by (this / 9) to compare machines."""
    samples = []
    for _ in range(5):
        start = time.thread_time()
        sum(range(1_000_000))
        samples.append(time.thread_time() - start)
    return round(sorted(samples)[2] * 1000, 1)
