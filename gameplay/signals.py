"""Signals other apps may listen to (gameplay itself imports nothing from them)."""

from django.dispatch import Signal

# Sent once per match, after the transaction that finished it has committed.
# sender: gameplay.models.Match; keyword arguments: match_id, game_id.
match_finished = Signal()

# Sent when a seat played by an agent must act in an active match (after creating it, after a move, when a
# next round starts), once the transaction that made the turn due has committed, so whoever plays the turn
# (agents_app queues its Celery task) never reads an uncommitted match. Outside any transaction it is sent
# at once. sender: gameplay.models.Match; keyword arguments: match_id.
agent_turn_due = Signal()

# Sent when a seat's chat line has committed, if the match has an agent seat other than the sender's, so an agent
# may answer between its own moves. sender: gameplay.models.Match; keyword arguments: match_id, seat (the sender),
# seq (the message event's sequence number).
chat_posted = Signal()

# Sent when an applied action leaves a judged dialogue game waiting for its verdict (``State.awaiting_verdict``), once
# that transaction has committed (and again by the watchdog for a match left waiting): agents_app asks its judge
# model, or applies the game's rule, through ``gameplay.writes.services.apply_verdict``. sender: gameplay.models.Match;
# keyword arguments: match_id.
verdict_awaited = Signal()
