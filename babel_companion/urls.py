from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from sessions.views import accounts

urlpatterns = [
    path("", include("sessions.urls")),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", accounts.LogOut.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/v1/", include("sessions.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves Swagger UI's start-up script as a file: the pages' CSP allows no inline script.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("admin/", admin.site.urls),
]
