"""`make bench`: runs every benchmark in its own process and writes benchmarks/RESULTS.md
with the machine, the date and each benchmark's printed figures."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = [
    ("Memory core: turn start, search, saves", "benchmarks.bench_core"),
    ("Secret detection: precision, recall, time per note", "benchmarks.bench_secrets"),
    ("Person detector: time per note and load", "benchmarks.bench_people"),
    ("Table people and records: lookup time at 1k / 100k / 1M records", "benchmarks.bench_refusals"),
    ("Search ranking: lexical, semantic, hybrid on paraphrases", "benchmarks.bench_search_ranking"),
    ("Search service: memory_search over 1,000 readable notes, saves with the embedding",
     "benchmarks.bench_search_service"),
    ("Search at scale: one workspace of 1k / 10k / 100k readable notes", "benchmarks.bench_scale"),
    ("Search cut-off: calibrated on the paraphrase set", "benchmarks.bench_search_cutoff"),
    ("Load and overload: runserver burst, gunicorn at 1x / 3x / 1x with the agent mix", "benchmarks.bench_load"),
    ("Memory soak: worker RSS under save-heavy traffic on gunicorn", "benchmarks.bench_soak"),
]


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = ""
    try:
        kib = int(Path("/proc/meminfo").read_text().split()[1])
        memory = f", {kib / 1024 / 1024:.0f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    return f"{platform.machine()}, {os.cpu_count()} cores, {cpu}{memory}, Python {platform.python_version()}"


def _kept_sections(path: Path) -> dict[str, str]:
    """The sections of an earlier RESULTS.md, by title: a benchmark not run this time keeps its
    figures, with the date and machine they were measured on."""
    if not path.exists():
        return {}
    sections, title, lines = {}, None, []
    for line in path.read_text().splitlines():
        if line.startswith("## "):
            if title:
                sections[title] = "\n".join(lines).strip()
            title, lines = line[3:].strip(), []
        elif title:
            lines.append(line)
    if title:
        sections[title] = "\n".join(lines).strip()
    return sections


def main() -> int:
    """``python -m benchmarks.run [bench_core …]``: every benchmark, or those named; the others
    keep their last figures in RESULTS.md."""
    only = set(sys.argv[1:])
    results = ROOT / "benchmarks" / "RESULTS.md"
    kept = _kept_sections(results)
    when = f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC on {machine()}"
    sections = [
        "# Benchmark results",
        "",
        "Each section says when and on which machine it was measured (`make bench` runs them all; "
        "`python -m benchmarks.run NAME…` runs some and keeps the others). Medians and ratios in a section "
        "come from one run; these machines are noisy.",
    ]
    failed = 0
    for title, module in BENCHMARKS:
        heading = f"{title} ({module})"
        if only and module.rsplit(".", 1)[-1] not in only:
            if heading in kept:
                sections += ["", f"## {heading}", "", kept[heading]]
            continue
        if not (ROOT / (module.replace(".", "/") + ".py")).exists():
            continue
        print(f"\n=== {heading}", flush=True)
        start = time.perf_counter()
        result = subprocess.run([sys.executable, "-m", module], cwd=ROOT, capture_output=True, text=True)
        print(result.stdout[-20000:], end="", flush=True)
        if result.returncode != 0:
            failed += 1
            print(result.stderr[-5000:], file=sys.stderr)
        sections += ["", f"## {heading}", "", f"`python -m {module}` — {time.perf_counter() - start:.0f} s, "
                     f"measured {when}" + ("" if result.returncode == 0 else f", FAILED (exit {result.returncode})"),
                     "", "```", result.stdout.strip()[-15000:], "```"]
    results.write_text("\n".join(sections) + "\n")
    print(f"\nWrote {results.relative_to(ROOT)}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
