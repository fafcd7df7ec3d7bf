"""Live play of a realtime game (gameplay.live, issue 20): the clock's decision points through the match service,
held inputs, late agents, and frames streamed to the match socket as binary messages, on both channel layers."""

from __future__ import annotations

import asyncio
import re
import struct

import pytest
from channels.db import database_sync_to_async

from gameplay.engines.atari_boxing.game import LIVE_FRAMES_PER_DECISION
from gameplay.live import inputs
from gameplay.live.bout import LiveBout
from gameplay.models import Event, Match
from gameplay.project.asgi import application
from gameplay.reads.selectors import state_of
from gameplay.web.frames import FrameRejected, parse_frame
from gameplay.writes import services
from gameplay.writes.services import SeatController
from tests.gameplay.ws_support import ORIGIN, TIMEOUT, SeatCommunicator

PERSON = SeatController("human")
RANDOM = SeatController("agent", agent_name="random")
PNG = b"\x89PNG\r\n\x1a\n"


def _boxing(controllers, **options):
    match = services.create_match("atari_boxing", list(controllers), seed=7, options=options, host_seat=None,
                                  schedule_agents=False)
    return match


def test_live_input_frames_are_checked():
    assert parse_frame('{"kind": "live", "action_id": "upfire", "seq": 3}')["seq"] == 3
    for bad in ('{"kind": "live", "action_id": "", "seq": 1}', '{"kind": "live", "action_id": "up", "seq": -1}',
                '{"kind": "live", "action_id": "up", "seq": 1.5}', '{"kind": "live", "action_id": "up"}',
                '{"kind": "live", "action_id": "up", "seq": true}',
                '{"kind": "live", "action_id": "up", "seq": 4294967296}'):
        with pytest.raises(FrameRejected):
            parse_frame(bad)


@pytest.mark.django_db(transaction=True)
def test_a_bout_with_a_person_holds_each_choice_for_the_live_window_and_agents_alone_for_the_turn_based_one():
    """A person's key shows from the next decision point on, so a live bout with a person has a shorter window than
    agents' turn-based bouts (and GameBench's reproduction), which keep frames_per_decision."""
    assert LIVE_FRAMES_PER_DECISION < 15
    live = _boxing([PERSON, RANDOM])
    assert live.options["frames_per_decision"] == LIVE_FRAMES_PER_DECISION
    assert state_of(live).frames_per_decision() == LIVE_FRAMES_PER_DECISION
    assert _boxing([PERSON, RANDOM], live_frames_per_decision=6).options["frames_per_decision"] == 6
    assert _boxing([RANDOM, RANDOM]).options["frames_per_decision"] == 15  # agents alone: turn-based
    assert _boxing([RANDOM, RANDOM], frames_per_decision=30).options["frames_per_decision"] == 30
    assert _boxing([PERSON, RANDOM], live=False).options["frames_per_decision"] == 15  # a person, step by step


@pytest.mark.django_db(transaction=True)
def test_a_decision_point_plays_the_held_input_and_the_late_agents_last_action(monkeypatch):
    monkeypatch.setattr(services, "schedule_agent_turns", lambda *args, **kwargs: None)
    match = _boxing([RANDOM, PERSON])  # the agent was never asked: it is late
    inputs.hold(inputs.match_key(match), 1, "leftfire", 41)
    bout = LiveBout(match.pk, inputs.match_key(match), "lease")
    local = state_of(match)
    records, used = bout.play_decision([1], local)
    # the person's choice goes in first (the runner's own), then the late agent's last action
    assert [(r.seat, r.action_id) for r in records] == [(1, "leftfire"), (0, "noop")]
    assert used == {1: 41}
    events = Event.objects.filter(match=match, kind=Event.Kind.ACTION).order_by("seq")
    payloads = {e.seat: e.payload for e in reversed(events)}  # the first of each seat (its agent then moved on)
    assert payloads[0]["late"] is True and payloads[0]["action_id"] == "noop"
    assert payloads[1]["live_input_seq"] == 41 and "late" not in payloads[1]
    assert bout.late_decisions == 1


@pytest.mark.django_db(transaction=True)
def test_an_illegal_held_input_becomes_the_idle_action_and_changes_nothing_else():
    match = _boxing([PERSON, PERSON])
    inputs.hold(inputs.match_key(match), 0, "teleport", 2)
    records, used = LiveBout(match.pk, inputs.match_key(match), "lease").play_decision([0, 1], state_of(match))
    assert [r.action_id for r in records] == ["noop", "noop"]
    assert Match.objects.get(pk=match.pk).version == 2


@database_sync_to_async
def _live_match():
    match = _boxing([PERSON, RANDOM], max_frames=240, frames_per_decision=15)
    return match.pk, match.seats.get(index=0).token


@database_sync_to_async
def _events(match_id):
    return list(Event.objects.filter(match_id=match_id, kind=Event.Kind.ACTION).values_list("seat", "payload"))


async def _next_frame(comm) -> tuple[int, int, bytes]:
    while True:
        message = await comm.receive_output(timeout=TIMEOUT)
        if message.get("bytes"):
            frame, seq, _sent = struct.unpack(">III", message["bytes"][:12])
            return frame, seq, message["bytes"][12:]


