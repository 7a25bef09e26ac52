"""R-API-1 and R-OPS-1 from the outside: schemathesis fuzzes every operation of the OpenAPI
document against a live server on PostgreSQL, with real ids, and every check it has must pass.

The document is loaded from the live server (/api/v1/schema/?format=json), so what is fuzzed
is what is served. Path parameters are the ids of a world made first (a workspace with a table
and records, a bot, notes of each layer, a held and a trashed note, a turn, a change set, an
export, an instance rule): generated ids would only ever meet 404 (tests/test_no_server_errors.py
sends bad ids on purpose). Every other part of a request is generated, valid (positive) and
invalid (negative), plus schemathesis' coverage cases (boundaries, missing and wrong-typed
fields), and each answer goes through all of schemathesis' default checks (not_a_server_error,
status_code_conformance, content_type_conformance, response_headers_conformance,
response_schema_conformance, negative_data_rejection, missing_required_header, ignored_auth, …);
positive_data_acceptance is counted and printed instead: valid-by-schema requests that a domain
rule refuses (an unknown column, a user who does not exist) are right to be refused.

The first pass calls as the workspace owner (a person's token); a second, smaller pass as the
workspace's bot. Failures are collected, not raised, so that one run finds them all without
Hypothesis shrinking over HTTP; the test fails with them grouped by check and endpoint, and
server errors also by input class and the exception the server logged.

Bounded: a fixed number of examples per operation, Hypothesis derandomized (same inputs each
run), and a time budget per pass (operations not reached fail the test, by name). Nothing leaves
127.0.0.1: the requests session refuses any other host and ignores proxy settings.
"""

from __future__ import annotations

import itertools
import logging
import re
import time
from collections import defaultdict
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from requests.adapters import HTTPAdapter
from schemathesis import GenerationMode
from schemathesis.errors import FailureGroup, SerializationNotPossible
from schemathesis.transport.serialization import serialize_binary

from memories.models import ChangeSet, Note
from tables.models import Record
from tests.factories import (
    ALL_DATABASES,
    add_member,
    make_bot,
    make_table,
    make_user,
    make_workspace,
    url,
)
from workspaces.tokens import token_create

pytestmark = pytest.mark.django_db(transaction=True, databases=ALL_DATABASES)


@schemathesis.serializer("application/zip", "application/x-zip-compressed", "text/csv")
def raw_body(context, value) -> bytes:
    """Bodies sent as they are (an export zip to import, a CSV of records): any bytes will do."""
    return value.encode() if isinstance(value, str) else serialize_binary(value)


LOOPBACK = "127.0.0.1"
SEED = 20261203  # schemathesis' own randomness; Hypothesis runs derandomized


@dataclass(frozen=True)
class Bounds:
    positive: int  # Hypothesis examples of valid data per operation
    negative: int  # … of invalid data
    coverage: int  # schemathesis' coverage cases at most, per operation
    budget_seconds: float  # the pass stops there; operations left over are reported


# About 95 s and 40 s on two cores (most of it generating cases); the budgets are the bound.
OWNER_PASS = Bounds(positive=7, negative=5, coverage=7, budget_seconds=150)
BOT_PASS = Bounds(positive=3, negative=3, coverage=3, budget_seconds=50)

# Run last: they delete or switch off what the other operations need (notes, the bot, the
# viewer's membership, memory itself).
DESTRUCTIVE = re.compile(r"^(DELETE .*|POST .*/memories/forget/|(PUT|PATCH) .*/memory-settings/)$")


# --- loopback only ----------------------------------------------------------------------------

class LoopbackOnly(HTTPAdapter):
    """Sends a request only to 127.0.0.1; anything else is a bug in the test, so it raises."""

    def send(self, request, *args, **kwargs):
        host = urlsplit(request.url).hostname
        if host != LOOPBACK:
            raise AssertionError(f"refused a request to {host!r}: the fuzz test stays on {LOOPBACK}")
        return super().send(request, *args, **kwargs)


def loopback_session() -> requests.Session:
    session = requests.Session()
    session.trust_env = False  # no HTTP(S)_PROXY, .netrc or CA bundle from the environment
    for prefix in ("http://", "https://"):
        session.mount(prefix, LoopbackOnly())
    return session


