"""Tournaments: pairing and seeds, resuming without replays, failures, the command and the pages (eager Celery)."""

from __future__ import annotations

import hashlib
import io
import os
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone

from agents_app import turns
from agents_app.agents import registry
from agents_app.agents.random_agent import RandomAgent
from agents_app.models import Tournament, TournamentMatch
from agents_app.tournaments import selectors, services, tasks
from gameplay.engines import registry as game_registry
from gameplay.engines.api import Game, GameSpec
from gameplay.models import Match
from gameplay.project.celery import app as celery_app
from gameplay.reads.player_results import player_results
from gameplay.reads.selectors import state_of
from gameplay.writes import services as match_services

pytestmark = pytest.mark.django_db

Status = TournamentMatch.Status


class OtherRandom(RandomAgent):
    """A second name for random play: tournaments need distinct agents, and "random" is the only
    built-in that plays every game."""

    name = "random-b"


class ThirdRandom(RandomAgent):
    name = "random-c"


@pytest.fixture(autouse=True)
def setup(monkeypatch, settings):
    for cls in (OtherRandom, ThirdRandom):
        monkeypatch.setitem(registry.AGENTS, cls.name, cls)
    # Matches are played in-process; with REDIS_URL set (CI phase 2) settings alone would queue them.
    monkeypatch.setattr(celery_app.conf, "task_always_eager", True)
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def run(agents=("random", "random-b"), matches=2, seed=5, **options) -> Tournament:
    tournament = services.create_or_resume("santorini", list(agents), matches, seed, options)
    tasks.schedule(tournament)
    tournament.refresh_from_db()
    return tournament


def match_ids(tournament: Tournament) -> dict[int, int | None]:
    return dict(tournament.entries.values_list("index", "match_id"))


# --- pairing, seeds, identity ---------------------------------------------------------------


def test_three_agents_two_matches_per_pair_give_six_entries_with_seats_swapped():
    tournament = services.create_or_resume("santorini", ["random", "random-b", "random-c"], 2, 11)
    entries = list(tournament.entries.order_by("index"))
    assert [e.index for e in entries] == list(range(6))
    assert [tuple(e.seat_agents) for e in entries] == [
        ("random", "random-b"),
        ("random-b", "random"),
        ("random", "random-c"),
        ("random-c", "random"),
        ("random-b", "random-c"),
        ("random-c", "random-b"),
    ]
    assert all(e.status == Status.PENDING and e.match_id is None for e in entries)
    # The documented per-match seed: sha256("tournament:<seed>:<index>"), first 8 bytes, top bit cleared.
    for e in entries:
        digest = hashlib.sha256(f"tournament:11:{e.index}".encode()).digest()
        assert e.seed == int.from_bytes(digest[:8], "big") >> 1 == services.match_seed(11, e.index)
        assert 0 <= e.seed < 2**63
    assert len({e.seed for e in entries}) == 6


def test_same_parameters_are_the_same_tournament_and_others_are_not():
    first = services.create_or_resume("santorini", ["random", "random-b"], 3, 1)
    again = services.create_or_resume("santorini", [" random", "random-b "], 3, 1, {})
    assert again.pk == first.pk and again.entries.count() == 3 and Tournament.objects.count() == 1
    for other in (
        services.create_or_resume("santorini", ["random-b", "random"], 3, 1),
        services.create_or_resume("santorini", ["random", "random-b"], 2, 1),
        services.create_or_resume("santorini", ["random", "random-b"], 3, 2),
        services.create_or_resume("hive", ["random", "random-b"], 3, 1),
    ):
        assert other.pk != first.pk
    assert len(set(Tournament.objects.values_list("key", flat=True))) == 5


def test_options_are_normalised_into_the_key():
    hive = services.create_or_resume("hive", ["random", "random-b"], 1, 1)
    defaults = dict(hive.options)
    assert defaults, "hive has options with defaults"
    assert services.create_or_resume("hive", ["random", "random-b"], 1, 1, defaults).pk == hive.pk


class FourWinds(Game):
    """A game for three or four seats (only its spec and options are needed to set a tournament up)."""

    spec = GameSpec(id="four-winds", name="Four Winds", description="", min_seats=3, max_seats=4)

    def max_actions(self) -> int:
        return 1


@pytest.mark.parametrize("seats", [2, 5])
def test_a_seat_count_the_game_does_not_allow_is_refused(monkeypatch, seats):
    monkeypatch.setitem(game_registry.GAMES, FourWinds.spec.id, FourWinds)
    with pytest.raises(services.TournamentError, match=f"Four Winds is played by 3-4 seats, not {seats}"):
        services.create_or_resume("four-winds", ["random", "random-b"], 1, 1, seats=seats)
    assert not Tournament.objects.exists()


