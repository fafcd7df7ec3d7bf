"""``manage.py export_study <slug> --out DIR``: the download page's files, written to a folder."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from gameplay.engines.registry import UnknownGameError
from gameplay.studies import exports, measures, selectors


class Command(BaseCommand):
    help = "Write a study's CSVs, analysis tables, box plots, README and analysis.zip into a folder."

    def add_arguments(self, parser):
        parser.add_argument("study", help="the study's slug")
        parser.add_argument("--out", required=True, help="folder to write into (created if missing)")

    def handle(self, *args, **options):
        study = selectors.study_by_slug(options["study"])
        if study is None:
            raise CommandError(f"no study with slug {options['study']!r}")
        try:
            written = exports.write_all(study, options["out"])
        except UnknownGameError as error:
            # The columns and tests come from the game's declared measures: without the game there are none.
            raise CommandError(f"{study.slug}: {error}") from None
        for path in written:
            self.stdout.write(f"{path}  ({path.stat().st_size:,} bytes)")
        declared = ", ".join(measures.measure_columns(study)) or "none"
        self.stdout.write(self.style.SUCCESS(f"Wrote {len(written)} files for {study.slug}; measures: {declared}."))
