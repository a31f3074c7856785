"""The casino project: settings, routing, the Celery app, accounts and the chip wallet."""

from casino.celery import app as celery_app

__all__ = ("celery_app",)
