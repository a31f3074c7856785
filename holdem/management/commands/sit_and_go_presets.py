"""manage.py sit_and_go_presets: the Sit & Go templates of RULES.md 8 (holdem/presets.py), each
created once with one tournament open; safe to run again (the compose stack runs it after
migrating)."""

from django.core.management.base import BaseCommand

from holdem.services.tournaments import sit_and_go_presets_seed


class Command(BaseCommand):
    help = "Create the shipped Sit & Go templates once, each with a Sit & Go taking entries."

    def handle(self, *args, **options):
        active = sit_and_go_presets_seed()
        self.stdout.write(f"{active} Sit & Go templates active")
