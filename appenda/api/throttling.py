"""Per-token API rate limits on a cache every server shares (issue 22).

A token (a person's or a bot's) may make ``APPENDA_API_RATES["token"]`` requests, a signed-in
browser session ``["session"]`` and an anonymous caller (the public docs and tool schemas) per
address ``["anonymous"]``. Counts live in the ``throttle`` cache (the database cache on the
control database by default, so every gunicorn worker and server shares them). Over the limit:
429 ``throttled`` with ``Retry-After``. The rates are read at each request, so tests can lower
them with ``override_settings``.
"""

from __future__ import annotations

import hashlib
import math
import time

from django.conf import settings
from django.core.cache import caches
from rest_framework import exceptions
from rest_framework.throttling import SimpleRateThrottle

CACHE_ALIAS = "throttle"


class TokenRateThrottle(SimpleRateThrottle):
    cache_format = "appenda-throttle:%(scope)s:%(ident)s"

    def timer(self) -> float:  # looked up at each call (DRF binds time.time once)
        return time.time()

    def __init__(self):  # the scope is chosen per request (allow_request), not per class
        self.cache = caches[CACHE_ALIAS]

    def allow_request(self, request, view):
        self.scope, ident = self._scope_and_ident(request)
        self.rate = getattr(settings, "APPENDA_API_RATES", {}).get(self.scope)
        if self.rate is None:
            return True
        self.num_requests, self.duration = self.parse_rate(self.rate)
        self.key = self.cache_format % {"scope": self.scope, "ident": ident}
        if self._allow():
            return True
        wait = max(1, math.ceil(self.wait() or 1))
        raise exceptions.Throttled(wait=wait, detail=(
            f"Too many requests: this {self._who()} may make {self.num_requests} requests per "
            f"{self._period()}. Wait {wait} s (Retry-After) and send it again."))

    def _allow(self) -> bool:
        self.history = self.cache.get(self.key, [])
        self.now = self.timer()
        while self.history and self.history[-1] <= self.now - self.duration:
            self.history.pop()
        if len(self.history) >= self.num_requests:
            return False
        return self.throttle_success()

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
