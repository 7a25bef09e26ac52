"""The tools in every framework's format (R-API-2, R-RECALL-5, R-RECALL-6): each format loads
into that framework's own SDK types, every schema is valid JSON Schema and states the limits
the server checks, and a turn's list is empty while memory is off for it."""

from __future__ import annotations

import re

import anthropic.types
import mcp.types
import openai.types.chat
import pytest
from jsonschema import Draft202012Validator
from openai.types.shared_params import FunctionDefinition
from pydantic import TypeAdapter
from rest_framework.test import APIClient

from memories import limits
from memories.tools import tool_by_name
from tests.factories import ALL_DATABASES, add_member, make_bot, token_client, url
from tests.memories.helpers import start_turn, tool_save

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)

NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
NAMES = ["appenda_memory_save", "appenda_memory_search", "appenda_memory_undo"]


def tools(fmt: str | None = None, client=None, **query) -> list[dict]:
    response = (client or APIClient()).get("/api/v1/tools/", {**({"format": fmt} if fmt else {}), **query})
    assert response.status_code == 200, response.json()
    return response.json()


def _keys_of(typed_dict) -> set[str]:
    return set(typed_dict.__required_keys__ | typed_dict.__optional_keys__)


def _schemas(fmt: str) -> list[dict]:
    return {
        "openai": lambda t: t["function"]["parameters"], "mcp": lambda t: t["inputSchema"],
    }.get(fmt, lambda t: t["input_schema"])


def _objects(schema: dict):
    """Every object schema inside ``schema``, itself included."""
    if schema.get("type") == "object":
        yield schema
    for prop in schema.get("properties", {}).values():
        yield from _objects(prop)
    for variant in schema.get("anyOf", ()):
        yield from _objects(variant)


def test_R_API_2_openai_format_loads_as_strict_function_tools():
    listed = tools("openai")
    assert [t["function"]["name"] for t in listed] == NAMES
    for tool in listed:
        TypeAdapter(openai.types.chat.ChatCompletionToolParam).validate_python(tool, strict=True)
        TypeAdapter(FunctionDefinition).validate_python(tool["function"], strict=True)
        assert set(tool) == _keys_of(openai.types.chat.ChatCompletionToolParam)
        assert set(tool["function"]) <= _keys_of(FunctionDefinition) and tool["function"]["strict"] is True
        parameters = tool["function"]["parameters"]
        Draft202012Validator.check_schema(parameters)
        for obj in _objects(parameters):  # strict mode: closed objects listing every property
            assert obj["additionalProperties"] is False
            assert sorted(obj["required"]) == sorted(obj["properties"])
        text = repr(parameters)
        for keyword in ("'default'", "'minLength'", "'maxLength'"):
            assert keyword not in text


def test_R_API_2_anthropic_and_mcp_formats_load_into_their_sdk_types():
    for tool in tools("anthropic"):
        TypeAdapter(anthropic.types.ToolParam).validate_python(tool, strict=True)
        assert set(tool) <= _keys_of(anthropic.types.ToolParam) and tool["input_schema"]["type"] == "object"
    listed = tools("mcp")
    for tool in listed:
        loaded = mcp.types.Tool.model_validate(tool)
        assert loaded.model_dump(by_alias=True, exclude_none=True, mode="json") == tool  # MCP's wire form
        assert set(tool) == {"name", "description", "inputSchema"}
    assert [t["name"] for t in listed] == NAMES


def test_R_API_2_every_format_has_valid_names_and_json_schemas():
    for fmt in ("json-schema", "openai", "anthropic", "mcp"):
        listed = tools(fmt)
        assert len(listed) == 3
        for tool in listed:
            name = tool["function"]["name"] if fmt == "openai" else tool["name"]
            assert NAME.fullmatch(name)
            Draft202012Validator.check_schema(_schemas(fmt)(tool))


def test_R_API_2_default_is_the_neutral_json_schema_form_and_dotted_names_are_aliases():
    listed = tools()
    assert listed == tools("json-schema")
    assert [t["name"] for t in listed] == NAMES
    assert all(set(t) == {"name", "description", "input_schema"} for t in listed)
    for name in NAMES:
        assert tool_by_name(name)["name"] == name
        assert tool_by_name(name.replace("appenda_", "appenda.")) is tool_by_name(name)
    assert tool_by_name("memory_save") is None


def test_R_API_2_unknown_format_is_refused():
    response = APIClient().get("/api/v1/tools/", {"format": "langchain"})
    assert response.status_code == 400 and response.json()["code"] == "invalid_format"
    assert response.json()["field"] == "format"


