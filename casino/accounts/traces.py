"""Where accounts come from: each sign-in (a sign-up signs in too) records the browser's device
cookie against the account, as a keyed hash (docs/integrity.md)."""

from django.contrib.auth import user_logged_in
from django.dispatch import receiver

from casino.accounts.models import TraceKind
from casino.accounts.services import account_trace_record


@receiver(user_logged_in, dispatch_uid="casino.traces.device_seen")
def _device_seen(sender, request, user, **kwargs):
    # casino.middleware.DeviceCookieMiddleware sets request.device_id on every page request.
    device = getattr(request, "device_id", None) if request is not None else None
    if device:
        account_trace_record(user=user, kind=TraceKind.DEVICE, value=device)
