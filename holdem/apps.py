"""Hold'em tables: rooms, seats, hands and their clocks, on top of the pure engine."""

from django.apps import AppConfig


class HoldemConfig(AppConfig):
    name = "holdem"
    verbose_name = "Hold'em tables"
