"""Reusable conformance checks for any engine built on gameplay.engines.api.

Every game in the registry must pass ``check_playouts``; the checks are plain
functions raising AssertionError so that tests (including the ones proving the
checker can fail) can call them on throwaway games too.

Besides the core contract (caps, legal actions, JSON round trips, replay, scores,
leak-free observations) every capability a game declares on its ``GameSpec`` is
checked through its hook, and an undeclared capability must keep its default:
labels per viewer (``State.action_labels``, leak-checked like observations),
measures, pictures, board layouts, typed moves, rounds, chat, team chat and turn timers; the final teams.
"""

from __future__ import annotations

import json
import random
import zlib
from collections.abc import Callable, Mapping

from gameplay.engines.api import (
    Action,
    ActionLabels,
    EngineError,
    Game,
    IllegalActionError,
    State,
    TextAction,
)

from .composed_actions import check_composed_actions
from .conformance_endings import (
    check_agreed_draw_scores,
    check_end_reason,
    check_resignation_scores,
    check_result_teams,
    check_terminal_scores,
)
from .conformance_spec import check_measures, check_rule_topics, check_spec

# Texts tried, in order, when a seat can only answer with free text. Engines
# validate text, so a generic checker tries a few plausible shapes.
DEFAULT_TEXTS = ("hello", "yes", "ok 1", "word,1", "1")


def _dump(state: State) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def check_round_trip(state: State) -> State:
    """JSON round trip must reproduce to_json exactly; returns the restored state."""
    dumped = _dump(state)
    restored = state.game.state_from_json(json.loads(dumped))
    assert _dump(restored) == dumped, "to_json differs after a JSON round trip"
    return restored


def _observation_dumps(state: State) -> dict:
    """JSON text of every seat's observation and the public one (key None)."""
    dumps = {}
    for seat in [*range(state.game.num_seats), None]:
        obs = state.observation(seat)
        assert obs.seat == seat, f"observation({seat}) reports seat {obs.seat}"
        assert isinstance(obs.text, str), "observation text must be a string"
        dumps[seat] = json.dumps(obs.to_json(), ensure_ascii=False)
    return dumps


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# Typed moves no notation accepts; parse_move must refuse each with IllegalActionError.
GARBAGE_MOVES = ("@@ not a move @@", "zz9 zz9 zz9", "\x00", "-" * 300)
# How many rounds a round sequence is followed from one game's options.


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


def check_label_leaks(state: State, labels: ActionLabels, before: Mapping, after: Mapping) -> None:
    """No seat's label of an action carries another seat's secret (from ``secrets()`` before or after the
    action), and the public label carries no secret at all."""
    num_seats = state.game.num_seats
    assert isinstance(labels, ActionLabels), "action_labels must return ActionLabels"
    assert len(labels.by_seat) == num_seats, f"action_labels must word the action for each of {num_seats} seats"
    assert all(isinstance(label, str) for label in labels.by_seat), "labels must be strings"
    assert isinstance(labels.public, str) and labels.public, "the public label must be a non-empty string"
    secrets: dict[int, set[str]] = {}
    for source in (before, after):
        for seat, values in source.items():
            secrets.setdefault(int(seat), set()).update(str(v) for v in values if v)
    for viewer in range(num_seats):
        seen = labels.for_viewer(viewer)
        own = secrets.get(viewer, set())
        for other, values in secrets.items():
            if other == viewer:
                continue
            for value in values:
                if value not in own:  # a value this seat holds too is not evidence of a leak
                    assert value not in seen, (
                        f"label for seat {viewer} leaks seat {other}'s secret {value!r}: {seen!r}"
                    )
    for values in secrets.values():
        for value in values:
            assert value not in labels.public, f"public label leaks secret {value!r}: {labels.public!r}"


def apply_checked(state: State, seat: int, action_id: str, text: str | None = None) -> None:
    """Apply an action after reading its labels, then leak-check the labels against the secrets of the states
    before and after it. Raises IllegalActionError (state unchanged) like apply_action."""
    labels = state.action_labels(seat, action_id, text)
    before = state.secrets()
    state.apply_action(seat, action_id, text)
    check_label_leaks(state, labels, before, state.secrets())


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


def check_observation_leaks(state: State, dumps: dict | None = None) -> None:
    """No seat's observation may carry another seat's secrets; the public view carries none."""
    secrets = {int(k): [str(v) for v in vals] for k, vals in state.secrets().items()}
    if not any(secrets.values()):
        return
    dumps = dumps if dumps is not None else _observation_dumps(state)
    for seat in range(state.game.num_seats):
        seen = dumps[seat]
        own = set(secrets.get(seat, ()))
        for other, values in secrets.items():
            if other == seat:
                continue
            for value in values:
                # A value this seat legitimately holds too (e.g. the same word
                # dealt twice) is not evidence of a leak.
                if value and value not in own:
                    assert value not in seen, (
                        f"observation for seat {seat} leaks seat {other}'s secret {value!r}"
                    )
    for values in secrets.values():
        for value in values:
            assert not value or value not in dumps[None], f"public observation leaks secret {value!r}"


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
            check_observation_leaks(state, _observation_dumps(state))
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
