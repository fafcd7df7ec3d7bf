"""gameplay.writes.services: creating matches, applying actions, chat, and the append-only log."""

from __future__ import annotations

import random

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings

from gameplay.engines.registry import create_game
from gameplay.models import Event, Match, Seat
from gameplay.reads import selectors
from gameplay.reads.selectors import match_group_name, state_of
from gameplay.writes import follow_ups, services
from gameplay.writes.services import ActionRejected, SeatController, ServiceError

pytestmark = pytest.mark.django_db

HUMAN = SeatController("human")
RANDOM = SeatController("agent", agent_name="random")


def human_match(seed: int = 11, **kwargs) -> Match:
    return services.create_match("santorini", [HUMAN, HUMAN], seed=seed, **kwargs)


def fingerprint(match_id: int) -> tuple:
    """Everything a rejected write must leave untouched."""
    match = Match.objects.get(pk=match_id)
    return (
        match.state,
        match.version,
        match.status,
        Event.objects.filter(match_id=match_id).count(),
    )


def play_one(match: Match) -> Match:
    """Apply the first legal action for whoever is on turn."""
    match.refresh_from_db()
    state = state_of(match)
    seat = state.current_seats()[0]
    action = state.legal_actions(seat)[0]
    return services.submit_action(match.pk, seat, action.id, expected_version=match.version)


def play_to_end(match: Match, seed: int = 0) -> Match:
    """Random legal play by every (human) seat until the match is over."""
    rng = random.Random(seed)
    for _ in range(500):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            return match
        state = state_of(match)
        seat = state.current_seats()[0]
        action = rng.choice(state.legal_actions(seat))
        services.submit_action(match.pk, seat, action.id, expected_version=match.version)
    raise AssertionError("match did not finish within 500 actions")


# --- create_match ------------------------------------------------------------


def test_create_match_creates_seats_with_unique_long_tokens():
    m1 = services.create_match("santorini", [HUMAN, RANDOM], seed=3)
    m2 = services.create_match("santorini", [HUMAN, HUMAN], seed=3)

    seats = list(m1.seats.order_by("index"))
    assert [s.index for s in seats] == [0, 1]
    assert [s.controller for s in seats] == [Seat.Controller.HUMAN, Seat.Controller.AGENT]
    assert seats[1].agent_name == "random"
    assert seats[0].agent_name == ""
    assert [s.is_host for s in seats] == [True, False]

    tokens = list(Seat.objects.values_list("token", flat=True))
    assert len(tokens) == 4
    assert len(set(tokens)) == 4
    assert all(len(t) >= 40 for t in tokens)
    assert {s.token for s in m2.seats.all()}.isdisjoint({s.token for s in seats})


def test_create_match_writes_start_event_and_snapshot_v0():
    match = human_match(seed=42)
    match.refresh_from_db()

    assert match.status == Match.Status.ACTIVE
    assert match.version == 0
    assert match.seed == 42
    assert match.state == create_game("santorini").new_initial_state(42).to_json()
    assert match.turn_started_at is not None

    events = list(match.events.all())
    assert len(events) == 1
    start = events[0]
    assert (start.seq, start.kind, start.version, start.seat) == (1, Event.Kind.START, 0, None)
    assert start.payload["seed"] == 42
    assert start.payload["options"] == match.options


def test_create_match_stores_validated_options():
    match = human_match(options={"alternate_workers": True})
    assert match.options == {"alternate_workers": True, "win_on_any_level3": False, "max_turns": 0}
    assert match.state["options"] == match.options


@pytest.mark.parametrize(
    "game_id, controllers, options",
    [
        ("chess", [HUMAN, HUMAN], None),
        ("santorini", [HUMAN, SeatController("agent", agent_name="no-such-agent")], None),
        ("santorini", [HUMAN, SeatController("robot")], None),
        ("santorini", [HUMAN], None),  # too few seats
        ("santorini", [HUMAN, HUMAN], {"no_such_option": True}),
    ],
)
def test_create_match_rejects_bad_requests_without_writing(game_id, controllers, options):
    with pytest.raises(ServiceError):
        services.create_match(game_id, controllers, seed=1, options=options)
    assert Match.objects.count() == 0
    assert Seat.objects.count() == 0
    assert Event.objects.count() == 0


@pytest.mark.django_db(transaction=True)  # real commits: agents answer once a move commits
def test_create_match_lets_an_agent_on_seat_0_move_at_once():
    match = services.create_match("santorini", [RANDOM, HUMAN], seed=5)
    match.refresh_from_db()
    # The agent places both of its workers; then it is the human's turn.
    assert match.version == 2
    assert state_of(match).current_seats() == [1]
    actions = list(match.events.filter(kind=Event.Kind.ACTION).order_by("seq"))
    assert [e.seat for e in actions] == [0, 0]
    assert all(e.payload["agent"] == "random" for e in actions)


