"""What every study rule returns, and the key rule they share (gameplay.studies.validation and
gameplay.studies.questionnaire_validation).

Errors are keyed by field name (field -> list of messages), so a form can show every message beside its field;
an empty dict means valid.
"""

from __future__ import annotations

import re

Errors = dict[str, list[str]]

# The keys a researcher gives (conditions, Likert items, questions): each names a column or a URL, so a slug.
SLUG = re.compile(r"^[-a-zA-Z0-9_]+$")


def add_error(errors: Errors, field: str, message: str) -> None:
    errors.setdefault(field, []).append(message)
