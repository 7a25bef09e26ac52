"""URLs: the API under /api/v1/, its schema and docs, the web app, object downloads."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from appenda import views as appenda_views
from appenda.api import docs as api_docs
from appenda.mcp.http import mcp_endpoint
from memories import api as memory_api
from memories import api_agents as agent_api
from memories import api_exports as export_api
from memories import api_history as history_api
from ops import views as ops_views
from tables import api as table_api
from workspaces import api as workspace_api
from workspaces import api_tokens as token_api

ws = "workspaces/<str:ws>/"

api_v1 = [
    path("workspaces/", workspace_api.WorkspaceListView.as_view(), name="workspace-list"),
    path(ws, workspace_api.WorkspaceDetailView.as_view(), name="workspace-detail"),
    path(ws + "memory-settings/", workspace_api.WorkspaceMemorySettingsView.as_view(), name="workspace-memory-settings"),
    path(ws + "members/", workspace_api.MemberListView.as_view(), name="member-list"),
    path(ws + "members/<str:user>/", workspace_api.MemberDetailView.as_view(), name="member-detail"),
    path(ws + "members/<str:user>/memories/", memory_api.MemberMemoriesBlindView.as_view(), name="member-memories"),
    path(ws + "bots/", workspace_api.BotListView.as_view(), name="bot-list"),
    path(ws + "bots/import/", agent_api.BotImportView.as_view(), name="bot-import"),
    path(ws + "bots/<str:bot>/", workspace_api.BotDetailView.as_view(), name="bot-detail"),
    path(ws + "bots/<str:bot>/export/", agent_api.BotExportView.as_view(), name="bot-export"),
    path(ws + "bots/<str:bot>/token/", token_api.BotTokenRotateView.as_view(), name="bot-token-rotate"),
    path(ws + "tables/", table_api.TableListView.as_view(), name="table-list"),
    path(ws + "tables/<str:table>/", table_api.TableDetailView.as_view(), name="table-detail"),
    path(ws + "tables/<str:table>/records/", table_api.RecordListView.as_view(), name="record-list"),
    path(ws + "tables/<str:table>/records/import/", table_api.RecordImportView.as_view(), name="record-import"),
    path(ws + "tables/<str:table>/records/<str:record>/", table_api.RecordDetailView.as_view(), name="record-detail"),
    path(ws + "turns/", memory_api.TurnStartView.as_view(), name="turn-start"),
    path(ws + "turns/<str:turn>/reads/", memory_api.TurnReadView.as_view(), name="turn-reads"),
    path(ws + "turns/<str:turn>/memory_save/", memory_api.TurnMemorySaveView.as_view(), name="turn-memory-save"),
    path(ws + "turns/<str:turn>/memory_search/", memory_api.TurnMemorySearchView.as_view(), name="turn-memory-search"),
    path(ws + "turns/<str:turn>/memory_undo/", memory_api.TurnMemoryUndoView.as_view(), name="turn-memory-undo"),
    path(ws + "turns/<str:turn>/confirm/", agent_api.TurnConfirmView.as_view(), name="turn-confirm"),
    path(ws + "turns/<str:turn>/undo/", history_api.TurnUndoView.as_view(), name="turn-undo"),
    path(ws + "memories/", memory_api.MemoryListView.as_view(), name="memory-list"),
    path(ws + "memories/export/", export_api.MemoryExportView.as_view(), name="memory-export"),
    path(ws + "memories/exports/", export_api.ExportListView.as_view(), name="memory-export-list"),
    path(ws + "memories/exports/<str:export>/", export_api.ExportDetailView.as_view(), name="memory-export-detail"),
    path(ws + "memories/import/", export_api.MemoryImportView.as_view(), name="memory-import"),
    # Fixed words before memories/<str:note>/, which would otherwise take them for a note id.
    path(ws + "memories/forget/", history_api.MemoryForgetView.as_view(), name="memory-forget"),
    path(ws + "memories/trash/", history_api.TrashListView.as_view(), name="memory-trash"),
    path(ws + "memories/trash/restore/", history_api.TrashRestoreAllView.as_view(), name="memory-trash-restore-all"),
    path(ws + "memories/trash/<str:note>/restore/", history_api.TrashRestoreView.as_view(), name="memory-trash-restore"),
    path(ws + "memories/<str:note>/history/", history_api.NoteHistoryView.as_view(), name="memory-history"),
    path(ws + "memories/deleted-bots/", agent_api.DeletedBotMemoriesView.as_view(), name="memory-deleted-bots"),
    path(ws + "memories/<str:note>/", memory_api.MemoryDetailView.as_view(), name="memory-detail"),
    path(ws + "memories/<str:note>/keep/", memory_api.MemoryKeepView.as_view(), name="memory-keep"),
    path(ws + "changes/", history_api.ChangeListView.as_view(), name="change-list"),
    path(ws + "changes/<str:change>/", history_api.ChangeDetailView.as_view(), name="change-detail"),
    path(ws + "changes/<str:change>/undo/", history_api.ChangeUndoView.as_view(), name="change-undo"),
    path("instance/rules/", memory_api.InstanceRuleListView.as_view(), name="instance-rule-list"),
    path("instance/rules/<str:rule>/", memory_api.InstanceRuleDetailView.as_view(), name="instance-rule-detail"),
    path("instance/rules/<str:rule>/keep/", memory_api.InstanceRuleKeepView.as_view(), name="instance-rule-keep"),
    path("me/", memory_api.MeView.as_view(), name="me"),
    path("me/memory-settings/", workspace_api.MyMemorySettingsView.as_view(), name="my-memory-settings"),
    path("me/tokens/", token_api.MyTokenListView.as_view(), name="my-token-list"),
    path("me/tokens/<str:token>/", token_api.MyTokenDetailView.as_view(), name="my-token-detail"),
    path("tools/", memory_api.ToolListView.as_view(), name="tool-list"),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", api_docs.SwaggerDocsView.as_view(), name="api-docs"),
    path("redoc/", api_docs.redoc_view, name="api-redoc"),
]

urlpatterns = [
    path("api/v1/", include(api_v1)),
    path("mcp/", mcp_endpoint, name="mcp"),
    path("objects/<str:token>/", appenda_views.object_download, name="object-download"),
    path("admin/", admin.site.urls),
    path("healthz", ops_views.healthz, name="healthz"),  # ops: the process answers
    path("readyz", ops_views.readyz, name="readyz"),  # ops: databases, buckets, model, job worker
    path("metrics", ops_views.metrics_view, name="metrics"),  # Prometheus; token or this machine only
    path("", include("webapp.urls")),
]

handler404 = "appenda.api.fallback.not_found"
# A region that cannot be reached (its database down in a middleware, say) answers 503
# region_unavailable; any other uncaught error goes on to appenda.api.fallback.server_error.
handler500 = "appenda.views.server_error"
