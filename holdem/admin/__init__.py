"""The holdem admin: Django's autodiscover imports this package, so it imports the modules that
register the ModelAdmins (rooms, the hand history, chat, the Sit & Gos)."""

from holdem.admin import chat, hands, rooms, tournaments  # noqa: F401 (each registers its ModelAdmins)
