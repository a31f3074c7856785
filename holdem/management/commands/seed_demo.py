"""manage.py seed_demo: demo players, an admin, one room per preset and one Sit & Go template per
Sit & Go preset; safe to run again."""

from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from casino.accounts.models import User
from casino.accounts.services import account_open
from holdem.services import rooms_seed_presets
from holdem.services.multi_table import tournament_demo_seed
from holdem.services.tournaments import sit_and_go_presets_seed

DEMO_PASSWORD = "holdem-demo"
DEMO_PLAYERS = ("alice", "bob", "carol", "dave")
ADMIN = ("admin", "holdem-admin")


class Command(BaseCommand):
    help = "Create demo players, an admin account and one room per preset (idempotent, local use only)."

    def handle(self, *args, **options):
        with transaction.atomic():
            for username in DEMO_PLAYERS:
                self._ensure_user(username, DEMO_PASSWORD)
            self._ensure_user(ADMIN[0], ADMIN[1], admin=True)
            rooms = rooms_seed_presets()
            sit_and_gos = sit_and_go_presets_seed()
            daily = tournament_demo_seed(timezone.now())
        self.stdout.write(
            f"demo ready: players {', '.join(DEMO_PLAYERS)} (password {DEMO_PASSWORD!r}), "
            f"admin {ADMIN[0]!r} (password {ADMIN[1]!r}), {rooms} rooms, {sit_and_gos} Sit & Gos, "
            f"{daily.name} at {daily.starts_at:%H:%M} UTC"
        )
        # The admin may adjust chips, so the admin site also asks for a code (docs/decisions.md).
        self.stdout.write(
            f"the admin site also asks {ADMIN[0]!r} for a code: manage.py totp_enrol {ADMIN[0]}"
        )

    def _ensure_user(self, username, password, admin=False):
        user = User.objects.filter(username=username).first()
        if user is None:
            user = User(username=username, is_staff=admin, is_superuser=admin)
            user.set_password(password)
            user.save()
        account_open(user=user)
        return user
