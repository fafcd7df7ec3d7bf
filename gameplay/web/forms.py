"""The new-match form, built from the chosen game's spec (options and seat count)."""

from __future__ import annotations

from django import forms

from gameplay.engines.api import GameSpec, OptionSpec
from gameplay.reads.agent_directory import agent_choices, agent_label, why_not_ready

YOU = "you"
INVITE = "invite"
AGENT_PREFIX = "agent:"


def controller_choices(game_id: str | None = None) -> list[tuple[str, str]]:
    choices = [(YOU, "Me (this browser)"), (INVITE, "Another person (invite link)")]
    # Built-in agents and stored LLM configurations alike, through the directory agents_app registers with
    # (read at form time, so new configs show at once); only those that play this game. The value is the agent's
    # name, the text its label for people ("Search, level 3") where it has one.
    choices += [
        (f"{AGENT_PREFIX}{name}", agent_option_text(name, description)) for name, description in agent_choices(game_id)
    ]
    return choices


def agent_option_text(name: str, description: str) -> str:
    """"Agent: <label> — <description>", without saying the label twice when the description opens with it."""
    label = agent_label(name)
    if label != name and description.startswith(f"{label}: "):
        rest = description.removeprefix(f"{label}: ")
        description = rest[:1].upper() + rest[1:]
    return f"Agent: {label} — {description}" if description else f"Agent: {label}"


def option_form_field(opt: OptionSpec, initial=None) -> forms.Field:
    """The form field for one game option, typed from its OptionSpec (shared by every form that sets options)."""
    # The declared label (every game has one: check_spec); the name, made readable, only for a game built outside
    # the registry that left it out.
    label = opt.label or opt.name.replace("_", " ").capitalize()
    common = {"initial": opt.default if initial is None else initial, "label": label, "help_text": opt.description}
    if opt.type is bool:
        return forms.BooleanField(required=False, **common)
    if opt.choices:
        return forms.TypedChoiceField(choices=[(c, c) for c in opt.choices], coerce=opt.type, **common)
    if opt.type is int:
        return forms.IntegerField(**common)
    return forms.CharField(max_length=200, **common)


class NewMatchForm(forms.Form):
    """Players (how many seats, when the game allows several counts), who plays each seat, the game's options, the
    seed. The template groups them (``seat_fields``, ``option_fields``); static/js/new_match.js hides and disables
    the seats beyond the chosen number of players. Without scripts every seat shows and the seats beyond the count
    are ignored (``controllers`` reads only ``seat_count`` seats)."""

    seed = forms.IntegerField(
        required=False, min_value=0, max_value=2**62, help_text="Leave empty for a random seed."
    )

    def __init__(self, spec: GameSpec, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.spec = spec
        if spec.min_seats != spec.max_seats:
            # Named num_seats in posts (scripted clients and tests send it); people read "Players".
            self.fields["num_seats"] = forms.TypedChoiceField(
                choices=[(n, n) for n in range(spec.min_seats, spec.max_seats + 1)], coerce=int, initial=spec.min_seats,
                label="Players",
                # The second sentence is for people without scripts, who see every seat whatever the number.
                help_text=f"How many take part, agents included: {spec.min_seats} to {spec.max_seats}. "
                "Seats past that number are not used.",
                widget=forms.Select(attrs={"data-seat-count": "", "aria-controls": "seats"}),
            )
        for opt in spec.options:
            field = option_form_field(opt)
            # A number or choice left empty, or out of a scripted client's POST, is the game's default (as an
            # unticked box is a switch's "off"): the engine fills in every option not given.
            field.required = False
            self.fields[f"opt_{opt.name}"] = field
        for seat in range(spec.max_seats):
            name = spec.seat_names[seat] if seat < len(spec.seat_names) else f"Player {seat + 1}"
            self.fields[f"seat_{seat}"] = forms.ChoiceField(
                choices=controller_choices(spec.id),
                initial=YOU if seat == 0 else "agent:random",
                label=name,
                required=seat < spec.min_seats,
            )
        self.fields["start_at_once"] = forms.BooleanField(
            required=False,
            label="Start before the others join",
            help_text="Normally nobody moves until everyone you invite has opened their link.",
        )
        self.fields["in_lobby"] = forms.BooleanField(
            required=False,
            label="List in the lobby",
            help_text="Anyone visiting this site may take a seat set to \"Another person\". You still get a link "
            "for each seat, to send to someone.",
        )

    def players_field(self) -> forms.BoundField | None:
        """The number of players, when the game lets it be chosen."""
        return self["num_seats"] if "num_seats" in self.fields else None

    def seat_fields(self) -> list[tuple[int, forms.BoundField]]:
        """Every seat's field with its index, the most seats the game allows."""
        return [(seat, self[f"seat_{seat}"]) for seat in range(self.spec.max_seats)]

    def option_fields(self) -> list[forms.BoundField]:
        return [self[f"opt_{opt.name}"] for opt in self.spec.options]

    def seat_count(self) -> int:
        return self.cleaned_data.get("num_seats") or self.spec.min_seats

    def options(self) -> dict:
        values = {o.name: self.cleaned_data[f"opt_{o.name}"] for o in self.spec.options}
        return {name: value for name, value in values.items() if value not in (None, "")}

    def controllers(self) -> list[str]:
        return [self.cleaned_data[f"seat_{i}"] for i in range(self.seat_count())]

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        chosen = self.controllers()
        if chosen.count(YOU) > 1:
            raise forms.ValidationError("Only one seat can be yours; invite other people with links.")
        if self.cleaned_data.get("in_lobby") and INVITE not in chosen:
            self.add_error("in_lobby", "Only a match with a seat for another person can be listed in the lobby.")
        for seat, choice in enumerate(chosen):
            if choice.startswith(AGENT_PREFIX):
                problem = why_not_ready(choice.removeprefix(AGENT_PREFIX), self.spec.id)
                if problem:
                    self.add_error(f"seat_{seat}", f"This agent cannot play now: {problem}")
        return data
