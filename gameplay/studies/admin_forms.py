"""The study admin's forms: rounds, Likert items and conditions as form fields, checked by the study rules.

Researchers never type JSON here. Rounds are a table with one row per round and one column per option of the
study's game (typed from its OptionSpecs); Likert items are a table of key, prompt and the two anchors; a
condition's seats are "participant, random" and its options "chat=off". Every save is checked with the same
rules as ``load_study`` (gameplay.studies.validation), and each message is shown beside the field it is about;
the admin saves nothing while any message stands.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from gameplay.engines.api import GameSpec, OptionSpec
from gameplay.engines.registry import all_specs
from gameplay.reads.agent_directory import agent_exists, agent_plays
from gameplay.studies import validation
from gameplay.studies.models import AGENT, PARTICIPANT, Condition, Study
from gameplay.web.forms import option_form_field

MAX_ROWS = 20
EXTRA_ROWS = 3
TRUE_WORDS, FALSE_WORDS = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


@dataclass(frozen=True)
class Column:
    name: str
    label: str
    kind: str = "text"  # text, checkbox or select
    choices: tuple = ()
    help: str = ""
    size: int = 12


class TableWidget(forms.Widget):
    """Rows of inputs named ``<field>-<row>-<column>``; the value is a list of {column: raw value} per row."""

    def __init__(self, columns: list[Column] | None = None, rows: int = 6, attrs=None):
        super().__init__(attrs)
        self.columns = columns or []
        self.rows = rows

    def value_from_datadict(self, data, files, name):
        rows = []
        for i in range(self.rows):
            row = {}
            for column in self.columns:
                key = f"{name}-{i}-{column.name}"
                row[column.name] = key in data if column.kind == "checkbox" else str(data.get(key, ""))
            rows.append(row)
        return rows

    def render(self, name, value, attrs=None, renderer=None):
        rows = list(value) if isinstance(value, list) else []
        head = format_html_join("", '<th scope="col" title="{}">{}</th>', ((c.help, c.label) for c in self.columns))
        body = []
        for i in range(self.rows):
            row = rows[i] if i < len(rows) and isinstance(rows[i], dict) else {}
            cells = format_html_join(
                "", "<td>{}</td>", ((self._cell(name, i, c, row.get(c.name)),) for c in self.columns)
            )
            body.append(format_html('<tr><th scope="row">{}</th>{}</tr>', i + 1, cells))
        return format_html(
            '<table class="study-table" id="id_{}"><thead><tr><th scope="col">#</th>{}</tr></thead>'
            "<tbody>{}</tbody></table>",
            name, head, mark_safe("".join(body)),
        )

    @staticmethod
    def _cell(name: str, row: int, column: Column, value: Any):
        key = f"{name}-{row}-{column.name}"
        label = f"{column.label}, row {row + 1}"
        if column.kind == "checkbox":
            checked = value is True or (isinstance(value, str) and value.lower() in TRUE_WORDS)
            return format_html(
                '<input type="checkbox" name="{}" aria-label="{}"{}>',
                key, label, mark_safe(" checked") if checked else "",
            )
        if column.kind == "select":
            options = format_html_join(
                "", '<option value="{}"{}>{}</option>',
                ((c, mark_safe(" selected") if str(c) == str(value) else "", c) for c in column.choices),
            )
            return format_html('<select name="{}" aria-label="{}">{}</select>', key, label, options)
        shown = "" if value is None else value
        return format_html(
            '<input type="text" name="{}" value="{}" aria-label="{}" size="{}">', key, shown, label, column.size
        )


def _blank(row: dict) -> bool:
    return not any(v for v in row.values())


class LikertItemsField(forms.Field):
    """Likert items as a table: key, prompt, low anchor, high anchor; empty rows are ignored."""

    COLUMNS = [
        Column("key", "Key", help="Short id used in exports (letters, digits, - or _).", size=12),
        Column("prompt", "Question", size=40),
        Column("low", "Low anchor", help="Label of the lowest point.", size=16),
        Column("high", "High anchor", help="Label of the highest point.", size=16),
    ]

    def __init__(self, *, rows: int = 6, **kwargs):
        kwargs.setdefault("widget", TableWidget(self.COLUMNS, rows))
        super().__init__(**kwargs)

    def prepare_value(self, value):
        return value if isinstance(value, list) else []

    def to_python(self, value):
        rows = value if isinstance(value, list) else []
        kept = [row for row in rows if isinstance(row, dict) and not _blank(row)]
        return [{k: str(v).strip() for k, v in row.items()} for row in kept]

    def validate(self, value):
        # The scale is checked by the form, which knows it; here only the items themselves.
        problems = validation.likert_errors(value, 5).get("likert_items", [])
        if problems:
            raise forms.ValidationError(problems)


def round_columns(spec: GameSpec) -> list[Column]:
    columns = [Column("play", "Play", "checkbox", help="Untick to drop this round.")]
    for opt in spec.options:
        label = opt.name.replace("_", " ").capitalize()
        if opt.type is bool:
            columns.append(Column(opt.name, label, "checkbox", help=opt.description))
        elif opt.choices:
            columns.append(Column(opt.name, label, "select", tuple(opt.choices), help=opt.description))
        else:
            columns.append(Column(opt.name, label, help=opt.description))
    return columns


class RoundsField(forms.Field):
    """The study's rounds as a table: a row per round, a typed column per option of the study's game."""

    def __init__(self, spec: GameSpec, *, rows: int, **kwargs):
        self.spec = spec
        kwargs.setdefault("widget", TableWidget(round_columns(spec), rows))
        super().__init__(**kwargs)

    def prepare_value(self, value):
        """Stored rounds (lists of option dicts) shown with every option filled in and ticked to play."""
        if not isinstance(value, list):
            return []
        if value and isinstance(value[0], dict) and "play" in value[0]:
            return value  # already the table's raw rows (a bound form shown again)
        defaults = {o.name: o.default for o in self.spec.options}
        return [{"play": True, **defaults, **r} for r in value if isinstance(r, dict)]

    def to_python(self, value):
        rounds, problems = [], []
        for number, row in enumerate(value if isinstance(value, list) else [], start=1):
            if not isinstance(row, dict) or not row.get("play"):
                continue
            options = {}
            for opt in self.spec.options:
                try:
                    options[opt.name] = option_value(opt, row.get(opt.name))
                except forms.ValidationError as err:
                    problems.append(f"Round {number}, {opt.name.replace('_', ' ')}: {' '.join(err.messages)}")
            rounds.append(options)
        if problems:
            raise forms.ValidationError(problems)
        return rounds


def option_value(opt: OptionSpec, raw: Any) -> Any:
    """One option's value from a form cell or a "name=value" pair, typed by its OptionSpec."""
    if opt.type is bool:
        if isinstance(raw, bool):
            return raw
        word = str(raw or "").strip().lower()
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS or word == "":
            return False
        raise forms.ValidationError(f"{opt.name} is on or off, not {raw!r}.")
    field = option_form_field(opt)
    field.required = True
    return field.clean(raw)


