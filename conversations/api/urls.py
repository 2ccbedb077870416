"""API routes. Every path works with and without its trailing slash (no redirects)."""

from django.urls import re_path

from conversations.api import views


def route(path: str, view, name: str):  # type: ignore[no-untyped-def]
    return re_path(rf"^{path}/?$", view.as_view(), name=name)


urlpatterns = [
    route("formats", views.FormatListView, "api-formats"),
    route("conversations/import", views.ImportView, "api-import"),
    route("conversations/import/batch", views.ImportBatchView, "api-import-batch"),
    route("conversations", views.ConversationListView, "api-conversations"),
    route(r"conversations/(?P<pk>[^/]+)", views.ConversationDetailView, "api-conversation"),
    route(r"conversations/(?P<pk>[^/]+)/export", views.ExportView, "api-export"),
    route("convert", views.ConvertView, "api-convert"),
]