def test_R_API_2_schema_and_server_agree_on_the_limits(owner, eu_ws):
    client = token_client(owner)
    neutral = Draft202012Validator(tool_by_name("appenda_memory_save")["input_schema"])
    strict = Draft202012Validator(tools("openai")[0]["function"]["parameters"])
    turn = start_turn(client, eu_ws)["id"]
    too_long_value = {"key": "pref.long", "value": "x" * (limits.VALUE_MAX_CHARS + 1)}
    too_long_key = {"key": "k" * (limits.KEY_MAX_CHARS + 1), "value": "A fact."}
    for payload in (too_long_value, too_long_key, {"key": "pref.tone", "value": "Short.", "extra": 1},
                    {"key": "pref.tone", "value": "Short.", "layer": "instance"}):
        assert not neutral.is_valid(payload), payload
        assert tool_save(client, eu_ws, turn, **payload).status_code in (400, 403), payload  # 403 layer_not_allowed
    # OpenAI's strict form cannot state a length, but its key pattern does.
    assert not strict.is_valid({**too_long_key, "layer": None, "subject": None, "pin": False})

    fine = {"key": "pref.tone", "value": "Replies are short."}
    assert neutral.is_valid(fine)
    assert tool_save(client, eu_ws, turn, **fine).status_code in (200, 201)
    # What a strict OpenAI model sends: every property, the optional ones as null.
    strict_args = {"key": "pref.lang", "value": "Answers in English.", "layer": None, "subject": None, "pin": False}
    assert strict.is_valid(strict_args) and not neutral.is_valid(strict_args)
    assert tool_save(client, eu_ws, turn, **strict_args).status_code in (200, 201)
    search = Draft202012Validator(tools("openai")[1]["function"]["parameters"])
    search_args = {"query": "tone", "subject": None, "layer": None, "limit": limits.SEARCH_LIMIT_DEFAULT}
    assert search.is_valid(search_args)
    response = client.post(url(eu_ws, f"turns/{turn}/memory_search/"), search_args, format="json")
    assert response.status_code == 200, response.json()
    over = {**search_args, "limit": limits.SEARCH_LIMIT_MAX + 1}
    assert not search.is_valid(over)
    assert client.post(url(eu_ws, f"turns/{turn}/memory_search/"), over, format="json").status_code == 400


def _turn_tools(client, workspace, turn_id, fmt="mcp"):
    return client.get("/api/v1/tools/", {"format": fmt, "workspace": str(workspace.id), "turn": turn_id})


def test_R_RECALL_5_a_turns_tools_are_three_while_memory_is_on(owner, eu_ws):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)["id"]
    for fmt in ("json-schema", "openai", "anthropic", "mcp"):
        response = _turn_tools(client, eu_ws, turn, fmt)
        assert response.status_code == 200 and response.json() == tools(fmt)


@pytest.mark.parametrize("off", ["workspace", "user", "private_chat", "bot"])
def test_R_RECALL_5_no_memory_tools_while_memory_is_off(owner, eu_ws, off):
    client = token_client(owner)
    fields = {}
    if off == "workspace":
        client.put(url(eu_ws, "memory-settings/"), {"enabled": False}, format="json")
    elif off == "user":
        client.put("/api/v1/me/memory-settings/", {"enabled": False}, format="json")
    elif off == "private_chat":
        fields = {"private": True}
    else:
        _, key = make_bot(eu_ws, owner, name="Off", memory="none")
        client = token_client(key)
    turn = start_turn(client, eu_ws, **fields)["id"]
    response = _turn_tools(client, eu_ws, turn, "openai")
    assert response.status_code == 200 and response.json() == []


def test_R_RBAC_4_a_turns_tools_are_only_for_its_caller(owner, eu_ws, us_ws):
    turn = start_turn(token_client(owner), eu_ws)["id"]
    colleague = token_client(add_member(eu_ws, "c@example.com", "editor"))
    for response in (_turn_tools(colleague, eu_ws, turn), _turn_tools(token_client(owner), us_ws, turn),
                     _turn_tools(colleague, eu_ws, "not-a-turn")):
        assert response.status_code == 404 and response.json()["code"] == "turn_unknown"
    assert _turn_tools(APIClient(), eu_ws, turn).status_code == 401
    response = token_client(owner).get("/api/v1/tools/", {"turn": turn})
    assert response.status_code == 400 and response.json()["field"] == "workspace"
