"""R-API-1: the OpenAPI document is the contract, generated from the views' declared contracts.

``manage.py spectacular --validate --fail-on-warn`` passes (no view left to guessing, a valid
OpenAPI 3 document), and the document says what clients rely on: every operation's request
body (unless declared body-less with ``@extend_schema(request=None)``), a 2xx response body (or
204), the error responses that apply to it with the one error body, Token auth, unique
operation ids, and the ``Appenda-Turn`` header where an agent reads a table.

Which errors apply comes from the access table (``appenda.api.access``), not from the views:
401 everywhere but the public endpoints; 404 wherever the path names something; 403 where some
caller is refused (a bot's token on a people's endpoint, a role without the capability); 400
wherever there is input to validate (a body or query parameters).
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from collections import defaultdict

import pytest
from django.core.management import call_command
from drf_spectacular.drainage import GENERATOR_STATS, reset_generator_stats
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.validation import validate_schema

from appenda.api.access import ENDPOINTS, PUBLIC
from workspaces.capabilities import BOT_CAPABILITIES, ROLE_CAPABILITIES

API = "/api/v1/"
WITH_BODY = ("POST", "PUT", "PATCH")
NOT_IN_DOCUMENT = {"api-schema", "api-docs", "api-redoc"}  # the document and its viewers
RECORDS_LIST = ("/api/v1/workspaces/{ws}/tables/{table}/records/", "GET")


def openapi_path(route: str) -> str:
    return API + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route)


@pytest.fixture(scope="module")
def document() -> dict:
    return generate()


def generate() -> dict:
    """The document as /api/v1/schema/ serves it (the command's warnings are its own test's)."""
    with GENERATOR_STATS.silence():
        return SchemaGenerator().get_schema(request=None, public=True)


@pytest.fixture(scope="module")
def operations(document) -> dict[tuple[str, str], dict]:
    """(path, METHOD) → the operation object."""
    return {(path, method.upper()): operation for path, item in document["paths"].items()
            for method, operation in item.items() if method in ("get", "put", "post", "patch", "delete")}


@pytest.fixture(scope="module")
def routes() -> dict[tuple[str, str], tuple[str, type]]:
    """(path, METHOD) → (URL name, view class), for every API route and method served."""
    from django.urls import URLResolver, get_resolver

    def walk(patterns, prefix=""):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern))
            elif prefix.startswith(API[1:]):
                yield (prefix + str(pattern.pattern))[len(API) - 1:], pattern.name, \
                    getattr(pattern.callback, "view_class", None)

    return {(openapi_path(route), method.upper()): (name, view_class)
            for route, name, view_class in walk(get_resolver().url_patterns)
            if view_class is not None and name not in NOT_IN_DOCUMENT
            for method in ("get", "put", "post", "patch", "delete") if hasattr(view_class, method)}


def declared_request(view_class: type, method: str):
    """What the method's ``@extend_schema(request=…)`` says, or ``...`` if it says nothing.

    drf-spectacular keeps the argument only in the closure of the schema class it attaches."""
    from rest_framework.fields import empty

    schema = getattr(getattr(view_class, method.lower(), None), "kwargs", {}).get("schema")
    for klass in getattr(schema, "__mro__", ()):
        function = klass.__dict__.get("get_request_serializer")
        if function is not None and "request" in function.__code__.co_freevars:
            value = function.__closure__[function.__code__.co_freevars.index("request")].cell_contents
            if value is not empty:
                return value
    return ...


def report(problems: dict[str, list[str]]) -> str:
    """Problems grouped by kind, for a failure's message."""
    lines = [f"{sum(len(v) for v in problems.values())} problems"]
    for kind, items in sorted(problems.items(), key=lambda kv: -len(kv[1])):
        lines.append(f"  {kind} ({len(items)}):")
        lines.extend(f"    {item}" for item in sorted(items))
    return "\n".join(lines)


def assert_no_problems(problems: dict[str, list[str]]) -> None:
    if problems:
        pytest.fail(report(problems), pytrace=False)


def label(key: tuple[str, str], operation: dict | None = None) -> str:
    path, method = key
    name = (operation or {}).get("operationId", "")
    return f"{method} {path[len(API) - 1:]} {name}".rstrip()


# --- the command --------------------------------------------------------------------------

