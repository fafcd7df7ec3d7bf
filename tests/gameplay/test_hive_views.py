"""Board pictures over HTTP (play/<token>/board.png, matches/<id>/board.png), the Hive board page with its
clickable overlay, typed UHP moves (services.submit_move_text and the consumer's "uhp" frame) and pictures
for image-capable agents.

Hive is registered for these tests by monkeypatching gameplay.engines.registry.GAMES; they are skipped
while gameplay.engines.hive does not provide HiveGame yet. The generic parts also run with Santorini.
"""

from __future__ import annotations

import io
import json
import re

import pytest
from django.core.cache import cache
from PIL import Image

from agents_app import services as agent_services
from agents_app.agents import registry as agent_registry
from agents_app.agents.base import Agent, Decision
from gameplay.boards import presenter_for
from gameplay.boards.base import BoardPresenter
from gameplay.engines import registry
from gameplay.engines.api import Game
from gameplay.engines.seat_view import refusal_checker
from gameplay.models import Event, Match, Seat
from gameplay.reads.selectors import state_of
from gameplay.writes import services
from gameplay.writes.services import SeatController

pytestmark = pytest.mark.django_db

HUMAN = SeatController("human")
RANDOM = SeatController("agent", agent_name="random")
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def hive(monkeypatch):
    from gameplay.engines.hive import HiveGame

    assert HiveGame.observation_image is not Game.observation_image, (
        "HiveGame must implement observation_image (via gameplay.engines.hive.render.observation_png)"
    )
    assert type(presenter_for("hive")).layout is not BoardPresenter.layout, (
        "Hive's board presenter must draw the overlay's layout "
        "(via gameplay.engines.hive.picture_layout.observation_layout)"
    )
    monkeypatch.setitem(registry.GAMES, HiveGame.spec.id, HiveGame)
    return HiveGame


def hive_match(controllers=(HUMAN, HUMAN), seed: int = 1) -> Match:
    return services.create_match("hive", list(controllers), seed=seed, host_seat=None)


def token(match: Match, index: int) -> str:
    return match.seats.get(index=index).token


def png_size(content: bytes) -> tuple[int, int]:
    assert content.startswith(PNG)
    return Image.open(io.BytesIO(content)).size


def play_random(match: Match, plies: int, seed: int = 0) -> Match:
    import random

    rng = random.Random(seed)
    for _ in range(plies):
        state = state_of(match)
        if state.is_terminal():
            break
        seat = state.current_seats()[0]
        match = services.submit_action(match.pk, seat, rng.choice(state.legal_actions(seat)).id,
                                       expected_version=match.version)
    return match


class CountingImages:
    """Wraps a game class's observation_image, recording which seat's observation each call drew."""

    def __init__(self, monkeypatch, game_cls):
        self.seats: list[int | None] = []
        original = game_cls.observation_image

        def observation_image(game, observation, **kwargs):
            self.seats.append(observation.seat)
            return original(game, observation, **kwargs)

        monkeypatch.setattr(game_cls, "observation_image", observation_image)


# --- board.png for a seat ------------------------------------------------------------------


def test_seat_picture_is_a_png_of_that_seats_observation_and_cached(client, hive, monkeypatch):
    match = hive_match()
    counting = CountingImages(monkeypatch, hive)
    url = f"/play/{token(match, 1)}/board.png?v={match.version}"
    first = client.get(url)
    assert first.status_code == 200
    assert first["Content-Type"] == "image/png"
    assert first["Cache-Control"] == "private, max-age=3600"
    width, height = png_size(first.content)
    assert 300 <= width <= 1200 and 200 <= height <= 1200
    assert counting.seats == [1]  # only ever the requesting seat's own observation
    second = client.get(url)
    assert second.content == first.content
    assert counting.seats == [1]  # served from the cache
    # Another seat, and the next version, are drawn (and cached) separately.
    client.get(f"/play/{token(match, 0)}/board.png?v={match.version}")
    assert counting.seats == [1, 0]
    match = play_random(match, 1)
    again = client.get(f"/play/{token(match, 1)}/board.png?v={match.version}")
    assert again.status_code == 200 and again.content != first.content
    assert counting.seats == [1, 0, 1]


