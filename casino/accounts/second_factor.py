"""Two-factor sign-in for staff who may create chips: who must pass it, enrolling a TOTP device
(django-otp) and checking a code. The admin site (admin_site.py) asks for it; nothing else does."""

import math

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django_otp.plugins.otp_totp.models import TOTPDevice

from casino.errors import DomainError

# Creating chips from nothing is the one admin power worth stealing a password for.
ADJUST_PERMISSION = "accounts.adjust_chips"


def second_factor_required(user) -> bool:
    """Whoever may adjust chips (superusers hold every permission) needs a code for the admin."""
    return user.is_authenticated and user.has_perm(ADJUST_PERMISSION)


def second_factor_missing(user) -> bool:
    """Needs a code and this session has not passed one. django-otp's middleware adds
    is_verified(); a user who signed in during this very request has not passed one yet."""
    if not second_factor_required(user):
        return False
    is_verified = getattr(user, "is_verified", None)
    return not (is_verified and is_verified())


def totp_devices_for(user):
    """The user's confirmed TOTP devices (an unconfirmed one proves nothing)."""
    return TOTPDevice.objects.devices_for_user(user, confirmed=True).order_by("pk")


def totp_device_enrol(*, user, name: str = "authenticator", replace: bool = False) -> TOTPDevice:
    """A new confirmed TOTP device with a random secret; the operator hands the secret over.

    `replace` first removes the user's other TOTP devices (a lost or new phone)."""
    with transaction.atomic():
        if replace:
            TOTPDevice.objects.filter(user=user).delete()
        return TOTPDevice.objects.create(user=user, name=name, confirmed=True)


def _paused_until(device):
    """When the code page opens again for this device after the limit's worth of wrong codes in a
    row (the sign-in page's AXES_FAILURE_LIMIT and cool-off), or None while codes are checked."""
    if device.throttling_failure_count < settings.AXES_FAILURE_LIMIT:
        return None
    if device.throttling_failure_timestamp is None:
        return None
    until = device.throttling_failure_timestamp + settings.AXES_COOLOFF_TIME
    return until if until > timezone.now() else None


def _pause_words() -> str:
    minutes = math.ceil(settings.AXES_COOLOFF_TIME.total_seconds() / 60)
    return (
        f"Too many wrong codes ({settings.AXES_FAILURE_LIMIT} in a row): the code page is paused "
        f"for {minutes} minutes. Then enter the newest code from your app."
    )


def totp_token_verify(*, user, token: str) -> TOTPDevice:
    """The user's device that accepts `token`, else DomainError.

    Each device refuses a code it has already accepted. Wrong codes are counted in the device row
    (so every web server sees them); after AXES_FAILURE_LIMIT of them in a row the device accepts
    nothing for AXES_COOLOFF_TIME, as the sign-in page does with passwords. The refusal is raised
    after the commit: rolling back would forget the count."""
    token = "".join((token or "").split())
    if not token.isdigit():
        raise DomainError("bad_token", "Enter the code your authenticator app shows (digits only).")
    found = False
    tries_left = None
    with transaction.atomic():
        for device in totp_devices_for(user).select_for_update():
            found = True
            if _paused_until(device) is not None:
                continue
            if device.throttling_failure_count >= settings.AXES_FAILURE_LIMIT:
                device.throttle_reset(commit=False)  # the cool-off is over: a fresh count
            if device.verify_token(token):
                return device
            left = max(0, settings.AXES_FAILURE_LIMIT - device.throttling_failure_count)
            tries_left = left if tries_left is None else max(tries_left, left)
    if not found:
        raise DomainError(
            "no_device",
            "Your account can adjust chips, so the admin needs a code from an authenticator app, and "
            "none is enrolled yet: ask an operator to run manage.py totp_enrol for you.",
        )
    if tries_left is None or tries_left == 0:
        raise DomainError("throttled", _pause_words())
    raise DomainError(
        "wrong_token",
        "That code is wrong or already used: enter the newest code from your app "
        f"({tries_left} {'try' if tries_left == 1 else 'tries'} left).",
    )
