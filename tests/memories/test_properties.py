"""Property test (hypothesis): random sequences of turns, reads, saves, keeps, deletes and switch
flips by several people and bots. Whatever happens, a held note is never in any context or search
result (R-TAINT-2), and no note is ever visible to someone the layer table excludes (R-RBAC-1)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from appenda.errors import DomainError
from memories import recall, services, turns
from memories.models import Note
from tests.factories import (
    ALL_DATABASES,
    add_member,
    make_bot,
    make_table,
    make_user,
    make_workspace,
)
from workspaces.capabilities import actor_for
from workspaces.services import workspace_memory_switch

_RUNS = itertools.count()
ACTIONS = st.lists(
    st.tuples(
        st.sampled_from(["turn", "read", "save", "keep", "delete", "switch", "check"]),
        st.integers(min_value=0, max_value=3),  # who: 0 owner, 1 editor, 2 viewer, 3 bot
        st.sampled_from(["mine", "workspace", "bot", None]),
        st.integers(min_value=0, max_value=5),  # which key
    ),
    min_size=5,
    max_size=30,
)


def _visible_to(note: Note, who: str, people: dict, bot) -> bool:
    """The layer table of SPEC §3, stated independently of the code under test."""
    if note.layer == "workspace":
        return True
    if note.layer == "mine":
        person_id = people["owner"].pk if who == "bot" else people[who].pk
        return note.owner_user_id == person_id
    if note.layer == "bot":
        return who in ("bot", "owner") and note.bot_id == bot.id
    return False


@pytest.mark.django_db(databases=ALL_DATABASES)
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(actions=ACTIONS)
def test_R_TAINT_2_and_R_RBAC_1_hold_for_any_sequence(actions):
    # Hypothesis runs every example inside the same test transaction: each gets fresh names.
    run = next(_RUNS)
    owner = make_user(f"prop-owner-{run}@example.com")
    workspace = make_workspace(owner, name=f"Prop {run}", region="eu")
    people = {"owner": owner, "editor": add_member(workspace, f"prop-editor-{run}@example.com", "editor"),
              "viewer": add_member(workspace, f"prop-viewer-{run}@example.com", "viewer")}
    bot, _ = make_bot(workspace, owner)
    make_table(workspace, owner)
    actors = {name: actor_for(user, workspace) for name, user in people.items()}
    actors["bot"] = actor_for(bot.account, workspace)
    names = ["owner", "editor", "viewer", "bot"]
    open_turns: dict[str, object] = {}

    def check_invariants():
        for who, actor in actors.items():
            turn = turns.turn_start(actor=actor, kind="chat")
            context = recall.turn_context(turn=turn, workspace=workspace)
            try:
                found = recall.memory_search(actor=actor, turn_id=turn.id, query="fact note value key", limit=50)["notes"]
            except DomainError as exc:
                assert exc.code == "memory_off"
                found = []
            for recalled in context["notes"] + found:
                if recalled["layer"] == "instance":
                    continue
                note = Note.objects.for_workspace(workspace).get(id=recalled["id"])
                assert note.state == Note.State.ACTIVE, "a held note was recalled"
                assert _visible_to(note, who, people, bot), f"{who} saw a note of layer {note.layer}"

    for action, who_index, layer, key_index in actions:
        who = names[who_index]
        actor = actors[who]
        try:
            if action == "turn":
                open_turns[who] = turns.turn_start(actor=actor, kind="routine" if who == "bot" and key_index % 2 else "chat")
            elif action == "read" and who in open_turns:
                turns.turn_record_read(actor=actor, turn_id=open_turns[who].id, source="web", ref="https://x.test")
            elif action == "save" and who in open_turns:
                services.memory_save(actor=actor, turn_id=open_turns[who].id, key=f"k{key_index}",
                                     value=f"fact note value {key_index}", layer=layer, pinned=bool(key_index % 2))
            elif action == "keep":
                held = Note.objects.for_workspace(workspace).filter(state="held").first()
                if held is not None:
                    services.memory_keep(actor=actor, note_id=held.id, version=held.version)
            elif action == "delete":
                note = Note.objects.for_workspace(workspace).first()
                if note is not None:
                    services.memory_delete(actor=actor, note_id=note.id)
            elif action == "switch":
                workspace_memory_switch(actor=actors["owner"], enabled=not workspace.memory_enabled)
            elif action == "check":
                check_invariants()
        except DomainError:
            pass  # refusals are fine; what matters is what can be seen afterwards
    check_invariants()