# --- submit_action -----------------------------------------------------------


def test_submit_action_applies_a_legal_action():
    match = human_match(seed=9)
    state = state_of(match)
    action = state.legal_actions(0)[3]

    returned = services.submit_action(match.pk, 0, action.id, expected_version=0)

    match.refresh_from_db()
    assert returned.version == match.version == 1
    state.apply_action(0, action.id)
    assert match.state == state.to_json()
    event = match.events.get(kind=Event.Kind.ACTION)
    assert event.seq == 2
    assert event.seat == 0
    assert event.version == 1
    assert event.payload["action_id"] == action.id
    assert event.payload["label"] == action.label
    assert isinstance(event.think_time_ms, int) and event.think_time_ms >= 0


def test_submit_action_notifies_the_match_group_only_on_success():
    match = human_match()
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(match_group_name(match.pk), channel)

    with pytest.raises(ActionRejected):
        services.submit_action(match.pk, 0, "place:z9", expected_version=0)
    play_one(match)

    message = async_to_sync(layer.receive)(channel)
    # A rejected action must not have sent a message; the first one is for version 1, whose event is seq 2
    # (after the start event), so a socket that already rendered it can skip it.
    assert message["type"] == "match.changed" and message["version"] == 1 and message["seq"] == 2
    # ... carrying the committed action, which a socket one commit behind draws without reading the database.
    assert message["committed"]["first_seq"] == 2 and message["committed"]["fields"]["version"] == 1
    async_to_sync(layer.group_discard)(match_group_name(match.pk), channel)


def test_submit_action_label_describes_the_state_before_the_action():
    match = human_match(seed=2)
    for _ in range(4):  # the four placements
        play_one(match)
    match.refresh_from_db()
    state = state_of(match)
    move = state.legal_actions(0)[0]
    services.submit_action(match.pk, 0, move.id, expected_version=match.version)
    event = match.events.filter(kind=Event.Kind.ACTION).order_by("-seq").first()
    assert event.payload == {"action_id": move.id, "label": move.label, "labels": [move.label, move.label]}
    assert move.label.startswith("Move worker")


@pytest.mark.parametrize(
    "seat, action_id, version",
    [
        pytest.param(0, "place:z9", 0, id="unknown-action-id"),
        pytest.param(0, "move:a1-a2", 0, id="action-of-another-phase"),
        pytest.param(1, "place:a1", 0, id="seat-not-on-turn"),
        pytest.param(7, "place:a1", 0, id="seat-out-of-range"),
        pytest.param(0, "place:a1", 1, id="version-from-the-future"),
        pytest.param(0, "", 0, id="empty-action-id"),
        pytest.param(0, "x" * 201, 0, id="overlong-action-id"),
    ],
)
def test_submit_action_rejections_change_nothing(seat, action_id, version):
    match = human_match()
    before = fingerprint(match.pk)
    with pytest.raises(ActionRejected):
        services.submit_action(match.pk, seat, action_id, expected_version=version)
    assert fingerprint(match.pk) == before


def test_submit_action_rejects_a_stale_version():
    match = human_match()
    play_one(match)
    before = fingerprint(match.pk)
    legal = state_of(Match.objects.get(pk=match.pk)).legal_actions(0)[0]
    with pytest.raises(ActionRejected, match="out of date"):
        services.submit_action(match.pk, 0, legal.id, expected_version=0)
    assert fingerprint(match.pk) == before


def test_submit_action_rejects_overlong_text():
    match = human_match()
    before = fingerprint(match.pk)
    legal = state_of(match).legal_actions(0)[0]
    with pytest.raises(ActionRejected):
        services.submit_action(
            match.pk, 0, legal.id, expected_version=0, text="x" * (settings.MAX_CHAT_LENGTH + 1)
        )
    with pytest.raises(ActionRejected):
        services.submit_action(match.pk, 0, legal.id, expected_version=0, text=12345)
    assert fingerprint(match.pk) == before


def test_submit_action_after_the_end_is_rejected():
    match = play_to_end(human_match(seed=4), seed=4)
    assert match.status == Match.Status.FINISHED
    before = fingerprint(match.pk)
    for seat in (0, 1):
        for action_id in ("place:a1", "move:a1-a2", "build:c3"):
            with pytest.raises(ActionRejected, match="over"):
                services.submit_action(match.pk, seat, action_id, expected_version=match.version)
    assert fingerprint(match.pk) == before


def test_submit_action_unknown_match():
    with pytest.raises(ServiceError):
        services.submit_action(999_999, 0, "place:a1", expected_version=0)