def test_seat_picture_with_an_old_version_is_not_kept_by_the_browser(client, hive):
    match = play_random(hive_match(), 2)
    response = client.get(f"/play/{token(match, 0)}/board.png?v=0")
    assert response.status_code == 200
    assert "no-cache" in response["Cache-Control"] and "max-age" not in response["Cache-Control"]


@pytest.mark.parametrize("bad", ["no-such-token", "x" * 65])
def test_unknown_token_picture_is_404(client, hive, bad):
    hive_match()
    assert client.get(f"/play/{bad}/board.png").status_code == 404


def test_coordinates_are_drawn_on_request(client, hive):
    assert hive.spec.has_image and presenter_for("hive").image_coords
    match = play_random(hive_match(), 3)
    plain = client.get(f"/play/{token(match, 0)}/board.png?v={match.version}")
    coords = client.get(f"/play/{token(match, 0)}/board.png?v={match.version}&coords=1")
    assert coords.status_code == 200 and coords.content != plain.content
    assert png_size(coords.content) == png_size(plain.content)


# --- the public picture and replays ------------------------------------------------------------


def test_public_picture_draws_the_public_observation(client, hive, monkeypatch):
    match = play_random(hive_match(), 4)
    counting = CountingImages(monkeypatch, hive)
    response = client.get(f"/matches/{match.pk}/board.png?v={match.version}")
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    assert response["Cache-Control"] == "public, max-age=3600"
    png_size(response.content)
    assert counting.seats == [None]
    client.get(f"/matches/{match.pk}/board.png?v={match.version}")
    assert counting.seats == [None]
    assert client.get("/matches/999999/board.png").status_code == 404


@pytest.mark.django_db(transaction=True)  # real commits: agents answer once a move commits
def test_replay_step_pictures_only_for_finished_matches(client, hive):
    match = hive_match((RANDOM, RANDOM), seed=3)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED  # agent-vs-agent play always ends (turn cap at worst)
    first = client.get(f"/matches/{match.pk}/board.png?step=1")
    later = client.get(f"/matches/{match.pk}/board.png?step=5")
    assert first.status_code == later.status_code == 200 and first.content != later.content
    assert client.get(f"/matches/{match.pk}/board.png?step=999999").status_code == 404
    assert client.get(f"/matches/{match.pk}/board.png?step=x").status_code == 404
    html = client.get(f"/matches/{match.pk}/replay/?step=5").content.decode()
    assert f'src="/matches/{match.pk}/board.png?step=5"' in html
    active = hive_match()
    assert client.get(f"/matches/{active.pk}/board.png?step=0").status_code == 403


def test_games_without_a_picture_answer_404(client, monkeypatch):
    match = services.create_match("santorini", [HUMAN, HUMAN], seed=1)
    # The spec decides (has_image is False): observation_image is not even asked.
    monkeypatch.setattr(registry.GAMES["santorini"], "observation_image", lambda self, obs, **kw: 1 / 0)
    assert client.get(f"/play/{token(match, 0)}/board.png").status_code == 404
    assert client.get(f"/matches/{match.pk}/board.png").status_code == 404


def test_coordinates_are_asked_for_only_when_the_board_declares_image_coords(client, hive, monkeypatch):
    match = hive_match()
    asked = []
    monkeypatch.setattr(hive, "observation_image", lambda self, obs, *, coords=False: asked.append(coords) or PNG)
    client.get(f"/play/{token(match, 0)}/board.png?coords=1")
    monkeypatch.setattr(presenter_for("hive"), "image_coords", False)
    client.get(f"/matches/{match.pk}/board.png?coords=1")
    assert asked == [True, False]


# --- the Hive board page ----------------------------------------------------------------------


def overlay(html: str) -> dict[str, dict]:
    """Clickable overlay cells: data-cell -> {"class": [...], "vals": hx-vals}."""
    found = {}
    for m in re.finditer(r"<polygon ([^>]*)>", html):
        attrs = dict(re.findall(r'([\w:-]+)="([^"]*)"', m.group(1)))
        vals = re.search(r"hx-vals='([^']*)'", m.group(1))
        found[attrs["data-cell"]] = {"class": attrs["class"].split(), "vals": json.loads(vals.group(1)),
                                     "label": attrs.get("aria-label", "")}
    return found