GENERATOR_MESSAGE = re.compile(r"^(?:(?P<where>\S+:\d+): )?(?P<severity>Warning|Error)(?: \[(?P<view>[^\]]*)\])?: "
                               r"(?P<text>.*)$")


def group_generator_messages(stderr: str) -> dict[str, list[str]]:
    """drf-spectacular's warnings and errors by what they say (view names and hashes folded)."""
    groups: dict[str, list[str]] = defaultdict(list)
    for line in stderr.splitlines():
        match = GENERATOR_MESSAGE.match(line.strip())
        if not match:
            continue
        text = re.sub(r'"\w+"', '"…"', match["text"])
        text = re.sub(r"\b\w*[0-9a-f]{3}Enum\b", "…Enum", text).split(". ")[0]
        names = ", ".join(re.findall(r'"(\w+)"', match["text"])) or match["text"][:120]
        groups[f"{match['severity']}: {text}"].append(match["view"] or names)
    return groups


def test_R_API_1_spectacular_validate_fail_on_warn_passes(tmp_path):
    reset_generator_stats()  # drf-spectacular counts per process; other tests generate too
    stderr = io.StringIO()
    failure = None
    with contextlib.redirect_stderr(stderr):
        try:
            call_command("spectacular", "--validate", "--fail-on-warn", "--format", "openapi-json",
                         "--file", str(tmp_path / "openapi.json"))
        except Exception as error:  # SchemaGenerationError or SchemaValidationError
            failure = error
    if failure is not None:
        groups = group_generator_messages(stderr.getvalue())
        summary = re.search(r"Warnings: .*\nErrors: .*", stderr.getvalue())
        # --fail-on-warn stops before --validate: say whether the document would validate.
        try:
            validate_schema(generate())
            validity = "the document itself validates"
        except Exception as error:
            validity = f"the document does not validate: {str(error)[:500]}"
        pytest.fail(f"{type(failure).__name__}: {failure}\n{summary[0] if summary else ''}\n{validity}\n"
                    + report(groups), pytrace=False)
    assert json.loads((tmp_path / "openapi.json").read_text())["openapi"].startswith("3.")


# --- what the document says ---------------------------------------------------------------

def test_R_API_1_every_api_route_and_method_is_in_the_document(operations, routes):
    missing = [label(key) for key in routes if key not in operations]
    unknown = [label(key) for key in operations if key not in routes]
    assert (missing, unknown) == ([], []), "missing from the document / in it but not served"


def test_R_API_1_every_operation_that_takes_a_body_declares_it(operations, routes):
    problems: dict[str, list[str]] = defaultdict(list)
    for key, operation in operations.items():
        if key[1] not in WITH_BODY or key not in routes:
            continue
        declared = declared_request(routes[key][1], key[1])
        content = operation.get("requestBody", {}).get("content", {})
        if declared is None:  # declared body-less
            if content:
                problems["declared body-less, but the document has a body"].append(label(key, operation))
        elif not content:
            problems["no request body, and not declared body-less (request=None)"].append(label(key, operation))
        elif not all(media.get("schema") for media in content.values()):
            problems["request body without a schema"].append(label(key, operation))
    assert_no_problems(problems)


def test_R_API_1_request_bodies_refuse_unknown_fields_as_the_contracts_do(document, operations):
    """The contracts answer ``unknown_field`` to a field they do not name (appenda.api.contract),
    so the document says ``additionalProperties: false``: otherwise a client (and schemathesis)
    takes extra fields for allowed."""
    schemas = document["components"]["schemas"]
    problems: dict[str, list[str]] = defaultdict(list)
    for key, operation in operations.items():
        for media_type, media in operation.get("requestBody", {}).get("content", {}).items():
            schema = media.get("schema", {})
            name = schema.get("$ref", "").rsplit("/", 1)[-1]
            schema = schemas.get(name, schema)
            if media_type == "application/json" and "properties" in schema \
                    and schema.get("additionalProperties") is not False:
                problems["JSON body without additionalProperties: false"].append(
                    f"{label(key, operation)} {name or '(inline)'}")
    assert_no_problems(problems)


