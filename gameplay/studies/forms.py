"""Input parsing for participant pages: the study link's query parameters, the survey and the comprehension check."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from django import forms

from gameplay.studies import questionnaire
from gameplay.studies.questionnaire import MULTIPLE, NUMBER, SINGLE, TEXT
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


CHOOSE_ONE = "Please choose one answer."


class FreeTextField(forms.CharField):
    """Text as a person types it: several lines allowed, no control characters (``text_input``'s rules)."""

    def to_python(self, value):
        try:
            return clean_text(value if isinstance(value, str) else "", max_length=self.max_length or 10**6,
                              multiline=True, what="Your answer")
        except TextRejected as err:
            raise forms.ValidationError(f"{err}.") from None


def question_field(item: dict) -> forms.Field:
    """The form field of one question (``questionnaire``: what the kinds are); choices are valued by option number,
    1 for the first."""
    kind, required = item["kind"], questionnaire.is_required(item)
    common = {"label": item["prompt"], "required": required}
    choices = [(n, label) for n, label in enumerate(item.get("options") or [], start=1)]
    if kind == SINGLE:
        return forms.TypedChoiceField(choices=choices, coerce=int, widget=forms.RadioSelect, empty_value=None,
                                      error_messages={"required": CHOOSE_ONE}, **common)
    if kind == MULTIPLE:
        return forms.TypedMultipleChoiceField(choices=choices, coerce=int, widget=forms.CheckboxSelectMultiple,
                                              error_messages={"required": "Please choose at least one answer."},
                                              **common)
    if kind == NUMBER:
        bounds = {"min_value": item.get("min"), "max_value": item.get("max")}
        if item.get("integer"):
            return forms.IntegerField(widget=forms.NumberInput(attrs={"inputmode": "numeric"}), **bounds, **common)
        return forms.FloatField(widget=forms.NumberInput(attrs={"inputmode": "decimal", "step": "any"}), **bounds,
                                **common)
    if kind == TEXT:
        limit = questionnaire.text_limit(item)
        return FreeTextField(max_length=limit, widget=forms.Textarea(attrs={"rows": 3}), **common)
    raise ValueError(f"unknown question kind {kind!r}")


class SurveyForm(forms.Form):
    """The survey: one required radio group per Likert item, valued 1..scale, then one field per question."""

    def __init__(self, items: list[dict], scale: int, *args, questions: list[dict] | tuple = (), **kwargs):
        super().__init__(*args, **kwargs)
        self.items = items
        self.questions = list(questions)
        choices = [(n, str(n)) for n in range(1, scale + 1)]
        for item in items:
            self.fields[item["key"]] = forms.TypedChoiceField(
                label=item.get("prompt", item["key"]),
                choices=choices,
                coerce=int,
                widget=forms.RadioSelect,
                error_messages={"required": CHOOSE_ONE},
            )
        for item in self.questions:
            self.fields[item["key"]] = question_field(item)

    def groups(self):
        """(item, bound field) pairs for the template's Likert grid, in the study's order."""
        return [(item, self[item["key"]]) for item in self.items]

    def question_groups(self):
        """(item, bound field) pairs of the questions after the grid."""
        return [(item, self[item["key"]]) for item in self.questions]


class ComprehensionForm(forms.Form):
    """The comprehension check: one radio group per question, valued by option number. The right answers stay on
    the server (``questionnaire.wrong_keys``): nothing in the form knows them."""

    def __init__(self, items: list[dict], *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.items = items
        for item in items:
            self.fields[item["key"]] = question_field({**item, "kind": SINGLE, "required": True})

    def groups(self):
        return [(item, self[item["key"]]) for item in self.items]