def test_play_page_shows_the_picture_with_an_overlay_of_the_same_size(client, hive):
    match = hive_match()
    tok = token(match, 0)
    html = client.get(f"/play/{tok}/").content.decode()
    img = re.search(r'<img src="([^"]+)" width="(\d+)" height="(\d+)" alt="([^"]*)"', html)
    assert img, "no board picture"
    assert img.group(1) == f"/play/{tok}/board.png?v={match.version}"
    assert "White to move" in img.group(4)
    assert f'viewBox="0 0 {img.group(2)} {img.group(3)}"' in html
    picture = client.get(img.group(1))
    assert png_size(picture.content) == (int(img.group(2)), int(img.group(3)))
    # White opens: its reserve pieces are buttons that select; the board has nothing to click yet.
    hand = re.findall(r'<button type="button" ws-send data-location="(hand:w\w)"', html)
    assert hand and all(loc.startswith("hand:w") for loc in hand)
    assert "hand:b" not in "".join(hand)
    assert 'name="kind" value="uhp"' in html
    assert_no_foreign_tokens(html, tok)


def test_waiting_seat_has_nothing_to_click(client, hive):
    match = hive_match()
    html = client.get(f"/play/{token(match, 1)}/").content.decode()
    assert "<polygon" not in html
    assert 'data-location="hand:' in html and '<button type="button" ws-send data-location' not in html
    assert 'value="uhp"' not in html


def test_public_page_shows_the_public_picture(client, hive):
    match = play_random(hive_match(), 3)
    html = client.get(f"/matches/{match.pk}/").content.decode()
    assert f'src="/matches/{match.pk}/board.png?v={match.version}"' in html
    assert "<polygon" not in html
    assert_no_foreign_tokens(html, None)


def test_selecting_a_reserve_piece_highlights_target_cells(hive):
    from django.template.loader import render_to_string

    from gameplay.reads.selectors import seat_view
    from gameplay.web.rendering import view_context

    match = play_random(hive_match(), 2)  # one piece each: White places its second piece
    seat = match.seats.get(index=0)
    view = seat_view(match, seat)
    location = next(a.path[0] for a in view.legal_actions if a.path and a.path[0].startswith("hand:"))
    context = view_context(view, (location,))
    html = render_to_string("games/hive/board.html", context)
    cells = overlay(html)
    targets = {name: c for name, c in cells.items() if "target" in c["class"]}
    expected = {a.path[1]: a.id for a in view.legal_actions if a.path[:1] == (location,)}
    assert {name: c["vals"]["action_id"] for name, c in targets.items()} == expected
    assert all(c["vals"]["kind"] == "action" and c["vals"]["version"] == match.version for c in targets.values())
    assert re.search(rf'data-location="{location}"\s+class="[^"]*selected', html)
    assert {c["name"] for c in context["layout"]["cells"]} >= set(expected)


def assert_no_foreign_tokens(html: str, own: str | None) -> None:
    for other in set(Seat.objects.values_list("token", flat=True)) - {own}:
        assert other not in html


# --- typed moves ----------------------------------------------------------------------------


def test_typed_move_is_applied_through_parse_move(hive):
    match = hive_match()
    state = state_of(match)
    first = state.legal_actions(0)[0]
    match = services.submit_move_text(match.pk, 0, f"  {first.id} ", expected_version=0)
    assert match.version == 1
    assert state_of(match).log[-1].action_id == first.id
    before = (match.version, match.state)
    for bad in ("", "zz9 nonsense", "x" * 300):
        with pytest.raises(services.ActionRejected):
            services.submit_move_text(match.pk, 1, bad, expected_version=match.version)
    with pytest.raises(services.ActionRejected):  # not this seat's turn
        services.submit_move_text(match.pk, 0, state_of(match).legal_actions(1)[0].id, expected_version=1)
    match.refresh_from_db()
    assert (match.version, match.state) == before


def test_an_action_sent_with_spaces_is_stored_with_its_canonical_id_and_label(hive):
    """Issue 37: a socket's action "wS1 " (a trailing space) was applied, but its event's label was the raw text."""
    match = hive_match()
    first = state_of(match).legal_actions(0)[0]
    services.apply_action(match.pk, 0, f"{first.id} ", expected_version=0)
    payload = Event.objects.filter(match=match, kind=Event.Kind.ACTION).get().payload
    assert payload["action_id"] == first.id
    assert payload["label"] == first.label and payload["labels"] == [first.label, first.label]


