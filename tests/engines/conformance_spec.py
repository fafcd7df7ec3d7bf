"""Conformance checks of what a game declares about itself (``GameSpec``: measures, a goal, options, rounds, chat,
a clock) and of the rule topics its moves offer language-model players. Part of ``check_playouts``
(tests/engines/conformance.py), callable alone on throwaway games."""

from __future__ import annotations

import json
import math

from gameplay.engines.api import Game, InvalidOptionsError, State

MEASURE_KINDS = ("number", "bool")
MAX_ROUNDS_FOLLOWED = 50


def check_measures(state: State) -> None:
    """``State.measures(seat)`` names exactly the declared ``spec.measures``, each value of its declared kind
    ("number": int or finite float, "bool": bool) or None (not known), and is JSON-safe."""
    declared = {m.name: m.kind for m in state.game.spec.measures}
    for seat in range(state.game.num_seats):
        values = state.measures(seat)
        assert isinstance(values, dict), f"measures({seat}) must be a dict"
        assert set(values) == set(declared), (
            f"measures({seat}) names {sorted(values)}, the spec declares {sorted(declared)}"
        )
        for name, kind in declared.items():
            value = values[name]
            if value is None:
                continue
            if kind == "bool":
                assert isinstance(value, bool), f"measure {name!r} of seat {seat} must be a bool, got {value!r}"
            else:
                assert isinstance(value, int | float) and not isinstance(value, bool), (
                    f"measure {name!r} of seat {seat} must be a number, got {value!r}"
                )
                assert math.isfinite(value), f"measure {name!r} of seat {seat} is not finite: {value!r}"
        json.dumps(values)
    check_goal_declaration(state.game.spec)


def check_goal_declaration(spec) -> None:
    """A goal measure is a declared bool measure, and ``until_goal`` marks number measures of a game with a goal
    (a censored value needs a goal to be censored by)."""
    kinds = {m.name: m.kind for m in spec.measures}
    if spec.goal_measure:
        assert kinds.get(spec.goal_measure) == "bool", (
            f"goal_measure {spec.goal_measure!r} must name a declared bool measure, not {kinds.get(spec.goal_measure)}"
        )
    for m in spec.measures:
        if m.until_goal:
            assert m.kind == "number", f"until_goal measure {m.name!r} must be a number"
            assert spec.goal_measure, f"{m.name!r} counts up to a goal, but the game declares no goal_measure"


def check_rule_topics(state: State) -> None:
    """Every legal move names the rule topics it depends on (``State.rule_topics``), and each is offered to a
    language-model player: a topic of ``rules.topics``, or named in the summary itself."""
    rules = state.game.rules
    summary = rules.summary.casefold()
    for seat in state.current_seats():
        for action in [*state.legal_actions(seat), *state.text_actions(seat)]:
            topics = state.rule_topics(seat, action.id)
            assert topics, f"{state.game.spec.id}: legal action {action.id!r} names no rule topic"
            for topic in topics:
                assert topic in rules.topics or topic.casefold() in summary, (
                    f"{state.game.spec.id}: {action.id!r} needs rule topic {topic!r}, which is neither offered as a "
                    f"topic ({', '.join(rules.topics)}) nor in the summary"
                )


def check_spec(game: Game) -> None:
    """Game-level capabilities: the spec is consistent, chat and rounds answer as declared."""
    spec = game.spec
    assert not spec.chat_in_state or spec.has_chat, "chat_in_state needs has_chat"
    assert not spec.team_chat or spec.has_chat, "team_chat needs has_chat"
    assert isinstance(spec.typed_moves, str), "typed_moves is a notation's name, or '' for none"
    names = [m.name for m in spec.measures]
    assert len(names) == len(set(names)), f"measure names repeat: {names}"
    for measure in spec.measures:
        assert measure.kind in MEASURE_KINDS, f"measure {measure.name!r} has unknown kind {measure.kind!r}"
        assert measure.description, f"measure {measure.name!r} needs a description"
    # People choose options by their labels (the new-match form, the study admin): a label that is missing, or is
    # the raw name ("gamebench_vp_share_scores"), leaves them guessing. Sentence case, so it starts with a capital.
    labels = [o.label for o in spec.options]
    for option in spec.options:
        assert option.label, f"option {option.name!r} needs a label people read (OptionSpec.label)"
        assert "_" not in option.label, f"option {option.name!r}'s label {option.label!r} reads like an identifier"
        assert option.label[0].isupper(), f"option {option.name!r}'s label {option.label!r} must start with a capital"
    assert len(labels) == len(set(labels)), f"{spec.id}'s option labels repeat: {labels}"
    if spec.concurrent_actions:
        assert spec.simultaneous, "concurrent actions need simultaneous seats (several seats act at once)"
    if spec.realtime:
        assert spec.simultaneous, "realtime needs simultaneous (both seats choose at each decision point)"
        assert game.frames_per_second() > 0, "a realtime game plays a positive number of frames per second"
    else:
        assert game.frames_per_second() == 0, f"{spec.id} declares no clock (spec.realtime) but has frames"
        assert game.live_play() is False, f"{spec.id} declares no clock (spec.realtime) but wants live play"
    enabled = game.chat_enabled()
    assert isinstance(enabled, bool), "chat_enabled() must be a bool"
    if not spec.has_chat:
        assert enabled is False, f"{spec.id} has no chat (spec.has_chat) but chat_enabled() is True"
    check_round_sequence(game)


def check_round_sequence(game: Game) -> None:
    """``spec.round_sequence``: next_round_options() is None or options a new Game of the same seats accepts
    (followed round after round); without rounds it is None."""
    options = game.next_round_options()
    if not game.spec.round_sequence:
        assert options is None, f"{game.spec.id} names a next round but does not declare round_sequence"
        return
    current = game
    for _ in range(MAX_ROUNDS_FOLLOWED):
        if options is None:
            return
        assert isinstance(options, dict), f"next_round_options() must be a dict or None, got {options!r}"
        try:
            current = type(current)(options, current.num_seats)
        except InvalidOptionsError as err:
            raise AssertionError(f"next_round_options() {options!r} are not valid options: {err}") from None
        options = current.next_round_options()
