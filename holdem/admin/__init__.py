"""The holdem admin: Django's autodiscover imports this package, so it imports the modules that
register the ModelAdmins (rooms, the hand history, chat)."""

from holdem.admin import chat, hands, rooms  # noqa: F401 (each registers its ModelAdmins)
