"""Reads: how a finished match's result line reads, to one seat ("You won!", "You resigned. Player 2 won.") or to a
spectator, from the match's winner, scores, resignation or agreed draw and the game's own words (State.end_reason,
State.result_text)."""

from __future__ import annotations

from gameplay.engines.api import State
from gameplay.models import Match


def result_text(match: Match, names: dict[int, str], seat_index: int | None, state: State | None = None) -> str | None:
    if match.status != Match.Status.FINISHED:
        return None
    cooperative = state is not None and len(set(state.game.teams())) == 1
    if match.resigned_seat is not None:
        return resignation_text(match, names, seat_index, cooperative)
    if match.agreed_draw:
        return "Drawn by agreement."
    # Everyone wins or loses together, or (a dialogue game) each seat has its own payoff and a higher share is no
    # win: the game says how it went.
    general_sum = state is not None and state.game.spec.dialogue is not None
    if cooperative or general_sum:
        text = state.result_text()
        if text:
            return text
    # Who won, from the scores, then why, in the game's own words (State.end_reason).
    reason = state.end_reason() if state is not None else None
    if match.winner is None:
        winners = shared_winners(match.scores)
        if not winners:
            return with_reason("The match ended in a draw.", reason)
        # Several seats share the win (a team, or a camp revealed at the end): name them, and the game's own words.
        return with_reason(shared_win_text(winners, names, seat_index), reason)
    if seat_index is not None:
        won = "You won!" if match.winner == seat_index else f"You lost. {names.get(match.winner)} won."
        return with_reason(won, reason)
    return with_reason(f"{names.get(match.winner)} won.", reason)


def with_reason(outcome: str, reason: str | None) -> str:
    return f"{outcome} {reason}" if reason else outcome


def shared_winners(scores: list | None) -> list[int]:
    """The seats sharing the top score when the scores are not all equal (a team's win), else []."""
    if not scores or len(set(scores)) == 1:
        return []
    best = max(scores)
    return [seat for seat, score in enumerate(scores) if score == best]


def shared_win_text(winners: list[int], names: dict[int, str], seat_index: int | None) -> str:
    """"You won, with Player 3!", "You lost. Player 1 and Player 3 won.", "Player 1 and Player 3 won." """
    def listed(seats: list[int]) -> str:
        named = [names.get(s, f"seat {s}") for s in seats]
        return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]

    if seat_index is None:
        return f"{listed(winners)} won."
    if seat_index in winners:
        partners = [s for s in winners if s != seat_index]
        return f"You won, with {listed(partners)}!" if partners else "You won!"
    return f"You lost. {listed(winners)} won."


def resignation_text(match: Match, names: dict[int, str], seat_index: int | None, cooperative: bool) -> str:
    """"You resigned. Player 2 won.", "Player 1 resigned. You won!", "Gnome A gave up, so the game ended."; when
    several seats share the win (the other team, or every other player): "Player 1 resigned. You won, with Player 4!"
    and, to the resigning seat's teammate, "Player 1 resigned. You lost. Player 2 and Player 4 won." """
    resigned = match.resigned_seat
    who = "You" if seat_index == resigned else names.get(resigned, f"seat {resigned}")
    if cooperative:
        return f"{who} gave up, so the game ended."
    if match.winner is None:
        winners = shared_winners(match.scores)
        if not winners:
            return f"{who} resigned; the others share the win."
        # Name them: "the others" would count the resigning seat's own teammates among the winners.
        reader = None if seat_index == resigned else seat_index  # "You resigned. Player 2 and Player 4 won."
        return f"{who} resigned. {shared_win_text(winners, names, reader)}"
    if match.winner == seat_index:
        return f"{who} resigned. You won!"
    return f"{who} resigned. {names.get(match.winner)} won."
