"""Websocket routes of the whole site."""
websocket_urlpatterns: list = []