def test_post_message_appends_a_message_event():
    match = human_match()
    play_one(match)
    before_state, before_version = Match.objects.values_list("state", "version").get(pk=match.pk)

    event = services.post_message(match.pk, 1, "  good luck!  ")

    assert event.kind == Event.Kind.MESSAGE
    assert event.seat == 1
    assert event.payload == {"text": "good luck!"}
    assert event.seq == 3
    assert event.version == 1
    assert event.think_time_ms is None
    assert Match.objects.values_list("state", "version").get(pk=match.pk) == (before_state, before_version)
    assert list(match.events.values_list("kind", flat=True)) == ["start", "action", "message"]


def test_post_message_accepts_exactly_max_length():
    match = human_match()
    text = "y" * settings.MAX_CHAT_LENGTH
    assert services.post_message(match.pk, 0, text).payload["text"] == text


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("", id="empty"),
        pytest.param("   \n\t ", id="blank"),
        pytest.param(None, id="none"),
        pytest.param(42, id="int"),
        pytest.param(["hi"], id="list"),
        pytest.param("z" * (settings.MAX_CHAT_LENGTH + 1), id="too-long"),
    ],
)
def test_post_message_rejections_change_nothing(text):
    match = human_match()
    before = fingerprint(match.pk)
    with pytest.raises(ServiceError):
        services.post_message(match.pk, 0, text)
    assert fingerprint(match.pk) == before


def test_post_message_respects_the_setting(settings):
    settings.MAX_CHAT_LENGTH = 10
    match = human_match()
    services.post_message(match.pk, 0, "x" * 10)
    with pytest.raises(ServiceError):
        services.post_message(match.pk, 0, "x" * 11)
    assert match.events.filter(kind=Event.Kind.MESSAGE).count() == 1


def test_post_message_after_the_end_is_rejected():
    match = play_to_end(human_match(seed=6), seed=6)
    before = fingerprint(match.pk)
    with pytest.raises(ServiceError, match="over"):
        services.post_message(match.pk, 0, "gg")
    assert fingerprint(match.pk) == before


def test_games_without_rounds_have_no_next_round():
    match = play_to_end(human_match(seed=6), seed=6)
    assert selectors.seat_view(match, match.seats.get(index=0)).rounds is None  # spec.round_sequence is False
    with pytest.raises(ServiceError, match="not played in rounds"):
        follow_ups.start_next_round(match.pk)


# --- a whole match -----------------------------------------------------------


@pytest.mark.django_db(transaction=True)  # real commits: agents answer once a move commits
def test_human_vs_random_agent_plays_to_the_end():
    match = services.create_match("santorini", [HUMAN, RANDOM], seed=2024)
    rng = random.Random(2024)
    human_moves = 0
    for _ in range(300):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        state = state_of(match)
        # The agent replied in-process (eager Celery): whenever we look, the human is on turn.
        assert state.current_seats() == [0]
        action = rng.choice(state.legal_actions(0))
        services.submit_action(match.pk, 0, action.id, expected_version=match.version)
        human_moves += 1
    match.refresh_from_db()

    assert match.status == Match.Status.FINISHED
    assert match.finished_at is not None
    assert len(match.scores) == 2
    assert sum(match.scores) == pytest.approx(1.0)
    assert match.winner in (0, 1)
    assert match.scores[match.winner] == 1.0
    final = state_of(match)
    assert final.is_terminal()
    assert final.winner() == match.winner

    events = list(match.events.order_by("seq"))
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert events[0].kind == Event.Kind.START
    assert events[-1].kind == Event.Kind.END
    assert events[-1].payload == {"scores": match.scores, "winner": match.winner}
    assert events[-1].version == match.version
    assert Event.objects.filter(match=match, kind=Event.Kind.END).count() == 1

    actions = [e for e in events if e.kind == Event.Kind.ACTION]
    assert [e.version for e in actions] == list(range(1, match.version + 1))
    assert sum(1 for e in actions if e.seat == 0) == human_moves
    agent_actions = [e for e in actions if e.seat == 1]
    assert agent_actions, "the agent never moved"
    assert all(e.payload["agent"] == "random" and not e.payload.get("fallback") for e in agent_actions)
    assert all(e.think_time_ms is not None for e in actions)

    # The log replays to the stored final state.
    replayed = create_game("santorini").new_initial_state(match.seed)
    for e in actions:
        replayed.apply_action(e.seat, e.payload["action_id"])
    assert replayed.to_json() == match.state


def test_events_are_append_only():
    match = human_match()
    play_one(match)
    services.post_message(match.pk, 0, "hello")
    for event in Event.objects.filter(match=match):
        original = event.payload
        event.payload = {"action_id": "tampered"}
        with pytest.raises(ValueError, match="append-only"):
            event.save()
        assert Event.objects.get(pk=event.pk).payload == original
    seqs = list(Event.objects.filter(match=match).order_by("seq").values_list("seq", flat=True))
    assert seqs == [1, 2, 3]
