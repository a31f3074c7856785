"""Each successful sign-in (a sign-up signs in too) is recorded for the player's monthly
statement (RULES.md 10): django-axes keeps only the failures."""

from django.contrib.auth import user_logged_in
from django.dispatch import receiver

from casino.accounts.services import sign_in_record


@receiver(user_logged_in, dispatch_uid="casino.signins.recorded")
def _signed_in(sender, request, user, **kwargs):
    sign_in_record(user=user)
