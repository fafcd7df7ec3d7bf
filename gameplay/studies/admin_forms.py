"""The study admin's forms: rounds, Likert items and conditions as form fields, checked by the study rules.

Researchers never type JSON here. Rounds are a table with one row per round and one column per option of the
study's game (typed from its OptionSpecs); Likert items are a table of key, prompt and the two anchors; a
condition's seats are "participant, random" and its options "chat=off". Every save is checked with the same
rules as ``load_study`` (gameplay.studies.validation), and each message is shown beside the field it is about;
the admin saves nothing while any message stands.
"""

from __future__ import annotations

from typing import Any

from django import forms

from gameplay.engines.api import GameSpec, OptionSpec
from gameplay.engines.registry import all_specs
from gameplay.reads.agent_directory import agent_exists, agent_plays
from gameplay.studies import questionnaire_validation, validation
from gameplay.studies.admin_questionnaire import QuestionnaireAdminMixin
from gameplay.studies.admin_seats import SeatsField, default_seats
from gameplay.studies.admin_widgets import FALSE_WORDS, TRUE_WORDS, Column, TableWidget
from gameplay.studies.models import Condition, Study
from gameplay.web.forms import option_form_field

MAX_ROWS = 20
EXTRA_ROWS = 3


def round_rows(stored: int) -> int:
    """How many rows the rounds table has for a study with ``stored`` rounds: room for a few more."""
    return min(MAX_ROWS, max(stored + EXTRA_ROWS, 5))


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
        problems = questionnaire_validation.likert_errors(value, 5).get("likert_items", [])
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
        """Stored rounds (lists of option dicts) shown with every option filled in and ticked to play; the rows
        left over show the options' defaults, unticked, so that ticking Play is all a new round takes."""
        rows = value if isinstance(value, list) else []
        defaults = {o.name: o.default for o in self.spec.options}
        if not (rows and isinstance(rows[0], dict) and "play" in rows[0]):  # not the table's raw rows sent back
            rows = [{"play": True, **defaults, **r} for r in rows if isinstance(r, dict)]
        return rows + [{"play": False, **defaults} for _ in range(self.widget.rows - len(rows))]

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
    if opt.default in ("", None) and not opt.choices and opt.type is not int and str(raw or "").strip() == "":
        return opt.default  # a text option whose default is empty (Who is Spy's word pairs): left empty is the default
    field = option_form_field(opt)
    field.required = True
    return field.clean(raw)


def default_spec() -> GameSpec:
    """The game a new study starts with: the first one registered."""
    return all_specs()[0]


