from django.urls import path, re_path

from sessions.api import about, account_tokens, calculators, resources, statistics, transfer, views
from sessions.api.calculators_babel_on import babel_on_tower

urlpatterns = [
    path("about/", about.about, name="api-about"),
    path("tokens/", account_tokens.account_tokens, name="api-tokens"),
    path("tokens/<str:token_id>/", account_tokens.account_token, name="api-token"),
    path("groups/", resources.GroupList.as_view(), name="api-groups"),
    path("groups/import/", transfer.GroupImport.as_view(), name="api-group-import"),
    path("groups/<int:group_id>/", resources.GroupDetail.as_view(), name="api-group"),
    path("groups/<int:group_id>/export/", transfer.GroupExport.as_view(), name="api-group-export"),
    path("groups/<int:group_id>/results.csv", transfer.GroupResultsCsv.as_view(), name="api-group-results-csv"),
    path(
        "groups/<int:group_id>/import/bgstats/", transfer.GroupImportBgStats.as_view(), name="api-group-import-bgstats"
    ),
    path("groups/<int:group_id>/players/", resources.GroupPlayers.as_view(), name="api-group-players"),
    path("groups/<int:group_id>/nights/", resources.GroupNights.as_view(), name="api-group-nights"),
    path("players/<int:player_id>/", resources.PlayerDetail.as_view(), name="api-player"),
    path("players/<int:player_id>/statistics/", statistics.player_statistics, name="api-player-statistics"),
    path(
        "players/<int:player_id>/rating-history/<int:year>/",
        statistics.player_rating_history,
        name="api-player-rating-history",
    ),
    path("groups/<int:group_id>/leaderboard/", statistics.leaderboard, name="api-leaderboard"),
    path("groups/<int:group_id>/games/<slug:game>/statistics/", statistics.game_statistics, name="api-game-statistics"),
    path("nights/<int:night_id>/", resources.NightDetail.as_view(), name="api-night"),
    path("nights/<int:night_id>/sessions/", resources.NightSessions.as_view(), name="api-night-sessions"),
    path("sessions/", resources.SessionList.as_view(), name="api-sessions"),
    path("results/", resources.ResultList.as_view(), name="api-results"),
    path("sessions/<int:session_id>/", views.session_detail, name="api-session"),
    path("sessions/<int:session_id>/events/", views.session_events, name="api-session-events"),
    path("sessions/<int:session_id>/rematch/", views.session_rematch, name="api-session-rematch"),
    path("calculators/tower-of-babel/wonder", calculators.tower_of_babel_wonder, name="calc-tob-wonder"),
    path("calculators/tower-of-babel/discs", calculators.tower_of_babel_discs, name="calc-tob-discs"),
    path("calculators/seven-wonders/score", calculators.seven_wonders_score, name="calc-sw-score"),
    path("calculators/babel-cubes/position", calculators.babel_cubes_position, name="calc-bc-position"),
    path("calculators/seven-wonders/great-project", calculators.seven_wonders_great_project, name="calc-sw-project"),
    path("calculators/babel-on/tower", babel_on_tower, name="calc-bo-tower"),
    # Last: whatever else is asked under /api/v1/ answers the API's JSON 404.
    # [\s\S], not ".": a path with a newline in it (%0A) is a path too.
    re_path(r"^(?P<path>[\s\S]*)$", views.not_found, name="api-not-found"),
]
