"""API routes. Every path works with and without its trailing slash (no redirects)."""

from django.urls import re_path

from conversations.api import import_views, message_views, replay_views, trash_views, views


def route(path: str, view, name: str):  # type: ignore[no-untyped-def]
    return re_path(rf"^{path}/?$", view.as_view(), name=name)


urlpatterns = [
    route("formats", views.FormatListView, "api-formats"),
    route("conversations/import", views.ImportView, "api-import"),
    route("conversations/import/batch", views.ImportBatchView, "api-import-batch"),
    route("conversations", views.ConversationListView, "api-conversations"),
    route(r"conversations/(?P<pk>[^/]+)", views.ConversationDetailView, "api-conversation"),
    route(r"conversations/(?P<pk>[^/]+)/export", views.ExportView, "api-export"),
    route(r"conversations/(?P<pk>[^/]+)/messages", message_views.MessageListView, "api-messages"),
    route(r"conversations/(?P<pk>[^/]+)/replays", replay_views.ReplayStartView, "api-replay-start"),
    route("replays", replay_views.ReplayListView, "api-replays"),
    route(r"replays/(?P<pk>[^/]+)", replay_views.ReplayDetailView, "api-replay"),
    route("providers", replay_views.ProviderListView, "api-providers"),
    route("imports", import_views.ImportJobListView, "api-imports"),
    route(r"imports/(?P<pk>[^/]+)", import_views.ImportJobDetailView, "api-import-job"),
    route("convert", views.ConvertView, "api-convert"),
    route("trash", trash_views.TrashView, "api-trash"),
    route("trash/restore", trash_views.TrashRestoreView, "api-trash-restore"),
    route("trash/purge", trash_views.TrashPurgeView, "api-trash-purge"),
    route("exports", trash_views.ExportJobListView, "api-exports"),
    route(r"exports/(?P<pk>[^/]+)", trash_views.ExportJobDetailView, "api-export-job"),
    route(
        r"exports/(?P<pk>[^/]+)/download",
        trash_views.ExportJobDownloadView,
        "api-export-job-download",
    ),
]
