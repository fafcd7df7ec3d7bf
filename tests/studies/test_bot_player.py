"""The study bot at the table (gameplay.studies.bots.player and policies): free text from the engine's examples,
refusals read from the server's #flash and answered with another move (never the refused frame again), a bounded
number of refusals at one position, and a frame that got no answer sent again.

The round loop runs against an in-process stand-in for the match socket over a real engine state: it answers frames
in order as the server does (the board at the match's version, with the reason in #flash when it refuses), so these
tests take a fraction of a second. observation.json itself is checked against the real view."""

from __future__ import annotations

import json
import random

import pytest

from gameplay.engines.api import IllegalActionError
from gameplay.engines.registry import create_game
from gameplay.reads.selectors import state_of
from gameplay.studies.bots import player
from gameplay.studies.bots.client import BotError, parse_page
from gameplay.studies.bots.player import MAX_REFUSALS_PER_POSITION, RoundPlayer, refusal_reason
from gameplay.studies.bots.policies import Decision, Refusal, random_policy
from gameplay.web.rendering import error_fragment
from gameplay.writes import services
from gameplay.writes.services import SeatController

ROUND_PAGE = '<div class="match" ws-connect="/ws/play/TOKEN/"></div>'


def payload_of(state, seat: int, version: int, examples=None) -> dict:
    """What observation.json answers for ``seat`` (gameplay.web.views.observation_json), from an engine state."""
    acting = not state.is_terminal() and seat in state.current_seats()
    texts = state.text_actions(seat) if acting else []
    return {
        "version": version,
        "status": "finished" if state.is_terminal() else "active",
        "seat": seat,
        "my_turn": acting,
        "own_moves": sum(1 for record in state.log if record.seat == seat),
        "observation": dict(state.observation(seat).data),
        "legal_actions": [a.id for a in state.legal_actions(seat)] if acting else [],
        "text_actions": [{"id": t.id, "label": t.label, "hint": t.hint, "max_length": t.max_length,
                          "example": (examples or {}).get(t.id, t.example)} for t in texts],
    }


class Table:
    """The server side of one match for a bot in ``seat``: its observation.json and its socket. The other seats
    move at once after each of the bot's moves (random legal moves, examples for text). ``refuse`` says why the
    server refuses an action frame (None: the engine decides); ``drop`` frames are never answered (nor applied);
    ``examples`` replaces the examples the bot is shown (an engine declaring a bad one)."""

    def __init__(self, state, seat: int, *, refuse=None, drop: int = 0, examples=None):
        self.state, self.seat, self.version = state, seat, 1
        self.refuse, self.drop, self.examples = refuse, drop, examples
        self.sent: list[dict] = []  # every action frame, with the version the match was at when it arrived
        self.answers: list[str] = []
        self.rng = random.Random(5)
        self.origin = "http://testserver"
        self._others_move()

    # --- the bot's HTTP client ---
    def get_json(self, path: str) -> dict:
        return payload_of(self.state, self.seat, self.version, self.examples)

    def post(self, *args, **kwargs):
        return None

    def cookie_header(self) -> str:
        return ""

    # --- the bot's socket ---
    def send(self, text: str) -> None:
        frame = json.loads(text)
        self.sent.append({**frame, "at": self.version})
        if self.drop:
            self.drop -= 1
            return
        reason = self.refuse(frame) if self.refuse else None
        if reason is None and frame["version"] != self.version:
            reason = f"your view is out of date (version {frame['version']}, match is at {self.version}); refreshed"
        if reason is None:
            try:
                self.state.apply_action(self.seat, frame["action_id"], frame.get("text"))
            except IllegalActionError as err:
                reason = str(err)
        if reason is None:
            self.version += 1
            self._others_move()
        board = f'<div id="board" hx-swap-oob="true" data-version="{self.version}"></div>' \
                '<div id="flash" class="flash" hx-swap-oob="true" role="alert"></div>'
        self.answers.append(board + (error_fragment(f"{reason}. Nothing was changed.") if reason else ""))

    def recv(self, timeout: float | None = None) -> str:
        if not self.answers:
            raise TimeoutError
        return self.answers.pop(0)

    def _others_move(self) -> None:
        while not self.state.is_terminal() and self.seat not in self.state.current_seats():
            other = self.state.current_seats()[0]
            moves = [(a.id, None) for a in self.state.legal_actions(other)]
            moves += [(t.id, t.example) for t in self.state.text_actions(other)]
            self.state.apply_action(other, *self.rng.choice(moves))
            self.version += 1


def play(table: Table, bot_seed: int = 3) -> tuple[dict, player.Tally]:
    bot = RoundPlayer(table, parse_page("http://testserver/s/x/p/y/round/1/", 200, {}, ROUND_PAGE),
                      bot_seed=bot_seed, deadline=player.time.monotonic() + 20)
    return bot._loop(table)


