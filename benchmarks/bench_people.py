"""Person detector benchmark (SPEC R-SAVE-3b): CPU time per note on the people corpus, a 1 KB
note dense with names, and the first call's load (time and memory), in a fresh process; and the
share of sentences naming someone that it holds, and of benign ones it holds by mistake, on the
two outside sources of prose (GUM, WNUT 2017: their held and tuning halves; the presidio-derived
set is measured with the table index by benchmarks.bench_refusals).

    python -m benchmarks.bench_people

Measured here rather than asserted in tests/memories/test_people_detector.py: a timed unit test
fails on slower hardware without any change to the code (it did, on an AMD EPYC machine).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

CORPUS = ROOT / "tests" / "data" / "people_corpus.json"
# Targets of issue 18 on outside sets: other people held, false holds.
HELD_TARGET = 0.95
FALSE_HOLD_TARGET = 0.02
DENSE = ("Ask Priya Raman and Ms. Lopez about the Kafka lag in orders.region. " * 15)[:1000]
# Targets of issue 18 / R-SAVE-3b.
NOTE_P95_MS = 2.0
LOAD_CPU_S = 3.0
LOAD_MB = 200

LOAD_SCRIPT = """
import sys, time
sys.path.insert(0, {repo!r})

def rss_mb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0

from memories.refusals import people
rss0 = rss_mb()
w0, c0 = time.perf_counter(), time.process_time()
people.find_person_mentions("Ask Priya about it")
print(time.perf_counter() - w0, time.process_time() - c0, rss_mb() - rss0)
"""


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))] * 1000


def main() -> int:
    from benchmarks.people_corpora import PROSE_SOURCES, prose_figures, prose_rows
    from memories.refusals import people

    people.load()
    values = [n["value"] for n in json.loads(CORPUS.read_text(encoding="utf-8"))["notes"]]
    cpu = []
    for value in values:
        start = time.process_time()
        people.find_person_mentions(value)
        cpu.append(time.process_time() - start)
    batches = []
    for _ in range(5):
        start = time.process_time()
        for _ in range(20):
            people.find_person_mentions(DENSE)
        batches.append((time.process_time() - start) / 20 * 1000)
    p95 = _pct(cpu, 0.95)
    print(f"Corpus notes (n={len(values)}): CPU p50 {_pct(cpu, 0.5):.3f} ms, p95 {p95:.3f} ms "
          f"(target p95 <= {NOTE_P95_MS} ms: {'met' if p95 <= NOTE_P95_MS else 'NOT met'})")
    print(f"1 KB note dense with names: CPU {min(batches):.3f} ms, best of 5 batches of 20 "
          f"(target <= {NOTE_P95_MS} ms: {'met' if min(batches) <= NOTE_P95_MS else 'NOT met'})")
    for source, held_path, tuning_path in PROSE_SOURCES:
        for half, path in (("held half", held_path), ("tuning half", tuning_path)):
            held, named, false, benign = prose_figures(prose_rows(path))
            met = held / named >= HELD_TARGET and false / benign <= FALSE_HOLD_TARGET
            print(f"{source}, {half}: other people held {held / named:.1%} ({held}/{named}), false holds "
                  f"{false / benign:.1%} ({false}/{benign}) (targets {HELD_TARGET:.0%} / "
                  f"{FALSE_HOLD_TARGET:.0%}: {'met' if met else 'NOT met'})")
    out = subprocess.run([sys.executable, "-c", LOAD_SCRIPT.format(repo=str(ROOT))], capture_output=True,
                         text=True, check=True, timeout=300).stdout.split()
    wall, load_cpu, grown = (float(x) for x in out)
    print(f"First call in a fresh process (loads the word lists): wall {wall:.2f} s, CPU {load_cpu:.2f} s, "
          f"+{grown:.0f} MB (targets CPU < {LOAD_CPU_S} s: {'met' if load_cpu < LOAD_CPU_S else 'NOT met'}; "
          f"< {LOAD_MB} MB: {'met' if grown < LOAD_MB else 'NOT met'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
