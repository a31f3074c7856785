"""Two-factor sign-in for staff who may create chips: who must pass it, enrolling a TOTP device
(django-otp) and checking a code. The admin site (admin_site.py) asks for it; nothing else does."""

from django.db import transaction
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


def totp_token_verify(*, user, token: str) -> TOTPDevice:
    """The user's device that accepts `token`, else DomainError.

    Each device refuses a code it has already accepted, and after a wrong code it refuses every
    code for 1 s, then 2 s, 4 s, ... (django-otp's throttle, kept in the device row, so every web
    server sees it). The refusal is raised after the commit: rolling back would forget the count."""
    token = "".join((token or "").split())
    if not token.isdigit():
        raise DomainError("bad_token", "Enter the code your authenticator app shows (digits only).")
    checked = found = False
    with transaction.atomic():
        for device in totp_devices_for(user).select_for_update():
            found = True
            if not device.verify_is_allowed()[0]:
                continue
            checked = True
            if device.verify_token(token):
                return device
    if not found:
        raise DomainError(
            "no_device",
            "Your account can adjust chips, so the admin needs a code from an authenticator app, and "
            "none is enrolled yet: ask an operator to run manage.py totp_enrol for you.",
        )
    if not checked:
        raise DomainError(
            "throttled", "Too many wrong codes: wait a little, then enter the newest code."
        )
    raise DomainError(
        "wrong_token", "That code is wrong or already used: enter the newest code from your app."
    )
