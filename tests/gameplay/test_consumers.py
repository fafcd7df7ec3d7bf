"""gameplay.web.consumers.MatchConsumer over the real ASGI stack (origin check, URL router, channel layer).

Every test runs twice: on the in-memory channel layer and on channels_redis. The Redis run is
skipped only when REDIS_URL is unset outside CI; with CI=true (or REQUIRE_SERVICES=1) it uses
REDIS_URL or redis://127.0.0.1:6379/0 and fails if Redis is not there.
"""
from __future__ import annotations

import json
import re

import pytest

from gameplay.project.asgi import application
from tests.gameplay.ws_support import (
    FLASH_ERROR,
    HUMAN,
    ORIGIN,
    RANDOM,
    TIMEOUT,
    SeatCommunicator,
    cells,
    clickable,
    close_all,
    connect,
    fingerprint,
    legal_ids,
    new_match,
    open_socket,
    receive_until,
    shows_worker,
    submit,
    targets,
    version_of,
)

pytestmark = pytest.mark.django_db(transaction=True)


async def test_valid_token_receives_view_with_legal_cells(layer):
    match_id, (tok0, tok1) = await new_match()
    comm0, html0 = await connect(tok0)
    comm1, html1 = await connect(tok1)
    for html in (html0, html1):
        for region in ("board", "status", "actions", "flash", "chat-log"):
            assert f'id="{region}"' in html
        assert 'hx-swap-oob="true"' in html
        assert version_of(html) == 0
    # Seat 0 is on turn: every empty cell is a placement target, exactly its legal actions.
    legal = await legal_ids(match_id, 0)
    assert len(legal) == 25
    assert sorted(targets(html0).values()) == sorted(legal)
    assert "Your turn" in html0
    # Seat 1 waits: no clickable cells, no action buttons.
    assert clickable(html1) == {}
    assert "data-action-id" not in html1
    await close_all(comm0, comm1)


async def test_wrong_token_is_refused(layer):
    await new_match()
    comm, connected = await open_socket("not-a-real-token")
    assert connected is False
    comm, connected = await open_socket("x" * 100)  # over the token length limit
    assert connected is False


@pytest.mark.parametrize("path", ["/ws/play//", "/ws/play/"])
async def test_missing_token_is_refused(layer, path):
    comm = SeatCommunicator(application, path, headers=ORIGIN)
    try:
        connected, _ = await comm.connect(timeout=TIMEOUT)
    except ValueError as err:
        # No route matches: the URL router raises before any accept, which daphne turns into a refused
        # handshake (HTTP 403); tests/integration/test_two_daphne.py checks that against a real server.
        assert "No route found" in str(err)
        connected = False
    assert connected is False


async def test_foreign_origin_is_refused(layer):
    _, (tok0, _) = await new_match()
    comm, connected = await open_socket(tok0, headers=[(b"origin", b"http://evil.example.com")])
    assert connected is False
    comm, connected = await open_socket(tok0, headers=[])  # no Origin header at all
    assert connected is False


# --- playing --------------------------------------------------------------------


async def test_legal_action_updates_state_and_both_seats(layer):
    match_id, (tok0, tok1) = await new_match()
    comm0, html0 = await connect(tok0)
    comm1, _ = await connect(tok1)
    cell = "c3"
    frame = clickable(html0, "action")[cell]["vals"]
    assert frame == {"kind": "action", "action_id": f"place:{cell}", "version": 0}
    before = await fingerprint(match_id)

    await comm0.send_to(text_data=json.dumps(frame))

    update0 = await comm0.receive_from(timeout=TIMEOUT)
    update1 = await comm1.receive_from(timeout=TIMEOUT)
    events, version, state, _ = await fingerprint(match_id)
    assert version == 1 and events == before[0] + 1
    assert state["payload"]["workers"] == [[cell], []]
    for html, whose in ((update0, "your"), (update1, "opponent's")):
        assert FLASH_ERROR not in html
        assert version_of(html) == 1
        assert shows_worker(html, cell, whose)
    # Seat 0 places its second worker: the occupied cell is no longer a target.
    assert cell not in targets(update0) and len(targets(update0)) == 24
    await comm0.receive_nothing()
    await close_all(comm0, comm1)


async def test_move_by_seat_0_reaches_seat_1(layer):
    """Human vs human through the sockets only: placements, then a move and a build."""
    match_id, (tok0, tok1) = await new_match()
    comm0, html0 = await connect(tok0)
    comm1, html1 = await connect(tok1)
    views = {0: html0, 1: html1}
    comms = {0: comm0, 1: comm1}
    for seat, cell in ((0, "b2"), (0, "d4"), (1, "b4"), (1, "d2")):
        await comms[seat].send_to(text_data=json.dumps(clickable(views[seat], "action")[cell]["vals"]))
        views = {s: await comms[s].receive_from(timeout=TIMEOUT) for s in (0, 1)}
        assert shows_worker(views[1 - seat], cell, "opponent's")
    assert "Your turn" in views[0] and version_of(views[1]) == 4
    # Seat 0 selects worker b2 (this socket only), then moves it to c3.
    await comm0.send_to(text_data=json.dumps(clickable(views[0], "select")["b2"]["vals"]))
    selected = await comm0.receive_from(timeout=TIMEOUT)
    await comm1.receive_nothing()  # a selection is private to the socket
    await comm0.send_to(text_data=json.dumps(clickable(selected, "action")["c3"]["vals"]))
    views = {s: await comms[s].receive_from(timeout=TIMEOUT) for s in (0, 1)}
    assert shows_worker(views[1], "c3", "opponent's") and not shows_worker(views[1], "b2", "opponent's")
    assert "from B2 to C3" in views[1]
    assert version_of(views[1]) == 5
    assert (await fingerprint(match_id))[1] == 5
    await close_all(comm0, comm1)


