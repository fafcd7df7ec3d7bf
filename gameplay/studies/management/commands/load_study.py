"""python manage.py load_study fixtures/studies/gnomes_seeds003.json [--open]

Creates or updates the study described by a preset file (idempotent by slug). Without --open a new study is
created closed and an existing one keeps its open/closed state, so reloading never opens a study by accident.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse

from gameplay.studies.presets import PresetError, load_preset, read_preset


class Command(BaseCommand):
    help = "Create or update a study from a preset JSON file (idempotent by slug)."

    def add_arguments(self, parser):
        parser.add_argument("path", help="Preset file, e.g. fixtures/studies/gnomes_seeds003.json")
        parser.add_argument("--open", action="store_true", help="Open the study to participants.")

    def handle(self, *args, **options):
        try:
            study, created = load_preset(read_preset(options["path"]), open_study=options["open"])
        except PresetError as err:
            raise CommandError(str(err)) from None
        conditions = ", ".join(study.conditions.values_list("key", flat=True))
        self.stdout.write(
            f"{'Created' if created else 'Updated'} study {study.slug!r} ({conditions}); "
            f"{'open' if study.is_open else 'closed'}; link: {reverse('study:entry', args=[study.slug])}"
        )
