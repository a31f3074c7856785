"""The holdem admin: Django's autodiscover imports this package, so it imports the modules that
register the ModelAdmins (rooms, the hand history, chat, the Sit & Gos, the integrity queue)."""

from holdem.admin import (  # noqa: F401 (each registers its ModelAdmins)
    chat,
    hands,
    integrity,
    rooms,
    tournaments,
)
