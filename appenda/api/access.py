"""Who may call which endpoint: one table over the whole API (R-AGENT-3, R-AGENT-5, R-RBAC-4).

Every API view looks itself up here by its URL name and HTTP method, and the base views
(``appenda.api.base``) check what the table says in one order, the same everywhere:

1. authenticated, or 401 (DRF, before anything here);
2. visible, or 404: the workspace, then every object the URL names (``OBJECT_RESOLVERS``),
   with the caller's own visibility — an object the caller may not see answers 404 whatever
   else is wrong with the request, so no answer confirms that it exists;
3. allowed, or 403: a bot's token only where the row says ``agents`` (``person_required``
   otherwise: agents change memory only inside a turn, through its tools, and read notes only
   through their turns), and a person only with the row's capability;
4. valid, or 400 (the view's parsing), then decided (held, refused) by the services.

Services keep their finer rules (a viewer may edit their own note but not the workspace's);
the table is the floor every request passes first. ``tests/test_endpoint_access.py`` walks
the URLconf: every route and method has exactly one row, and every token kind gets what its
row says.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from appenda.errors import DomainError, Forbidden, NotFound
from workspaces.capabilities import Actor


@dataclass(frozen=True)
class Access:
    """One endpoint and method: the capability a person needs (None: any member, or any
    signed-in caller outside workspaces) and whether a bot's token may call it."""

    capability: str | None = None
    agents: bool = False


def person(capability: str | None = None) -> Access:
    return Access(capability, agents=False)


def agent(capability: str | None = None) -> Access:
    return Access(capability, agents=True)


PUBLIC = Access(None, agents=True)  # no sign-in needed (the tools' schemas, the API's own docs)

# URL name → method → access. Methods a view does not define answer 405 and need no row.
ENDPOINTS: dict[str, dict[str, Access]] = {
    "workspace-list": {"GET": agent(), "POST": person()},
    "workspace-detail": {"GET": agent("workspace:read")},
    "workspace-memory-settings": {"GET": agent("workspace:read"), "PUT": person("agents:manage"),
                                  "PATCH": person("agents:manage")},
    "member-list": {"GET": person("members:read"), "POST": person("members:manage")},
    "member-detail": {"GET": person("members:read"), "PATCH": person("members:manage"),
                      "DELETE": person("members:manage")},
    "member-memories": {"GET": person("memory:blind_delete"), "DELETE": person("memory:blind_delete")},
    "bot-list": {"GET": agent("bots:read"), "POST": person("bots:create")},
    "bot-import": {"POST": person("bots:create")},
    "bot-detail": {"GET": agent("bots:read"), "PATCH": person("bots:read"), "PUT": person("bots:read"),
                   "DELETE": person("bots:read")},
    "bot-export": {"GET": person("bots:read")},
    "bot-token-rotate": {"POST": person("bots:read")},  # owner or agents:manage: workspaces.tokens
    "table-list": {"GET": agent("tables:read"), "POST": person("tables:write")},
    "table-detail": {"GET": agent("tables:read")},
    "record-list": {"GET": agent("tables:read"), "POST": person("tables:write")},
    "record-import": {"POST": person("tables:write")},
    "record-detail": {"DELETE": person("tables:write")},
    # A turn and its tools: the one way an agent reads and changes memory.
    "turn-start": {"POST": agent("turns:start")},
    "turn-reads": {"POST": agent("turns:start")},
    "turn-memory-save": {"POST": agent("turns:start")},
    "turn-memory-search": {"POST": agent("turns:start")},
    "turn-memory-undo": {"POST": agent("turns:start")},
    "turn-undo": {"POST": agent("turns:start")},
    "turn-confirm": {"POST": agent("turns:start")},
    # Managing notes: people only.
    "memory-list": {"GET": person("memory:read"), "POST": person("memory:write_mine")},
    "memory-detail": {"GET": person("memory:read"), "PATCH": person("memory:read"),
                      "DELETE": person("memory:read")},
    "memory-keep": {"POST": person("memory:read")},
    "memory-history": {"GET": person("memory:read")},
    "memory-export": {"POST": person("memory:read")},  # GET writes nothing: 405 (memories.api_exports)
    "memory-export-list": {"GET": person("memory:read")},
    "memory-export-detail": {"GET": person("memory:read")},
    "memory-import": {"POST": person("memory:write_mine")},
    "memory-forget": {"POST": person("memory:read")},
    "memory-trash": {"GET": person("memory:read")},
    "memory-trash-restore": {"POST": person("memory:read")},
    "memory-trash-restore-all": {"POST": person("memory:read")},
    "memory-deleted-bots": {"GET": person("memory:read")},
    "change-list": {"GET": person("memory:read")},
    "change-detail": {"GET": person("memory:read")},
    "change-undo": {"POST": person("memory:read")},
    # Outside workspaces.
    "instance-rule-list": {"GET": agent(), "POST": person()},
    "instance-rule-detail": {"GET": agent(), "PATCH": person(), "PUT": person(), "DELETE": person()},
    "instance-rule-keep": {"POST": person()},
    "me": {"GET": agent()},
    "my-memory-settings": {"GET": person(), "PUT": person(), "PATCH": person()},
    "my-token-list": {"GET": person(), "POST": person()},
    "my-token-detail": {"DELETE": person()},
    "tool-list": {"GET": PUBLIC},
    "api-schema": {"GET": PUBLIC},
    "api-docs": {"GET": PUBLIC},
    "api-redoc": {"GET": PUBLIC},
}

