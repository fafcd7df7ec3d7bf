"""Matches, their seats and the append-only event log.

Writes go through gameplay.writes.services; reads through gameplay.reads.selectors.
"""

import secrets

from django.db import models

from gameplay.reads.agent_directory import agent_label


def new_seat_token() -> str:
    # 32 random bytes, URL-safe: the only credential a seat's link carries.
    return secrets.token_urlsafe(32)


class Match(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", "In progress"
        FINISHED = "finished", "Finished"
        ABORTED = "aborted", "Aborted"

    game_id = models.CharField(max_length=64, db_index=True)
    options = models.JSONField(default=dict, blank=True)
    seed = models.BigIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE, db_index=True)
    # Number of actions applied so far; clients send it back to detect stale views.
    version = models.PositiveIntegerField(default=0)
    state = models.JSONField(help_text="Current engine state (engine JSON).")
    scores = models.JSONField(null=True, blank=True)
    winner = models.SmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Kept when the match finishes so analyses and the leaderboard read outcomes without rebuilding the state.
    final_measures = models.JSONField(
        null=True, blank=True, help_text="Per seat, the measures the game declares (GameSpec.measures) at the end."
    )
    final_teams = models.JSONField(
        null=True, blank=True,
        help_text="Team index per seat as the teams stood at the end (State.result_teams); empty when every seat was "
        "its own team.",
    )
    # When the current decision started; think time of the next action is measured from here.
    turn_started_at = models.DateTimeField(null=True, blank=True)
    # Games played as a sequence of rounds (e.g. the five Gnomes at Night rounds) chain their matches.
    previous_round = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="next_round"
    )
    # A rematch (gameplay.writes.follow_ups.start_rematch): the same players again, sides swapped, after this match.
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch"
    )
    # Private matches (study rounds) are never listed or replayable publicly: only their own players
    # (through their seat links or their study session) and staff see them.
    private = models.BooleanField(default=False, db_index=True)
    # Listed in the lobby's open games while a seat is free (issue 39, point 3): any visitor may take the seats its
    # host left to "another person" (gameplay.writes.open_seats). Never set on a private match.
    in_lobby = models.BooleanField(default=False, db_index=True)
    # A match started with invite links waits for everyone: nobody moves (people or agents) until every person's
    # seat has been taken (gameplay.writes.seat_claims.claim clears it), unless its host chose to start at once.
    wait_for_players = models.BooleanField(default=False)
    # The seat whose person resigned (or gave up) and so ended the match; its scores come from the engine
    # (State.resignation_scores).
    resigned_seat = models.SmallIntegerField(null=True, blank=True)
    # Draws by agreement (GameSpec.draw_by_agreement, gameplay.writes.match_endings): the seats whose people offer or
    # accept a draw of the position as it stands. A move by any other seat declines it, so it empties then.
    draw_agreed = models.JSONField(default=list, blank=True)
    # The match ended in a draw its players agreed (its scores: State.agreed_draw_scores).
    agreed_draw = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "matches"

    def __str__(self) -> str:
        return f"{self.game_id} #{self.pk} ({self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED


class Seat(models.Model):
    class Controller(models.TextChoices):
        HUMAN = "human", "Human"
        AGENT = "agent", "Agent"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    team = models.PositiveSmallIntegerField(default=0)
    controller = models.CharField(max_length=8, choices=Controller.choices)
    agent_name = models.CharField(max_length=100, blank=True, help_text="Registered agent id for agent seats.")
    token = models.CharField(max_length=64, unique=True, default=new_seat_token, editable=False)
    display_name = models.CharField(max_length=100, blank=True)
    is_host = models.BooleanField(default=False, help_text="The seat that created the match sees invite links.")
    joined_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["match", "index"]
        constraints = [models.UniqueConstraint(fields=["match", "index"], name="unique_seat_index")]

    def __str__(self) -> str:
        return f"seat {self.index} of match {self.match_id}"

    @property
    def is_agent(self) -> bool:
        return self.controller == self.Controller.AGENT

    @property
    def controller_label(self) -> str:
        # Shown after the seat's name ("Player 1 (a person)"), so never the name again; an agent by its label for
        # people ("agent: Search, level 3"), where it has one.
        return f"agent: {agent_label(self.agent_name)}" if self.is_agent else "a person"


class SeatClaim(models.Model):
    """A human seat of a match started from the new-match form, held by one browser (issue 13, Why 9).

    The host's seat is claimed by the browser that created the match; every other human seat by the first
    browser that accepts its invite link (``token``, single use, expiring). A claimed seat's pages answer only
    the browser holding the signed cookie set at the claim, so a seat link passed on is not a seat passed on.
    Seats of matches made otherwise (studies, agents, the command line) have no claim and keep bearer links.
    """

    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="claim")
    token = models.CharField(max_length=64, unique=True, default=new_seat_token, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    claimed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"claim of {self.seat}"


class Event(models.Model):
    """Append-only log: every applied action and every chat message, with server time."""

    class Kind(models.TextChoices):
        START = "start", "Start"
        ACTION = "action", "Action"
        MESSAGE = "message", "Message"
        END = "end", "End"
        SEAT = "seat", "Seat taken over"  # an agent took over a person's seat (absent_players.hand_seat_to_agent)
        DRAW = "draw", "Draw offer"  # a draw offered, accepted, declined or withdrawn (gameplay.writes.match_endings)

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField(help_text="Position in this match's log, from 1.")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    seat = models.SmallIntegerField(null=True, blank=True)
    payload = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    think_time_ms = models.PositiveIntegerField(null=True, blank=True)
    version = models.PositiveIntegerField(help_text="Match version after this event.")

    class Meta:
        ordering = ["match", "seq"]
        constraints = [models.UniqueConstraint(fields=["match", "seq"], name="unique_event_seq")]

    def __str__(self) -> str:
        return f"{self.kind} #{self.seq} of match {self.match_id}"

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise ValueError("events are append-only")
        super().save(*args, **kwargs)


class SeatConnection(models.Model):
    """One open websocket of a seat, so the number of sockets per seat can be bounded across server processes.

    Bookkeeping only, never part of a match's record: gameplay.web.socket_limits adds a row when a socket connects
    and deletes it when the socket closes. Rows left by a process that died are evicted like any other (oldest
    first); telling a channel nobody listens on to close is harmless.
    """

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="connections")
    channel_name = models.CharField(max_length=200, unique=True)
    opened_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seat", "opened_at", "id"]

    def __str__(self) -> str:
        return f"socket of {self.seat}"
