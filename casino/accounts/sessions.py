"""Open websockets follow their session: signing out, a password change or a deactivation closes
the sockets that session no longer authorises (within a second, on every server).

Each socket joins its user's group (`holdem.realtime.broadcast.user_group`); these receivers send that
group an `auth.check` after the change commits, and each socket checks its own session again.
"""

import hashlib
from importlib import import_module

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model, user_logged_out
from django.db.models.signals import post_save, pre_save
from django.dispatch import Signal, receiver
from django.utils.crypto import constant_time_compare

# Sent after a sign-out (`ended_session`: that session's tag) or a change of password or of
# is_active (`ended_session` None: every session of the user must be checked again), with
# `user_id`. The tables app closes the user's sockets on it (holdem/apps.py); accounts knows
# nothing of sockets.
sessions_changed = Signal()


def session_tag(session_key: str | None) -> str:
    """A session's name on the channel layer: a hash, never the key itself."""
    return hashlib.sha256((session_key or "").encode()).hexdigest()[:32]


def session_is_valid(*, session_key: str | None, user_id: int) -> bool:
    """Does this session still sign `user_id` in (not signed out, user active, password unchanged)?"""
    if not session_key:
        return False
    data = import_module(settings.SESSION_ENGINE).SessionStore(session_key).load()
    if str(data.get(SESSION_KEY)) != str(user_id):
        return False
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if user is None:
        return False
    return constant_time_compare(data.get(HASH_SESSION_KEY) or "", user.get_session_auth_hash())


@receiver(user_logged_out, dispatch_uid="casino.sessions.logged_out")
def _signed_out(sender, request, user, **kwargs):
    if user is None or request is None:
        return
    sessions_changed.send(
        sender=None, user_id=user.pk, ended_session=session_tag(request.session.session_key)
    )


@receiver(pre_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="casino.sessions.user_pre_save")
def _remember_credentials(sender, instance, update_fields=None, **kwargs):
    if instance.pk is None or (
        update_fields is not None and not {"password", "is_active"} & set(update_fields)
    ):
        instance._credentials_before = None
        return
    instance._credentials_before = (
        sender.objects.filter(pk=instance.pk).values_list("password", "is_active").first()
    )


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="casino.sessions.user_post_save")
def _credentials_changed(sender, instance, created, **kwargs):
    before = getattr(instance, "_credentials_before", None)
    if created or before is None:
        return
    if before != (instance.password, instance.is_active):
        sessions_changed.send(sender=None, user_id=instance.pk, ended_session=None)
