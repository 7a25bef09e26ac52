"""The web app's addresses: sign-in, the workspace picker, and the pages of a workspace under /w/<ws>/."""

from django.contrib.auth import views as auth_views
from django.urls import include, path

from webapp.views import home, instance, me, members, memory, playground, tokens

memory_urls = [
    path("", memory.memory_page, name="memory"),
    path("switch/", memory.memory_switch, name="memory-switch"),
    path("notes/new/", memory.note_add, name="note-add"),
    path("notes/<str:note>/", memory.note_row_view, name="note-row"),
    path("notes/<str:note>/edit/", memory.note_edit, name="note-edit"),
    path("notes/<str:note>/pin/", memory.note_pin, name="note-pin"),
    path("notes/<str:note>/keep/", memory.note_keep, name="note-keep"),
    path("notes/<str:note>/discard/", memory.note_discard, name="note-discard"),
    path("notes/<str:note>/delete/", memory.note_delete, name="note-delete"),
]

workspace_urls = [
    path("", memory.workspace_home, name="workspace-home"),
    path("settings/agents/memory/", include(memory_urls)),
    path("settings/members/", members.members_page, name="members"),
    path("settings/members/<str:user>/delete-notes/", members.member_notes_delete, name="member-notes-delete"),
    path("playground/", playground.playground_page, name="playground"),
    path("playground/turn/", playground.playground_turn, name="playground-turn"),
    path("playground/read/", playground.playground_read, name="playground-read"),
    path("playground/save/", playground.playground_save, name="playground-save"),
    path("playground/search/", playground.playground_search, name="playground-search"),
]

urlpatterns = [
    path("login/", home.SignInView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("", home.workspace_picker, name="home"),
    path("w/<str:ws>/", include(workspace_urls)),
    path("settings/memory/", me.my_memory_settings, name="my-memory-settings"),
    path("settings/tokens/", tokens.my_tokens, name="my-tokens"),
    path("settings/tokens/<str:token>/revoke/", tokens.my_token_revoke, name="my-token-revoke"),
    path("instance/rules/", instance.rules_page, name="instance-rules"),
    path("instance/rules/<str:rule>/edit/", instance.rule_edit, name="instance-rule-edit"),
    path("instance/rules/<str:rule>/delete/", instance.rule_delete, name="instance-rule-delete"),
]
