"""Hold'em tables: rooms, seats, hands and their clocks, on top of the pure engine."""

from django.apps import AppConfig


class HoldemConfig(AppConfig):
    name = "holdem"
    verbose_name = "Hold'em tables"

    def ready(self):
        # Inside ready(), as Django requires: the apps must be loaded before these modules are.
        from casino.accounts.services import wallet_changed
        from casino.accounts.sessions import sessions_changed
        from casino.accounts.table_settings import preferences_changed
        from holdem.realtime.broadcast import (
            auth_changed_on_commit,
            preferences_changed_on_commit,
            wallet_changed_on_commit,
        )

        def close_sockets(sender, *, user_id, ended_session, **kwargs):
            auth_changed_on_commit(user_id, ended_session=ended_session)

        sessions_changed.connect(close_sockets, dispatch_uid="holdem.close_sockets", weak=False)

        def tell_pages(sender, *, user_id, balance, version, **kwargs):
            wallet_changed_on_commit(user_id=user_id, balance=balance, version=version)

        wallet_changed.connect(tell_pages, dispatch_uid="holdem.wallet_pages", weak=False)

        def tell_tables(sender, *, user_id, preferences, **kwargs):
            preferences_changed_on_commit(user_id=user_id, preferences=preferences)

        preferences_changed.connect(tell_tables, dispatch_uid="holdem.preferences", weak=False)