def test_a_pair_takes_the_seats_of_a_bigger_game_in_turn_starting_with_each_agent_alternately(monkeypatch):
    monkeypatch.setitem(game_registry.GAMES, FourWinds.spec.id, FourWinds)
    tournament = services.create_or_resume("four-winds", ["random", "random-b"], 2, 1)
    assert tournament.seats == 3  # the game's minimum, as it cannot be played by two
    assert [e.seat_agents for e in tournament.entries.order_by("index")] == [
        ["random", "random-b", "random"],
        ["random-b", "random", "random-b"],
    ]
    four = services.create_or_resume("four-winds", ["random", "random-b"], 2, 1, seats=4)
    assert four.pk != tournament.pk and four.seats == 4
    assert four.entries.order_by("index").first().seat_agents == ["random", "random-b", "random", "random-b"]
    # Asking for the default seat count by name is the same tournament, and two-seat keys are unchanged.
    assert services.create_or_resume("four-winds", ["random", "random-b"], 2, 1, seats=3).pk == tournament.pk
    assert services.tournament_key("santorini", ["a", "b"], 1, 1, {}) == services.tournament_key(
        "santorini", ["a", "b"], 1, 1, {}, seats=2)


def test_an_agents_result_in_a_bigger_match_is_the_mean_of_its_seats_scores():
    # More cases, the tables and the pages: tests/agents_app/test_multiseat_results.py.
    assert player_results(["a", "b", "a"], [0.0, 0.25, 0.75]) == {"a": 0.375, "b": 0.25}
    assert player_results(["a", "b"], [0.5, 0.5]) == {"a": 0.5, "b": 0.5}


@pytest.mark.parametrize(
    "game, agents, matches, options, message",
    [
        ("chess", ["random", "random-b"], 1, None, "unknown game 'chess'"),
        ("santorini", ["random"], 1, None, "at least two agents"),
        ("santorini", ["random", "random-b", "random"], 1, None, "repeated: random"),
        ("santorini", ["random", "nobody"], 1, None, "unknown agent 'nobody'"),
        ("santorini", ["random", "random-b"], 0, None, "at least 1"),
        ("santorini", ["random", "random-b"], 1, {"no-such-option": 1}, "unknown option"),
    ],
)
def test_bad_parameters_are_refused_clearly(monkeypatch, game, agents, matches, options, message):
    monkeypatch.setitem(game_registry.GAMES, FourWinds.spec.id, FourWinds)
    with pytest.raises(services.TournamentError, match=message):
        services.create_or_resume(game, agents, matches, 1, options)
    assert not Tournament.objects.exists()


def test_an_agent_that_fails_its_preflight_is_refused(monkeypatch):
    def preflight(name, game_id=None, allow_slow=False):
        if name == "random-b":
            raise match_services.ServiceError("RAP needs logprobs")

    monkeypatch.setattr(services.agent_services, "preflight", preflight)
    with pytest.raises(services.TournamentError, match="'random-b' cannot play: RAP needs logprobs"):
        services.create_or_resume("santorini", ["random", "random-b"], 1, 1)


# --- playing and resuming ----------------------------------------------------------------------


def test_all_entries_play_as_scheduled_and_the_tournament_finishes():
    tournament = run(matches=2, seed=5)
    assert tournament.status == Tournament.Status.FINISHED and tournament.finished_at is not None
    for entry in tournament.entries.select_related("match"):
        assert entry.status == Status.FINISHED and entry.error == ""
        match = entry.match
        assert match.status == Match.Status.FINISHED and match.seed == entry.seed
        assert list(match.seats.order_by("index").values_list("agent_name", flat=True)) == entry.seat_agents
        assert entry.played_by.endswith(f":{os.getpid()}")  # eager: this process played it
    results = selectors.results(tournament)
    assert sum(r.matches for r in results.agents) == 4  # two matches, two seats each
    assert sum(r.wins for r in results.agents) == sum(r.losses for r in results.agents) == 2


def test_a_finished_tournament_plays_nothing_again():
    tournament = run()
    before = match_ids(tournament)
    matches = Match.objects.count()
    assert tasks.schedule(tournament) == 0
    assert match_ids(tournament) == before and Match.objects.count() == matches


