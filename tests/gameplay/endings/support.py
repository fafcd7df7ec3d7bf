"""What every endings test shares: a way a game ends as data (``Ending``), a match brought to the position just
before it, the last move(s) played through the real submit path, and the check of what every seat then reads.

A position is built with the engine (the engine tests' own setups where they have one) and stored on the match the
way the match service stores state (``Match.state`` is the engine's JSON): ``put_position``. The match's event log
does not lead to that position, so nothing here reads a replay; the status line, the scores and the board are all
drawn from the state, as on the live page."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from html import unescape
from html.parser import HTMLParser

from django.template.loader import render_to_string
from django.utils import timezone

from gameplay.engines.api import State
from gameplay.models import Match, Seat
from gameplay.reads import selectors
from gameplay.web.rendering import view_context
from gameplay.writes import services, timeouts
from gameplay.writes.services import SeatController

HUMAN = SeatController("human")
JUDGE = "judge"  # the seat of a move that is a judge's verdict (services.apply_verdict), not a seat's action
TIMEOUT = "timeout"  # (TIMEOUT, seat): the seat's time runs out and the turn timer's sweep applies its timeout action

# A move: (seat, action id) or (seat, action id, text); (JUDGE, verdict, source) for a verdict; (TIMEOUT, seat).
Move = tuple


@dataclass(frozen=True)
class Ending:
    """One way one game ends by its rules: the position just before it (built by ``build``), the move(s) that end
    it, the seats that win by it (() for a draw; None where each seat's result is the game's own sentence: a
    cooperative or a dialogue game; a function of the finished state where a deal by chance decides who they are:
    the camps of a hidden-role game) and words of the engine's ``end_reason`` that only this way says."""

    id: str
    game: str
    build: Callable[[], State]
    final: tuple[Move, ...] | Callable[[], tuple[Move, ...]]
    winners: tuple[int, ...] | Callable[[State], tuple[int, ...]] | None
    reason: str
    says: str = ""  # for a game whose status line is its own sentence: words of it only this way says
    extra: dict = field(default_factory=dict)

    def __str__(self) -> str:
        return self.id


def ending_ids(endings) -> list[str]:
    return [e.id for e in endings]


# --- the match -------------------------------------------------------------------------------------------------


def match_of_people(state: State, seed: int = 1) -> Match:
    """A match of people only (nobody plays by itself), of the game and options ``state`` was built with."""
    game = state.game
    seats = [HUMAN] * game.num_seats
    return services.create_match(game.spec.id, seats, seed=seed, options=game.options, host_seat=None,
                                 schedule_agents=False)


def put_position(match: Match, state: State) -> Match:
    """Store ``state`` as ``match``'s current position, as the match service stores a state (its JSON), so that the
    next move goes through ``services.submit_action`` from there. The version is kept: clients send it back."""
    game = selectors.game_of(match)
    assert (state.game.spec.id, state.game.options, state.game.num_seats) == (game.spec.id, game.options,
                                                                             game.num_seats)
    assert not state.is_terminal(), "the position must be one just before the ending"
    Match.objects.filter(pk=match.pk).update(state=state.to_json())
    match.refresh_from_db()
    return match


def play(match: Match, moves) -> Match:
    """Play ``moves`` through the match service, each at the match's current version."""
    for move in moves:
        match.refresh_from_db()
        assert match.status == Match.Status.ACTIVE, f"the match ended before {move}"
        seat, what, *text = move
        if seat == JUDGE:
            services.apply_verdict(match.pk, what, text[0], expected_version=match.version)
        elif seat == TIMEOUT:
            time_runs_out(match, what)
        else:
            services.submit_action(match.pk, seat, what, text=text[0] if text else None,
                                   expected_version=match.version, schedule_agents=False)
    match.refresh_from_db()
    return match


def moves_to_the_end(build: Callable[[], State], choose: Callable[[State, int], str]) -> tuple[Move, ...]:
    """The moves that play the position ``build`` makes to its end, each seat due choosing ``choose(state, seat)``
    (worked out on a position of its own: the test then plays them through the platform)."""
    state, moves = build(), []
    while not state.is_terminal():
        seat = state.current_seats()[0]
        moves.append((seat, choose(state, seat)))
        state.apply_action(*moves[-1])
        assert len(moves) < 500, "the position does not end"
    return tuple(moves)


def time_runs_out(match: Match, seat: int) -> None:
    """Seat ``seat``'s time for its decision runs out (its clock set back past the limit, as the server's clock
    would have it) and the turn timer's sweep applies its timeout action, through the one action path."""
    limit = selectors.state_of(match).time_limit(seat)
    assert limit, f"seat {seat} is not timed now"
    started = timezone.now() - timedelta(seconds=limit + 1)
    Match.objects.filter(pk=match.pk).update(turn_started_at=started)
    assert timeouts.apply_timeouts(match.pk) == [seat]