class StudyAdminForm(QuestionnaireAdminMixin, forms.ModelForm):
    """The study itself: its game from the registry, rounds and Likert items as tables, checked by the study rules.

    The rounds table is drawn for one game, which the hidden ``rounds_game`` names. Choosing another game redraws
    the table in the browser at once (static/js/study_admin.js asks StudyAdmin's tables view). Without scripts, a
    save with another game than the table's is refused once, and the form comes back with the table and the
    conditions' seats drawn for the game chosen (the option defaults, the Play ticks as they were) and
    ``rounds_game`` naming it, so the next save goes through.
    """

    game_id = forms.ChoiceField(label="Game", help_text="Choosing a game redraws the rounds and the conditions' "
                                "seats for its options and seats.")
    rounds_game = forms.CharField(widget=forms.HiddenInput, required=False)
    completion_redirect_url = forms.URLField(
        max_length=500, required=False, assume_scheme="https",  # a bare domain means https
        help_text=Study._meta.get_field("completion_redirect_url").help_text,
    )

    tables_url = ""  # StudyAdmin's view of the tables drawn for a game, which the script asks on a change of game

    class Meta:
        model = Study
        fields = "__all__"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game_id"].choices = [(s.id, f"{s.name} ({s.id})") for s in all_specs()]
        if self.tables_url:
            self.fields["game_id"].widget.attrs["data-tables-url"] = self.tables_url
        if "max_participants" in self.fields:
            self.fields["max_participants"].required = False  # empty means no cap, like 0
        game_id = self.data.get(self.add_prefix("game_id")) if self.is_bound else self.initial.get("game_id")
        spec = validation.game_spec(game_id or self.instance.game_id) or default_spec()
        self.spec = spec
        existing = self.instance.rounds if isinstance(self.instance.rounds, list) else []
        rows = round_rows(len(existing))
        self.fields["rounds"] = RoundsField(
            spec, rows=rows, label="Rounds",
            help_text="One row per round, in order; the columns are the game's options (hover a heading for what "
            "it does). Tick Play to include a row.",
        )
        items = self.instance.likert_items if isinstance(self.instance.likert_items, list) else []
        self.fields["likert_items"] = LikertItemsField(
            rows=min(MAX_ROWS, len(items) + EXTRA_ROWS), label="Likert items",
            help_text="One question per row, answered on the scale below; empty rows are ignored.",
        )
        self.fields["rounds_game"].initial = spec.id
        drawn_for = self.data.get(self.add_prefix("rounds_game")) if self.is_bound else None
        self.game_changed = bool(drawn_for) and drawn_for != spec.id
        if self.game_changed:
            self.data = self._redrawn(spec, rows)
        # The admin's add view does not pass the model defaults (e.g. the default Likert items) as initial data.
        self.initial.setdefault("likert_items", items)
        self.initial["likert_items"] = self.initial["likert_items"] or items

    def _redrawn(self, spec: GameSpec, rows: int):
        """The submitted data as if the table had been drawn for ``spec``: its options at their defaults in every
        row (the Play ticks as sent), and the marker naming it."""
        data = self.data.copy()
        rounds = self.add_prefix("rounds")
        for row in range(rows):
            for opt in spec.options:
                key = f"{rounds}-{row}-{opt.name}"
                if opt.type is not bool:
                    data[key] = str(opt.default)
                elif opt.default:
                    data[key] = "on"
                else:
                    data.pop(key, None)
        data[self.add_prefix("rounds_game")] = spec.id
        return data

    def clean_max_participants(self):
        return self.cleaned_data.get("max_participants") or 0

    def clean(self):
        data = super().clean()
        game_id = data.get("game_id")
        if self.game_changed:
            self.add_error("rounds", f"The game changed to {self.spec.name}: the table now shows its options, at "
                           "their defaults, and the conditions show its seats. Check them and save again.")
        rounds = data.get("rounds")
        if game_id and rounds is not None and "rounds" not in self.errors:
            for message in validation.rounds_errors(game_id, rounds).get("rounds", []):
                self.add_error("rounds", message)
        items, scale = data.get("likert_items"), data.get("likert_scale")
        if items is not None and scale is not None:
            for message in questionnaire_validation.likert_errors(items, scale).get("likert_scale", []):
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


def options_text(options: Any) -> str:
    if not isinstance(options, dict):
        return ""
    shown = {True: "on", False: "off"}
    return ", ".join(f"{k}={shown.get(v, v) if isinstance(v, bool) else v}" for k, v in options.items())


class ConditionAdminForm(forms.ModelForm):
    """A condition of a study of one game (``game_id``, the game the study form is drawn for): who plays each of
    its seats, chosen seat by seat, and its options as text."""

    seat_players = SeatsField(
        label="Seats",
        help_text="Who plays each seat, in seat order: a participant or an agent that plays the game. Two or more "
        "participant seats gather that many participants in the waiting room.",
    )
    options_text = forms.CharField(
        label="Options", max_length=500, required=False,
        help_text="Game options for every round of this condition, e.g. \"chat=off, show_hints=on\" (the names "
        "are the rounds table's columns).",
    )

    class Meta:
        model = Condition
        fields = ("key", "label")

    def __init__(self, *args, game_id: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        spec = validation.game_spec(game_id) or default_spec()
        self.fields["seat_players"].for_game(spec)
        if self.instance.pk or self.instance.seats:
            self.initial["seat_players"] = self.instance.seats
            self.fields["options_text"].initial = options_text(self.instance.options)
        else:
            self.initial["seat_players"] = default_seats(spec)
        self.raw_options: dict[str, str] = {}

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
        if "seat_players" in data:
            self.instance.seats = data["seat_players"]
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
                  "pairing_fallback_agent", "partner_left_action", "read_url_ids", "require_pid", "max_participants",
                  "allow_slow_agents")
        data = {field: getattr(study, field) for field in fields}
        errors = validation.study_errors(data, conditions)
        study_level = []
        for field, messages in errors.items():
            if field.startswith("conditions["):
                index, _, name = field[len("conditions["):].partition("].")
                form_field = {"seats": "seat_players", "options": "options_text", "key": "key"}.get(name)
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