def test_resume_plays_only_the_missing_entries():
    tournament = run(agents=("random", "random-b", "random-c"), matches=2, seed=3)
    before = match_ids(tournament)
    lost = tournament.entries.get(index=4)
    Match.objects.filter(pk=lost.match_id).delete()  # SET_NULL leaves the entry without its match
    TournamentMatch.objects.filter(pk=lost.pk).update(status=Status.PENDING)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING, finished_at=None)

    assert tasks.schedule(tournament) == 1
    after = match_ids(tournament)
    assert {i: m for i, m in after.items() if i != 4} == {i: m for i, m in before.items() if i != 4}
    assert after[4] is not None and after[4] != before[4]
    assert Match.objects.get(pk=after[4]).seed == lost.seed
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


def test_an_interrupted_match_is_continued_not_replayed(monkeypatch):
    real = turns.play_pending_turns
    interrupted = []

    def dies_once_mid_match(match_id):
        if not interrupted:
            interrupted.append(match_id)
            match = Match.objects.get(pk=match_id)
            seat = 0
            action = state_of(match).legal_actions(seat)[0].id
            match_services.submit_action(match_id, seat, action, expected_version=0, schedule_agents=False)
            raise ConnectionError("worker lost")
        return real(match_id)

    monkeypatch.setattr(turns, "play_pending_turns", dies_once_mid_match)
    tournament = run(matches=2)
    first = tournament.entries.get(index=0)
    assert first.status == Status.FAILED and first.error == "ConnectionError: worker lost"
    assert first.match_id == interrupted[0] and first.match.version == 1
    assert tournament.entries.get(index=1).status == Status.FINISHED
    assert tournament.status == Tournament.Status.RUNNING
    before, matches = match_ids(tournament), Match.objects.count()

    assert tasks.schedule(tournament) == 1
    first.refresh_from_db()
    assert first.status == Status.FINISHED and first.error == ""
    assert match_ids(tournament) == before and Match.objects.count() == matches  # same match, continued
    assert first.match.status == Match.Status.FINISHED and first.match.events.first().kind == "start"


def test_duplicate_delivery_plays_nothing_twice():
    tournament = services.create_or_resume("santorini", ["random", "random-b"], 1, 9)
    entry = tournament.entries.get()
    assert services.play_entry(entry.pk) == Status.FINISHED
    entry.refresh_from_db()
    match_id, version = entry.match_id, entry.match.version
    assert services.play_entry(entry.pk) == Status.FINISHED
    entry.refresh_from_db()
    assert entry.match_id == match_id and entry.match.version == version and Match.objects.count() == 1


def test_a_match_finished_before_an_interruption_is_recorded_not_replayed():
    tournament = run(matches=1)
    entry = tournament.entries.get()
    TournamentMatch.objects.filter(pk=entry.pk).update(status=Status.RUNNING)
    assert services.play_entry(entry.pk) == Status.FINISHED
    entry.refresh_from_db()
    assert entry.status == Status.FINISHED and Match.objects.count() == 1


def test_stale_queued_or_running_entries_are_queued_again_recent_ones_only_on_request(monkeypatch):
    sent = []
    monkeypatch.setattr("agents_app.tournaments.tasks.play_tournament_match.delay", sent.append)
    tournament = services.create_or_resume("santorini", ["random", "random-b"], 3, 1)
    old = timezone.now() - services.STALE_AFTER - timedelta(minutes=1)
    e0, e1, e2 = tournament.entries.order_by("index")
    TournamentMatch.objects.filter(pk=e0.pk).update(status=Status.QUEUED, updated_at=old)
    TournamentMatch.objects.filter(pk=e1.pk).update(status=Status.RUNNING, updated_at=timezone.now())
    TournamentMatch.objects.filter(pk=e2.pk).update(status=Status.FINISHED)

    assert tasks.schedule(tournament) == 1 and sent == [e0.pk]
    assert tasks.schedule(tournament, requeue_active=True) == 2 and sent[1:] == [e0.pk, e1.pk]
    assert set(tournament.entries.values_list("status", flat=True)) == {Status.QUEUED, Status.FINISHED}


def test_a_running_entry_whose_match_still_moves_is_not_stale(monkeypatch):
    sent = []
    monkeypatch.setattr("agents_app.tournaments.tasks.play_tournament_match.delay", sent.append)
    tournament = services.create_or_resume("santorini", ["random", "random-b"], 1, 1)
    entry = tournament.entries.get()
    match = match_services.create_match(
        "santorini",
        [match_services.SeatController("agent", agent_name=a) for a in entry.seat_agents],
        seed=entry.seed,
        host_seat=None,
        schedule_agents=False,
    )
    old = timezone.now() - services.STALE_AFTER - timedelta(minutes=1)
    TournamentMatch.objects.filter(pk=entry.pk).update(status=Status.RUNNING, match=match, updated_at=old)
    assert tasks.schedule(tournament) == 0  # the match row was saved just now: its worker is alive
    Match.objects.filter(pk=match.pk).update(updated_at=old)
    assert tasks.schedule(tournament) == 1 and sent == [entry.pk]