async def test_action_against_random_agent(layer, eager_celery):
    """Seat 1 is the random agent: after seat 0's second placement the agent places both workers."""
    match_id, (tok0, _) = await new_match((HUMAN, RANDOM))
    comm0, html0 = await connect(tok0)
    await comm0.send_to(text_data=json.dumps(clickable(html0, "action")["a1"]["vals"]))
    html = await comm0.receive_from(timeout=TIMEOUT)
    await comm0.send_to(text_data=json.dumps(clickable(html, "action")["e5"]["vals"]))
    html = await receive_until(comm0, lambda h: version_of(h) == 4)
    board = cells(html)
    assert sum("opponent's worker" in c["label"] for c in board.values()) == 2
    assert sum("your worker" in c["label"] for c in board.values()) == 2
    assert "Your turn" in html and clickable(html, "select")  # seat 0 now picks a worker to move
    assert (await fingerprint(match_id))[1] == 4
    await close_all(comm0)


async def test_select_shows_targets_for_that_worker(layer):
    match_id, (tok0, tok1) = await new_match()
    for seat, cell in ((0, "a1"), (0, "c3"), (1, "e5"), (1, "b3")):
        await submit(match_id, seat, f"place:{cell}")
    comm0, html = await connect(tok0)
    assert set(clickable(html, "select")) == {"a1", "c3"}  # move phase: first pick one of your workers
    assert targets(html) == {}
    before = await fingerprint(match_id)

    await comm0.send_to(text_data=json.dumps({"kind": "select", "location": "c3"}))
    html = await comm0.receive_from(timeout=TIMEOUT)
    moves = {a.split("-")[1]: a for a in await legal_ids(match_id, 0) if a.startswith("move:c3-")}
    assert moves and targets(html) == moves
    assert "selected" in cells(html)["c3"]["class"]
    assert all(a.startswith("move:c3-") for a in targets(html).values())

    # Clicking the selected worker again steps back; "clear" drops the selection.
    await comm0.send_to(text_data=json.dumps({"kind": "select", "location": "c3"}))
    assert targets(await comm0.receive_from(timeout=TIMEOUT)) == {}
    await comm0.send_to(text_data=json.dumps({"kind": "select", "location": "a1"}))
    html = await comm0.receive_from(timeout=TIMEOUT)
    assert targets(html) and all(a.startswith("move:a1-") for a in targets(html).values())
    await comm0.send_to(text_data=json.dumps({"kind": "clear"}))
    assert targets(await comm0.receive_from(timeout=TIMEOUT)) == {}
    assert await fingerprint(match_id) == before  # selecting changes nothing stored
    await close_all(comm0)


async def test_chat_reaches_both_seats(layer):
    match_id, (tok0, tok1) = await new_match()
    comm0, _ = await connect(tok0)
    comm1, _ = await connect(tok1)
    events, version, state, _ = await fingerprint(match_id)

    await comm0.send_to(text_data=json.dumps({"kind": "chat", "text": "good luck <b>& have fun</b>"}))

    for comm in (comm0, comm1):
        html = await comm.receive_from(timeout=TIMEOUT)
        log = re.search(r'<ol id="chat-log".*?</ol>', html, re.S).group(0)
        assert "good luck &lt;b&gt;&amp; have fun&lt;/b&gt;" in log  # escaped, never markup
        assert "Player 1" in log
    after = await fingerprint(match_id)
    assert after[0] == events + 1 and after[1:3] == (version, state)  # chat is an event, not an action
    await close_all(comm0, comm1)


async def test_reconnect_and_second_tab_get_current_view(layer):
    match_id, (tok0, tok1) = await new_match()
    comm0, html = await connect(tok0)
    await comm0.send_to(text_data=json.dumps(clickable(html, "action")["b2"]["vals"]))
    await comm0.receive_from(timeout=TIMEOUT)

    tab2, html2 = await connect(tok0)  # a second tab of the same seat
    assert version_of(html2) == 1 and shows_worker(html2, "b2", "your")
    await comm0.disconnect()

    comm0, html = await connect(tok0)  # reconnect after a drop
    assert version_of(html) == 1 and shows_worker(html, "b2", "your")
    # Both of seat 0's sockets follow the next action.
    await comm0.send_to(text_data=json.dumps(clickable(html, "action")["d4"]["vals"]))
    for comm in (comm0, tab2):
        html = await comm.receive_from(timeout=TIMEOUT)
        assert version_of(html) == 2 and shows_worker(html, "d4", "your")
    comm1, html1 = await connect(tok1)
    assert version_of(html1) == 2 and "Your turn" in html1
    await close_all(comm0, tab2, comm1)
