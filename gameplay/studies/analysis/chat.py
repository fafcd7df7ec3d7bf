"""chat.csv: how much each side of the counted rounds talked, per condition and round (pure).

A partner that floods the chat (an agent asking the same thing every turn) changes what participants
experience, so the bundle reports it beside the outcomes: the messages of participants and of their partners
(agents or people), and the partners' messages per participant message.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .rows import analysis_flags, counted

CHAT_COLUMNS: dict[str, str] = {
    "round": "round number (1-based), or 'all' for every counted round of every participant",
    "condition": "the condition",
    "rounds": "counted rounds (as in anova.csv: completed, as assigned, each match once; 'all': every completed, "
    "as-assigned round)",
    "messages_participant": "chat messages the participants sent in those rounds",
    "messages_partner": "chat messages their partners sent (the agent, in an agent condition)",
    "partner_per_participant_message": "messages_partner / messages_participant; blank when participants sent none",
    "rounds_without_participant_messages": "rounds where the participant sent nothing",
}


def chat_rows(rows: Sequence[Mapping], conditions: Sequence[str], round_count: int) -> list[dict]:
    flags = analysis_flags(rows)
    result = []
    for label in [str(k) for k in range(1, round_count + 1)] + ["all"]:
        for c in conditions:
            if label == "all":
                mine = [r for r in rows if counted(r) and r["condition"] == c]
            else:
                mine = [
                    r
                    for r, kept in zip(rows, flags, strict=True)
                    if kept and r["condition"] == c and str(r["round"]) == label
                ]
            own = sum(int(r["messages_participant"] or 0) for r in mine)
            other = sum(int(r["messages_partner"] or 0) for r in mine)
            result.append({
                "round": label,
                "condition": c,
                "rounds": len(mine),
                "messages_participant": own,
                "messages_partner": other,
                "partner_per_participant_message": other / own if own else None,
                "rounds_without_participant_messages": sum(1 for r in mine if not int(r["messages_participant"] or 0)),
            })
    return result