@pytest.fixture(autouse=True)
def quick_waits(monkeypatch):
    monkeypatch.setattr(player, "IDLE_POLL_S", 0.01)
    monkeypatch.setattr(player, "RESEND_AFTER_S", 0.05)


def frames_at_each_position(table: Table) -> dict[int, list[tuple]]:
    by_position: dict[int, list[tuple]] = {}
    for frame in table.sent:
        by_position.setdefault(frame["version"], []).append((frame["action_id"], frame.get("text")))
    return by_position


def test_the_random_policy_writes_the_engines_example_and_avoids_what_was_refused():
    state = create_game("codenames", {}, num_seats=4).new_initial_state(2)
    payload = payload_of(state, state.current_seats()[0], 1)
    (clue,) = payload["text_actions"]
    decide = random_policy()
    assert decide(payload, 1) == Decision("clue", text=clue["example"])
    with pytest.raises(BotError, match="not a word"):
        decide(payload, 1, (Refusal(Decision("clue", text=clue["example"]), "not a word"),))
    mixed = {"legal_actions": ["pass"], "text_actions": [{"id": "say", "max_length": 5, "example": "Hello there"}]}
    seen = {decide(mixed, seed) for seed in range(30)}
    assert seen == {Decision("pass"), Decision("say", text="Hello")}  # both kinds of move, cut to max_length
    refused = (Refusal(Decision("pass"), "no"),)
    assert {decide(mixed, seed, refused) for seed in range(10)} == {Decision("say", text="Hello")}


def test_the_refusal_is_read_from_the_flash_of_a_redrawn_board():
    board = '<div id="board" data-version="4"></div><div id="flash" class="flash" role="alert"></div>'
    assert refusal_reason(board) is None  # every board carries an empty #flash
    reason = "invalid clue: 'RIVER' is a visible word & more. Nothing was changed."
    assert refusal_reason(board + error_fragment(reason)) == reason


def test_a_codenames_spymaster_bot_gives_valid_clues_to_the_end():
    """The bug of issue 38: a clue the engine refuses, sent again forever. Now the bot sends the engine's example."""
    table = Table(create_game("codenames", {"max_turns": 10}, num_seats=4).new_initial_state(7), seat=0)
    payload, tally = play(table)
    assert payload["status"] == "finished" and tally.moves >= 1 and tally.refusals == 0
    assert all(f["action_id"] == "clue" for f in table.sent)


def test_a_refused_move_is_never_sent_again_and_the_bot_chooses_another():
    """An engine whose example the rules refuse (here: the bot is shown its own secret word as the description):
    the bot reads the reason, never sends that frame again at that position, and moves on with the other move (a
    pass). Over eight bot seeds, so that some describe first and are refused."""
    options = {"describe_seconds": 30, "max_rounds": 3}  # describe or pass
    refused = 0
    for bot_seed in range(8):
        state = create_game("who_is_spy", options, num_seats=4).new_initial_state(4)
        table = Table(state, seat=1, examples={"describe": f"It is {state.words[1]}"})
        payload, tally = play(table, bot_seed=bot_seed)
        assert payload["status"] == "finished"
        assert all("secret word" in reason for reason in tally.reasons)
        for moves in frames_at_each_position(table).values():
            assert len(moves) == len(set(moves)), moves  # no frame twice at one position
        refused += tally.refusals
    assert refused >= 2


def test_a_bot_refused_at_every_turn_stops_naming_the_reason():
    table = Table(create_game("santorini", {}).new_initial_state(1), seat=0, refuse=lambda frame: "the board is shy")
    with pytest.raises(BotError, match="the board is shy") as failure:
        play(table)
    assert f"refused {MAX_REFUSALS_PER_POSITION} moves" in str(failure.value)
    assert len(table.sent) == MAX_REFUSALS_PER_POSITION
    assert len({(f["action_id"], f.get("text")) for f in table.sent}) == len(table.sent)


def test_a_frame_that_got_no_answer_is_sent_again():
    table = Table(create_game("santorini", {}).new_initial_state(1), seat=0, drop=1)
    payload, tally = play(table)
    first, again = table.sent[:2]
    assert first == again and tally.refusals == 0 and payload["status"] == "finished"


@pytest.mark.django_db
def test_observation_json_carries_each_text_actions_example_and_the_seats_own_moves(client):
    human = SeatController("human")
    match = services.create_match("codenames", [human] * 4, seed=9, host_seat=None)
    spymaster = match.seats.get(index=state_of(match).current_seats()[0])  # the starting team's
    payload = client.get(f"/play/{spymaster.token}/observation.json").json()
    (clue,) = payload["text_actions"]
    assert clue["example"] and payload["own_moves"] == 0
    match = services.submit_action(match.pk, spymaster.index, "clue", expected_version=match.version,
                                   text=clue["example"])  # the service takes it: the match moves on
    assert client.get(f"/play/{spymaster.token}/observation.json").json()["own_moves"] == 1
