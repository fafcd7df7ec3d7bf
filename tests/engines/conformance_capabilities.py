"""Conformance checks of the capabilities a game declares on its ``GameSpec``, each through its hooks: pictures,
typed moves, chat and team chat, a realtime clock, a turn timer and a judge's verdicts. An undeclared capability must
keep its hooks' defaults. Part of ``check_playouts`` (tests/engines/conformance.py), callable alone on throwaway
games."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

from gameplay.engines.api import Action, EngineError, IllegalActionError, State

from .conformance_information import check_observation_leaks, check_round_trip

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# Typed moves no notation accepts; parse_move must refuse each with IllegalActionError.
GARBAGE_MOVES = ("@@ not a move @@", "zz9 zz9 zz9", "\x00", "-" * 300)


def _dump(state: State) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def action_id_text(state: State, action: Action) -> str | None:
    """The default notation of an action for typed moves: its id (Hive's ids are canonical UHP strings)."""
    return action.id


def check_observation_images(state: State, coords: bool = False) -> None:
    """``spec.has_image``: a PNG of every seat's observation and of the public one (asked for cell labels too when
    ``coords``: a game with none to draw ignores the request, still a PNG); a game without the capability draws
    nothing (default None)."""
    spec = state.game.spec
    for seat in [*range(state.game.num_seats), None]:
        observation = state.observation(seat)
        image = state.game.observation_image(observation)
        if not spec.has_image:
            assert image is None, f"{spec.id} draws observations but does not declare has_image"
            continue
        assert isinstance(image, bytes) and image.startswith(PNG_SIGNATURE), (
            f"observation_image of seat {seat} must be PNG bytes (spec.has_image)"
        )
        if coords:
            labelled = state.game.observation_image(observation, coords=True)
            assert isinstance(labelled, bytes) and labelled.startswith(PNG_SIGNATURE), (
                f"observation_image(coords=True) of seat {seat} must be PNG bytes (spec.has_image)"
            )


def check_typed_moves(state: State, rng: random.Random, text_of: Callable[[State, Action], str | None],
                      sample: int = 3) -> int:
    """``spec.typed_moves``: parse_move maps the notation of legal moves (``text_of``, None where the notation
    cannot express an action) back to their ids and refuses garbage with IllegalActionError; without the
    capability every text is refused. The state never changes. Returns how many moves round-tripped."""
    before = _dump(state)
    typed = bool(state.game.spec.typed_moves)
    round_trips = 0
    if typed:
        for seat in state.current_seats()[:1]:
            actions = state.legal_actions(seat)
            for action in rng.sample(actions, min(sample, len(actions))):
                text = text_of(state, action)
                if text is None:
                    continue
                try:
                    parsed = state.parse_move(text)
                except EngineError as err:
                    raise AssertionError(f"parse_move refused the legal move {text!r} ({action.id}): {err}") from None
                assert parsed == action.id, f"parse_move({text!r}) gave {parsed!r}, not {action.id!r}"
                round_trips += 1
    # Two garbage texts a call (parsing can cost a move generation), and for a game without a notation the id
    # of a legal action too: parse_move must refuse it all the same.
    garbage = rng.sample(GARBAGE_MOVES, 2)
    if not typed:
        garbage += [a.id for s in state.current_seats() for a in state.legal_actions(s)[:1]]
    for text in garbage:
        try:
            state.parse_move(text)
        except IllegalActionError:
            pass
        else:
            why = "garbage" if typed else "although the game declares no typed_moves"
            raise AssertionError(f"parse_move accepted {text[:40]!r} ({why})")
    assert _dump(state) == before, "parse_move changed the state"
    return round_trips


def check_team_chat(state: State) -> None:
    """``spec.team_chat``: ``may_chat(seat)`` is a bool and ``chat_audience(seat)`` None (everyone) or a tuple of
    valid seats that includes the sender; neither changes the state. Without the capability both keep their defaults
    (True, None) for every seat."""
    game = state.game
    before = _dump(state)
    for seat in range(game.num_seats):
        may, audience = state.may_chat(seat), state.chat_audience(seat)
        if not game.spec.team_chat:
            assert may is True and audience is None, (
                f"{game.spec.id} declares no team_chat but may_chat({seat})={may!r}, chat_audience({seat})={audience!r}"
            )
            continue
        assert isinstance(may, bool), f"may_chat({seat}) must be a bool, got {may!r}"
        if audience is None:
            continue
        assert isinstance(audience, tuple), f"chat_audience({seat}) must be a tuple of seats or None, got {audience!r}"
        assert all(type(s) is int and 0 <= s < game.num_seats for s in audience), (
            f"chat_audience({seat}) names seats that do not exist: {audience!r}"
        )
        assert seat in audience, f"chat_audience({seat}) leaves out its sender: {audience!r}"
    assert _dump(state) == before, "may_chat or chat_audience changed the state"


def check_chat(state: State) -> None:
    """``spec.chat_in_state`` (when chat is on): record_message stores each seat's message, the state still
    round-trips and every observation stays leak-free. Otherwise record_message stores nothing. Team chat hooks as
    declared (``check_team_chat``)."""
    game = state.game
    check_team_chat(state)
    probe = state.clone()
    before = _dump(probe)
    if not game.spec.chat_in_state:
        for seat in range(game.num_seats):
            try:
                probe.record_message(seat, f"conformance hello from seat {seat}")
            except EngineError:
                pass
        assert _dump(probe) == before, f"{game.spec.id} keeps chat in its state but does not declare chat_in_state"
        return
    if not game.chat_enabled() or state.is_terminal():
        return
    for seat in range(game.num_seats):
        text = f"conformance hello from seat {seat}"
        probe.record_message(seat, text)
        assert text in _dump(probe), f"record_message did not store seat {seat}'s message (spec.chat_in_state)"
    restored = check_round_trip(probe)
    check_observation_leaks(restored)


def check_realtime(state: State) -> None:
    """``spec.realtime``: every seat still to choose has a legal idle action, and a copy asked to keep frames
    gives one PNG per frame its next decision point plays (the idle actions of every seat), then none. Without
    the capability the hooks keep their defaults. The state itself never changes."""
    before = _dump(state)
    spec = state.game.spec
    if not spec.realtime:
        assert state.frames_per_decision() == 0 and state.take_frames() == [], f"{spec.id} is not realtime"
        assert all(state.idle_action(s) is None for s in range(state.game.num_seats)), "idle_action without a clock"
        return
    assert state.frames_per_decision() > 0, "a realtime game has frames between decision points"
    probe = state.clone()
    probe.keep_frames(True)
    for seat in probe.current_seats():
        idle = probe.idle_action(seat)
        assert idle in {a.id for a in probe.legal_actions(seat)}, f"idle action {idle!r} of seat {seat} is not legal"
        probe.apply_action(seat, idle)
    frames = probe.take_frames()
    assert 0 < len(frames) <= probe.frames_per_decision(), f"a decision point played {len(frames)} frames"
    assert all(f.startswith(PNG_SIGNATURE) for f in frames), "take_frames gives PNG images"
    assert probe.take_frames() == [], "take_frames forgets the frames it gave"
    assert _dump(state) == before, "probing the realtime hooks changed the state"


def check_turn_timer(state: State) -> None:
    """``spec.turn_timer``: ``time_limit`` is a whole number of seconds (0: none) for every seat, and wherever a current
    seat has a limit its ``timeout_action`` is legal: applied to a copy, it is accepted. Without the capability every
    seat has no limit and no timeout action (the defaults). The state itself never changes."""
    before = _dump(state)
    spec = state.game.spec
    seats = range(state.game.num_seats)
    if not spec.turn_timer:
        assert all(state.time_limit(s) == 0 for s in seats), f"{spec.id} sets time limits but declares no turn_timer"
        assert all(state.timeout_action(s) is None for s in seats), f"{spec.id} has timeout actions without turn_timer"
        return
    for seat in seats:
        limit = state.time_limit(seat)
        assert isinstance(limit, int) and not isinstance(limit, bool) and limit >= 0, (
            f"time_limit({seat}) must be a whole number of seconds >= 0, not {limit!r}")
    current = [] if state.is_terminal() else state.current_seats()
    for seat in current:
        if state.time_limit(seat) <= 0:
            continue
        timeout = state.timeout_action(seat)
        assert isinstance(timeout, tuple) and len(timeout) == 2, (
            f"seat {seat} has a time limit but timeout_action gives {timeout!r}, not (action_id, text)")
        action_id, text = timeout
        probe = state.clone()
        try:
            probe.apply_action(seat, action_id, text)
        except IllegalActionError as err:
            raise AssertionError(f"timeout action {timeout!r} of seat {seat} is not legal: {err}") from None
    assert _dump(state) == before, "probing the turn timer hooks changed the state"


def check_verdict_hooks(state: State) -> None:
    """A state awaiting a verdict (only a game declaring ``spec.dialogue.judged``): no seat acts and it is not
    terminal; the judge's request is public text with the verdicts it may give, the rule's verdict is one of them,
    and a verdict not offered is refused with the state unchanged."""
    dialogue = state.game.spec.dialogue
    assert dialogue is not None and dialogue.judged, f"{state.game.spec.id} awaits a verdict but is not judged"
    assert state.current_seats() == [], "a state awaiting a verdict has no seat to act"
    assert not state.is_terminal(), "a state awaiting a verdict is not terminal yet"
    text, verdicts = state.verdict_request()
    assert isinstance(text, str) and text, "verdict_request gives the judge some text"
    assert verdicts and all(isinstance(v, str) and v for v in verdicts), f"verdicts must be strings: {verdicts!r}"
    assert state.fallback_verdict() in verdicts, "the rule's verdict must be one the judge may give"
    for values in state.secrets().values():
        for value in values:
            assert not value or str(value) not in text, f"the judge's request leaks secret {value!r}"
    before = _dump(state)
    try:
        state.apply_verdict("__not_a_verdict__", "rule")
    except IllegalActionError:
        pass
    else:
        raise AssertionError("a verdict not offered was accepted")
    assert _dump(state) == before, "state changed after a refused verdict"
