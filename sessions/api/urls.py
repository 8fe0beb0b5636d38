from django.urls import path

from sessions.api import views

urlpatterns = [
    path("sessions/<int:session_id>/", views.session_detail, name="api-session"),
    path("sessions/<int:session_id>/events/", views.session_events, name="api-session-events"),
]
