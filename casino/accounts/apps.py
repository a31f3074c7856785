"""Accounts and the chip wallet."""
from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "casino.accounts"
    label = "accounts"
    verbose_name = "Accounts and chips"