class StudyAdminForm(forms.ModelForm):
    """The study itself: its game from the registry, rounds and Likert items as tables, checked by the study rules."""

    game_id = forms.ChoiceField(label="Game", help_text="Changing the game redraws the rounds table for its options.")
    rounds_game = forms.CharField(widget=forms.HiddenInput, required=False)
    completion_redirect_url = forms.URLField(
        max_length=500, required=False, assume_scheme="https",  # a bare domain means https
        help_text=Study._meta.get_field("completion_redirect_url").help_text,
    )

    class Meta:
        model = Study
        fields = "__all__"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game_id"].choices = [(s.id, f"{s.name} ({s.id})") for s in all_specs()]
        if "max_participants" in self.fields:
            self.fields["max_participants"].required = False  # empty means no cap, like 0
        game_id = self.data.get(self.add_prefix("game_id")) if self.is_bound else None
        game_id = game_id or self.instance.game_id or all_specs()[0].id
        spec = validation.game_spec(game_id) or all_specs()[0]
        self.spec = spec
        existing = self.instance.rounds if isinstance(self.instance.rounds, list) else []
        rows = min(MAX_ROWS, max(len(existing) + EXTRA_ROWS, 5))
        self.fields["rounds"] = RoundsField(
            spec, rows=rows, label="Rounds",
            help_text=f"One row per round, in order; columns are {spec.name}'s options. Tick Play to include a row.",
        )
        items = self.instance.likert_items if isinstance(self.instance.likert_items, list) else []
        self.fields["likert_items"] = LikertItemsField(
            rows=min(MAX_ROWS, len(items) + EXTRA_ROWS), label="Likert items",
            help_text="One question per row, answered on the scale below; empty rows are ignored.",
        )
        self.fields["rounds_game"].initial = spec.id
        # The admin's add view does not pass the model defaults (e.g. the default Likert items) as initial data.
        self.initial.setdefault("likert_items", items)
        self.initial["likert_items"] = self.initial["likert_items"] or items

    def clean_max_participants(self):
        return self.cleaned_data.get("max_participants") or 0

    def clean(self):
        data = super().clean()
        game_id = data.get("game_id")
        drawn_for = self.data.get(self.add_prefix("rounds_game"))
        if self.is_bound and drawn_for and game_id and drawn_for != game_id:
            self.add_error(
                "rounds", "The game changed: the table now shows its options. Check the rounds and save again."
            )
        rounds = data.get("rounds")
        if game_id and rounds is not None and "rounds" not in self.errors:
            for message in validation.rounds_errors(game_id, rounds).get("rounds", []):
                self.add_error("rounds", message)
        items, scale = data.get("likert_items"), data.get("likert_scale")
        if items is not None and scale is not None:
            for message in validation.likert_errors(items, scale).get("likert_scale", []):
                self.add_error("likert_scale", message)
        fallback = data.get("pairing_fallback_agent")
        if fallback and not agent_exists(fallback):
            self.add_error("pairing_fallback_agent", f"Unknown agent {fallback!r}.")
        elif fallback and validation.game_spec(game_id) is not None and not agent_plays(fallback, game_id):
            name = validation.game_spec(game_id).name
            self.add_error("pairing_fallback_agent", f"Agent {fallback!r} does not play {name}.")
        # The enrolment rules beside their fields (the cap against the conditions' seats: the conditions' check).
        enrolment = {f: data[f] for f in ("read_url_ids", "require_pid", "max_participants") if f in data}
        for field, messages in validation.enrolment_errors(enrolment, []).items():
            if field not in self.errors:
                for message in messages:
                    self.add_error(field, message)
        return data