def test_typed_moves_are_refused_for_games_without_a_parser():
    match = services.create_match("santorini", [HUMAN, HUMAN], seed=1)
    with pytest.raises(services.ActionRejected, match="does not accept typed moves"):
        services.submit_move_text(match.pk, 0, "a1", expected_version=0)


# --- pictures for agents ---------------------------------------------------------------------


class LooksAtPictures(Agent):
    name = "test-looks-at-pictures"
    accepts_images = True
    seen: list = []

    def decide(self, view):
        LooksAtPictures.seen.append(view.image)
        return Decision(view.legal_actions[0].id)


def test_only_image_capable_agents_get_a_picture(hive, monkeypatch):
    game = hive()
    state = game.new_initial_state(5)
    plain = agent_services.turn_view(state.seat_view(0), 1)
    assert plain.image is None
    with_image = agent_services.turn_view(state.seat_view(0), 1, with_image=True)
    assert with_image.image.startswith(PNG)
    assert with_image.image == game.observation_image(state.observation(0))

    monkeypatch.setitem(agent_registry.AGENTS, LooksAtPictures.name, LooksAtPictures)
    LooksAtPictures.seen = []
    turn = agent_services.decide(LooksAtPictures.name, state.seat_view(0), 1, refusal=refusal_checker(state, 0))
    assert not turn.fallback and LooksAtPictures.seen[0].startswith(PNG)
    calls = []
    monkeypatch.setattr(hive, "observation_image", lambda self, obs, **kw: calls.append(obs) or b"")
    agent_services.decide("random", state.seat_view(0), 1, refusal=refusal_checker(state, 0))
    assert calls == []  # RandomAgent does not ask for pictures: none is drawn


# --- the websocket: typed moves and restarting a selection ---------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_consumer_applies_a_typed_uhp_move_and_reports_bad_ones(hive, layer):
    from channels.db import database_sync_to_async

    from tests.gameplay.ws_support import FLASH_ERROR, TIMEOUT, close_all, connect, receive_until, version_of

    match = await database_sync_to_async(hive_match)()
    tok0 = await database_sync_to_async(token)(match, 0)
    comm, html = await connect(tok0)
    assert version_of(html) == 0 and 'value="uhp"' in html
    await comm.send_to(text_data=json.dumps({"kind": "uhp", "text": "nonsense!", "version": 0}))
    reply = await comm.receive_from(timeout=TIMEOUT)
    assert FLASH_ERROR in reply and "is not a valid move" in reply and version_of(reply) == 0
    await comm.send_to(text_data=json.dumps({"kind": "uhp", "text": "wS1", "version": 0}))
    reply = await receive_until(comm, lambda h: 'id="board"' in h and version_of(h) == 1)
    assert "wS1" in reply
    await comm.send_to(text_data=json.dumps({"kind": "uhp", "version": 1}))
    assert "type a move first" in await comm.receive_from(timeout=TIMEOUT)
    await close_all(comm)


@pytest.mark.django_db(transaction=True)
async def test_select_with_restart_starts_a_new_selection(hive, layer):
    from channels.db import database_sync_to_async

    from tests.gameplay.ws_support import TIMEOUT, close_all, connect

    match = await database_sync_to_async(hive_match)()
    match = await database_sync_to_async(play_random)(match, 4)
    tok = await database_sync_to_async(token)(match, 0)
    comm, html = await connect(tok)
    hand = re.findall(r'data-location="(hand:w\w)"\s+class="hand-piece[^"]*pick', html)
    assert len(hand) >= 2, html
    await comm.send_to(text_data=json.dumps({"kind": "select", "location": hand[0]}))
    html = await comm.receive_from(timeout=TIMEOUT)
    assert re.search(rf'data-location="{hand[0]}"\s+class="[^"]*selected', html)
    # Another reserve piece restarts the selection there (it does not extend it).
    assert f'"location": "{hand[1]}", "restart": true' in html
    await comm.send_to(text_data=json.dumps({"kind": "select", "location": hand[1], "restart": True}))
    html = await comm.receive_from(timeout=TIMEOUT)
    assert re.search(rf'data-location="{hand[1]}"\s+class="[^"]*selected', html)
    assert not re.search(rf'data-location="{hand[0]}"\s+class="[^"]*selected', html)
    assert "<polygon" in html and 'class="cell target' in html
    await close_all(comm)
