"""The lobby: the list of rooms, live seat counts and room switching."""

from django.apps import AppConfig


class LobbyConfig(AppConfig):
    name = "lobby"
