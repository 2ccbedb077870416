"""Top-level routes: the API, its schema and docs, the admin, login and the pages."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from conversations import views

urlpatterns = [
    path("api/v1/", include("conversations.api.urls")),
    re_path(r"^api/schema/?$", SpectacularAPIView.as_view(), name="schema"),
    re_path(r"^api/docs/?$", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("admin/", admin.site.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("", views.conversation_list, name="conversation-list"),
    path("conversations/<uuid:pk>/", views.conversation_detail, name="conversation-detail"),
    path("import/", views.import_page, name="import"),
]

handler404 = "conversations.views.not_found"