# --- results ------------------------------------------------------------------------------------


def test_results_count_wins_draws_losses_and_points_per_agent_and_per_pair():
    tournament = run(agents=("random", "random-b", "random-c"), matches=2, seed=8)
    scores = {0: [1.0, 0.0], 1: [0.5, 0.5], 2: [0.0, 1.0], 3: [1.0, 0.0], 4: [0.5, 0.5], 5: [0.25, 0.75]}
    for entry in tournament.entries.all():
        Match.objects.filter(pk=entry.match_id).update(scores=scores[entry.index])
    # seats: 0 random|random-b, 1 random-b|random, 2 random|random-c, 3 random-c|random, 4 b|c, 5 c|b
    results = selectors.results(tournament)
    rows = {r.agent: r for r in results.agents}
    assert (rows["random"].matches, rows["random"].wins, rows["random"].draws, rows["random"].losses) == (4, 1, 1, 2)
    assert rows["random"].points == 1.0 + 0.5 + 0.0 + 0.0
    assert (rows["random-b"].wins, rows["random-b"].draws, rows["random-b"].losses) == (1, 2, 1)
    assert rows["random-b"].points == 0.0 + 0.5 + 0.5 + 0.75
    assert (rows["random-c"].wins, rows["random-c"].draws, rows["random-c"].losses) == (2, 1, 1)
    assert [r.agent for r in results.agents] == ["random-c", "random-b", "random"]  # most points first
    pairs = {(p.first, p.second): p for p in results.pairs}
    ab = pairs[("random", "random-b")]
    assert (ab.matches, ab.first_wins, ab.draws, ab.second_wins) == (2, 1, 1, 0)
    assert (ab.first_points, ab.second_points) == (1.5, 0.5)
    bc = pairs[("random-b", "random-c")]
    assert (bc.first_wins, bc.draws, bc.second_wins, bc.first_points, bc.second_points) == (1, 1, 0, 1.25, 0.75)


def test_progress_counts_entries_by_status():
    tournament = services.create_or_resume("santorini", ["random", "random-b"], 5, 1)
    for index, status in enumerate([Status.QUEUED, Status.RUNNING, Status.FINISHED, Status.FAILED]):
        tournament.entries.filter(index=index).update(status=status)
    p = selectors.progress(tournament)
    assert (p.total, p.pending, p.queued, p.running, p.finished, p.failed) == (5, 1, 1, 1, 1, 1)
    assert not p.done and p.percent == 20


# --- the command ------------------------------------------------------------------------------------


def call(*args) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("run_tournament", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


ARGS = ("--game", "santorini", "--agents", "random,random-b", "--matches", "2", "--seed", "4")


def test_command_runs_the_tournament_with_a_progress_bar_and_results():
    out, err = call(*ARGS)
    tournament = Tournament.objects.get()
    assert f"Tournament #{tournament.pk}: santorini, random, random-b; 2 per pair, 2 matches of 2 seats, seed 4" in out
    assert f"Page: /tournaments/{tournament.pk}/" in out
    assert "Resuming" not in out
    bar = [line for line in err.splitlines() if line.startswith("[")]
    assert bar == [
        "[------------------------------] 0/2 matches finished, 0 failed",
        "[###############---------------] 1/2 matches finished, 0 failed",
        "[##############################] 2/2 matches finished, 0 failed",
    ]
    assert "agent     matches  wins  draws  losses   points" in out
    results = {r.agent: r for r in selectors.results(tournament).agents}
    for name in ("random", "random-b"):
        r = results[name]
        assert f"{name:<8}  {2:>7}  {r.wins:>4}  {0:>5}  {r.losses:>6}  {r.points:>7g}" in out
    assert "random vs random-b: 2 matches," in out
    assert tournament.entries.filter(status=Status.FINISHED).count() == 2

    before = match_ids(tournament)
    out, err = call(*ARGS)
    assert "Resuming: 2 of 2 matches already finished." in out
    assert match_ids(tournament) == before and Match.objects.count() == 2
    assert Tournament.objects.count() == 1


def test_command_exits_1_when_a_match_fails(monkeypatch):
    real = turns.play_pending_turns

    def broken_for_one(match_id):
        if Match.objects.get(pk=match_id).seats.get(index=0).agent_name == "random-b":
            raise RuntimeError("engine exploded")
        return real(match_id)

    monkeypatch.setattr(turns, "play_pending_turns", broken_for_one)
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError, match="1 of 2 matches failed") as failure:
        call_command("run_tournament", *ARGS, stdout=out, stderr=err)
    assert failure.value.returncode == 1
    assert "[###############---------------] 1/2 matches finished, 1 failed" in err.getvalue()
    failed = TournamentMatch.objects.get(status=Status.FAILED)
    assert failed.index == 1 and failed.error == "RuntimeError: engine exploded"

    monkeypatch.setattr(turns, "play_pending_turns", real)
    out, _ = call(*ARGS)  # the rerun retries the failed match only, and succeeds
    assert "Resuming: 1 of 2 matches already finished." in out
    assert TournamentMatch.objects.filter(status=Status.FINISHED).count() == 2