def test_R_API_1_every_operation_declares_a_2xx_response_body(operations):
    problems: dict[str, list[str]] = defaultdict(list)
    for key, operation in operations.items():
        success = {code: response for code, response in operation["responses"].items()
                   if str(code).startswith("2")}
        if not success:
            problems["no 2xx response"].append(label(key, operation))
        for code, response in success.items():
            has_schema = any(media.get("schema") for media in response.get("content", {}).values())
            if str(code) == "204" and has_schema:
                problems["204 with a body"].append(label(key, operation))
            elif str(code) != "204" and not has_schema:
                problems[f"{code} without a response schema"].append(label(key, operation))
    assert_no_problems(problems)


def _refused_somewhere(access) -> bool:
    """Whether some signed-in caller gets 403 from the access row itself."""
    if not access.agents:
        return True  # a bot's token: person_required
    if access.capability is None:
        return False
    return access.capability not in BOT_CAPABILITIES or any(
        access.capability not in capabilities for capabilities in ROLE_CAPABILITIES.values())


def expected_errors(key: tuple[str, str], operation: dict, url_name: str) -> set[int]:
    access = ENDPOINTS[url_name][key[1]]
    takes_input = "requestBody" in operation or any(
        parameter.get("in") == "query" for parameter in operation.get("parameters", []))
    return ({401} if access is not PUBLIC else set()) | ({404} if "{" in key[0] else set()) \
        | ({403} if _refused_somewhere(access) else set()) | ({400} if takes_input else set())


def error_body_ref(response: dict) -> str | None:
    schema = response.get("content", {}).get("application/json", {}).get("schema", {})
    return schema.get("$ref")


def test_R_API_1_error_responses_apply_and_share_the_one_error_body(document, operations, routes):
    problems: dict[str, list[str]] = defaultdict(list)
    error_refs: dict[str, list[str]] = defaultdict(list)
    for key, operation in operations.items():
        if key not in routes:
            continue
        declared = {int(code) for code in operation["responses"] if str(code)[0] in "45"}
        for status in sorted(expected_errors(key, operation, routes[key][0]) - declared):
            problems[f"{status} not declared"].append(label(key, operation))
        for code in sorted(declared):
            ref = error_body_ref(operation["responses"][str(code)])
            if ref is None:
                problems["error response without the error body ($ref)"].append(f"{label(key, operation)} {code}")
            else:
                error_refs[ref].append(f"{label(key, operation)} {code}")
    if len(error_refs) > 1:
        for ref, where in error_refs.items():
            problems[f"error body {ref} (more than one error component)"].extend(where)
    for ref in error_refs:
        component = document["components"]["schemas"].get(ref.rsplit("/", 1)[-1], {})
        if not {"code", "detail"} <= set(component.get("required", [])):
            problems["error component without required code and detail"].append(ref)
    assert_no_problems(problems)


def test_R_API_1_token_auth_is_declared_and_named_by_every_signed_in_operation(document, operations, routes):
    scheme = document.get("components", {}).get("securitySchemes", {}).get("TokenAuth")
    assert scheme is not None, "components.securitySchemes has no TokenAuth"
    assert (scheme.get("type"), scheme.get("in"), scheme.get("name")) == ("apiKey", "header", "Authorization")
    problems: dict[str, list[str]] = defaultdict(list)
    for key, operation in operations.items():
        if key not in routes:
            continue
        security = operation.get("security", document.get("security", []))
        public = ENDPOINTS[routes[key][0]][key[1]] is PUBLIC
        if not public and not any("TokenAuth" in requirement for requirement in security):
            problems["signed-in operation without TokenAuth"].append(label(key, operation))
        if public and security and {} not in security:
            problems["public operation that requires credentials"].append(label(key, operation))
        if len({json.dumps(r, sort_keys=True) for r in security}) != len(security):
            problems["security requirement listed twice"].append(label(key, operation))
    assert_no_problems(problems)


def test_R_API_1_operation_ids_are_unique(operations):
    seen: dict[str, list[str]] = defaultdict(list)
    for key, operation in operations.items():
        seen[operation.get("operationId")].append(label(key))
    assert {name: where for name, where in seen.items() if name is None or len(where) > 1} == {}


def test_R_API_1_records_list_documents_the_appenda_turn_header(operations):
    parameters = operations[RECORDS_LIST].get("parameters", [])
    assert any(p.get("in") == "header" and p.get("name") == "Appenda-Turn" for p in parameters), parameters
