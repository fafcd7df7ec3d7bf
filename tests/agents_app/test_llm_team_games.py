"""The platform's LLM agent plays every seat type of the four team/hidden-role games against a scripted model.

Every seat of each match is the same LLM agent configuration (agents_app/agents/llm/); the scripted server reads each
prompt's legal moves and answers one (tests/agents_app/table_model.py). A Codenames clue is first a word of the grid
and a Who is Spy description first names the seat's own word: the engine refuses both through the agent's text check,
and the agent's correction loop must get a valid one. The matches finish, every role decided through the model, the
corrections are in the stored calls, nothing fell back, and no prompt carried another seat's secret (State.secrets)
as the state stood when the prompt was sent.
"""

from __future__ import annotations

from collections import defaultdict

import pytest

from gameplay.engines.registry import GAMES, create_game
from gameplay.models import Event, Match
from tests.agents_app.llm_match_support import eager_celery, llm_config  # noqa: F401  (eager_celery is a fixture)
from tests.agents_app.table_model import TableModel, calls_of, play_agents_match, reply_json
from tests.support.openai_server import scripted_openai_server

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_celery")]


def _codenames_role(state, seat):
    return state.game.role(seat).lower()


def _traitor_role(state, seat):
    return str(state.characters[seat]).lower()


def _two_rooms_roles(state, seat):
    roles = {str(state.cards[seat]).lower()}
    if seat in state.leaders:
        roles.add("leader")
    return roles


def _spy_role(state, seat):
    return "spy" if seat in state.spies else "villager"


# game id -> (seats, options, seed, roles of a seat at a decision, the roles that must all decide through the model)
CASES = {
    "codenames": (4, {}, 5, _codenames_role, {"spymaster", "operative"}),
    "are_you_the_traitor": (4, {"target_points": 4, "max_rounds": 6}, 3, _traitor_role,
                            {"wizard", "keyholder", "guard", "traitor"}),
    "two_rooms_and_a_boom": (7, {}, 4, _two_rooms_roles, {"president", "bomber", "gambler", "leader"}),
    "who_is_spy": (4, {}, 6, _spy_role, {"spy", "villager"}),
}


def foreign_secrets(state, seat: int) -> list[str]:
    secrets = {int(k): [str(v) for v in values] for k, values in state.secrets().items()}
    own = set(secrets.get(seat, ()))
    return [v for other, values in secrets.items() if other != seat for v in values if v not in own]


def states_by_version(match: Match):
    """The engine state before each applied action (version v: v actions applied), rebuilt from the event log."""
    game = create_game(match.game_id, match.options, num_seats=match.seats.count())
    state = game.new_initial_state(match.seed)
    states = {0: state.clone()}
    for event in Event.objects.filter(match=match, kind=Event.Kind.ACTION).order_by("seq"):
        state.apply_action(event.seat, event.payload["action_id"], event.payload.get("text"))
        states[event.version] = state.clone()
    return states


@pytest.mark.parametrize("game_id", list(CASES))
def test_llm_agents_play_every_seat_type_through_the_model(game_id):
    if game_id not in GAMES:
        pytest.skip(f"{game_id} is not registered yet")
    seats, options, seed, roles_of, wanted = CASES[game_id]
    model = TableModel()
    with scripted_openai_server(model) as server:
        llm_config("table-llm", server.base_url, retries=2, http_retries=0)
        match = play_agents_match(game_id, ["table-llm"] * seats, seed=seed, options=options)

    assert match.status == Match.Status.FINISHED, f"{game_id} did not finish (version {match.version})"
    actions = list(Event.objects.filter(match=match, kind=Event.Kind.ACTION).order_by("seq"))
    assert actions and not any(e.payload.get("fallback") for e in actions), "a decision fell back"
    calls = calls_of(match)
    assert len(calls) == len(server.requests) and not any(c.fallback for c in calls)
    assert all(c.event_id for c in calls), "every call belongs to the action it produced"

    states = states_by_version(match)
    decided = defaultdict(set)
    for call in calls:
        state = states[call.version]
        roles = roles_of(state, call.seat)
        for role in roles if isinstance(roles, set) else {roles}:
            decided[role].add(call.seat)
        prompt = "\n".join(str(m.get("content")) for m in call.request_messages)
        leaked = [value for value in foreign_secrets(state, call.seat) if value in prompt]
        assert not leaked, f"{game_id}: seat {call.seat}'s prompt at version {call.version} carries {leaked[:1]}"
    missing = wanted - set(decided)
    assert not missing, f"{game_id}: no decision through the model by {sorted(missing)} (saw {sorted(decided)})"

    # The scripted mistakes were corrected by the agent's loop and recorded: the refused reply, then a correction.
    kind = {"codenames": "clue", "who_is_spy": "describe"}.get(game_id)
    if kind:
        refused = [c for c in calls if c.purpose == "move" and reply_json(c).get("action") == kind]
        assert refused and all("rejected-text" in c.error for c in refused)
        corrections = [c for c in calls if c.purpose == "correction"]
        assert len(corrections) == len(refused) == model.mistakes[kind]
        assert all(c.parsed_action == kind and not c.error for c in corrections)
        by_event = defaultdict(list)
        for call in calls:
            by_event[call.event_id].append(call.purpose)
        assert sum(purposes == ["move", "correction"] for purposes in by_event.values()) == len(refused)
        applied = [e for e in actions if e.payload["action_id"] == kind]
        assert len(applied) == len(refused)
    else:
        assert all(not c.error for c in calls) and {c.purpose for c in calls} == {"move"}
