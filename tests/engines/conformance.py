"""Reusable conformance checks for any engine built on gameplay.engines.api.

Every game in the registry must pass ``check_playouts``; the checks are plain
functions raising AssertionError so that tests (including the ones proving the
checker can fail) can call them on throwaway games too.

Besides the core contract (caps, legal actions, JSON round trips, replay, scores,
leak-free observations) every capability a game declares on its ``GameSpec`` is
checked through its hook, and an undeclared capability must keep its default:
labels per viewer (``State.action_labels``, leak-checked like observations),
measures, pictures, board layouts, typed moves, rounds, chat, team chat and turn timers; the final teams.

This module plays the playouts and checks the core contract; the checks of each kind have a module of their own,
all importable from here: ``conformance_information`` (JSON round trips, leaks in observations and labels),
``conformance_capabilities`` (the declared capabilities' hooks), ``conformance_spec`` (the declarations themselves,
rule topics) and ``conformance_endings`` (end reasons, scores, final teams).
"""

from __future__ import annotations

import json
import random
import zlib
from collections.abc import Callable

from gameplay.engines.api import Action, Game, IllegalActionError, State, TextAction

from .composed_actions import check_composed_actions
from .conformance_capabilities import (
    GARBAGE_MOVES,
    PNG_SIGNATURE,
    action_id_text,
    check_chat,
    check_observation_images,
    check_realtime,
    check_team_chat,
    check_turn_timer,
    check_typed_moves,
    check_verdict_hooks,
)
from .conformance_endings import (
    check_agreed_draw_scores,
    check_end_reason,
    check_resignation_scores,
    check_result_teams,
    check_terminal_scores,
)
from .conformance_information import (
    apply_checked,
    check_label_leaks,
    check_observation_leaks,
    check_round_trip,
    observation_dumps,
)
from .conformance_spec import check_measures, check_rule_topics, check_spec

# Every check, importable from here whichever module it lives in.
__all__ = [
    "DEEP_CHECK_EVERY",
    "DEFAULT_TEXTS",
    "GARBAGE_MOVES",
    "PNG_SIGNATURE",
    "action_id_text",
    "apply_checked",
    "check_agreed_draw_scores",
    "check_chat",
    "check_end_reason",
    "check_label_leaks",
    "check_measures",
    "check_observation_images",
    "check_observation_leaks",
    "check_playouts",
    "check_realtime",
    "check_rejects_illegal",
    "check_resignation_scores",
    "check_result_teams",
    "check_round_trip",
    "check_rule_topics",
    "check_spec",
    "check_team_chat",
    "check_terminal_scores",
    "check_turn_timer",
    "check_typed_moves",
    "check_verdict_hooks",
    "deep_check",
    "observation_dumps",
    "random_playout",
    "with_numbered_variants",
]

# Texts tried, in order, when a seat can only answer with free text. Engines
# validate text, so a generic checker tries a few plausible shapes.
DEFAULT_TEXTS = ("hello", "yes", "ok 1", "word,1", "1")


def _dump(state: State) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def check_rejects_illegal(state: State) -> None:
    """Illegal ids and out-of-turn seats raise IllegalActionError and change nothing."""
    before = _dump(state)
    current = state.current_seats()
    for seat in current[:1]:
        try:
            state.apply_action(seat, "__not_an_action__")
        except IllegalActionError:
            pass
        else:
            raise AssertionError("an unknown action id was accepted")
        assert _dump(state) == before, "state changed after a rejected action"
    for seat in range(state.game.num_seats):
        if seat in current:
            continue
        legal = state.legal_actions(current[0]) if current else []
        probe = legal[0].id if legal else "__not_an_action__"
        try:
            state.apply_action(seat, probe)
        except IllegalActionError:
            pass
        else:
            raise AssertionError(f"seat {seat} acted out of turn")
        assert _dump(state) == before, "state changed after an out-of-turn action"
        break


def _submit_text(state: State, seat: int, specs: list[TextAction], rng: random.Random,
                 texts: tuple[str, ...]) -> None:
    spec = rng.choice(specs)
    for text in with_numbered_variants(texts):
        try:
            apply_checked(state, seat, spec.id, text)
            return
        except IllegalActionError:
            continue
    raise AssertionError(f"no default text was accepted for text action {spec.id!r}")


def with_numbered_variants(texts: tuple[str, ...], upto: int = 40):
    """The texts, then each again with a number (\"hello 2\", ...): a game that refuses a text said before (Who is
    Spy's descriptions) still gets a fresh one."""
    yield from texts
    for n in range(2, upto + 1):
        for text in texts:
            yield f"{text} {n}"


DEEP_CHECK_EVERY = 8


def deep_check(seed: int, step: int) -> bool:
    """Whether a playout step gets the costly whole-state checks (JSON round trip, every seat's observation
    leak-checked, measures): the first two steps, the terminal state, and one step in DEEP_CHECK_EVERY chosen by a
    hash of seed and step, so the 200 playouts of a preset still check thousands of states spread over every
    phase of the game, at an eighth of the cost. The replay check at the end of each playout still covers every
    step's payload: a field missing from the JSON changes the restored game and the replay differs."""
    return step < 2 or zlib.crc32(f"{seed}:{step}".encode()) % DEEP_CHECK_EVERY == 0


