"""What a row of messages.csv says (issue 38, point 3), on matches played through the match service: the seat, the
game's name for it, the team, the kind of row, a team line's audience, who wrote it, and that a judge's verdict is
nobody's words."""

from __future__ import annotations

import pytest

from gameplay.models import Event, Match
from gameplay.reads.selectors import state_of
from gameplay.studies import exports, words
from gameplay.studies.measures import participant_code
from gameplay.studies.models import Condition, ParticipantRound
from gameplay.writes import services
from gameplay.writes.services import SeatController
from tests.studies.factories import make_participant, make_study
from tests.studies.test_exports import parse

P = {"kind": "participant"}
RANDOM = {"kind": "agent", "agent": "random"}


# --- what a row says, on matches played through the match service (fast) ------------------------------------------


def seat_round(match, participant, seat: int) -> None:
    ParticipantRound.objects.create(participant=participant, round_index=0, match=match, seat_index=seat)


def write_first_clue(match) -> str:
    """Red's Spymaster's clue: the first of a few words the engine accepts (a clue may not be a word on the board)."""
    for word in ("zeppelin", "quasar", "marmalade"):
        try:
            services.submit_action(match.pk, 0, "clue", text=f"{word},1", expected_version=match.version,
                                   schedule_agents=False)
            return f"{word},1"
        except services.ActionRejected:
            continue
    raise AssertionError("no clue accepted")


@pytest.mark.django_db
def test_rows_name_the_seat_team_kind_audience_and_writer():
    """Codenames: the person's clue is an action row of Red's Spymaster; an Operative's team line keeps its audience;
    after an agent takes a person's seat over its lines are the agent's."""
    study = make_study("words-rows", rounds=1, game_id="codenames", conditions=())
    Condition.objects.create(study=study, key="c", label="c", seats=[P, RANDOM, P, P], options={})
    people = [make_participant(study, "c") for _ in range(3)]
    controllers = [SeatController("human"), SeatController("agent", agent_name="random"), SeatController("human"),
                   SeatController("human")]
    match = services.create_match("codenames", controllers, seed=6, schedule_agents=False, private=True)
    assert state_of(match).current_seats() == [0]  # with this seed Red starts
    for person, seat in zip(people, (0, 2, 3), strict=True):
        seat_round(match, person, seat)
    clue = write_first_clue(match)
    services.post_message(match.pk, 2, "=the bank, surely")
    services.hand_seat_to_agent(match.pk, 3, "random", "left")
    services.post_message(match.pk, 3, "Blue listens")
    # The text as the engine accepted it (a clue is kept in capitals), which is what the log holds.
    (logged,) = Event.objects.filter(match=match, kind=Event.Kind.ACTION).values_list("payload__text", flat=True)
    assert logged.lower() == clue
    rows = words.message_rows(study)
    picked = [(r["seat"], r["seat_name"], r["team"], r["sender"], r["kind"], r["action"], r["text"], r["audience"],
               r["turn"]) for r in rows]
    assert picked == [
        (0, "Player 1 (Red Spymaster)", "Red", "participant", "action", "clue", logged, "", 0),
        (2, "Player 3 (Red Operative)", "Red", "participant", "team_chat", "", "=the bank, surely", "0 2", 1),
        (3, "Player 4 (Blue Operative)", "Blue", "random", "team_chat", "", "Blue listens", "1 3", 1),
    ]
    assert [r["participant"] for r in rows] == [participant_code(p.pk) for p in people]
    assert rows[0]["action_label"] and clue.split(",")[0] in rows[0]["action_label"].lower()
    _, exported = parse(exports.messages_csv(study))
    assert exported[1]["text"] == "'=the bank, surely" and exported[1]["length"] == "17"


@pytest.mark.django_db
def test_a_judges_verdict_is_nobodys_words():
    """Debate: both sides' arguments are rows; the judge's verdict, logged under a seat one past the players with
    the judge's name as its text, is not."""
    study = make_study("words-debate", rounds=1, game_id="debate", conditions=())
    Condition.objects.create(study=study, key="c", label="c", seats=[P, P], options={})
    match = services.create_match("debate", [SeatController("human")] * 2, seed=2, options={"rounds_per_side": 1},
                                  schedule_agents=False, private=True)
    for seat in (0, 1):
        seat_round(match, make_participant(study, "c"), seat)
    for seat, argument in ((0, "Cities should plant trees."), (1, "Trees cost water.")):
        style = next(t.id for t in state_of(Match.objects.get(pk=match.pk)).text_actions(seat))
        match = services.submit_action(match.pk, seat, style, text=argument, expected_version=match.version,
                                       schedule_agents=False)
    services.apply_verdict(match.pk, "for", "a-judge", expected_version=match.version)
    assert Event.objects.filter(match=match, kind=Event.Kind.ACTION, seat=2, payload__text="a-judge").exists()
    rows = words.message_rows(study)
    assert [(r["seat"], r["kind"], r["text"]) for r in rows] == [
        (0, "action", "Cities should plant trees."), (1, "action", "Trees cost water.")]
