"""Site URLs."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import path

from casino import health, pages
from casino.accounts import views as account_views
from casino.accounts.forms import SignInForm
from holdem import account_pages, note_views, responsible_play, settings_page
from holdem import views as holdem_views
from lobby import views as lobby_views

urlpatterns = [
    path("", lobby_views.home, name="home"),
    path("lobby/", lobby_views.lobby, name="lobby"),
    path("lobby/rooms/", lobby_views.rooms_now, name="rooms_now"),
    path("lobby/waiting/", lobby_views.waiting_now, name="waiting_now"),
    path("lobby/waiting/<int:table_id>/join/", lobby_views.waiting_join_view, name="waiting_join"),
    path(
        "lobby/waiting/<int:table_id>/leave/",
        lobby_views.waiting_leave_view,
        name="waiting_leave",
    ),
    path("lobby/waiting/<int:table_id>/take/", lobby_views.waiting_take_view, name="waiting_take"),
    path(
        "lobby/sit-and-go/<int:tournament_id>/register/",
        lobby_views.sit_and_go_register_view,
        name="sit_and_go_register",
    ),
    path(
        "lobby/sit-and-go/<int:tournament_id>/unregister/",
        lobby_views.sit_and_go_unregister_view,
        name="sit_and_go_unregister",
    ),
    path(
        "lobby/tournaments/<int:tournament_id>/register/",
        lobby_views.tournament_register_view,
        name="tournament_register",
    ),
    path(
        "lobby/tournaments/<int:tournament_id>/unregister/",
        lobby_views.tournament_unregister_view,
        name="tournament_unregister",
    ),
    path("accounts/signup/", account_views.signup, name="signup"),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(
            redirect_authenticated_user=True, authentication_form=SignInForm
        ),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/profile/", account_views.profile, name="profile"),
    path("accounts/settings/", settings_page.settings_page, name="settings"),
    path("accounts/settings/unmute/", settings_page.settings_unmute, name="settings_unmute"),
    path("accounts/stats/", holdem_views.stats_page, name="player_stats"),
    path("accounts/statement/", account_pages.statement, name="statement"),
    path("accounts/statement/<str:month>/", account_pages.statement_month, name="statement_month"),
    path("accounts/statement/<str:month>.csv", account_pages.statement_csv, name="statement_csv"),
    path("accounts/close/", account_pages.close_account, name="close_account"),
    path(
        "accounts/responsible-play/",
        responsible_play.responsible_play,
        name="responsible_play",
    ),
    path(
        "accounts/responsible-play/session.json",
        responsible_play.play_session,
        name="play_session",
    ),
    path("accounts/free-chips/", holdem_views.refill_claim, name="free_chips"),
    path("accounts/notes/", note_views.notes_page, name="notes"),
    path("accounts/notes/tags/", note_views.tags_now, name="note_tags"),
    path("accounts/notes/tags/names/", note_views.tag_names_save, name="note_tag_names"),
    path("accounts/notes/<int:user_id>/", note_views.note_save, name="note_save"),
    path("leaderboard/", holdem_views.leaderboard_page, name="leaderboard"),
    path("tables/<int:table_id>/", holdem_views.table_page, name="table"),
    path("tables/<int:table_id>/enter/", holdem_views.table_enter, name="table_enter"),
    path(
        "tournaments/<int:tournament_id>/",
        holdem_views.tournament_page,
        name="tournament_results",
    ),
    path(
        "tournaments/<int:tournament_id>/live.json",
        holdem_views.tournament_live,
        name="tournament_live",
    ),
    path("hands/", holdem_views.hand_list, name="hand_list"),
    path("hands/<int:hand_id>/", holdem_views.hand_detail, name="hand_detail"),
    path("hands/<int:hand_id>/pokerstars.txt", holdem_views.hand_download, name="hand_download"),
    path("hands/<int:hand_id>/hand.json", holdem_views.hand_json, name="hand_json"),
    path("admin/", admin.site.urls),
    path("healthz", health.healthz, name="healthz"),
    path("livez", health.livez, name="livez"),
    path("readyz", health.readyz, name="readyz"),
    path("favicon.ico", pages.favicon, name="favicon"),
    path("fairness/", pages.fairness, name="fairness"),
]
