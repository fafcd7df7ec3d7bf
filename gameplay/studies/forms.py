"""Input parsing for participant pages: the study link's query parameters and the Likert survey."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from django import forms

from gameplay.writes.text_input import TextRejected, clean_text

# Prolific ids are 24 hex characters; accept any short token of word characters so other panels work too,
# and reject anything else (e.g. an unsubstituted "{{%PROLIFIC_PID%}}" placeholder or pasted text).
_ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,64}")
# Condition keys are at most 40 characters (Condition.key); a longer value is another key, never cut to fit.
_CONDITION_MAX_LENGTH = 40

# The query parameter names Prolific appends to a study link.
PID, STUDY_ID, SESSION_ID, CONDITION = "PROLIFIC_PID", "STUDY_ID", "SESSION_ID", "condition"


@dataclass(frozen=True)
class EntryParams:
    """What a study link carried: the panel's identifiers and, for piloting, a requested condition."""

    prolific_pid: str = ""
    study_id: str = ""
    session_id: str = ""
    condition: str = ""

    def as_query(self) -> dict[str, str]:
        """The non-empty parameters under their URL names (hidden fields of the consent form)."""
        pairs = {
            PID: self.prolific_pid,
            STUDY_ID: self.study_id,
            SESSION_ID: self.session_id,
            CONDITION: self.condition,
        }
        return {k: v for k, v in pairs.items() if v}


def _clean_id(value, max_length: int = 64) -> str:
    """The identifier, or "" when it is missing or not clean text (text_input: NUL, control characters, lone
    surrogates) or not a short token of word characters."""
    try:
        value = clean_text(value, max_length=max_length, what="identifier")
    except TextRejected:
        return ""
    return value if _ID_PATTERN.fullmatch(value) else ""


def entry_params(data: Mapping) -> EntryParams:
    """Read the parameters from a query string or the consent form's hidden fields; malformed ones count as
    absent, so nothing but a well-formed identifier is ever stored."""
    return EntryParams(
        prolific_pid=_clean_id(data.get(PID)),
        study_id=_clean_id(data.get(STUDY_ID)),
        session_id=_clean_id(data.get(SESSION_ID)),
        condition=_clean_id(data.get(CONDITION), _CONDITION_MAX_LENGTH),
    )


class SurveyForm(forms.Form):
    """One required radio group per Likert item, valued 1..scale."""

    def __init__(self, items: list[dict], scale: int, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.items = items
        choices = [(n, str(n)) for n in range(1, scale + 1)]
        for item in items:
            self.fields[item["key"]] = forms.TypedChoiceField(
                label=item.get("prompt", item["key"]),
                choices=choices,
                coerce=int,
                widget=forms.RadioSelect,
                error_messages={"required": "Please choose one answer."},
            )

    def groups(self):
        """(item, bound field) pairs for the template, in the study's order."""
        return [(item, self[item["key"]]) for item in self.items]