def seats_text(seats: Any) -> str:
    if not isinstance(seats, list):
        return ""
    parts = []
    for seat in seats:
        if isinstance(seat, dict) and seat.get("kind") == AGENT:
            parts.append(str(seat.get("agent", "")))
        else:
            parts.append(PARTICIPANT)
    return ", ".join(parts)


def options_text(options: Any) -> str:
    if not isinstance(options, dict):
        return ""
    shown = {True: "on", False: "off"}
    return ", ".join(f"{k}={shown.get(v, v) if isinstance(v, bool) else v}" for k, v in options.items())


class ConditionAdminForm(forms.ModelForm):
    seats_text = forms.CharField(
        label="Seats", max_length=500,
        help_text="Who plays each seat, in seat order, separated by commas: participant, or an agent's name "
        "(e.g. \"participant, random\"; \"participant, participant\" pairs two participants).",
    )
    options_text = forms.CharField(
        label="Options", max_length=500, required=False,
        help_text="Game options for every round of this condition, e.g. \"chat=off, show_hints=on\".",
    )

    class Meta:
        model = Condition
        fields = ("key", "label")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk or self.instance.seats:
            self.fields["seats_text"].initial = seats_text(self.instance.seats)
            self.fields["options_text"].initial = options_text(self.instance.options)
        self.raw_options: dict[str, str] = {}

    def clean_seats_text(self) -> list[dict]:
        seats = []
        for part in self.cleaned_data["seats_text"].split(","):
            name = part.strip()
            if not name:
                raise forms.ValidationError("Name every seat: participant or an agent's name, separated by commas.")
            seats.append({"kind": PARTICIPANT} if name.lower() == PARTICIPANT else {"kind": AGENT, "agent": name})
        return seats

    def clean_options_text(self) -> str:
        raw = {}
        for part in self.cleaned_data["options_text"].split(","):
            if not part.strip():
                continue
            name, sep, value = part.partition("=")
            if not sep or not name.strip():
                raise forms.ValidationError(f"Write each option as name=value; {part.strip()!r} is not.")
            raw[name.strip()] = value.strip()
        self.raw_options = raw
        return self.cleaned_data["options_text"]

    def clean(self):
        data = super().clean()
        if "seats_text" in data:
            self.instance.seats = data["seats_text"]
        return data


class ConditionFormSet(forms.BaseInlineFormSet):
    """Checks the conditions against the study being saved (its game, rounds and fallback) with the study rules."""

    def clean(self):
        super().clean()
        study = self.instance
        spec = validation.game_spec(study.game_id)
        live = [f for f in self.forms if f.cleaned_data and not f.cleaned_data.get("DELETE") and not f.errors]
        if spec is None or any(f.errors for f in self.forms):
            return
        for form in live:
            form.instance.options = self._typed_options(form, spec)
        if any(f.errors for f in live):
            return
        conditions = [
            {"key": f.cleaned_data.get("key"), "seats": f.instance.seats, "options": f.instance.options} for f in live
        ]
        fields = ("game_id", "rounds", "likert_items", "likert_scale", "pairing_timeout_action",
                  "pairing_fallback_agent", "partner_left_action", "read_url_ids", "require_pid", "max_participants")
        data = {field: getattr(study, field) for field in fields}
        errors = validation.study_errors(data, conditions)
        study_level = []
        for field, messages in errors.items():
            if field.startswith("conditions["):
                index, _, name = field[len("conditions["):].partition("].")
                form_field = {"seats": "seats_text", "options": "options_text", "key": "key"}.get(name)
                if index.isdigit() and form_field:
                    for message in messages:
                        live[int(index)].add_error(form_field, message)
                    continue
            if field in ("conditions", "pairing_fallback_agent", "require_pid", "max_participants"):
                study_level += messages
        if study_level:
            raise forms.ValidationError(study_level)

    @staticmethod
    def _typed_options(form: ConditionAdminForm, spec: GameSpec) -> dict:
        known = {o.name: o for o in spec.options}
        typed = {}
        for name, raw in form.raw_options.items():
            opt = known.get(name)
            if opt is None:
                form.add_error(
                    "options_text", f"{spec.name} has no option {name!r}; its options: {', '.join(known) or 'none'}."
                )
                continue
            try:
                typed[name] = option_value(opt, raw)
            except forms.ValidationError as err:
                form.add_error("options_text", f"{name}: {' '.join(err.messages)}")
        return typed
