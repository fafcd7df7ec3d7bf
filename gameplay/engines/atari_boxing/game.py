"""Atari Boxing as a pure engine: two seats choose joystick actions simultaneously every k frames.

A decision point waits for both seats. The first choice is kept hidden in the state (its seat's observation
shows it; the other seat and the public only learn that a choice is in), and the second runs the console for
k frames with both joysticks held. The engine keeps no emulator between calls: the state holds ALE's own
snapshot of the console plus what was decoded from its RAM (see ``emulator``), so JSON round trips are exact and
``Game.replay`` rebuilds a bout frame for frame from the action log.

The bout ends at a knockout, when the cartridge's 2:00 clock runs out, or at the optional ``max_frames`` cap
(GameBench's own runs cut bouts after 1,000 frames; ``max_frames=1000`` reproduces that).
"""

from __future__ import annotations

import io
import json
from collections.abc import Mapping
from typing import Any

from ..api import (
    Action,
    ActionLabels,
    Game,
    GameSpec,
    MeasureSpec,
    Observation,
    OptionSpec,
    State,
)
from .actions import BY_ID, JOYSTICK
from .ram import KNOCKOUT_POINTS, Ringside
from .rules import RULES
from .text import observation_text


def _emulator():
    """The emulator module, imported on first use: with ale-py and numpy it takes 0.15 s to import, which every
    process listing the games (each manage.py command) would pay without ever running a bout."""
    from . import emulator

    return emulator


SEATS = ("White", "Black")
DECISION_FRAME_CHOICES = (1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30, 60)
# The window of a bout run live with a person (README "Live play": why 5).
LIVE_FRAMES_PER_DECISION = 5
# A bout without a knockout lasts 7,139-7,141 frames; the cap leaves room for any ROM timing.
LONGEST_BOUT_FRAMES = 8000
PLAYING, OVER = "playing", "over"


