"""The study admin's questions, comprehension check and bonus rule as tables, not JSON.

``QuestionnaireAdminMixin`` goes before ``forms.ModelForm`` in the study's admin form: it draws ``questions`` and
``comprehension_items`` as tables of one item per row (options written "A | B | C") and ``bonus_rule`` as a one-row
table whose measure is chosen among the study's game's measures, and checks them with the study rules
(gameplay.studies.questionnaire_validation), every message beside its field. ``QUESTIONNAIRE_FIELDSET`` is the
admin's fieldset for them and the plain fields that go with them (attempts, what follows a failed check, payment).
"""

from __future__ import annotations

from typing import Any

from django import forms

from gameplay.engines.registry import all_specs
from gameplay.studies import payments, questionnaire_validation, validation
from gameplay.studies.admin_widgets import TRUE_WORDS, Column, TableWidget
from gameplay.studies.models import Study
from gameplay.studies.questionnaire import MULTIPLE, NUMBER, QUESTION_KINDS

EXTRA_ROWS, MAX_ROWS = 3, 30
SEPARATOR = "|"  # between options in a table cell

QUESTIONNAIRE_FIELDSET = (
    "Questions, comprehension check and payment",
    {
        "fields": (
            "questions",
            "comprehension_items",
            "comprehension_max_attempts",
            "comprehension_fail_action",
            "comprehension_fail_message",
            "comprehension_fail_code",
            "base_payment",
            "payment_currency",
            "bonus_rule",
        ),
    },
)


# Plain fields a form may leave empty (or out): they then keep, or get, the model's default.
DEFAULTED = ("comprehension_max_attempts", "comprehension_fail_action", "comprehension_fail_message", "base_payment",
             "payment_currency")


class Table(TableWidget):
    """The admin's table, which counts as sent once any of its cells is: a table whose rows were all emptied
    clears the list, and a form without the table (e.g. a script's POST) leaves the stored list alone."""

    def value_omitted_from_data(self, data, files, name):
        return not any(key.startswith(f"{name}-") for key in data)


def _checked(value: Any) -> bool:
    return value is True or (isinstance(value, str) and value.lower() in TRUE_WORDS)


def _options(raw: Any) -> list[str]:
    return [part.strip() for part in str(raw or "").split(SEPARATOR) if part.strip()]


def _number(raw: str, where: str) -> int | float:
    """A cell's number: 18 stays an int, 2.5 a float."""
    try:
        value = float(raw)
    except ValueError:
        raise forms.ValidationError(f"{where}: {raw!r} is not a number.") from None
    return int(value) if value.is_integer() and "." not in raw and "e" not in raw.lower() else value


def _blank(row: dict) -> bool:
    return not any(v for v in row.values())


class _ItemsTable(forms.Field):
    """A list of item objects drawn as a table, one item per row; empty rows are ignored."""

    COLUMNS: list[Column] = []
    RAW_MARK = ""  # a column only the table's raw rows have (so a redisplayed bound form is shown as sent)

    def __init__(self, *, rows: int, **kwargs):
        kwargs.setdefault("widget", Table(self.COLUMNS, rows))
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)

    def prepare_value(self, value):
        if not isinstance(value, list):
            return []
        if value and isinstance(value[0], dict) and self.RAW_MARK in value[0]:
            return value
        return [self.row(item) for item in value if isinstance(item, dict)]

    def to_python(self, value):
        items, problems = [], []
        for number, row in enumerate(value if isinstance(value, list) else [], start=1):
            if not isinstance(row, dict) or _blank(row):
                continue
            try:
                items.append(self.item({k: v.strip() if isinstance(v, str) else v for k, v in row.items()}))
            except forms.ValidationError as err:
                problems += [f"Row {number}, {message}" for message in err.messages]
        if problems:
            raise forms.ValidationError(problems)
        return items

    def row(self, item: dict) -> dict:
        raise NotImplementedError

    def item(self, row: dict) -> dict:
        raise NotImplementedError


