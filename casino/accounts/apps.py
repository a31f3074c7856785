"""Accounts and the chip wallet."""

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "casino.accounts"
    label = "accounts"
    verbose_name = "Accounts and chips"

    def ready(self):
        # Inside ready(), as Django requires (the module reads the user model when imported).
        from casino.accounts import (
            sessions,  # noqa: F401  (connects the sign-out receivers)
            signins,  # noqa: F401  (records each sign-in for the statement)
            traces,  # noqa: F401  (records device cookies at sign-in)
        )