def _clock(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


class BoxingState(State):
    game: BoxingGame

    def __init__(self, game: BoxingGame, seed: int):
        super().__init__(game, seed)
        start = _emulator().opening()
        self.snapshot = start.snapshot
        self.screen = start.screen
        self.ringside = Ringside.from_ram(start.ram)
        self.frame = 0
        self.decision = 0  # decision points played
        self.pending: list[str | None] = [None, None]
        self.last: list[str] = ["noop", "noop"]
        self.status = PLAYING
        # Frames of the last decision point, kept only while a live runner streams them (never in JSON).
        self._keep_frames = False
        self._frames: list[bytes] = []

    # --- contract --------------------------------------------------------------------------------
    def current_seats(self) -> list[int]:
        if self.status != PLAYING:
            return []
        return [seat for seat in (0, 1) if self.pending[seat] is None]

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.current_seats():
            return []
        return [Action(j.id, j.label) for j in JOYSTICK]

    def _apply(self, seat: int, action_id: str, text: str | None) -> None:
        self.pending[seat] = action_id
        if None not in self.pending:
            self._play_decision()

    def _play_decision(self) -> None:
        frames = self.game.options["frames_per_decision"]
        cap = self.game.options["max_frames"]
        if cap:
            frames = min(frames, cap - self.frame)
        white, black = (BY_ID[a].ale for a in self.pending)
        step = _emulator().run(self.snapshot, white, black, frames, keep_screens=self._keep_frames)
        self.snapshot, self.screen = step.snapshot, step.screen
        self.ringside = Ringside.from_ram(step.ram)
        self.frame += step.frames
        self.decision += 1
        self.last = [str(a) for a in self.pending]
        self.pending = [None, None]
        self._frames = list(step.screens)
        if step.over or self.ringside.knockout or (cap and self.frame >= cap):
            self.status = OVER

    def is_terminal(self) -> bool:
        return self.status == OVER

    def scores(self) -> list[float]:
        if not self.is_terminal():
            return [0.5, 0.5]
        white, black = self.ringside.scores
        if white == black:
            return [0.5, 0.5]
        return [1.0, 0.0] if white > black else [0.0, 1.0]

    def result_text(self) -> str | None:
        if not self.is_terminal():
            return None
        white, black = self.ringside.scores
        if self.ringside.knockout:
            return f"{SEATS[0 if white > black else 1]} wins by knockout."
        if white == black:
            return f"A draw, {white}-{black}."
        how = "on points" if self.ringside.seconds_left == 0 else "on points when the bout was cut short"
        return f"{SEATS[0 if white > black else 1]} wins {max(white, black)}-{min(white, black)} {how}."

    def end_reason(self) -> str | None:
        """Why the bout ended (see State.end_reason): a knockout, the clock, or the ``max_frames`` cap; then the
        points that decided it (a tie on points is a draw)."""
        if not self.is_terminal():
            return None
        white, black = self.ringside.scores
        if self.ringside.knockout and white != black:
            winner, loser = (0, 1) if white > black else (1, 0)
            return (f"{SEATS[winner]} reached {KNOCKOUT_POINTS} points for a knockout "
                    f"({SEATS[loser]} had {self.ringside.scores[loser]}).")
        cap = self.game.options["max_frames"]
        if self.ringside.seconds_left == 0:
            why = "The two-minute clock ran out"
        elif cap and self.frame >= cap:
            why = f"The {cap:,}-frame cap was reached"
        else:  # the cartridge ended the bout with time on the clock: not seen in play
            why = "The bout ended"
        if white == black:
            return f"{why} with the scores level at {white} to {black}."
        leader = 0 if white > black else 1
        return f"{why} with {SEATS[leader]} ahead on points, {max(white, black)} to {min(white, black)}."

    def measures(self, seat: int) -> dict[str, Any]:
        own, other = self.ringside.scores[seat], self.ringside.scores[1 - seat]
        return {"points": own, "points_against": other, "knockout_win": self.ringside.knockout and own > other,
                "frames": self.frame}

    # --- realtime hooks --------------------------------------------------------------------------
    def frames_per_decision(self) -> int:
        return self.game.options["frames_per_decision"]

    def idle_action(self, seat: int) -> str:
        """A seat that does not choose in time keeps holding what it held at the previous decision point."""
        return self.last[seat]

    def keep_frames(self, keep: bool) -> None:
        self._keep_frames = bool(keep)

    def take_frames(self) -> list[bytes]:
        """PNG images of every frame the last decision point played (while ``keep_frames`` is on), then forgets
        them. The screen is public: both boxers and the scores are in plain view."""
        frames, self._frames = self._frames, []
        return [frame_png(screen, wide=False) for screen in frames]

    # --- labels and observations -----------------------------------------------------------------
    def _own_choice_label(self, seat: int, action_id: str) -> str:
        return f"You chose {BY_ID[action_id].label} ({action_id}) for decision point {self.decision + 1}"

    def action_labels(self, seat: int, action_id: str, text: str | None = None) -> ActionLabels:
        """The first choice of a decision point reads as "has chosen" to everyone but its chooser; the second
        completes the pair, so it shows both."""
        name = SEATS[seat]
        number = self.decision + 1
        if action_id not in BY_ID:
            return super().action_labels(seat, action_id, text)
        other = 1 - seat
        if self.pending[other] is None:
            hidden = f"{name} chose for decision point {number} (hidden until both are in)"
            by_seat = tuple(self._own_choice_label(seat, action_id) if s == seat else hidden for s in (0, 1))
            return ActionLabels(by_seat=by_seat, public=hidden)
        pair = {seat: action_id, other: self.pending[other]}
        public = (f"Decision point {number}: {SEATS[0]} {BY_ID[pair[0]].label}, "
                  f"{SEATS[1]} {BY_ID[pair[1]].label}")
        by_seat = tuple(
            f"Decision point {number}: you {BY_ID[pair[s]].label}, {SEATS[1 - s]} {BY_ID[pair[1 - s]].label}"
            for s in (0, 1)
        )
        return ActionLabels(by_seat=by_seat, public=public)

    def rule_topics(self, seat: int, action_id: str) -> tuple[str, ...]:
        if action_id not in BY_ID or seat not in self.current_seats():
            return ()
        return ("controls", "positioning", "timing") if BY_ID[action_id].fire else ("controls", "timing")

    def observation(self, seat: int | None) -> Observation:
        if seat not in (0, 1, None):
            raise ValueError(f"no seat {seat!r} in a two-seat game")
        ring = self.ringside
        boxers = [
            {"name": SEATS[s], "x": (ring.white, ring.black)[s][0], "y": (ring.white, ring.black)[s][1],
             "score": ring.scores[s], "last_action": self.last[s], "last_label": BY_ID[self.last[s]].label,
             "has_chosen": self.pending[s] is not None}
            for s in (0, 1)
        ]
        data: dict[str, Any] = {
            "seat": seat,
            "boxers": boxers,
            "seconds_left": ring.seconds_left,
            "clock": _clock(ring.seconds_left),
            "frame": self.frame,
            "decision": self.decision,
            "frames_per_decision": self.frames_per_decision(),
            "max_frames": self.game.options["max_frames"],
            "knockout": ring.knockout,
            "status": self.status,
            "screen": _emulator().pack_screen(self.screen),
            "my_choice": self.pending[seat] if seat is not None else None,
        }
        return Observation(seat, data, observation_text(data, seat))

    def secrets(self) -> dict[int, list[str]]:
        """A choice made while the other seat has not chosen yet: as it appears in the chooser's observation
        and in the chooser's label of it."""
        result: dict[int, list[str]] = {}
        for seat, choice in enumerate(self.pending):
            if choice is not None:
                fragment = json.dumps({"my_choice": choice})[1:-1]
                result[seat] = [fragment, f"You chose {BY_ID[choice].label} ({choice})"]
        return result

    # --- persistence -----------------------------------------------------------------------------
    PAYLOAD_FIELDS = ("frame", "decision", "pending", "last", "status")
    COMPACT_LOG = True  # a live bout logs about 2,900 actions and commits a dozen times a second (State.COMPACT_LOG)

    def _payload(self) -> dict:
        return {**super()._payload(), "console": _emulator().pack_bytes(self.snapshot),
                "screen": _emulator().pack_screen(self.screen), "ringside": self.ringside.to_json()}

    def _load_payload(self, payload: Mapping[str, Any]) -> None:
        super()._load_payload(payload)
        self.snapshot = _emulator().unpack_bytes(payload["console"])
        self.screen = _emulator().unpack_screen(payload["screen"])
        self.ringside = Ringside.from_json(payload["ringside"])


def frame_png(screen: bytes, *, wide: bool = True) -> bytes:
    """A frame as an indexed-colour PNG (a few KB); ``wide`` doubles pixels horizontally, as the console's are
    wide (a live stream sends them narrow and lets the canvas stretch them)."""
    from PIL import Image

    image = Image.frombytes("P", (_emulator().SCREEN_WIDTH, _emulator().SCREEN_HEIGHT), screen)
    flat = [0] * 768
    for index, rgb in _emulator().palette().items():
        flat[index * 3:index * 3 + 3] = rgb
    image.putpalette(flat)
    if wide:
        image = image.resize((_emulator().SCREEN_WIDTH * 2, _emulator().SCREEN_HEIGHT), Image.NEAREST)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)
    return out.getvalue()