@pytest.fixture
def base_url(live_server, caplog) -> str:
    # Thousands of 4xx are the point; only the server's errors are worth keeping.
    caplog.set_level(logging.ERROR, logger="django.request")
    port = urlsplit(live_server.url).port
    return f"http://{LOOPBACK}:{port}"


@pytest.fixture
def session():
    with loopback_session() as api:
        yield api  # closed after the test: no keep-alive socket holds the live server's database


# --- the world whose ids the paths use ----------------------------------------------------------

@dataclass
class World:
    owner_key: str
    bot_key: str
    ids: dict[str, str]  # path parameter → id; "note" is chosen per operation (notes_for)
    notes: dict[str, str]  # team, mine, held, trashed → note id
    turns: dict[str, str]  # owner, bot → a live turn of that caller


def build_world(api: requests.Session, base_url: str) -> World:
    from memories.instance_rules import rule_save

    owner = make_user("owner@example.com")
    ws = make_workspace(owner, name="Fuzz EU", region="eu")
    viewer = add_member(ws, "viewer@example.com", "viewer")
    add_member(ws, "editor@example.com", "editor")
    root = make_user("root@example.com", instance_admin=True)
    bot, bot_key = make_bot(ws, owner, name="Helper")
    table = make_table(ws, owner, rows=[
        {"name": "Ana Lopez", "email": "ana@example.com", "status": "active"},
        {"name": "Kenji Watanabe", "email": "kenji@example.jp", "status": "churned"},
    ])
    rule, _ = rule_save(user=root, key="house.style", value="Answer in plain English.")
    owner_key = token_create(user=owner)

    def post(key: str, path: str, body: dict) -> dict:
        response = api.post(base_url + url(ws, path), json=body, headers={"Authorization": f"Token {key}"})
        assert response.status_code in (200, 201), (path, response.status_code, response.text[:300])
        return response.json()

    team = post(owner_key, "memories/", {"key": "team.date_format", "value": "Dates use ISO 8601.",
                                         "layer": "workspace"})
    mine = post(owner_key, "memories/", {"key": "pref.tone", "value": "Keep replies short."})
    trashed = post(owner_key, "memories/", {"key": "old.fact", "value": "An old fact, in the trash."})
    Note.objects.for_workspace(ws).filter(id=trashed["id"]).update(trashed_at="2026-01-01T00:00:00Z")
    owner_turn = post(owner_key, "turns/", {"kind": "chat"})
    post(owner_key, f"turns/{owner_turn['id']}/reads/", {"source": "web", "ref": "https://example.com/page"})
    held = post(owner_key, f"turns/{owner_turn['id']}/memory_save/",
                {"key": "held.fact", "value": "Learned from a web page.", "layer": "workspace"})
    assert held["state"] == "held", held
    owner_turn = post(owner_key, "turns/", {"kind": "chat"})  # a fresh one, untainted, for the fuzzing
    bot_turn = post(bot_key, "turns/", {"kind": "chat"})
    export = post(owner_key, "memories/export/", {})
    change = ChangeSet.objects.for_workspace(ws).filter(action="save").order_by("created_at").first()
    return World(
        owner_key=owner_key, bot_key=bot_key,
        ids={"ws": str(ws.id), "bot": str(bot.id), "table": str(table.id), "user": str(viewer.pk),
             "record": str(Record.objects.for_workspace(ws).first().id), "change": str(change.id),
             "export": export["id"], "rule": str(rule.id)},
        notes={"team": team["id"], "mine": mine["id"], "held": held["id"], "trashed": trashed["id"]},
        turns={"owner": owner_turn["id"], "bot": bot_turn["id"]},
    )


def notes_for(path: str, notes: dict[str, str]) -> list[str]:
    """The notes an operation's {note} takes: the trashed one to restore, a held one (or not)
    to keep, any live one elsewhere."""
    if "/trash/{note}/" in path:
        return [notes["trashed"]]
    if path.endswith("/keep/"):
        return [notes["held"], notes["team"]]
    return [notes["team"], notes["mine"], notes["held"]]


# --- one pass ---------------------------------------------------------------------------------

