"""Websocket routes of the whole site."""

from django.urls import path

from casino.user_socket import UserConsumer
from holdem.realtime.consumers import TableConsumer
from lobby.consumers import LobbyConsumer

websocket_urlpatterns = [
    path("ws/me/", UserConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/table/<int:table_id>/", TableConsumer.as_asgi()),
]
