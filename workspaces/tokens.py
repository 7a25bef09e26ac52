"""API tokens: random keys shown once, stored as SHA-256 digests (the key has 256 bits of
entropy, so a fast digest is enough; a slow KDF would only slow every request)."""

from __future__ import annotations

import hashlib
import secrets

from django.utils import timezone

from workspaces.models import ApiToken

TOKEN_PREFIX = "apd_"


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def token_create(*, user, name: str = "") -> str:
    """Creates a token for ``user`` and returns the key; only its digest is kept."""
    key = TOKEN_PREFIX + secrets.token_urlsafe(32)
    ApiToken.objects.create(user=user, digest=_digest(key), prefix=key[:8], name=name)
    return key


def token_user(key: str):
    """The active user a key belongs to, or None."""
    token = (
        ApiToken.objects.select_related("user")
        .filter(digest=_digest(key), revoked_at__isnull=True, user__is_active=True)
        .first()
    )
    if token is None:
        return None
    now = timezone.now()
    if token.last_used_at is None or (now - token.last_used_at).total_seconds() > 60:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token.user