class BoxingGame(Game):
    spec = GameSpec(
        id="atari_boxing",
        name="Atari Boxing",
        description=(
            "Activision's Boxing (1980) on an emulated Atari 2600: two boxers seen from above trade jabs and "
            "power punches for two minutes or until a knockout, choosing joystick actions simultaneously."
        ),
        min_seats=2,
        max_seats=2,
        reasoning_categories=(),
        perfect_information=False,  # the choices of a decision point are hidden until both are in
        simultaneous=True,
        realtime=True,
        options=(
            OptionSpec("frames_per_decision", 15, "Frames each pair of choices is held (15 = a quarter second).",
                       type=int, choices=DECISION_FRAME_CHOICES, label="Frames per decision"),
            OptionSpec("live_frames_per_decision", LIVE_FRAMES_PER_DECISION, "Frames each pair of choices is held "
                       "when the bout runs live with a person (5 = a twelfth of a second: a key shows within about "
                       "that). Replaces the frames per decision of such a bout.", type=int,
                       choices=DECISION_FRAME_CHOICES, label="Frames per decision, live"),
            OptionSpec("live", True, "With a person in the bout, run it at full speed: the key a person holds at "
                       "each decision point is their choice, and a late agent keeps its last action. Off: every "
                       "decision point waits for both players (turn-based, for slow agents).", type=bool,
                       label="Live play"),
            OptionSpec("max_frames", 0, "End the bout after this many frames (0 = the full 2:00; GameBench's "
                       "runs stopped at 1000).", type=int, bounds=(0, LONGEST_BOUT_FRAMES),
                       short_value=120, label="Frame cap"),
        ),
        seat_names=SEATS,
        has_image=True,
        measures=(
            MeasureSpec("points", "Points this boxer scored (100 = a knockout)."),
            MeasureSpec("points_against", "Points scored against this boxer."),
            MeasureSpec("knockout_win", "This boxer won by knockout.", kind="bool"),
            MeasureSpec("frames", "Frames the bout lasted (60 a second)."),
        ),
    )
    state_class = BoxingState
    rules = RULES

    def max_actions(self) -> int:
        frames = self.options["max_frames"] or LONGEST_BOUT_FRAMES
        decisions = -(-frames // self.options["frames_per_decision"])
        return 2 * decisions + 2

    def frames_per_second(self) -> int:
        return _emulator().FRAMES_PER_SECOND

    def live_play(self) -> bool:
        return bool(self.options["live"])

    def options_for_live_play(self) -> dict[str, Any]:
        """Live with a person, a key held shows from the next decision point on: on average half a window later.
        The turn-based window (15 frames, a quarter second, chosen for agents' thinking time) would make that 125 ms
        before any other delay, so a live bout holds each choice ``live_frames_per_decision`` frames instead."""
        return {**self.options, "frames_per_decision": self.options["live_frames_per_decision"]}

    def observation_image(self, observation: Observation, *, coords: bool = False) -> bytes | None:
        """The screen as the observation holds it (the whole ring is in view of both boxers)."""
        return frame_png(_emulator().unpack_screen(observation.data["screen"]))