def end_by(ending: Ending) -> Match:
    """The match of ``ending``, played to its end through the platform."""
    position = ending.build()
    final = ending.final() if callable(ending.final) else ending.final
    return play(put_position(match_of_people(position), position), final)


# --- what every seat reads -------------------------------------------------------------------------------------


def names_of(match: Match) -> dict[int, str]:
    return {s.index: s.display_name for s in match.seats.all()}


def top_seats(scores: list[float]) -> tuple[int, ...]:
    """The seats the scores make winners: those with the top score, () when every score is equal (a draw)."""
    if len(set(scores)) == 1:
        return ()
    return tuple(s for s, score in enumerate(scores) if score == max(scores))


def listed(text: str) -> set[str]:
    """The names in "A", "A and B", "A, B and C", "A, B, C"."""
    head, _, last = text.rpartition(" and ")
    return {*(head.split(", ") if head else ()), *last.split(", ")}


def outcome_names(outcome: str, seat: int | None, names: dict[int, str]) -> set[int]:
    """The seats an outcome sentence of the status line names as winners: "You won!", "You won, with A and B!",
    "You lost. A won.", "A and B won." (seat None: a spectator's)."""
    by_name = {name: s for s, name in names.items()}
    if m := re.fullmatch(r"You won(?:, with (.+))?!", outcome):
        return {seat, *(by_name[n] for n in listed(m.group(1)))} if m.group(1) else {seat}
    m = re.fullmatch(r"(?:You lost\. )?(.+) won\.", outcome)
    assert m, f"not an outcome sentence: {outcome!r}"
    assert (seat is None) != outcome.startswith("You lost. "), outcome
    return {by_name[n] for n in listed(m.group(1))}


def own_sentence(state: State) -> bool:
    """Whether each seat's status line is the game's own sentence: a cooperative game (one team) or a dialogue game
    (each seat its own payoff), as the platform's result line decides (result_lines.result_text)."""
    return state.game.spec.dialogue is not None or len(set(state.game.teams())) == 1


def board_html(view: selectors.SeatView) -> str:
    """The board region of a seat's page, as the page and its socket draw it."""
    return render_to_string("gameplay/partials/seat_view.html", {**view_context(view), "region": "board"})


def status_html(view: selectors.SeatView) -> str:
    return render_to_string("gameplay/partials/seat_view.html", {**view_context(view), "region": "side"})


def viewers(match: Match) -> list[Seat | None]:
    """Every seat of the match, then the public (a spectator)."""
    return [*match.seats.order_by("index"), None]


def check_every_seat_reads(match: Match, ending: Ending) -> None:
    """The match is over by ``ending``'s way: the engine's reason says so, the scores make ``ending.winners`` the
    winners, and every seat's (and a spectator's) status line names them (or says draw) and ends with that reason;
    its page shows that line, and a board that words a result of its own agrees with it (``check_board_agrees``)."""
    assert match.status == Match.Status.FINISHED, ending.id
    state = selectors.state_of(match)
    reason = state.end_reason()
    assert reason and ending.reason in reason, (ending.id, reason)
    winners = top_seats(match.scores)
    expected = ending.winners(state) if callable(ending.winners) else ending.winners
    if expected is not None:
        assert winners == tuple(sorted(expected)), (ending.id, match.scores, expected)
    names = names_of(match)
    for seat in viewers(match):
        index = None if seat is None else seat.index
        view = selectors.seat_view(match, seat)
        result = view.result
        assert result, (ending.id, index)
        if own_sentence(state):
            assert result == state.result_text(), (ending.id, index, result)
            assert ending.says in result, (ending.id, index, result)
        else:
            assert result.endswith(" " + reason), (ending.id, index, result, reason)
            outcome = result[: -len(reason) - 1]
            if not winners:
                assert outcome == "The match ended in a draw.", (ending.id, index, result)
            else:
                assert outcome_names(outcome, index, names) == set(winners), (ending.id, index, result)
        assert unescape(status_html(view)).count(result) == 1, (ending.id, index)
        check_board_agrees(f"{ending.id} seat {index}", board_html(view), state, names, winners, result)
    check_match_list_agrees(match, ending.id)


def check_match_list_agrees(match: Match, ending_id: str = "") -> None:
    """The match lists' and the replay's words (selectors.public_result) are the spectator's status line, the game's
    reason aside: the same winners, or the same draw."""
    spectator = selectors.seat_view(match, None).result
    listed_result = selectors.public_result(match)
    assert listed_result and spectator.startswith(listed_result), (ending_id, listed_result, spectator)


