"""The web app's addresses: sign-in, the workspace picker, and the pages of a workspace under /w/<ws>/."""

from django.contrib.auth import views as auth_views
from django.urls import include, path

from webapp.views import (
    bots,
    exports,
    history,
    home,
    instance,
    me,
    members,
    memory,
    playground,
    privacy,
    tokens,
    trash,
)

memory_urls = [
    path("", memory.memory_page, name="memory"),
    path("switch/", memory.memory_switch, name="memory-switch"),
    path("notes/new/", memory.note_add, name="note-add"),
    path("preview/", memory.memory_preview, name="memory-preview"),
    path("held/keep-all/", memory.held_keep_all, name="held-keep-all"),
    path("held/discard-all/", memory.held_discard_all, name="held-discard-all"),
    path("notes/<str:note>/", memory.note_row_view, name="note-row"),
    path("notes/<str:note>/edit/", memory.note_edit, name="note-edit"),
    path("notes/<str:note>/pin/", memory.note_pin, name="note-pin"),
    path("notes/<str:note>/keep/", memory.note_keep, name="note-keep"),
    path("notes/<str:note>/discard/", memory.note_discard, name="note-discard"),
    path("notes/<str:note>/delete/", memory.note_delete, name="note-delete"),
    path("notes/<str:note>/history/", history.note_history_page, name="note-history"),
    path("changes/", history.changes_page, name="memory-changes"),
    path("changes/<str:change>/undo/", history.change_undo, name="memory-change-undo"),
    path("trash/", trash.trash_page, name="memory-trash"),
    path("trash/restore-all/", trash.trash_restore_all, name="memory-trash-restore-all"),
    path("trash/<str:note>/restore/", trash.trash_restore, name="memory-trash-restore"),
    path("export/", exports.export_page, name="memory-export"),
    path("export/<str:export>/download/", exports.export_download, name="memory-export-download"),
    path("forget/", exports.forget, name="memory-forget"),
    path("private-chats/", privacy.private_chats_page, name="private-chats"),
    path("private-chats/switch/", privacy.private_chat_toggle, name="private-chat-switch"),
]

bot_urls = [
    path("", bots.bots_page, name="bots"),
    path("new/", bots.bot_add, name="bot-add"),
    path("<str:bot>/edit/", bots.bot_edit, name="bot-edit"),
    path("<str:bot>/rotate-token/", bots.bot_rotate, name="bot-rotate"),
    path("<str:bot>/delete/", bots.bot_remove, name="bot-delete"),
]

workspace_urls = [
    path("", memory.workspace_home, name="workspace-home"),
    path("settings/agents/memory/", include(memory_urls)),
    path("settings/agents/bots/", include(bot_urls)),
    path("settings/members/", members.members_page, name="members"),
    path("settings/members/<str:user>/delete-notes/", members.member_notes_delete, name="member-notes-delete"),
    path("playground/", playground.playground_page, name="playground"),
    path("playground/turn/", playground.playground_turn, name="playground-turn"),
    path("playground/read/", playground.playground_read, name="playground-read"),
    path("playground/save/", playground.playground_save, name="playground-save"),
    path("playground/undo/", playground.playground_undo, name="playground-undo"),
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
    path("instance/rules/<str:rule>/keep/", instance.rule_keep, name="instance-rule-keep"),
    path("instance/rules/<str:rule>/delete/", instance.rule_delete, name="instance-rule-delete"),
]