PERSON_REQUIRED = (
    "This is for people: a bot's token reads notes only through its turns and changes them only with "
    "the turn's tools (memory_save, memory_undo). Ask the bot's owner to do it in Appenda."
)


def access_for(url_name: str | None, method: str) -> Access | None:
    return ENDPOINTS.get(url_name or "", {}).get(method.upper())


def check_allowed(access: Access, *, is_bot: bool, can: Callable[[str], bool]) -> None:
    """Step 3 of the order: 403 for a bot's token on a people's endpoint, or a missing capability."""
    if is_bot and not access.agents:
        raise Forbidden(PERSON_REQUIRED, code="person_required")
    if access.capability is not None and not can(access.capability):
        raise Forbidden("Your role in this workspace does not allow this; ask a workspace admin.")


# --- visibility of the objects a URL names (step 2) -----------------------------------------

NOT_VISIBLE = "Nothing was found at this address, or you may not see it."
_MEMBER_ID = re.compile(r"^[0-9]{1,18}$")


def _note(actor: Actor, note_id: str):
    from memories.selectors import memory_get_visible

    return memory_get_visible(actor=actor, note_id=note_id)


def _trashed_note(actor: Actor, note_id: str):
    from memories.selectors import trashed_note_visible

    return trashed_note_visible(actor=actor, note_id=note_id)


def _note_history(actor: Actor, note_id: str):
    from memories.history import note_history

    return note_history(actor=actor, note_id=note_id)


def _change(actor: Actor, change_id: str):
    from memories.history import change_set_get_visible

    return change_set_get_visible(actor=actor, change_set_id=change_id)


def _turn(actor: Actor, turn_id: str):
    from memories.turns import turn_for_actor

    return turn_for_actor(actor=actor, turn_id=turn_id)


def _member(actor: Actor, user_ref: str):
    from workspaces.services import membership_get

    if not actor.can("members:read"):
        raise NotFound("No such member in this workspace.")
    if "@" not in user_ref and not _MEMBER_ID.match(user_ref):
        raise NotFound("No such member in this workspace.")
    return membership_get(actor=actor, user_ref=user_ref)


def _bot(actor: Actor, bot_ref: str):
    from workspaces.services import bot_visible

    return bot_visible(actor=actor, bot_id=bot_ref)


def _table(actor: Actor, table_ref: str):
    from tables.services import table_visible

    return table_visible(actor=actor, table_id=table_ref)


def _record(actor: Actor, record_ref: str, *, table=None):
    from tables.services import record_visible

    return record_visible(actor=actor, table=table, record_id=record_ref)


def _export(actor: Actor, export_ref: str):
    from memories.export import export_visible

    return export_visible(actor=actor, export_id=export_ref)


def _rule(actor, rule_ref: str):
    from memories.instance_rules import rule_get

    return rule_get(rule_ref)


def _api_token(actor, token_ref: str):
    """Outside workspaces there is no actor: only the id's shape is checked here (404), and the
    view finds the token among the caller's own (``workspaces.tokens.token_get_own``), after
    step 3 — so a bot's token gets 403 whichever id it sends, and learns nothing of any."""
    from appenda.ids import parse_uuid
    from workspaces.tokens import NO_SUCH_TOKEN

    if parse_uuid(token_ref) is None:
        raise NotFound(NO_SUCH_TOKEN)
    return token_ref


# URL keyword → how to find that object as the caller sees it; (URL name, keyword) overrides.
OBJECT_RESOLVERS: dict[str, Callable] = {
    "note": _note, "change": _change, "turn": _turn, "user": _member, "bot": _bot, "table": _table,
    "record": _record, "export": _export, "rule": _rule, "token": _api_token,
}
OBJECT_RESOLVER_OVERRIDES: dict[tuple[str, str], Callable] = {
    ("memory-trash-restore", "note"): _trashed_note,
    ("memory-history", "note"): _note_history,
}


def resolve_objects(actor: Actor | None, url_name: str | None, kwargs: dict) -> dict:
    """Every object the URL names, as the caller sees it; 404 for the first one it may not see.

    A finer rule a visibility function raises as 403 (a role that may not read) reads as 404
    here: what the caller may not read, it may not learn exists either."""
    found: dict = {}
    for name, value in kwargs.items():
        if name == "ws":
            continue
        resolver = OBJECT_RESOLVER_OVERRIDES.get((url_name or "", name)) or OBJECT_RESOLVERS[name]
        try:
            if name == "record":
                found[name] = resolver(actor, str(value), table=found.get("table"))
            else:
                found[name] = resolver(actor, str(value))
        except DomainError as error:
            if error.status == 404:
                raise
            raise NotFound(NOT_VISIBLE) from None
    return found
