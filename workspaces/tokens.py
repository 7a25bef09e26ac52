"""API tokens: random keys shown once, stored as SHA-256 digests (the key has 256 bits of
entropy, so a fast digest is enough; a slow KDF would only slow every request).

A person makes, lists and revokes their own tokens (``/api/v1/me/tokens/``, the web app's
"Your API tokens"); a bot's token is rotated by the bot's owner or someone who manages agents.
A token is named in URLs by its ``public_id``, never by its counting primary key.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from appenda.db.fast import select_one, select_rows
from appenda.errors import Conflict, DomainError, Forbidden, NotFound
from appenda.ids import parse_uuid
from workspaces.capabilities import Actor
from workspaces.models import ApiToken, Bot

TOKEN_PREFIX = "apd_"
NAME_MAX = ApiToken._meta.get_field("name").max_length
EXPIRY_DAYS_MIN, EXPIRY_DAYS_MAX = 1, 365
# A person needs a few (a laptop, CI, a script); a cap keeps a runaway script from minting
# tokens without end. Revoked and expired tokens do not count.
ACTIVE_TOKENS_MAX = 100
WHERE_TO_MAKE_ONE = "make a new one under Your API tokens in Appenda, or with POST /api/v1/me/tokens/"
NO_SUCH_TOKEN = "No such token among yours."


class TokenExpired(Exception):
    """A key that was valid and has expired: the caller is told so, and how to get a new one."""

    def __init__(self, expired_at: datetime):
        super().__init__(expired_at)
        self.expired_at = expired_at

    @property
    def sentence(self) -> str:
        return f"This API token expired on {self.expired_at:%Y-%m-%d %H:%M} UTC; {WHERE_TO_MAKE_ONE}."


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def _issue(*, user, name: str, expires_at: datetime | None = None) -> tuple[ApiToken, str]:
    key = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(user=user, digest=_digest(key), prefix=key[:8], name=name,
                                    expires_at=expires_at)
    return token, key


def token_create(*, user, name: str = "") -> str:
    """Creates a token for ``user`` and returns the key; only its digest is kept."""
    return _issue(user=user, name=name)[1]


def token_user(key: str):
    """The active user a key belongs to, or None; ``TokenExpired`` for a key past its expiry.
    Two prepared reads by primary and unique key (``appenda.db.fast``): every API request
    starts here, and the ORM's join cost twice as much."""
    rows = select_rows(ApiToken, "default", ("id", "user_id", "last_used_at", "revoked_at", "expires_at"),
                       digest=_digest(key))
    if not rows or rows[0][3] is not None:
        return None
    token_id, user_id, last_used_at, _, expires_at = rows[0]
    now = timezone.now()
    if expires_at is not None and expires_at <= now:
        raise TokenExpired(expires_at)
    user = select_one(get_user_model(), "default", id=user_id)
    if user is None or not user.is_active:
        return None
    if last_used_at is None or (now - last_used_at).total_seconds() > 60:
        ApiToken.objects.filter(pk=token_id).update(last_used_at=now)
    return user


def _is_bot_account(user) -> bool:
    return Bot.objects.filter(account=user).exists()


def _check_person(user) -> None:
    if _is_bot_account(user):
        raise Forbidden("A bot's token cannot make, list or revoke tokens; its owner rotates it.",
                        code="person_required")


# --- a person's own tokens ----------------------------------------------------------------------


def token_list_own(*, user) -> QuerySet[ApiToken]:
    """The person's own tokens, newest first, revoked and expired ones too (they say so)."""
    _check_person(user)
    return ApiToken.objects.filter(user=user).order_by("-created_at", "-id")


def token_get_own(*, user, token_id) -> ApiToken:
    """One of the person's own tokens by its public id; another's, or none, is 404 alike."""
    public_id = parse_uuid(token_id)
    token = ApiToken.objects.filter(user=user, public_id=public_id).first() if public_id else None
    if token is None:
        raise NotFound(NO_SUCH_TOKEN)
    return token


def person_token_create(*, user, name: str, expires_in_days: int | None = None) -> tuple[ApiToken, str]:
    """A new token of a person, with the key (shown once). ``expires_in_days`` None: until revoked."""
    _check_person(user)
    if not isinstance(name, str) or not name.strip():
        raise DomainError("Give the token a name, like the machine or script that will use it.",
                          code="invalid_name", field="name")
    if len(name) > NAME_MAX:
        raise DomainError(f"A token's name is at most {NAME_MAX} characters; got {len(name):,}.",
                          code="too_long", field="name")
    if expires_in_days is not None and not EXPIRY_DAYS_MIN <= expires_in_days <= EXPIRY_DAYS_MAX:
        raise DomainError(f"A token expires in {EXPIRY_DAYS_MIN} to {EXPIRY_DAYS_MAX} days, or never (leave it out).",
                          code="invalid_expiry", field="expires_in_days")
    now = timezone.now()
    expires_at = now + timedelta(days=expires_in_days) if expires_in_days is not None else None
    with transaction.atomic():
        # Locks the person's row so that two requests at once cannot both pass the cap.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        active = ApiToken.objects.filter(user=user, revoked_at__isnull=True).exclude(expires_at__lte=now).count()
        if active >= ACTIVE_TOKENS_MAX:
            raise Conflict(f"You have {active} active tokens, the most one person may have; revoke one you no "
                           "longer use first.", code="too_many_tokens")
        return _issue(user=user, name=name.strip(), expires_at=expires_at)


def token_revoke(*, user, token_id) -> ApiToken:
    """Revokes one of the person's own tokens; it stops working at once. Revoking a revoked token
    changes nothing (its first revocation time stays)."""
    _check_person(user)
    token = token_get_own(user=user, token_id=token_id)
    if token.revoked_at is None:
        ApiToken.objects.filter(pk=token.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())
        token.refresh_from_db(fields=["revoked_at"])
    return token


# --- a bot's token --------------------------------------------------------------------------------


def bot_token_rotate(*, actor: Actor, bot: Bot) -> tuple[ApiToken, str]:
    """Revokes the bot's tokens and gives it a new one (the key is shown once). For the bot's
    owner and those who manage agents; a bot cannot rotate its own token."""
    if actor.bot is not None:
        raise Forbidden("A bot cannot rotate a token; its owner can, in Appenda.", code="person_required")
    if bot.owner_id != actor.user.pk and not actor.can("agents:manage"):
        raise Forbidden("Only the bot's owner or someone who manages agents can rotate its token.")
    with transaction.atomic():
        ApiToken.objects.filter(user_id=bot.account_id, revoked_at__isnull=True).update(revoked_at=timezone.now())
        return _issue(user=bot.account, name=f"bot {bot.name}"[:NAME_MAX])