@pytest.mark.django_db(transaction=True)
async def test_a_person_s_socket_starts_the_clock_and_receives_frames_reflecting_its_input(layer, monkeypatch):
    monkeypatch.setattr("gameplay.live.bout.START_DELAY_SECONDS", 0.2)
    match_id, token = await _live_match()
    comm = SeatCommunicator(application, f"/ws/play/{token}/", headers=ORIGIN)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    frame, seq, png = await _next_frame(comm)
    assert png.startswith(PNG) and seq == 0
    await comm.send_json_to({"kind": "live", "action_id": "rightfire", "seq": 7})
    for _ in range(200):
        frame, seq, png = await _next_frame(comm)
        if seq == 7:
            break
    assert seq == 7, "no frame reflected the held input"
    # the bout (240 frames) runs to its end on the clock, agent turns and all
    for _ in range(100):
        if await database_sync_to_async(lambda: Match.objects.get(pk=match_id).status)() != Match.Status.ACTIVE:
            break
        await asyncio.sleep(0.1)
    events = await _events(match_id)
    assert len(events) == 2 * 240 // LIVE_FRAMES_PER_DECISION  # the live window, not frames_per_decision
    assert any(seat == 0 and p["action_id"] == "rightfire" and p["live_input_seq"] == 7 for seat, p in events)
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
def test_an_agent_decision_overtaken_by_the_clock_counts_late_at_the_next_decision_point(monkeypatch):
    from agents_app.agents.base import Decision
    from agents_app.turns import _submit_late

    monkeypatch.setattr(services, "schedule_agent_turns", lambda *args, **kwargs: None)  # the agent is still thinking
    match = _boxing([RANDOM, PERSON])
    decided_at = Match.objects.get(pk=match.pk)  # the agent reads version 0 and starts thinking...
    LiveBout(match.pk, inputs.match_key(match), "lease").play_decision([1], state_of(match))  # ...the clock goes on
    after = _submit_late(decided_at, 0, Decision("upfire"), {"agent": "random"})
    assert after is not None and after.version == 3
    event = Event.objects.get(match=match, version=3)
    assert event.seat == 0 and event.payload["action_id"] == "upfire"
    assert event.payload["late"] is True and event.payload["decided_at_version"] == 0
    # nothing more once the seat has chosen at this decision point
    assert _submit_late(decided_at, 0, Decision("fire"), {"agent": "random"}) is None


@pytest.mark.django_db(transaction=True)
def test_a_late_decision_in_a_game_without_a_clock_is_not_resubmitted():
    from agents_app.agents.base import Decision
    from agents_app.turns import _submit_late

    match = services.create_match("santorini", [RANDOM, PERSON], seed=1, host_seat=None, schedule_agents=False)
    assert _submit_late(match, 0, Decision("anything"), {}) is None
    turn_based = _boxing([RANDOM, PERSON], live=False)
    assert _submit_late(turn_based, 0, Decision("upfire"), {}) is None


@pytest.mark.django_db(transaction=True)
def test_one_clock_per_match_and_a_new_one_once_the_lease_lapses(monkeypatch):
    from gameplay.live import start

    match = _boxing([PERSON, RANDOM])
    claimed = start.claim(match)
    assert claimed is not None and claimed[0] == inputs.match_key(match)
    assert start.claim(match) is None  # a runner holds it
    inputs.release_lease(claimed[0], "somebody else's lease")
    assert start.claim(match) is None  # only its holder releases it
    inputs.release_lease(*claimed)
    assert start.claim(match) is not None
    agents_only = _boxing([RANDOM, RANDOM])
    assert start.claim(agents_only) is None  # no person: turn-based, as fast as the agents go
    two_people = services.create_match("atari_boxing", [PERSON, PERSON], seed=1, wait_for_players=True)
    assert start.claim(two_people) is None  # the clock starts once everyone has joined, not before


@database_sync_to_async
def _turn_based_match():
    match = _boxing([PERSON, RANDOM], live=False)
    return match.pk, match.seats.get(index=0).token


@pytest.mark.django_db(transaction=True)
async def test_with_live_off_a_person_chooses_on_the_pads_and_each_decision_point_waits(layer):
    from tests.gameplay.ws_support import connect, receive_until

    match_id, token = await _turn_based_match()
    comm, view = await connect(token)
    assert 'id="live-stage"' not in view  # no clock
    assert 'class="joypad"' in view and 'class="joypad punch"' in view  # two joystick pads
    pads = view[view.index('class="boxing-pads"'):view.index('id="status"')]
    from gameplay.engines.atari_boxing.actions import JOYSTICK

    assert sorted(re.findall(r'data-action-id="(\w+)"', pads)) == sorted(j.id for j in JOYSTICK)
    assert 'src="/play/' in view and "board.png" in view  # the current frame as a picture
    await comm.send_json_to({"kind": "action", "action_id": "rightfire", "version": 0})
    html = await receive_until(comm, lambda h: 'data-frame="15"' in h)
    assert "White" in html
    events = await _events(match_id)
    assert [(seat, p["action_id"]) for seat, p in events][:1] == [(0, "rightfire")]
    assert not any(p.get("late") for _, p in events)
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_whole_bout_on_the_clock_streams_every_frame_including_the_last_decision_points(layer):
    """A fake clock that jumps instead of sleeping: every frame of every decision point is sent, the last ones too
    (they end the match), and the lease is given back."""
    now = [0.0]

    async def jump(seconds):
        now[0] += seconds

    match = await database_sync_to_async(_boxing)([PERSON, RANDOM], max_frames=60, live_frames_per_decision=15)
    key = inputs.match_key(match)
    lease = await database_sync_to_async(inputs.take_lease)(key)
    bout = LiveBout(match.pk, key, lease, clock=lambda: now[0], sleep=jump, start_delay=0)
    await bout.run()
    assert bout.frames_sent == 60
    assert now[0] == pytest.approx(59 / 60)  # paced at 60 frames a second: the 60th frame 59/60 s after the first
    status = await database_sync_to_async(lambda: Match.objects.get(pk=match.pk).status)()
    assert status == Match.Status.FINISHED
    assert not await database_sync_to_async(inputs.lease_held)(key)