@dataclass
class Findings:
    failures: dict[tuple[str, str], list[str]] = field(default_factory=lambda: defaultdict(list))
    # Valid-by-schema requests refused by a domain rule no schema can state (a column the table
    # does not have, a user who does not exist, the version a keep must name): counted and
    # printed, not failed; every other check fails the test.
    refused_by_domain: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    not_reached: list[str] = field(default_factory=list)
    not_generated: list[str] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)  # per operation
    calls: int = 0

    def report(self, title: str) -> str:
        lines = [f"{title}: {sum(len(v) for v in self.failures.values())} failures in {self.calls} calls"]
        by_check: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
        for (check, endpoint), inputs in self.failures.items():
            by_check[check][endpoint].extend(inputs)
        for check, endpoints in sorted(by_check.items()):
            lines.append(f"  {check}: {sum(len(v) for v in endpoints.values())} on {len(endpoints)} endpoints")
            for endpoint, inputs in sorted(endpoints.items()):
                counted = sorted(((inputs.count(i), i) for i in set(inputs)), reverse=True)
                lines.append(f"    {endpoint}: " + "; ".join(f"{i} ×{n}" for n, i in counted))
        if self.not_reached:
            lines.append(f"  not reached within the time budget ({len(self.not_reached)}): "
                         + ", ".join(self.not_reached))
        if self.not_generated:
            lines.append(f"  (no cases could be generated: {', '.join(self.not_generated)})")
        if self.refused_by_domain:
            lines.append(f"  (valid by the schema, refused by a domain rule: {sum(self.refused_by_domain.values())}: "
                         + "; ".join(f"{k} ×{n}" for k, n in sorted(self.refused_by_domain.items())) + ")")
        slowest = sorted(self.seconds.items(), key=lambda item: -item[1])[:5]
        lines.append("  (slowest: " + ", ".join(f"{label} {seconds:.1f} s" for label, seconds in slowest) + ")")
        return "\n".join(lines)


class ServerExceptions(logging.Handler):
    """The exception behind each 500, as the live server (a thread of this process) logs it."""

    def __init__(self):
        super().__init__(level=logging.ERROR)
        self.seen: list[str] = []

    def emit(self, record):
        if record.exc_info and record.exc_info[0] is not None:
            self.seen.append(f"{record.exc_info[0].__name__}: {str(record.exc_info[1])[:80]}")


def input_class(case) -> tuple[str, str]:
    """What kind of input a case was (valid, or which parts invalid), and how it was made."""
    meta = case.meta
    if meta is None:
        return "explicit", ""
    negated = sorted(str(getattr(location, "value", location)) for location, component in meta.components.items()
                     if component.mode.is_negative)
    if case.method.upper() != case.operation.method.upper():
        kind = f"method {case.method.upper()}"
    else:
        kind = f"invalid {'+'.join(negated)}" if negated else "valid"
    return kind, (getattr(meta.phase.data, "description", None) or "")[:70]


def error_code(response) -> str:
    try:
        body = response.json()
    except ValueError:
        return response.headers.get("Content-Type", "")
    return str(body.get("code", "")) if isinstance(body, dict) else ""


