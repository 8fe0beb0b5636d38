from django.urls import path

from sessions.api import calculators, views

urlpatterns = [
    path("sessions/<int:session_id>/", views.session_detail, name="api-session"),
    path("sessions/<int:session_id>/events/", views.session_events, name="api-session-events"),
    path("calculators/tower-of-babel/wonder", calculators.tower_of_babel_wonder, name="calc-tob-wonder"),
    path("calculators/tower-of-babel/discs", calculators.tower_of_babel_discs, name="calc-tob-discs"),
    path("calculators/seven-wonders/score", calculators.seven_wonders_score, name="calc-sw-score"),
    path("calculators/seven-wonders/great-project", calculators.seven_wonders_great_project, name="calc-sw-project"),
]
