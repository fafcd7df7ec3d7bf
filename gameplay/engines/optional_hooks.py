"""The optional hooks of the engine contract, each with a default: a part of ``Game`` and ``State`` kept here so that
``api.py`` stays readable, as ``search_hooks.py`` keeps the search hooks. Most of them answer for a capability an engine
declares on its ``GameSpec`` (pictures, chat and team chat, typed moves, a clock, a turn timer, a judge, rounds); the
others say how a game reads and ends (labels per viewer, the end's reason and teams, measures, the scores of a
resignation or an agreed draw). The conformance suite checks each against its declaration, and that an undeclared
capability keeps its default. ``api.Game`` and ``api.State`` inherit them; engines override what their rules need.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .spec import ActionLabels, EngineError, IllegalActionError

if TYPE_CHECKING:
    from .spec import Observation


class OptionalGameHooks:
    """Mixed into ``Game``: what a match with these options draws, allows and plays next, beyond the core contract."""

    def observation_image(self, observation: Observation, *, coords: bool = False) -> bytes | None:
        """An optional PNG of an observation (for people and vision-capable agents); ``spec.has_image``.

        It takes the observation, not the state, so an image can never show more than
        the seat may see. ``coords`` asks for cell labels; a game whose pictures have none to draw ignores it
        (still a PNG). Default: this game has no image.
        """
        return None

    def chat_enabled(self) -> bool:
        """Whether players may chat in a match with these options. Default: ``spec.has_chat``."""
        return self.spec.has_chat

    def frames_per_second(self) -> int:
        """Frames the game plays per second of real time (``spec.realtime``); 0 for games without a clock."""
        return 0

    def live_play(self) -> bool:
        """Whether a match with people in it runs on the clock (``spec.realtime``): the platform then plays a
        decision point every ``State.frames_per_decision()`` frames whatever the seats do, with each person's held
        input as their choice. Off (or without a clock), every decision point waits for all its seats."""
        return self.spec.realtime

    def options_for_live_play(self) -> dict[str, Any]:
        """The options a match takes when it runs live with a person at the table (``live_play``, gameplay.live):
        the platform creates such a match with these instead. A person's key shows only from the next decision
        point on, so a realtime game may hold each choice for fewer frames live than in turn-based play, where
        every decision point waits for a slow agent. Default: the options as they are."""
        return dict(self.options)

    def next_round_options(self) -> dict | None:
        """Options of the round after this one (``spec.round_sequence``); None after the last round or for
        games without rounds."""
        return None


class OptionalStateHooks:
    """Mixed into ``State``: the hooks beyond the core contract that the platform asks of a state, each with a
    default."""

    # --- labels, chat, teams and typed moves ----------------------------------------------------------
    def action_labels(self, seat: int, action_id: str, text: str | None = None) -> ActionLabels:
        """How the action ``seat`` is about to take reads to each seat and to the public.

        Called on the state BEFORE the action is applied (labels describe the state they act on).
        Default: the action's own label (plus its text, for a text action) for every viewer; a game
        with hidden information overrides this so no viewer's label carries another seat's secret.
        """
        label = action_id
        for action in self.legal_actions(seat):
            if action.id == action_id:
                label = action.label
                break
        else:
            for spec in self.text_actions(seat):
                if spec.id == action_id:
                    label = f"{spec.label}: {text}" if text is not None else spec.label
                    break
        return ActionLabels(by_seat=tuple(label for _ in range(self.game.num_seats)), public=label)

    def record_message(self, seat: int, text: str) -> None:
        """Keep a chat message in the state (``spec.chat_in_state``); raise EngineError to refuse it.

        Default: chat is not part of the state, so nothing is stored.
        """
        return None

    def chat_audience(self, seat: int) -> tuple[int, ...] | None:
        """The seats that may read a chat line ``seat`` posts now (``spec.team_chat``): the sender and its team, say;
        None for everyone (spectators and replays included). Default None."""
        return None

    def may_chat(self, seat: int) -> bool:
        """Whether ``seat`` may post a chat line now (``spec.team_chat``); default True."""
        return True

    def result_teams(self) -> list[int]:
        """Team index per seat as the teams stand when the game ends, for the ratings (a team's result counts for
        each member). Games whose camps are hidden during play (``Game.teams()`` is then one team per seat) reveal
        them here. Default: ``self.game.teams()``."""
        return self.game.teams()

    def parse_move(self, text: str) -> str:
        """The action id of a move typed in the game's notation (``spec.typed_moves``).

        Raise IllegalActionError when the text is not a legal move. Default: no notation.
        """
        raise IllegalActionError(f"{self.game.spec.name} does not accept typed moves")

    # --- realtime hooks (``spec.realtime``) ----------------------------------------------------------
    def frames_per_decision(self) -> int:
        """Frames between two decision points; 0 for games without a clock."""
        return 0

    def idle_action(self, seat: int) -> str | None:
        """The legal action a seat that has not chosen in time takes (e.g. keep holding the last one); None for
        games without a clock, where the platform's own fallback applies."""
        return None

    def keep_frames(self, keep: bool) -> None:
        """Ask the state to keep the frames each decision point plays, for ``take_frames`` (a live stream)."""
        return None

    def take_frames(self) -> list[bytes]:
        """PNG images of the frames the last decision point played while ``keep_frames`` was on, oldest first,
        then forgotten. Only public pictures: they go to every viewer. Default: none."""
        return []

    # --- how a game ends ------------------------------------------------------------------------------
    def result_text(self) -> str | None:
        """A sentence describing how a finished game ended (e.g. for cooperative games); default None."""
        return None

    def end_reason(self) -> str | None:
        """Why a finished game ended, in one or two sentences any seat may read: "Black's queen is surrounded.",
        "Player 1 has no legal move.", "The turn cap of 100 turns was reached; Red has more victory points." The
        page says who won from the scores and adds this, so every ending says who won and why. None before the end.
        Every game gives one for every way it can end (conformance checks every finished playout); it never names
        what a seat may not know yet at the end (a hidden card still hidden)."""
        return None

    def measures(self, seat: int) -> dict[str, Any]:
        """Values of the declared ``spec.measures`` for ``seat`` (name -> number, bool or None). Default: none."""
        return {}

    def resignation_scores(self, seat: int) -> list[float]:
        """The scores of the game when ``seat`` resigns it (every game can be resigned; the platform ends the
        match with these). Default: the resigning seat's team gets 0 and the other seats share 1 equally; in a
        cooperative game (one team) everyone shares the outcome of a game given up, which is the even split
        ``scores`` gives. Engines whose rules score a resignation otherwise override this."""
        teams = self.game.teams()
        winners = [i for i, team in enumerate(teams) if team != teams[seat]]
        if not winners:
            return [1.0 / len(teams)] * len(teams)
        return [1.0 / len(winners) if i in winners else 0.0 for i in range(len(teams))]

    def agreed_draw_scores(self) -> list[float]:
        """The scores of a draw the players agreed (``spec.draw_by_agreement``): every seat an even share.
        Engines whose rules score an agreed draw otherwise override this."""
        seats = self.game.num_seats
        return [1.0 / seats] * seats

    # --- simultaneous moves (``spec.concurrent_actions``) ------------------------------------------------
    def concurrent_view_start(self, seat: int, action_id: str) -> int:
        """For ``spec.concurrent_actions``: how many logged actions ``seat``'s view must already include for
        ``action_id`` chosen on it to count once other seats have overtaken it. Default 0 (any such view counts if the
        action is legal); Pit answers the actions before the current hand's deal (a click made on the previous hand's
        cards never lands on the new hand) or, to take an offer, before that offer was made."""
        return 0

    # --- turn timer (``spec.turn_timer``) -------------------------------------------------------------------
    def time_limit(self, seat: int) -> int:
        """Seconds ``seat`` has for its current decision, counted by the platform from when the decision started
        (``Match.turn_started_at``); 0 for no limit. Default 0."""
        return 0

    def timeout_action(self, seat: int) -> tuple[str, str | None] | None:
        """The action (id, text or None) the platform applies for ``seat`` when its ``time_limit`` has run out: it
        must be legal now (the conformance suite applies it to a copy wherever a limit is set). Default None."""
        return None

    # --- judged dialogue games (``spec.dialogue.judged``) ----------------------------------------------------
    def awaiting_verdict(self) -> bool:
        """True when every message is in and the outcome waits for a judge: no seat is current, yet the state is
        not terminal until ``apply_verdict``."""
        return False

    def verdict_request(self) -> tuple[str, tuple[str, ...]]:
        """What a judge reads (public text only: the whole exchange and the question) and the verdicts it may give."""
        raise EngineError(f"{self.game.spec.name} has no judge")

    def fallback_verdict(self) -> str:
        """The verdict of the game's deterministic rule, used when no judge model gives a valid one."""
        raise EngineError(f"{self.game.spec.name} has no judge")

    def apply_verdict(self, verdict: str, source: str) -> None:
        """Apply a verdict (``source`` says who gave it: a model's name or "rule"); it is logged like an action so
        replay reproduces it. Raises IllegalActionError for a verdict not offered or when none is awaited."""
        raise EngineError(f"{self.game.spec.name} has no judge")