class QuestionsField(_ItemsTable):
    """The questions after the Likert items: key, kind, question and only the cells the kind uses; a cell the kind
    does not use is reported by the rules (e.g. "a number item has no field options")."""

    COLUMNS = [
        Column("key", "Key", help="Short id used in exports (letters, digits, - or _).", size=10),
        Column("kind", "Kind", "select", ("", *QUESTION_KINDS),
               help="single: one option; multiple: any options; number; text."),
        Column("prompt", "Question", size=34),
        Column("options", "Options", help=f"Single and multiple choice: the options, separated by {SEPARATOR}.",
               size=30),
        Column("min", "Min", help="Number: the smallest answer allowed (optional).", size=5),
        Column("max", "Max", help="Number: the largest answer allowed (optional).", size=5),
        Column("integer", "Whole", "checkbox", help="Number: whole numbers only."),
        Column("max_length", "Max chars", help="Text: the most characters (1000 when empty).", size=5),
        Column("expected", "Expected (attention check)", size=14,
               help=f"Makes the item an attention check: the expected option (multiple: options separated by "
               f"{SEPARATOR}), number or text; its pass or fail is exported."),
        Column("optional", "Optional", "checkbox", help="May be left out (never for an attention check)."),
    ]
    RAW_MARK = "optional"

    def row(self, item: dict) -> dict:
        expected = item.get("expected", "")
        return {
            "key": item.get("key", ""), "kind": item.get("kind", ""), "prompt": item.get("prompt", ""),
            "options": f" {SEPARATOR} ".join(item.get("options") or []),
            "min": item.get("min", ""), "max": item.get("max", ""), "integer": bool(item.get("integer")),
            "max_length": item.get("max_length", ""),
            "expected": f" {SEPARATOR} ".join(expected) if isinstance(expected, list) else expected,
            "optional": item.get("required", True) is False,
        }

    def item(self, row: dict) -> dict:
        kind = row.get("kind", "")
        item = {"key": row.get("key", ""), "kind": kind, "prompt": row.get("prompt", "")}
        if row.get("options"):
            item["options"] = _options(row["options"])
        for name in ("min", "max"):
            if row.get(name):
                item[name] = _number(row[name], name)
        if _checked(row.get("integer")):
            item["integer"] = True
        if row.get("max_length"):
            length = _number(row["max_length"], "max chars")
            item["max_length"] = int(length) if float(length).is_integer() else length
        expected = row.get("expected", "")
        if expected:
            if kind == MULTIPLE:
                item["expected"] = _options(expected)
            elif kind == NUMBER:
                item["expected"] = _number(expected, "expected")
            else:
                item["expected"] = expected  # an option's label (single) or the text (text)
        if _checked(row.get("optional")):
            item["required"] = False
        return item


class ComprehensionItemsField(_ItemsTable):
    """The comprehension check: one single-choice question per row with its right answer (kept on the server)."""

    COLUMNS = [
        Column("key", "Key", help="Short id used in comprehension.csv.", size=10),
        Column("prompt", "Question", size=40),
        Column("options", "Options", help=f"The options, separated by {SEPARATOR}.", size=36),
        Column("answer", "Right answer", help="One of the options, written the same way.", size=16),
    ]
    RAW_MARK = "answer"

    def row(self, item: dict) -> dict:
        return {"key": item.get("key", ""), "prompt": item.get("prompt", ""),
                "options": f" {SEPARATOR} ".join(item.get("options") or []), "answer": item.get("answer", "")}

    def item(self, row: dict) -> dict:
        return {"key": row.get("key", ""), "prompt": row.get("prompt", ""), "options": _options(row.get("options")),
                "answer": row.get("answer", "")}


