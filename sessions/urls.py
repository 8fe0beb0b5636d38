from django.urls import path

from sessions.views import accounts, groups, join, nights, play

urlpatterns = [
    path("", groups.home, name="home"),
    path("signup/", accounts.signup, name="signup"),
    path("groups/new/", groups.group_new, name="group_new"),
    path("g/<int:group_id>/", groups.group, name="group"),
    path("g/<int:group_id>/log/", groups.play_log, name="play_log"),
    path("g/<int:group_id>/players/", groups.player_add, name="player_add"),
    path("g/<int:group_id>/members/", groups.members, name="members"),
    path("g/<int:group_id>/members/<int:membership_id>/remove/", groups.member_remove, name="member_remove"),
    path("g/<int:group_id>/nights/", nights.night_new, name="night_new"),
    path("g/<int:group_id>/tables/<slug:game>/", groups.edition_table, name="edition_table"),
    path("p/<int:player_id>/rename/", groups.player_rename, name="player_rename"),
    path("n/<int:night_id>/", nights.night, name="night"),
    path("n/<int:night_id>/sessions/new/", nights.session_new, name="session_new"),
    path("s/<int:session_id>/", play.session_page, name="session"),
    path("s/<int:session_id>/live/", play.session_live, name="session_live"),
    path("s/<int:session_id>/scores/", play.session_scores, name="session_scores"),
    path("s/<int:session_id>/places/", play.session_places, name="session_places"),
    path("s/<int:session_id>/do/<slug:action>/", play.session_action, name="session_action"),
    path("s/<int:session_id>/play/<slug:event>/", play.session_play, name="session_play"),
    path("s/<int:session_id>/code/", play.join_code_new, name="join_code_new"),
    path("s/<int:session_id>/code/<int:code_id>/revoke/", play.join_code_revoke, name="join_code_revoke"),
    path("s/<int:session_id>/code/qr.svg", play.join_code_qr, name="join_code_qr"),
    path("join/", join.join, name="join"),
    path("j/<str:code>/", join.guest, name="guest"),
    path("j/<str:code>/live/", join.guest_live, name="guest_live"),
    path("j/<str:code>/seat/", join.guest_seat, name="guest_seat"),
    path("j/<str:code>/act/", join.guest_act, name="guest_act"),
]
