"""Top-level routes: the API, its schema and docs, the admin, login and the pages."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from conversations import views
from conversations.views.login import AdminLoginForm, LoginView

# The admin's login counts failed attempts like the pages' (conversations.views.login).
admin.site.login_form = AdminLoginForm

urlpatterns = [
    path("api/v1/", include("conversations.api.urls")),
    re_path(r"^api/schema/?$", SpectacularAPIView.as_view(), name="schema"),
    re_path(r"^api/docs/?$", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("admin/", admin.site.urls),
    path("accounts/login/", LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("", views.conversation_list, name="conversation-list"),
    path("conversations/count/", views.conversation_count, name="conversation-count"),
    path(
        "conversations/suggest/<str:field>/",
        views.filter_suggestions,
        name="filter-suggestions",
    ),
    path("conversations/<uuid:pk>/", views.conversation_detail, name="conversation-detail"),
    path("conversations/<uuid:pk>/export/", views.export_download, name="export-download"),
    path(
        "conversations/<uuid:pk>/export/warnings/",
        views.export_warnings,
        name="export-warnings",
    ),
    path("conversations/<uuid:pk>/replays/", views.replay_start, name="replay-start"),
    path(
        "conversations/<uuid:pk>/replays/<uuid:run_id>/",
        views.replay_detail,
        name="replay-detail",
    ),
    path(
        "conversations/<uuid:pk>/replays/<uuid:run_id>/status/",
        views.replay_status,
        name="replay-status",
    ),
    path(
        "conversations/<uuid:pk>/replays/<uuid:run_id>/turns/<int:index>/request/",
        views.replay_turn_request,
        name="replay-turn-request",
    ),
    path("attachments/<str:sha256>/", views.attachment, name="attachment"),
    path("import/", views.import_page, name="import"),
    path("trash/", views.trash_page, name="trash"),
    path("trash/add/", views.trash_add, name="trash-add"),
    path("trash/restore/", views.trash_restore, name="trash-restore"),
    path("trash/purge/", views.trash_purge, name="trash-purge"),
    path("exports/", views.export_jobs_page, name="exports"),
    path("exports/<uuid:pk>/", views.export_job_detail, name="export-job"),
    path("exports/<uuid:pk>/status/", views.export_job_status, name="export-job-status"),
    path("exports/<uuid:pk>/download/", views.export_job_download, name="export-job-download"),
    path("import/jobs/<uuid:pk>/", views.import_job_detail, name="import-job"),
    path("import/jobs/<uuid:pk>/status/", views.import_job_status, name="import-job-status"),
]

handler404 = "conversations.views.not_found"