class BonusRuleField(forms.Field):
    """The bonus rule as one row: a measure of the study's game (none: no bonus), the amount per unit, a cap and
    whether the completed rounds are summed or averaged."""

    def __init__(self, measures: list[str], **kwargs):
        columns = [
            Column("measure", "Measure", "select", ("", *measures),
                   help="The rounds.csv measure the bonus is paid on; empty: no bonus."),
            Column("per_unit", "Per unit", help="Amount paid per unit of the measure.", size=6),
            Column("cap", "Cap", help="The most bonus a participant gets (empty: no cap).", size=6),
            Column("over", "Over rounds", "select", payments.OVER, help="Sum or mean over the completed rounds."),
        ]
        kwargs.setdefault("widget", Table(columns, 1))
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)

    def prepare_value(self, value):
        if isinstance(value, list):
            return value  # the table's raw row, shown as sent
        rule = value if isinstance(value, dict) else {}
        return [{"measure": rule.get("measure", ""), "per_unit": rule.get("per_unit", ""),
                 "cap": rule.get("cap", ""), "over": rule.get("over", "sum")}] if rule else []

    def to_python(self, value):
        row = value[0] if isinstance(value, list) and value else {}
        if not row.get("measure"):
            return {}
        rule: dict[str, Any] = {"measure": row["measure"]}
        per_unit = str(row.get("per_unit", "")).strip()
        rule["per_unit"] = _number(per_unit, "per unit") if per_unit else None
        cap = str(row.get("cap", "")).strip()
        if cap:
            rule["cap"] = _number(cap, "cap")
        rule["over"] = row.get("over") or "sum"
        return rule


class QuestionnaireAdminMixin:
    """Put before ``forms.ModelForm``: the questionnaire tables and their checks (see the module's docstring)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        instance = self.instance
        questions = instance.questions if isinstance(instance.questions, list) else []
        self.fields["questions"] = QuestionsField(
            rows=min(MAX_ROWS, len(questions) + EXTRA_ROWS), label="Questions",
            help_text="Asked after the Likert items, in this order; a row with an expected answer is an attention "
            "check. Keys are shared with the Likert items. Empty rows are ignored.",
        )
        checks = instance.comprehension_items if isinstance(instance.comprehension_items, list) else []
        self.fields["comprehension_items"] = ComprehensionItemsField(
            rows=min(MAX_ROWS, len(checks) + EXTRA_ROWS), label="Comprehension check",
            help_text="Asked after the instructions, before round 1; the right answers never reach the page. Leave "
            "every row empty for no check.",
        )
        rule = instance.bonus_rule if isinstance(instance.bonus_rule, dict) else {}
        measures = payments.rule_measures(self._questionnaire_spec())
        if rule.get("measure") and rule["measure"] not in measures:
            measures.append(rule["measure"])  # shown as it is, and refused with the reason, after a change of game
        for name in DEFAULTED:
            if name in self.fields:
                self.fields[name].required = False
        self.fields["bonus_rule"] = BonusRuleField(
            measures, label="Bonus rule",
            help_text="payments.csv pays this per unit of the measure over the participant's completed rounds, at "
            "least 0 and at most the cap, on top of the base payment.",
        )

    def _questionnaire_spec(self):
        game_id = self.data.get(self.add_prefix("game_id")) if self.is_bound else self.initial.get("game_id")
        return validation.game_spec(game_id or self.instance.game_id) or all_specs()[0]

    def clean(self):
        data = super().clean()
        for name in DEFAULTED:
            if name in data and data[name] in (None, ""):
                data[name] = Study._meta.get_field(name).get_default()
        found = {}
        if "questions" in data:
            found.update(questionnaire_validation.questions_errors(data["questions"], data.get("likert_items") or []))
        if "comprehension_items" in data:
            found.update(questionnaire_validation.comprehension_errors(
                data["comprehension_items"], data.get("comprehension_max_attempts", 3),
                data.get("comprehension_fail_action", "end"),
            ))
        if "bonus_rule" in data:
            spec = validation.game_spec(data.get("game_id"))
            found.update(questionnaire_validation.payment_errors(
                spec, data.get("base_payment", 0), data.get("payment_currency", "GBP"), data["bonus_rule"]
            ))
        for field, messages in found.items():
            if field in self.fields and field not in self.errors:
                for message in messages:
                    self.add_error(field, message)
        return data