# --- the board's own result --------------------------------------------------------------------------------------


class _MarkedText(HTMLParser):
    """The text of each element marked ``data-board-result`` (nested markup included), in document order."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self._depth = 0  # open elements inside the marked one (0: outside any)

    def handle_starttag(self, tag, attrs):
        if self._depth:
            self._depth += tag not in VOID
        elif any(name == "data-board-result" for name, _ in attrs):
            self.texts.append("")
            self._depth = 1

    def handle_endtag(self, tag):
        if self._depth and tag not in VOID:
            self._depth -= 1

    def handle_data(self, data):
        if self._depth:
            self.texts[-1] += data


VOID = {"br", "img", "input", "hr", "meta", "link", "wbr", "source"}


def board_results(html: str) -> list[str]:
    """The result wording of a board: every board that words a result of its own marks that element with
    ``data-board-result``; its text, whitespace folded."""
    parser = _MarkedText()
    parser.feed(html)
    return [" ".join(t.split()) for t in parser.texts]


# Boards that word the game's result themselves (the others leave it to the status line).
BOARDS_WITH_RESULTS = {"arctic_scavengers", "codenames", "debate", "fruit_trading", "hive", "meeting_scheduling",
                       "sea_battle", "two_rooms_and_a_boom", "who_is_spy", "are_you_the_traitor"}


def camps(state: State) -> dict[str, set[int]]:
    """Names a board may give a side that wins together, and its seats, from the finished state: a public team
    (Codenames' Red and Blue), a card colour revealed at the end (Two Rooms' Red and Blue), a camp (Who is Spy's spies
    and villagers)."""
    game, n = state.game, state.game.num_seats
    named: dict[str, set[int]] = {}
    teams = game.teams()
    if len(set(teams)) not in (1, n):
        for team in set(teams):
            named[game.team_name(team)] = {s for s in range(n) if teams[s] == team}
    if game.spec.id == "two_rooms_and_a_boom":
        from gameplay.engines.two_rooms_and_a_boom.cards import BLUE, RED, team_of

        for colour in (RED, BLUE):
            named[str(colour).title()] = {s for s, card in enumerate(state.cards) if team_of(card) == colour}
    if game.spec.id == "who_is_spy":
        named["spies"] = set(state.spies)
        named["villagers"] = set(range(n)) - set(state.spies)
    return named


def board_winners(text: str, state: State, names: dict[int, str]) -> tuple[int, ...]:
    """The seats a board's result wording names as winners, read as a person reads it: "a draw" names none;
    otherwise "<name> wins" / "<team> team wins" / "the <camp> win", "Shared win for A and B (", "Winners: A, B",
    and a Gambler's bet that "wins"."""
    if re.search(r"\bdraw\b", text, re.IGNORECASE):
        return ()
    sides = {name: {seat} for seat, name in names.items()} | camps(state)
    alts = "|".join(re.escape(n) for n in sorted(sides, key=len, reverse=True))
    found: set[int] = set()
    for m in re.finditer(rf"(?<![\w(])({alts})(?: team)? wins?\b", text):
        found |= sides[m.group(1)]
    for m in re.finditer(r"(?:Shared win for|Winners?:) (.+?)(?: \(|\.$|$)", text):
        found |= {seat for name in listed(m.group(1)) for seat in sides[name]}
    for m in re.finditer(rf"The Gambler \(({alts})\) bet on \w+ and wins", text):
        found |= sides[m.group(1)]
    assert found, f"a board result naming no winner and no draw: {text!r}"
    return tuple(sorted(found))


def check_board_agrees(ending_id: str, html: str, state: State, names: dict[int, str], winners: tuple[int, ...],
                       status: str) -> None:
    """A board that words a result of its own says what the status line says: the same winners (or a draw), or,
    where the status line is the game's own sentence (a dialogue game), the same outcome."""
    texts = board_results(html)
    assert bool(texts) == (state.game.spec.id in BOARDS_WITH_RESULTS), (ending_id, texts)
    for text in texts:
        if state.game.spec.dialogue is not None:
            check_same_outcome(ending_id, text, status)
        else:
            assert board_winners(text, state, names) == winners, (ending_id, text, winners)


def check_same_outcome(ending_id: str, board: str, status: str) -> None:
    """A dialogue game's board and status line tell the same outcome: the board's verdict ("Verdict: both sides win
    (...)") is the status line's, and a negotiation's outcome ("Agreement on Thursday", "No agreement", "Trade",
    "Out of turns") opens both."""
    if m := re.match(r"Verdict: (.+?) \(", board):
        assert f": {m.group(1)}." in status, (ending_id, board, status)
        return
    outcome = board.split(":")[0]
    assert status.startswith(outcome + ":"), (ending_id, board, status)
