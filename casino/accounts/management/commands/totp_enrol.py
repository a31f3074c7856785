"""manage.py totp_enrol USERNAME: give a user an authenticator (TOTP) device and print its secret once."""

from base64 import b32encode

from django.core.management.base import BaseCommand, CommandError

from casino.accounts.models import User
from casino.accounts.second_factor import second_factor_required, totp_device_enrol


class Command(BaseCommand):
    help = (
        "Enrol a TOTP device for a user (staff who may adjust chips need one for the admin) and print "
        "the otpauth:// URI and secret to load into an authenticator app. Hand them over privately."
    )

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument(
            "--name",
            default="authenticator",
            help="what to call the device (default: authenticator)",
        )
        parser.add_argument(
            "--replace",
            action="store_true",
            help="remove the user's other TOTP devices (lost phone)",
        )

    def handle(self, *args, username, name, replace, **options):
        user = User.objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"no user called {username!r}")
        device = totp_device_enrol(user=user, name=name, replace=replace)
        self.stdout.write(f"otpauth URI: {device.config_url}")
        self.stdout.write(f"secret (base32, for typing in): {b32encode(device.bin_key).decode()}")
        if not second_factor_required(user):
            self.stdout.write(
                f"note: {username} may not adjust chips, so the admin does not ask them for a code"
            )
