"""R-RBAC-3: admins delete a member's notes without reading them."""

from __future__ import annotations

import pytest

from memories.models import ChangeSet, Note
from tests.factories import ALL_DATABASES, add_member, make_user, token_client, url
from tests.memories.helpers import person_save

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)

SECRET_ISH = "my private reminder about the offsite"


def test_R_RBAC_3_admin_sees_counts_and_sizes_never_content_and_deletes(owner, eu_ws):
    member = add_member(eu_ws, "member@example.com", "editor")
    admin = add_member(eu_ws, "admin@example.com", "admin")
    person_save(token_client(member), eu_ws, key="private.note", value=SECRET_ISH)
    person_save(token_client(member), eu_ws, key="team.note", value="Team fact", layer="workspace")
    client = token_client(admin)
    listing = client.get(url(eu_ws, f"members/{member.pk}/memories/"))
    assert listing.status_code == 200
    assert listing.json()["count"] == 1
    assert SECRET_ISH not in listing.content.decode() and "private.note" not in listing.content.decode()
    assert set(listing.json()["notes"][0]) == {"id", "size", "state", "created_at", "updated_at", "in_trash"}
    deleted = client.delete(url(eu_ws, f"members/{member.pk}/memories/"))
    assert deleted.status_code == 200 and deleted.json()["deleted"] == 1
    assert list(Note.objects.for_workspace(eu_ws).values_list("key", flat=True)) == ["team.note"]
    audit = ChangeSet.objects.for_workspace(eu_ws).get(action="blind_delete")
    assert audit.blind and audit.target_user_id == member.pk and audit.note_count == 1
    assert all(c.before is None and c.after is None for c in audit.changes.all())


def test_R_RBAC_3_an_admin_cannot_read_a_member_note_by_id(owner, eu_ws):
    member = add_member(eu_ws, "member@example.com", "editor")
    admin = add_member(eu_ws, "admin@example.com", "admin")
    note = person_save(token_client(member), eu_ws, key="private.note", value=SECRET_ISH).json()
    assert token_client(admin).get(url(eu_ws, f"memories/{note['id']}/")).status_code == 404
    listed = token_client(admin).get(url(eu_ws, "memories/")).content.decode()
    assert SECRET_ISH not in listed


def test_R_RBAC_3_editors_cannot_blind_delete(owner, eu_ws):
    member = add_member(eu_ws, "member@example.com", "editor")
    editor = add_member(eu_ws, "editor@example.com", "editor")
    person_save(token_client(member), eu_ws, key="a", value="b")
    assert token_client(editor).delete(url(eu_ws, f"members/{member.pk}/memories/")).status_code == 403
    assert Note.objects.for_workspace(eu_ws).count() == 1


def test_R_RBAC_3_instance_admins_can_blind_delete_in_any_workspace(owner, eu_ws):
    member = add_member(eu_ws, "member@example.com", "editor")
    root = make_user("root@example.com", instance_admin=True)
    person_save(token_client(member), eu_ws, key="a", value=SECRET_ISH)
    client = token_client(root)
    listing = client.get(url(eu_ws, f"members/{member.pk}/memories/"))
    assert listing.status_code == 200 and SECRET_ISH not in listing.content.decode()
    assert client.delete(url(eu_ws, f"members/{member.pk}/memories/")).json()["deleted"] == 1
    assert client.get(url(eu_ws, "memories/")).status_code == 403
