"""Per-token API rate limits shared by every server (issue 22, R-OPS-1).

A token (a person's or a bot's) may make ``APPENDA_API_RATES["token"]`` requests, a signed-in
browser session ``["session"]`` and an anonymous caller (the public docs and tool schemas) per
address ``["anonymous"]``, per window of the rate's period. Over the limit: 429 ``throttled``
with ``Retry-After`` (until the window ends). The rates are read at each request, so tests can
lower them with ``override_settings``.

Each request is counted by one upsert of its caller's row for the current window
(``ops.models.RateCount``, control database) that returns the count: atomic, one statement.
The Django database cache this replaced kept a list of every request time per token and wrote it
back with four statements per request (a COUNT(*) of the whole cache among them), and requests
of one token queued on its row: a third of the latency at 3x load (benchmarks/bench_load.py,
RESULTS.md). A fixed window lets a caller make up to twice its rate across
a window's edge: enough for an abuse guard, which is all this is.
"""

from __future__ import annotations

import hashlib
import math
import time

from django.conf import settings
from django.db import connections
from rest_framework import exceptions
from rest_framework.throttling import SimpleRateThrottle

CONTROL_ALIAS = "default"


def count_request(key: str, period: int, now: float) -> tuple[int, float]:
    """Counts a request of ``key`` in the window of ``period`` seconds holding ``now``: the
    window's count with this request, and the seconds until the window ends."""
    from ops.models import RateCount

    bucket = int(now // period)
    ends = (bucket + 1) * period
    connection = connections[CONTROL_ALIAS]
    table = connection.ops.quote_name(RateCount._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (key, bucket, hits, expires) VALUES (%s, %s, 1, %s) "
            f"ON CONFLICT (key, bucket) DO UPDATE SET hits = {table}.hits + 1 RETURNING hits",
            [key, bucket, ends])
        (hits,) = cursor.fetchone()
        if hits == 1:  # the first request of this caller in this window: forget ended windows
            cursor.execute(f"DELETE FROM {table} WHERE expires < %s", [int(now)])
    return hits, ends - now


class TokenRateThrottle(SimpleRateThrottle):
    def timer(self) -> float:  # looked up at each call (DRF binds time.time once)
        return time.time()

    def __init__(self):  # the scope and rate are chosen per request (allow_request), not per class
        pass

    def allow_request(self, request, view):
        self.scope, ident = self._scope_and_ident(request)
        self.rate = getattr(settings, "APPENDA_API_RATES", {}).get(self.scope)
        if self.rate is None:
            return True
        self.num_requests, self.duration = self.parse_rate(self.rate)
        hits, left = count_request(f"{self.scope}:{ident}", self.duration, self.timer())
        if hits <= self.num_requests:
            return True
        wait = max(1, math.ceil(left))
        raise exceptions.Throttled(wait=wait, detail=(
            f"Too many requests: this {self._who()} may make {self.num_requests} requests per "
            f"{self._period()}. Wait {wait} s (Retry-After) and send it again."))

    def _scope_and_ident(self, request) -> tuple[str, str]:
        if isinstance(request.auth, str):  # an API token: counted per token, never stored as such
            return "token", hashlib.sha256(request.auth.encode()).hexdigest()[:32]
        if request.user and request.user.is_authenticated:
            return "session", str(request.user.pk)
        return "anonymous", self.get_ident(request)

    def _who(self) -> str:
        return {"token": "token", "session": "account", "anonymous": "address"}[self.scope]

    def _period(self) -> str:
        return {1: "second", 60: "minute", 3600: "hour", 86400: "day"}.get(self.duration, f"{self.duration} s")
