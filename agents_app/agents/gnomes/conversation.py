"""When the communicating agent speaks, and what: one chat line a turn at most, each with a purpose.

The paper's agent speaks about twice as often as its partner, and each line does something. Ours used to put
the planner's favourite partner move into words at every turn ("Can you stay put this turn?" over and over),
which reads as noise and drowns the partner's own lines. The rules here:

- a question is answered (and nothing else is said that turn);
- a request the agent cannot carry out is refused with the reason, the wall on its side;
- a request it carries out is acknowledged ("OK, moving right.");
- it asks the partner for a move only when that is news: not while the partner is carrying out the same
  request, and not the request it made last before the partner has said anything since (silence means the
  request stands; asking for something else replaces it);
- and never the very line it sent last, unless a partner line came after it in the chat (whatever the branch:
  a refusal or an answer is not repeated either).

Everything is read again from the observation's chat and history at each decision: agents keep no state.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from .belief import suggestion_action
from .flags import Flag
from .messages import cannot, suggest
from .select import Selection


def acknowledge(action: str) -> str:
    """The line for a partner's request the agent is about to carry out."""
    return "OK, I'll stay put." if action == "stay" else f"OK, moving {action}."


def compose(
    data: Mapping,
    seat: int,
    selection: Selection,
    input_flag: Flag,
    answer: Callable[[], str],
    request_just_followed: Callable[[Flag], bool],
) -> str | None:
    """The agent's line this turn, or None to stay quiet.

    ``answer`` is called only when there is a question to answer (it may ask a model);
    ``request_just_followed(flag)``: the partner has just carried out that same request."""
    line = _line(data, seat, selection, input_flag, answer, request_just_followed)
    if line is not None and line == last_line(data, seat) and not partner_spoke_since_my_last_line(data, seat):
        return None
    return line


def _line(data, seat, selection, input_flag, answer, request_just_followed) -> str | None:
    flag = selection.output_flag
    if flag == Flag.INQUIRY:
        return answer()
    if flag == Flag.REJECT:
        # The refusal stands alone: a request in the same line would read as that request, not as a wall.
        return cannot(selection.rejected_request) if selection.rejected_request else None
    parts = []
    if input_flag.action is not None and selection.action == input_flag.action:
        parts.append(acknowledge(selection.action))
    if flag.action is not None and not request_just_followed(flag) and flag.action != standing_request(data, seat):
        parts.append(suggest(flag))
    return " ".join(parts) or None


def _chat(data: Mapping) -> list[Mapping]:
    return list(data.get("chat") or ())


def partner_lines_since_my_move(data: Mapping, seat: int) -> list[str]:
    """The partner's chat lines posted after this seat's latest move (all of them before its first).

    By turn, not by position in the chat: a partner who answers at once can get their line in before this
    seat's own line about that same move is posted."""
    my_moves = [entry for entry in data.get("history") or () if entry["seat"] == seat]
    since = int(my_moves[-1]["turn"]) if my_moves else 0
    return [str(line["text"]) for line in _chat(data) if line["seat"] != seat and line["turn"] >= since]


def partner_lines(data: Mapping, seat: int) -> list[str]:
    """Every chat line the partner has posted this round, in chat order."""
    return [str(line["text"]) for line in _chat(data) if line["seat"] != seat]


def standing_request(data: Mapping, seat: int) -> str | None:
    """The move this seat asked for last, if the partner has not said anything after it in the chat: asking
    again adds nothing (None when the partner has spoken since, or nothing was asked)."""
    for line in reversed(_chat(data)):
        if line["seat"] != seat:
            return None
        action = suggestion_action(str(line["text"]))
        if action is not None:
            return action
    return None


def last_line(data: Mapping, seat: int) -> str | None:
    mine = [line for line in _chat(data) if line["seat"] == seat]
    return str(mine[-1]["text"]) if mine else None


def partner_spoke_since_my_last_line(data: Mapping, seat: int) -> bool:
    """Whether a partner line comes after this seat's latest line in the chat. By chat position on purpose:
    a partner line that reached the chat just before the agent's own line (the partner typed while the agent's
    line was being posted) crossed it, and saying the same thing again would answer nothing new."""
    chat = _chat(data)
    return bool(chat) and chat[-1]["seat"] != seat
