"""A player's table settings (models.Preferences): read with their defaults, written in one place.

Each setting's checks live in `preferences_update`'s callers' services; this module only reads and
stores, under the row's lock, so two devices saving at once each keep the other's other fields.
"""

from typing import Any

from django.db import transaction

from casino.accounts.models import Preferences, User


def preferences_for(user: User) -> Preferences:
    """The player's preferences, or an unsaved row holding the defaults when they have none."""
    found = Preferences.objects.filter(user_id=user.pk).first()
    return found if found is not None else Preferences(user_id=user.pk)


def preferences_update(*, user: User, **changes: Any) -> Preferences:
    """Store `changes` (field name to checked value) on the player's row, made if missing."""
    unknown = set(changes) - {field.name for field in Preferences._meta.concrete_fields}
    if unknown:
        raise TypeError(f"no such preferences: {', '.join(sorted(unknown))}")
    with transaction.atomic():
        row, _ = Preferences.objects.select_for_update().get_or_create(user_id=user.pk)
        for name, value in changes.items():
            setattr(row, name, value)
        row.save()
    return row