def random_playout(game: Game, seed: int, texts: tuple[str, ...] = DEFAULT_TEXTS,
                   probe_every: int = 7, text_of: Callable[[State, Action], str | None] = action_id_text,
                   images: bool = True, coords_images: bool = True) -> State:
    """Play one seeded random game, checking the contract and every declared capability along the way.

    Every step: JSON round trip, leak-free observations, measures, and the labels of the action taken
    (leak-checked against the secrets before and after it). Every ``probe_every`` steps: illegal actions,
    typed moves (``text_of`` gives an action's notation), resignation scores and chat. Pictures at the end (with
    cell labels too when ``coords_images``), as drawing is costly. (A board's page geometry is not the engine's:
    tests/gameplay/boards checks the presenters.)
    """
    rng = random.Random(seed)
    probe_rng = random.Random(f"probe:{seed}")  # own stream, so probing never changes the playout
    check_spec(game)
    state = game.new_initial_state(seed)
    limit = game.max_actions()
    step = 0
    round_trips = 0
    snapshot = None  # a to_json() taken before this step's move, which the move must leave as it was
    while True:
        if snapshot is not None:
            assert json.dumps(snapshot[0], sort_keys=True) == snapshot[1], (
                f"{game.spec.id}: a to_json() snapshot changed when the state moved on (it shares the state's lists)"
            )
            snapshot = None
        if state.is_terminal() or deep_check(seed, step):
            # Continue from the restored copy: any data missing from the payload
            # then changes how the game continues and the replay check catches it.
            state = check_round_trip(state)
            taken = state.to_json()
            snapshot = (taken, json.dumps(taken, sort_keys=True))
            check_observation_leaks(state, observation_dumps(state))
            check_measures(state)
        if state.is_terminal():
            assert state.current_seats() == [], "terminal state still has seats to act"
            if images:  # at most once per playout: drawing is costly
                check_observation_images(state, coords=coords_images)
            check_typed_moves(state, probe_rng, text_of)
            check_chat(state)
            check_result_teams(state)
            break
        assert len(state.log) < limit, f"playout exceeded max_actions()={limit} (seed {seed})"
        if state.awaiting_verdict():
            # A judged dialogue game after its last message: the rule's verdict stands in for the judge model.
            check_verdict_hooks(state)
            state.apply_verdict(state.fallback_verdict(), "rule")
            step += 1
            continue
        seats = state.current_seats()
        assert seats, "non-terminal state has no current seats"
        for s in seats:
            assert state.legal_actions(s) or state.text_actions(s), f"seat {s} must act but cannot"
        if step % probe_every == 0:
            for s in range(game.num_seats):  # the ids alone (checking moves, search) agree with the labelled actions
                assert state.legal_action_ids(s) == [a.id for a in state.legal_actions(s)], f"seat {s}: ids differ"
            check_rule_topics(state)
            check_end_reason(state)
            check_composed_actions(state)
            check_realtime(state)
            check_rejects_illegal(state)
            check_resignation_scores(state)
            check_agreed_draw_scores(state)
            round_trips += check_typed_moves(state, probe_rng, text_of)
            check_chat(state)
        if game.spec.turn_timer or step % probe_every == 0:
            check_turn_timer(state)  # every step where limits may be set: a timeout can strike at any decision
        seat = rng.choice(seats)
        actions = state.legal_actions(seat)
        if actions:
            apply_checked(state, seat, rng.choice(actions).id)
        else:
            _submit_text(state, seat, state.text_actions(seat), rng, texts)
        step += 1
    if game.spec.typed_moves and step > 0:
        assert round_trips > 0, f"no legal move of {game.spec.id} round-tripped through parse_move (seed {seed})"
    check_terminal_scores(state)
    replayed = game.replay(seed, state.log)
    assert _dump(replayed) == _dump(state), f"replay from seed {seed} and log differs"
    return state


def check_playouts(game_factory: Callable[[], Game], n_playouts: int = 200, base_seed: int = 0,
                   texts: tuple[str, ...] = DEFAULT_TEXTS,
                   text_of: Callable[[State, Action], str | None] = action_id_text,
                   images_every: int = 5, coords_every: int = 10) -> list[State]:
    """Run ``n_playouts`` seeded random playouts of fresh games; returns the final states.

    The final pictures are drawn and checked in every ``images_every``-th playout (drawing costs as much as playing
    a Hive game), and asked for cell labels (``coords=True``) in every ``coords_every``-th.
    """
    finals = []
    for i in range(n_playouts):
        finals.append(random_playout(game_factory(), base_seed + i, texts, text_of=text_of,
                                     images=i % images_every == 0, coords_images=i % coords_every == 0))
    return finals
