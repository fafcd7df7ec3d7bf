"""Turn timers through the platform (GameSpec.turn_timer): the server's clock decides when a person's seat has run
out of time (from Match.turn_started_at), ``timeouts.apply_timeouts`` applies its timeout action once, marked in the
log, through the same locked and version-checked path as any move, the watchdog's beat task sweeps for it, and the
seat's page shows the countdown.

The game is a throwaway one ("timed"), registered for these tests only by monkeypatching
gameplay.engines.registry.GAMES: each seat in turn (or, with option ``together``, every seat at once) goes or waits;
waiting is the timeout action.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from gameplay.engines import registry
from gameplay.engines.api import Action, Game, GameSpec, Observation, OptionSpec, Rules, State
from gameplay.models import Event, Match
from gameplay.reads.selectors import seat_view
from gameplay.tasks import requeue_stalled_agent_turns_task
from gameplay.writes import absent_players, services, timeouts
from gameplay.writes.services import ActionRejected, SeatController
from gameplay.writes.turn_timer import overdue_seats, seat_deadline
from gameplay.writes.watchdog import apply_overdue_timeouts, matches_with_overdue_turns

pytestmark = pytest.mark.django_db

HUMAN = SeatController("human")
RANDOM = SeatController("agent", agent_name="random")
LIMIT = 30


class TimedState(State):
    def __init__(self, game: Game, seed: int):
        super().__init__(game, seed)
        self.moves = 0
        self.chosen: list[int] = []  # with ``together``: the seats that have chosen this round

    def current_seats(self):
        if self.is_terminal():
            return []
        n = self.game.num_seats
        if self.game.options["together"]:
            return [s for s in range(n) if s not in self.chosen]
        return [self.moves % n]

    def legal_actions(self, seat):
        if seat not in self.current_seats():
            return []
        return [Action("go", "Go"), Action("wait", "Wait")]

    def rule_topics(self, seat, action_id):
        return ("turns",)

    def _apply(self, seat, action_id, text):
        self.moves += 1
        if self.game.options["together"]:
            self.chosen.append(seat)
            if len(self.chosen) == self.game.num_seats:
                self.chosen = []

    def is_terminal(self):
        return self.moves >= self.game.max_actions()

    def scores(self):
        return [1.0 / self.game.num_seats] * self.game.num_seats

    def end_reason(self):
        return f"All {self.moves} moves were made." if self.is_terminal() else None

    def observation(self, seat):
        return Observation(seat, {"moves": self.moves}, f"{self.moves} moves so far.")

    def time_limit(self, seat):
        return self.game.options["seconds"] if seat in self.current_seats() else 0

    def timeout_action(self, seat):
        return ("wait", None) if self.time_limit(seat) else None

    def _payload(self):
        return {"moves": self.moves, "chosen": list(self.chosen)}

    def _load_payload(self, payload):
        self.moves = payload["moves"]
        self.chosen = list(payload["chosen"])


class TimedGame(Game):
    spec = GameSpec(
        id="timed_test", name="Timed (test)", description="test only", min_seats=2, max_seats=3, simultaneous=True,
        turn_timer=True,
        options=(OptionSpec("seconds", LIMIT, "Seconds per decision (0: none).", int, bounds=(0, 600),
                            label="Seconds per decision"),
                 OptionSpec("together", False, "Every seat chooses at once.", label="Choose together")),
    )
    state_class = TimedState
    rules = Rules("Go or wait.", {"turns": "Each seat in turn goes or waits; out of time, it waits."})

    def max_actions(self):
        return 4 * self.num_seats


@pytest.fixture(autouse=True)
def timed_game(monkeypatch, settings):
    monkeypatch.setitem(registry.GAMES, TimedGame.spec.id, TimedGame)
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "timer"}}
    cache.clear()
    yield TimedGame
    cache.clear()


def new_match(controllers=(HUMAN, HUMAN), **options) -> Match:
    return services.create_match(TimedGame.spec.id, list(controllers), seed=1, options=options, host_seat=None,
                                 schedule_agents=False)


def aged(match: Match, seconds: float) -> Match:
    """The current decision started ``seconds`` ago."""
    Match.objects.filter(pk=match.pk).update(turn_started_at=timezone.now() - timedelta(seconds=seconds))
    match.refresh_from_db()
    return match


def timed_out_events(match: Match) -> list[Event]:
    return [e for e in match.events.filter(kind=Event.Kind.ACTION).order_by("seq") if e.payload.get("timed_out")]


def test_before_the_time_is_up_nothing_happens():
    match = aged(new_match(), LIMIT - 20)
    assert timeouts.apply_timeouts(match.pk) == []
    assert apply_overdue_timeouts() == 0 and matches_with_overdue_turns() == []
    match.refresh_from_db()
    assert match.version == 0 and not timed_out_events(match)
    with pytest.raises(ActionRejected, match="time has not run out"):
        services.apply_action(match.pk, 0, "wait", expected_version=0, timeout=True)
    assert Match.objects.get(pk=match.pk).version == 0


def test_once_the_time_is_up_the_timeout_action_is_applied_once_and_marked():
    match = aged(new_match(), LIMIT + 1)
    assert overdue_seats(match, TimedGame({}).state_from_json(match.state), match.seats.all()) == [0]
    assert timeouts.apply_timeouts(match.pk) == [0]
    assert timeouts.apply_timeouts(match.pk) == []  # idempotent: seat 1's decision has just started
    match.refresh_from_db()
    assert match.version == 1
    (event,) = timed_out_events(match)
    assert event.seat == 0 and event.payload["action_id"] == "wait" and event.payload["timed_out"] is True
    assert event.payload["label"] == "Wait (time ran out)"
    assert event.payload["labels"] == ["Wait (time ran out)"] * 2
    assert timezone.now() - match.turn_started_at < timedelta(seconds=5)  # seat 1's clock starts now


def test_a_move_that_lands_first_wins():
    match = aged(new_match(), LIMIT + 1)
    services.submit_action(match.pk, 0, "go", expected_version=0)  # just in time, before any sweep
    assert timeouts.apply_timeouts(match.pk) == []
    match.refresh_from_db()
    assert match.version == 1 and not timed_out_events(match)
    # A timeout decided on the view before the move is stale: refused, nothing changes.
    with pytest.raises(ActionRejected, match="out of date"):
        services.apply_action(match.pk, 0, "wait", expected_version=0, timeout=True)
    assert Match.objects.get(pk=match.pk).version == 1


def test_a_move_between_the_sweeps_look_and_its_timeout_wins_over_the_timeout(monkeypatch):
    match = aged(new_match(), LIMIT + 1)
    original = services.apply_action

    def person_moves_first(*args, **kwargs):
        monkeypatch.setattr(services, "apply_action", original)
        services.submit_action(match.pk, 0, "go", expected_version=0)
        return original(*args, **kwargs)

    monkeypatch.setattr(services, "apply_action", person_moves_first)
    assert timeouts.apply_timeouts(match.pk) == []
    match.refresh_from_db()
    assert match.version == 1 and not timed_out_events(match)
    assert match.events.get(kind=Event.Kind.ACTION).payload["action_id"] == "go"


def test_two_sweeps_racing_apply_the_timeout_once(monkeypatch):
    match = aged(new_match(), LIMIT + 1)
    original = services.apply_action
    inner: list[list[int]] = []

    def other_sweep_first(*args, **kwargs):
        monkeypatch.setattr(services, "apply_action", original)
        inner.append(timeouts.apply_timeouts(match.pk))  # the other sweep, between this one's look and its write
        return original(*args, **kwargs)

    monkeypatch.setattr(services, "apply_action", other_sweep_first)
    assert timeouts.apply_timeouts(match.pk) == []  # this sweep's stale timeout is refused
    assert inner == [[0]]
    match.refresh_from_db()
    assert match.version == 1 and len(timed_out_events(match)) == 1


def test_every_seat_out_of_time_in_a_simultaneous_decision_is_timed_out_in_one_sweep():
    match = aged(new_match((HUMAN, HUMAN, HUMAN), together=True), LIMIT + 1)
    assert timeouts.apply_timeouts(match.pk) == [0, 1, 2]
    match.refresh_from_db()
    assert match.version == 3 and len(timed_out_events(match)) == 3
    assert seat_deadline(match, TimedGame({"together": True}, 3).state_from_json(match.state), 0) > timezone.now()


def test_a_move_in_a_simultaneous_decision_gives_the_others_their_full_time_again():
    match = aged(new_match((HUMAN, HUMAN, HUMAN), together=True), LIMIT + 1)
    services.submit_action(match.pk, 1, "go", expected_version=0)
    assert timeouts.apply_timeouts(match.pk) == []  # the clock is the match's: it restarted with the move


def test_agents_seats_are_not_timed_and_nothing_moves_while_waiting_for_players():
    agent_first = aged(new_match((RANDOM, HUMAN)), LIMIT * 10)
    assert timeouts.apply_timeouts(agent_first.pk) == []
    no_limit = aged(new_match(seconds=0), LIMIT * 10)
    assert timeouts.apply_timeouts(no_limit.pk) == []
    waiting = new_match()
    Match.objects.filter(pk=waiting.pk).update(wait_for_players=True)
    aged(waiting, LIMIT * 10)
    assert timeouts.apply_timeouts(waiting.pk) == []
    assert Match.objects.filter(version__gt=0).count() == 0


def test_the_watchdog_beat_task_applies_overdue_timeouts():
    due = aged(new_match(), LIMIT + 1)
    fresh = new_match()
    finished = aged(new_match(), LIMIT + 1)
    absent_players.abort_match(finished.pk, "test")
    assert [m.pk for m in matches_with_overdue_turns()] == [due.pk]
    assert requeue_stalled_agent_turns_task() == 1
    assert requeue_stalled_agent_turns_task() == 0  # the next sweep: seat 1 has its full time
    assert [len(timed_out_events(m)) for m in (due, fresh, finished)] == [1, 0, 0]


def test_the_page_shows_the_countdown_to_the_seat_that_must_act(client):
    match = aged(new_match(), 5)
    page = client.get(reverse("play", kwargs={"token": match.seats.get(index=0).token})).content.decode()
    assert 'class="turn-clock"' in page and "data-deadline=" in page
    left = int(page.split('data-seconds-left="', 1)[1].split('"', 1)[0])
    assert 0 < left <= LIMIT - 5 and f"{left} s left" in page  # rounded up, from the server's clock
    assert 'aria-live="polite"' in page.split('class="turn-clock"', 1)[1].split("</span>\n</span>", 1)[0]
    deadline_ms = int(page.split('data-deadline="', 1)[1].split('"', 1)[0])
    assert deadline_ms == int((match.turn_started_at + timedelta(seconds=LIMIT)).timestamp() * 1000)
    assert reverse("turn_timeout", kwargs={"token": match.seats.get(index=0).token}) in page
    # The other seat, not to act, sees no countdown; nor does anyone when the game sets no limit.
    other = client.get(reverse("play", kwargs={"token": match.seats.get(index=1).token})).content.decode()
    assert 'class="turn-clock"' not in other
    assert 0 < seat_view(match, match.seats.get(index=0)).deadline.seconds_left <= LIMIT - 5
    unlimited = new_match(seconds=0)
    assert seat_view(unlimited, unlimited.seats.get(index=0)).deadline is None


def test_the_page_asks_the_server_once_the_countdown_ends_and_the_server_decides(client):
    match = aged(new_match(), LIMIT - 20)
    url = reverse("turn_timeout", kwargs={"token": match.seats.get(index=0).token})
    assert client.post(url).status_code == 204  # too early: nothing happens
    assert Match.objects.get(pk=match.pk).version == 0
    aged(match, LIMIT + 1)
    assert client.post(url).status_code == 204
    assert client.post(url).status_code == 204  # repeated: still applied once
    match.refresh_from_db()
    assert match.version == 1 and len(timed_out_events(match)) == 1
