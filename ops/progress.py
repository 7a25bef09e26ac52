"""Progress of long operator commands: counts and rate as they go (issue 22).

On a terminal one line is redrawn (a bar when the total is known); in a log (not a TTY) a
line is written every ``every_seconds``, so ``docker logs`` and cron mails show the pace too.
"""

from __future__ import annotations

import time
from typing import TextIO

BAR_WIDTH = 24


class Progress:
    def __init__(self, stream: TextIO, label: str, *, total: int | None = None, unit: str = "item",
                 every_seconds: float = 5.0, tty: bool | None = None):
        self.stream, self.label, self.total, self.unit = stream, label, total, unit
        self.every_seconds = every_seconds
        self.tty = stream.isatty() if tty is None and hasattr(stream, "isatty") else bool(tty)
        self.done = 0
        self.started = self._last = time.perf_counter()

    def rate(self) -> float:
        elapsed = time.perf_counter() - self.started
        return self.done / elapsed if elapsed > 0 else 0.0

    def line(self) -> str:
        of = f"/{self.total}" if self.total is not None else ""
        text = f"{self.label}: {self.done}{of} {self.unit}(s), {self.rate():.1f}/s"
        if self.tty and self.total:
            filled = int(BAR_WIDTH * min(self.done, self.total) / self.total)
            text = f"[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {text}"
        return text

    def _write(self, text: str) -> None:
        if hasattr(self.stream, "ending"):  # a command's OutputWrapper would add its own newline
            self.stream.write(text, ending="")
        else:
            self.stream.write(text)
        self.stream.flush()

    def advance(self, count: int = 1) -> None:
        self.done += count
        now = time.perf_counter()
        if self.tty:
            self._write("\r" + self.line())
        elif now - self._last >= self.every_seconds:
            self._write(self.line() + "\n")
            self._last = now

    def finish(self) -> str:
        """Ends the line (terminal) and returns the summary, which the caller prints its own way."""
        if self.tty:
            self._write("\r" + self.line() + "\n")
        return f"{self.label}: {self.done} {self.unit}(s) in {time.perf_counter() - self.started:.1f} s"


class LogLines:
    """A stream for ``Progress`` that writes each line to a logger (requests, jobs: no terminal)."""

    def __init__(self, logger):
        self.logger = logger

    def isatty(self) -> bool:
        return False

    def write(self, text: str) -> None:
        if text.strip():
            self.logger.info(text.strip())

    def flush(self) -> None:
        pass
