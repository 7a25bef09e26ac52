"""R-MODE-2: strictest wins — the decision function checked over EVERY combination of its inputs.

The expected answer is computed by ``expected`` below: an independent, plainer statement of the
rules as the reference page words them ("Choose how a note is saved", "Which rule applies",
"In messaging apps", "Turn memory off") and issue 8, written without calling any helper of
``memories.policy``. Every case of the cross product of all inputs is decided by
``memories.policy.decide`` and compared with it. The module needs no database.
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import cache
from typing import NamedTuple

import pytest

from memories.policy import Decision, SaveSituation, decide

# ---- every value of every input ---------------------------------------------------------------
KINDS = (None, "chat", "routine", "subagent", "trigger", "messaging")  # None: a person's own save (web app)
ACTIONS = ("save", "undo")
PERSON_LEVELS = ("auto", "ask", "always", "never", None)  # None: the person's setting could not be read
BOT_RULES = (None, "always", "never", "unreadable")  # None: use the person's level
MESSAGING_ROWS = ("ask", "paired_private", "never", None)
DIRECT = (True, False)
PAIRED = (True, False)
LAYERS = ("conversation", "mine")
LAYER_ALLOWED = (True, False)
TAINTED = ((), ("web https://example.com",))
MAY_NAME_PERSON = (False, True)
DETECTOR = (None, ("secret_detected", "This looks like a secret."))
OFF_LEVELS = (None, "private_chat", "bot", "user", "workspace")
SAVES_ALREADY = (0, 5)

DIMENSIONS = (PERSON_LEVELS, BOT_RULES, MESSAGING_ROWS, DIRECT, PAIRED, LAYERS, LAYER_ALLOWED, TAINTED,
              MAY_NAME_PERSON, DETECTOR, OFF_LEVELS, SAVES_ALREADY)


class Case(NamedTuple):
    kind: str | None
    action: str
    person: str | None
    bot: str | None
    row: str | None
    direct: bool
    paired: bool
    layer: str
    allowed: bool
    tainted: tuple
    may_name_person: bool
    detector: tuple | None
    off: str | None
    saves_already: int


# ---- the rules, stated plainly ----------------------------------------------------------------
LOOSEST_FIRST = ["auto", "ask", "always", "never"]


def expected_mode(c: Case) -> str:
    return _expected_mode(c.kind, c.person, c.bot, c.row, c.direct, c.paired)


@cache
def _expected_mode(kind, person, bot, row, direct, paired) -> str:
    """Each sentence of "Which rule applies" gives a lower bound; the strictest bound wins."""
    c = Case(kind, "save", person, bot, row, direct, paired, "", True, (), False, None, None, 0)
    if c.kind is None:
        return "auto"  # a person saving their own note is not an assistant's proposal
    bounds = []
    level_readable = c.person in LOOSEST_FIRST
    level_cannot_be_loosened = c.person in ("always", "never")
    messaging = c.kind == "messaging"
    # "Your level": it decides, except that for messaging chats with auto/ask the row decides.
    if level_readable and (not messaging or level_cannot_be_loosened):
        bounds.append(c.person)
    # "The messaging row": for messaging chats, unless the level is always or never.
    if messaging and not level_cannot_be_loosened:
        if c.row == "never":
            bounds.append("never")
        elif c.row == "paired_private" and c.direct and c.paired:
            bounds.append("auto")
        else:
            bounds.append("ask")  # ask first (default), unreadable, or not a paired one-to-one chat
    # "The agent's rule": always confirm or never, only stricter.
    if c.bot in ("always", "never"):
        bounds.append(c.bot)
    # "The chat": a sub-agent, a trigger or a job is never looser than ask.
    if c.kind in ("routine", "subagent", "trigger"):
        bounds.append("ask")
    # "When any of these cannot be read, the host asks."
    if not level_readable or c.bot == "unreadable" or (messaging and c.row is None and not level_cannot_be_loosened):
        bounds.append("ask")
    return max(bounds, key=LOOSEST_FIRST.index)


def expected(c: Case) -> tuple[str, str | None, str | None]:
    """(outcome, refusal code, hold reason)."""
    agent = c.kind is not None
    if c.off:
        return "refuse", "memory_off", None  # the narrowest level that is off (the host names it)
    mode = expected_mode(c)
    if mode == "never":
        return "refuse", "saving_off", None
    if not c.allowed:
        return "refuse", "layer_not_allowed", None
    beyond_conversation = c.kind == "messaging" and c.layer != "conversation"
    if beyond_conversation and not c.paired:
        return "refuse", "layer_not_allowed", None  # another scope only from a paired sender
    if c.action == "undo":
        if agent and mode == "always":
            return "refuse", "undo_needs_person", None  # "The model's own undo and forget wait for you too"
        # R-AGENT-3: "in a tainted turn it is held like a save" (and so in unwatched runs).
        if c.kind == "routine":
            return "hold", None, "routine_run"
        if c.tainted:
            return "hold", None, "tainted_turn"
        if c.kind in ("subagent", "trigger"):
            return "hold", None, "background_run"
        return "save", None, None
    if c.detector:
        return "refuse", c.detector[0], None
    if agent and c.saves_already >= 5:
        return "refuse", "turn_save_limit", None
    if c.kind == "routine":
        return "hold", None, "routine_run"  # R-TAINT-3: every save of a routine run waits
    if c.tainted:
        return "hold", None, "tainted_turn"  # R-TAINT-2
    if c.may_name_person:
        return "hold", None, "may_name_person"  # R-SAVE-3b
    if beyond_conversation:
        return "hold", None, "messaging_other_layer"  # "a note for another scope never saves at once"
    if c.kind == "messaging" and mode != "auto":
        return "hold", None, "messaging_ask"
    if c.kind in ("subagent", "trigger"):
        return "hold", None, "background_run"
    if mode in ("ask", "always"):
        return "hold", None, "ask_first"
    return "save", None, None


# ---- the table --------------------------------------------------------------------------------
def situation(c: Case) -> SaveSituation:
    return SaveSituation(
        origin="person" if c.kind is None else "agent",
        layer=c.layer,
        layer_allowed=c.allowed,
        memory_off_level=c.off,
        turn_kind=c.kind,
        tainted_sources=c.tainted,
        saves_already_in_turn=c.saves_already,
        max_saves_per_turn=5,
        detector_refusal=c.detector,
        may_name_person=c.may_name_person,
        person_save_mode=c.person,
        bot_save_rule=c.bot,
        messaging_save=c.row,
        messaging_direct=c.direct,
        sender_paired=c.paired,
        action=c.action,
    )


def cases(kind, action):
    for values in itertools.product(*DIMENSIONS):
        yield Case(kind, action, *values)


TABLE_SIZE_PER_KIND_AND_ACTION = 1
for _dimension in DIMENSIONS:
    TABLE_SIZE_PER_KIND_AND_ACTION *= len(_dimension)
TABLE_SIZE = TABLE_SIZE_PER_KIND_AND_ACTION * len(KINDS) * len(ACTIONS)


def check(decision: Decision, c: Case) -> str | None:
    outcome, code, reason = expected(c)
    got = (decision.outcome, decision.code, decision.reason)
    if got != (outcome, code, reason):
        return f"{c}: expected {(outcome, code, reason)}, got {got}"
    if outcome == "refuse" and not decision.detail:
        return f"{c}: a refusal needs a sentence for people"
    if code == "memory_off" and decision.extra.get("level") != c.off:
        return f"{c}: memory_off must name the level {c.off}"
    if code != "memory_off" and decision.effective_mode != expected_mode(c):
        return f"{c}: effective mode {decision.effective_mode}, expected {expected_mode(c)}"
    return None


@pytest.mark.parametrize("action", ACTIONS)
@pytest.mark.parametrize("kind", KINDS)
def test_R_MODE_2_truth_table_every_combination(kind, action):
    """R-MODE-2, R-MSG-1, R-TAINT-2/3, R-RECALL-5: every combination of every input decides as stated."""
    mismatches, seen, outcomes = [], 0, Counter()
    for c in cases(kind, action):
        decision = decide(situation(c))
        seen += 1
        outcomes[(decision.outcome, decision.code or decision.reason)] += 1
        problem = check(decision, c)
        if problem and len(mismatches) < 20:
            mismatches.append(problem)
    assert seen == TABLE_SIZE_PER_KIND_AND_ACTION
    assert not mismatches, "\n".join(mismatches)
    # The table reaches every outcome it should for this kind (no rule is dead code).
    if action == "save" and kind is not None:
        assert outcomes[("refuse", "turn_save_limit")] > 0 and outcomes[("refuse", "saving_off")] > 0
        assert any(outcome == "hold" for outcome, _ in outcomes)
        # Only a watched chat saves at once; routine runs, sub-agents and triggers never do.
        assert (outcomes[("save", None)] > 0) == (kind in ("chat", "messaging"))


def test_R_MODE_2_table_size_is_the_full_cross_product():
    assert TABLE_SIZE == 6 * 2 * 5 * 4 * 4 * 2 * 2 * 2 * 2 * 2 * 2 * 2 * 5 * 2 == 1_228_800


# ---- a few rows spelled out, so a reader sees the rules without running the table -----------------
def agent(**fields) -> SaveSituation:
    base = {"origin": "agent", "layer": "mine", "turn_kind": "chat"}
    return SaveSituation(**{**base, **fields})


@pytest.mark.parametrize(
    "fields, outcome",
    [
        ({}, ("save", None)),  # Appenda's default: auto, saved at once and shown
        ({"person_save_mode": "ask"}, ("hold", "ask_first")),
        ({"person_save_mode": None}, ("hold", "ask_first")),  # cannot read the setting → ask
        ({"person_save_mode": "auto", "bot_save_rule": "always"}, ("hold", "ask_first")),  # bot only stricter
        ({"person_save_mode": "never", "bot_save_rule": "always"}, ("refuse", "saving_off")),
        ({"person_save_mode": "auto", "bot_save_rule": "use_mine"}, ("save", None)),
        ({"turn_kind": "subagent"}, ("hold", "background_run")),
        ({"turn_kind": "trigger"}, ("hold", "background_run")),
        ({"turn_kind": "routine"}, ("hold", "routine_run")),
    ],
)
def test_R_MODE_2_named_rows(fields, outcome):
    decision = decide(agent(**fields))
    assert (decision.outcome, decision.code or decision.reason) == outcome


MESSAGING = {"turn_kind": "messaging", "layer": "conversation"}


@pytest.mark.parametrize(
    "fields, outcome",
    [
        ({"messaging_save": "ask", "messaging_direct": True, "sender_paired": True}, ("hold", "messaging_ask")),
        ({"messaging_save": "paired_private", "messaging_direct": True, "sender_paired": True}, ("save", None)),
        # the row decides for a person who asks first too
        ({"person_save_mode": "ask", "messaging_save": "paired_private", "messaging_direct": True,
          "sender_paired": True}, ("save", None)),
        # ... but never loosens always
        ({"person_save_mode": "always", "messaging_save": "paired_private", "messaging_direct": True,
          "sender_paired": True}, ("hold", "messaging_ask")),
        ({"person_save_mode": None, "messaging_save": "paired_private", "messaging_direct": True,
          "sender_paired": True}, ("hold", "messaging_ask")),
        ({"messaging_save": "paired_private", "messaging_direct": False, "sender_paired": True},
         ("hold", "messaging_ask")),  # a group (or an unknown chat kind) asks
        ({"messaging_save": "paired_private", "messaging_direct": True, "sender_paired": False},
         ("hold", "messaging_ask")),
        ({"messaging_save": "never"}, ("refuse", "saving_off")),
        ({"messaging_save": "paired_private", "messaging_direct": True, "sender_paired": True, "layer": "bot"},
         ("hold", "messaging_other_layer")),  # another scope never saves at once
        ({"messaging_save": "paired_private", "messaging_direct": True, "sender_paired": False, "layer": "mine"},
         ("refuse", "layer_not_allowed")),  # ... and only from a paired sender
    ],
)
def test_R_MSG_1_named_rows(fields, outcome):
    decision = decide(agent(**{**MESSAGING, **fields}))
    assert (decision.outcome, decision.code or decision.reason) == outcome


def test_R_MODE_2_always_makes_the_models_own_undo_wait_for_the_person():
    assert decide(agent(person_save_mode="always", action="undo")).code == "undo_needs_person"
    assert decide(agent(bot_save_rule="always", action="undo")).code == "undo_needs_person"
    assert decide(agent(person_save_mode="ask", action="undo")).outcome == "save"


def test_R_MODE_2_saving_off_tells_the_model_which_rule_turned_it_off():
    assert "bot" in decide(agent(bot_save_rule="never")).detail
    assert "Your settings" in decide(agent(person_save_mode="never")).detail
    assert "messaging" in decide(agent(**MESSAGING, messaging_save="never")).detail