def test_command_refuses_bad_parameters_with_exit_code_2():
    with pytest.raises(CommandError, match="at least two agents") as failure:
        call("--game", "santorini", "--agents", "random", "--matches", "1")
    assert failure.value.returncode == 2
    with pytest.raises(CommandError, match="--options must be a JSON object"):
        call(*ARGS, "--options", "{nope")


def test_command_no_wait_queues_and_returns():
    out, _ = call(*ARGS, "--no-wait")
    assert "Queued 2 matches; not waiting" in out
    assert "agent     matches" not in out


# --- the pages --------------------------------------------------------------------------------------


def test_list_and_detail_pages_show_progress_results_and_match_links(client):
    tournament = run()
    page = client.get(reverse("tournaments:list")).content.decode()
    assert f'href="/tournaments/{tournament.pk}/"' in page
    assert '<progress max="2" value="2"' in page and "2/2" in page

    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert "2 of 2 matches finished" in page and '<progress id="tournament-bar" max="2" value="2"' in page
    assert "hx-trigger" not in page  # finished: nothing to poll
    assert '<th scope="row" class="agent">random vs random-b</th>' in page
    for entry in tournament.entries.all():
        assert f'href="/matches/{entry.match_id}/"' in page and f'href="/matches/{entry.match_id}/replay/"' in page
        assert str(entry.seed) in page
    for r in selectors.results(tournament).agents:
        assert f'<tr data-agent="{r.agent}">' in page
    assert "--agents random,random-b --matches 2 --seed 5</code>" in page  # default options: none to name
    assert 'href="/tournaments/"' in page  # the nav link


def test_the_page_shows_the_command_that_resumes_it_with_only_the_chosen_options(client):
    tournament = services.create_or_resume("santorini", ["random", "random-b"], 1, 3, {"win_on_any_level3": "yes"})
    assert tournament.options == {"alternate_workers": False, "win_on_any_level3": True, "max_turns": 0}
    assert selectors.chosen_options(tournament) == {"win_on_any_level3": True}
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert "--seed 3 --options '{&quot;win_on_any_level3&quot;: true}'</code>" in page
    again = services.create_or_resume("santorini", ["random", "random-b"], 1, 3, {"win_on_any_level3": True})
    assert again.pk == tournament.pk


def test_a_running_tournament_polls_its_progress_until_nothing_is_in_flight(client):
    tournament = services.create_or_resume("santorini", ["random", "random-b"], 2, 1)
    tournament.entries.filter(index=0).update(status=Status.QUEUED)
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    progress_url = reverse("tournaments:progress", args=[tournament.pk])
    assert f'hx-get="{progress_url}" hx-trigger="every 2s"' in page

    partial = client.get(progress_url, headers={"HX-Request": "true"})
    assert partial.status_code == 200 and "0 of 2 matches finished" in partial.content.decode()
    assert "<html" not in partial.content.decode()

    tasks.schedule(tournament, requeue_active=True)  # plays both (eager)
    partial = client.get(progress_url, headers={"HX-Request": "true"})
    assert partial.status_code == 286 and partial["HX-Refresh"] == "true"  # htmx stops polling and reloads
    assert "2 of 2 matches finished" in partial.content.decode()
    assert client.get(progress_url).status_code == 200  # a plain GET is just the fragment


def test_failed_matches_are_announced_on_the_page(client, monkeypatch):
    monkeypatch.setattr(turns, "play_pending_turns", lambda match_id: 1 / 0)
    tournament = run(matches=1)
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert "1 failed" in page and "ZeroDivisionError: division by zero" in page
    assert "Failed matches are not queued" in page and "hx-trigger" not in page


def test_unknown_tournament_is_404(client):
    assert client.get(reverse("tournaments:detail", args=[999])).status_code == 404
    assert client.get(reverse("tournaments:progress", args=[999])).status_code == 404
