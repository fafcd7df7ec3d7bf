"""A study condition's seats in the admin: one choice per seat of the study's game, a participant or an agent that
plays it (the agents come from gameplay.reads.agent_directory, so LLM configurations show as soon as they exist)."""

from __future__ import annotations

from typing import Any

from django import forms

from gameplay.engines.api import EngineError, GameSpec
from gameplay.engines.registry import create_game
from gameplay.reads.agent_directory import agent_choices, agent_label
from gameplay.studies.admin_widgets import NO_SEAT, SeatsWidget
from gameplay.studies.models import AGENT, PARTICIPANT

AGENT_CHOICE = "agent:"  # a seat's choice naming an agent: "agent:<name>"


def seat_choices(spec: GameSpec) -> list[tuple[str, str]]:
    """Who may play a seat of ``spec``'s game: a participant, or an agent that plays it (shown by its label, "Agent:
    Search, level 3", the value naming it)."""
    return [(PARTICIPANT, "Participant")] + [(f"{AGENT_CHOICE}{name}", f"Agent: {agent_label(name)}")
                                             for name, _ in agent_choices(spec.id)]


def seat_names(spec: GameSpec) -> list[str]:
    """The names of the seats of the game's largest table, as its players see them ("Gnome A", "Player 3 (Red
    Operative)")."""
    try:
        game = create_game(spec.id, {}, num_seats=spec.max_seats)
    except EngineError:  # its default options do not allow that many seats: the spec's names are all there is
        return [spec.seat_names[i] if i < len(spec.seat_names) else f"Player {i + 1}" for i in range(spec.max_seats)]
    return [game.seat_name(seat) for seat in range(spec.max_seats)]


def default_seats(spec: GameSpec) -> list[dict]:
    """A new condition's seats: a participant, and the first agent that plays the game in every other seat the game
    needs (the researcher changes them from there)."""
    agents = [name for name, _ in agent_choices(spec.id)]
    other = {"kind": AGENT, "agent": agents[0]} if agents else {"kind": PARTICIPANT}
    return [{"kind": PARTICIPANT}] + [dict(other) for _ in range(spec.min_seats - 1)]


def seat_choice(seat: Any) -> str:
    if isinstance(seat, dict) and seat.get("kind") == AGENT:
        return f"{AGENT_CHOICE}{seat.get('agent', '')}"
    return PARTICIPANT if isinstance(seat, dict) else str(seat)


class SeatsField(forms.Field):
    """A condition's seats, one choice per seat of the study's game: a participant or an agent that plays the game.
    Seats are taken in order; the seats after the last one taken are not at the table."""

    def __init__(self, **kwargs):
        kwargs.setdefault("widget", SeatsWidget([], 0, []))
        super().__init__(**kwargs)

    def for_game(self, spec: GameSpec) -> None:
        self.widget = SeatsWidget(seat_names(spec), spec.min_seats, seat_choices(spec))

    def prepare_value(self, value):
        return [seat_choice(seat) for seat in value] if isinstance(value, list) else []

    def to_python(self, value) -> list[dict]:
        chosen = list(value) if isinstance(value, list) else []
        while chosen and chosen[-1] == NO_SEAT:
            chosen.pop()
        seats = []
        for number, choice in enumerate(chosen, start=1):
            if choice == PARTICIPANT:
                seats.append({"kind": PARTICIPANT})
            elif choice.startswith(AGENT_CHOICE) and choice != AGENT_CHOICE:
                seats.append({"kind": AGENT, "agent": choice.removeprefix(AGENT_CHOICE)})
            elif choice == NO_SEAT:
                raise forms.ValidationError(f"Seat {number} has nobody, but a later seat is taken: choose who "
                                            "plays it, or leave the later seats empty.")
            else:
                raise forms.ValidationError(f"Seat {number}: choose a participant or an agent.")
        return seats