def fuzz(schema, *, base_url: str, session: requests.Session, token: str, world: World, turn: str,
         bounds: Bounds, findings: Findings) -> None:
    """Every operation of ``schema``: positive and negative examples, then coverage cases."""
    server_exceptions = ServerExceptions()
    logging.getLogger("django.request").addHandler(server_exceptions)

    def call(case) -> None:
        findings.calls += 1
        before = len(server_exceptions.seen)
        endpoint = f"{case.operation.method.upper()} {case.operation.path}"
        try:
            # case.call_and_validate(), in two steps to keep the response for the report.
            response = case.call(base_url=base_url, session=session)
            case.validate_response(response, transport_kwargs={"base_url": base_url, "session": session})
        except FailureGroup as group:
            kind, how = input_class(case)
            answer = f"{response.status_code} {error_code(response)}".rstrip()
            for failure in group.exceptions:
                if type(failure).__name__ == "RejectedPositiveData":
                    findings.refused_by_domain[f"{endpoint} → {answer}"] += 1
                    continue
                if type(failure).__name__ == "ServerError":  # by input class and the exception
                    logged = server_exceptions.seen[before:]
                    detail = f"{kind} ({how}) → {logged[-1] if logged else answer}"
                else:  # by what was sent and what came back
                    detail = f"{kind} → {answer}"
                findings.failures[(type(failure).__name__, endpoint)].append(detail)
        except SerializationNotPossible as error:  # a media type with no serializer above
            findings.not_generated.append(f"{endpoint}: {str(error).splitlines()[0]}")
        except requests.RequestException as error:
            failed = f"{input_class(case)[0]} → {type(error).__name__}"
            findings.failures[("ConnectionError", endpoint)].append(failed)

    hypothesis_settings = settings(
        derandomize=True, database=None, deadline=None, phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck), print_blob=False,
    )
    operations = sorted((result.ok() for result in schema.get_all_operations()), key=lambda op: (
        bool(DESTRUCTIVE.match(f"{op.method.upper()} {op.path}")), op.path, op.method))
    started = time.monotonic()
    try:
        for operation in operations:
            label = f"{operation.method.upper()} {operation.path}"
            if time.monotonic() - started > bounds.budget_seconds:
                findings.not_reached.append(label)
                continue
            names = re.findall(r"{(\w+)}", operation.path)
            fixed = {name: value for name, value in {**world.ids, "turn": turn}.items() if name in names}
            notes = notes_for(operation.path, world.notes) if "note" in names else [None]

            def cases(mode, operation=operation, fixed=fixed, notes=notes):
                return st.sampled_from(notes).flatmap(lambda note: operation.as_strategy(
                    mode, path_parameters={**fixed, **({"note": note} if note else {})}))

            started_operation = time.monotonic()
            # Invalid data needs something to make invalid: the ids in the path are fixed, and the
            # Authorization header is the caller's (set by schemathesis from the config).
            negatable = bool(operation.body) or bool(operation.query)
            modes = [(GenerationMode.POSITIVE, bounds.positive)]
            modes += [(GenerationMode.NEGATIVE, bounds.negative)] if negatable else []
            for mode, count in modes:
                try:
                    settings(hypothesis_settings, max_examples=count)(given(case=cases(mode))(call))()
                except Unsatisfiable:  # nothing that can be made invalid: not a finding
                    findings.not_generated.append(f"{label} {mode.value}")
            coverage = schema.iter_coverage_cases(
                operation, generation_modes=list(GenerationMode),
                generation_config=schema.config.generation_for(operation=operation))
            for case in itertools.islice(coverage, bounds.coverage):
                about = case.meta.phase.data
                if getattr(about, "parameter_location", None) == "path" \
                        or getattr(about, "parameter", None) == "Authorization":
                    continue  # the path's ids: tests/test_no_server_errors.py; no token: ignored_auth
                # Coverage cases come without the ids and the token the other cases get.
                case.path_parameters = {**(case.path_parameters or {}), **fixed,
                                        **({"note": notes[0]} if notes[0] else {})}
                case.headers = {**(case.headers or {}), "Authorization": f"Token {token}"}
                call(case)
            findings.seconds[label] = time.monotonic() - started_operation
    finally:
        logging.getLogger("django.request").removeHandler(server_exceptions)


def load_schema(session: requests.Session, base_url: str, token: str):
    """The document the live server serves, with the caller's token as its TokenAuth."""
    response = session.get(f"{base_url}/api/v1/schema/?format=json")
    assert response.status_code == 200, response.status_code
    config = schemathesis.Config.from_dict({
        "seed": SEED, "auth": {"openapi": {"TokenAuth": {"api_key": f"Token {token}"}}}})
    return schemathesis.openapi.from_dict(response.json(), config=config)


# --- the passes -------------------------------------------------------------------------------

def test_R_API_1_fuzzing_as_the_workspace_owner_passes_every_check(base_url, session):
    world = build_world(session, base_url)
    schema = load_schema(session, base_url, world.owner_key)
    findings = Findings()
    fuzz(schema, base_url=base_url, session=session, token=world.owner_key, world=world,
         turn=world.turns["owner"], bounds=OWNER_PASS, findings=findings)
    print(findings.report("owner's token"))
    if findings.failures or findings.not_reached:
        pytest.fail(findings.report("owner's token"), pytrace=False)


def test_R_API_1_fuzzing_as_a_bot_passes_every_check(base_url, session):
    world = build_world(session, base_url)
    schema = load_schema(session, base_url, world.bot_key)
    findings = Findings()
    fuzz(schema, base_url=base_url, session=session, token=world.bot_key, world=world,
         turn=world.turns["bot"], bounds=BOT_PASS, findings=findings)
    print(findings.report("bot's token"))
    if findings.failures or findings.not_reached:
        pytest.fail(findings.report("bot's token"), pytrace=False)
