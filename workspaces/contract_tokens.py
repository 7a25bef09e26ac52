"""The API's declared shapes for API tokens (R-API-1): a person's own tokens and a bot's rotation.

A token is shown by its public id, name and dates; its key only in the answer that creates it.
Limits come from the model's column and ``workspaces.tokens``. A request and an answer about the
same object share a component name (``Token``, ``TokenRequest``), as in ``workspaces.contract``.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from appenda.api.contract import Contract, Integer, Text
from workspaces.tokens import EXPIRY_DAYS_MAX, EXPIRY_DAYS_MIN, NAME_MAX


@extend_schema_serializer(component_name="Token")  # as a request: TokenRequest
class TokenCreateIn(Contract):
    """A new token of the caller. Without ``expires_in_days`` it works until it is revoked."""

    error_codes = {"expires_in_days": "invalid_expiry"}
    error_sentences = {"expires_in_days": f"expires_in_days is a whole number of days from {EXPIRY_DAYS_MIN} to "
                                          f"{EXPIRY_DAYS_MAX}, or null (never)."}

    name = Text(max_length=NAME_MAX, help_text="What uses the token, like a laptop or a CI job.")
    expires_in_days = Integer(required=False, allow_null=True, min_value=EXPIRY_DAYS_MIN, max_value=EXPIRY_DAYS_MAX,
                              help_text="The token stops working this many days from now; leave it out for never.")


class NoFieldsIn(Contract):
    """A request that takes no fields: anything sent is refused (``unknown_field``)."""


@extend_schema_serializer(component_name="Token")
class TokenOut(serializers.Serializer):
    id = serializers.UUIDField(help_text="The token's public id, for …/me/tokens/{token}/.")
    name = serializers.CharField()
    prefix = serializers.CharField(help_text="The key's first characters, to tell tokens apart.")
    created_at = serializers.DateTimeField()
    last_used_at = serializers.DateTimeField(allow_null=True, help_text="To the minute.")
    expires_at = serializers.DateTimeField(allow_null=True, help_text="Null: until revoked.")
    revoked_at = serializers.DateTimeField(allow_null=True)


@extend_schema_serializer(component_name="NewToken")
class TokenCreatedOut(TokenOut):
    key = serializers.CharField(help_text="The key, shown this once: send it as `Authorization: Token <key>`.")


@extend_schema_serializer(component_name="NewBotToken")
class BotTokenOut(TokenCreatedOut):
    bot = serializers.UUIDField()
