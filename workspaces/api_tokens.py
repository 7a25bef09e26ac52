"""API of API tokens: a person's own (list, create, revoke) and a bot's rotation.

People only (their access rows are ``person()``): a bot's token gets 403 ``person_required``.
A key is in the answer that makes it, once; afterwards a token is its name, prefix and dates.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response

from appenda.api.base import AppendaAPIView, WorkspaceAPIView
from appenda.api.contract import parse
from appenda.api.pagination import PageQuery, paginated
from appenda.api.schema import errors, page_of
from workspaces import contract_tokens as c
from workspaces import tokens
from workspaces.models import ApiToken


def _when(moment) -> str | None:
    return moment.isoformat() if moment else None


def token_json(token: ApiToken) -> dict:
    return {"id": str(token.public_id), "name": token.name, "prefix": token.prefix,
            "created_at": token.created_at.isoformat(), "last_used_at": _when(token.last_used_at),
            "expires_at": _when(token.expires_at), "revoked_at": _when(token.revoked_at)}


class MyTokenListView(AppendaAPIView):
    """The caller's own API tokens, newest first (never their keys); make a new one."""

    @extend_schema(parameters=[PageQuery], responses={200: page_of(c.TokenOut, "TokenPage"), **errors(400, 403)})
    def get(self, request):
        parse(PageQuery, request.query_params)
        return paginated(request, self, tokens.token_list_own(user=request.user), token_json)

    @extend_schema(request=c.TokenCreateIn, responses={201: c.TokenCreatedOut, **errors(400, 403, 409)})
    def post(self, request):
        data = parse(c.TokenCreateIn, request.data)
        token, key = tokens.person_token_create(user=request.user, name=data["name"],
                                                expires_in_days=data.get("expires_in_days"))
        return Response({**token_json(token), "key": key}, status=status.HTTP_201_CREATED)


class MyTokenDetailView(AppendaAPIView):
    """Revoke one of the caller's tokens: it stops working at once. Another person's is 404."""

    @extend_schema(responses={204: OpenApiResponse(description="Revoked."), **errors(403, 404)})
    def delete(self, request, token):
        tokens.token_revoke(user=request.user, token_id=token)
        return Response(status=status.HTTP_204_NO_CONTENT)


class BotTokenRotateView(WorkspaceAPIView):
    """A new token for a bot: its current tokens stop working at once; the key is shown once.
    For the bot's owner and those who manage agents."""

    @extend_schema(request=None, responses={201: c.BotTokenOut, **errors(400, 403, 404)})
    def post(self, request, ws, bot):
        parse(c.NoFieldsIn, request.data)
        found = self.objects["bot"]
        token, key = tokens.bot_token_rotate(actor=self.actor, bot=found)
        return Response({**token_json(token), "key": key, "bot": str(found.id)}, status=status.HTTP_201_CREATED)
