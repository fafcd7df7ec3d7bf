"""The benchmark's result as one JSON-able dict, and as the few lines a person reads."""

from __future__ import annotations

from gameplay.bench.measures import percentiles
from gameplay.bench.realtime import RunState


def summarize(run: RunState, seats_per_match: int, audit: dict, server: dict | None, client_cpu: float) -> dict:
    config = run.config
    measured = [s for s in run.sends if s.measured]
    applied = [s for s in measured if s.acked]
    round_trips = [(s.acked_at - s.sent_at) * 1000 for s in applied]
    # Each applied move to each other seat with a socket; the first of them (the partner, in a game of two); and
    # the last, once every other seat has it.
    every = [(at - s.sent_at) * 1000 for s in applied for at in s.deliveries.values()]
    partner = [(s.partner_at - s.sent_at) * 1000 for s in applied if s.deliveries]
    others = run.other_seats
    last = [(max(s.deliveries.values()) - s.sent_at) * 1000 for s in applied
            if s.deliveries and len(s.deliveries) == others.get(s.match_id)]
    errors = sum(run.errors.values())
    result = {
        "matches": config.matches,
        "seats": config.matches * seats_per_match,
        "urls": list(config.urls),
        "pace_s": config.pace,
        "warmup_s": config.warmup,
        "duration_s": config.duration,
        "moves_sent": len(measured),
        "moves_applied": len(applied),
        "moves_per_s": round(len(applied) / config.duration, 1) if config.duration else None,
        "round_trip_ms": percentiles(round_trips),
        "partner_delivery_ms": percentiles(partner),
        "delivery_ms": percentiles(every),
        "all_seats_delivery_ms": percentiles(last),
        "undelivered": run.undelivered(),
        "agent_reply_ms": percentiles(run.agent_replies_ms) if run.agent_replies_ms else None,
        "agent_moves_per_s": round(len(run.agent_replies_ms) / config.duration, 1) if run.agent_replies_ms else None,
        "errors": errors,
        "error_kinds": dict(run.errors),
        "error_samples": run.error_samples,
        "rejected_moves": sum(1 for s in run.sends if s.rejected is not None),
        "unacknowledged": sum(1 for s in run.sends if s.acked_at is None and s.rejected is None),
        **audit,
        "matches_created": len(run.match_ids),
        "matches_finished": run.finished_matches,
        "client_cpu_s": round(client_cpu, 2),
        "server": None,
        "flood": {"sockets": config.flood, "frames_sent": run.flood_frames, "closed": run.flood_closed,
                  "reconnects_refused": run.flood_refused} if config.flood else None,
    }
    if server is not None:
        per_move = server["cpu_seconds"] * 1000 / len(applied) if applied else None
        result["server"] = {**server, "cpu_ms_per_move": round(per_move, 2) if per_move is not None else None}
    return result


def _line(label: str, stats: dict) -> str:
    if not stats["count"]:
        return f"{label}: no samples"
    return (f"{label}: p50 {stats['p50']} ms, p90 {stats['p90']} ms, p95 {stats['p95']} ms, p99 {stats['p99']} ms, "
            f"max {stats['max']} ms ({stats['count']})")


def format_text(result: dict) -> str:
    lines = [
        (f"{result['game']}, {result['seats_per_match']} seats a match: " if "game" in result else "")
        + f"{result['matches']} matches, {result['seats']} seats on {', '.join(result['urls'])}; "
        f"pace {result['pace_s']} s, measured {result['duration_s']} s after {result['warmup_s']} s warm-up",
        f"moves applied {result['moves_applied']} of {result['moves_sent']} sent, {result['moves_per_s']} moves/s; "
        f"matches created {result['matches_created']}, finished {result['matches_finished']}",
        _line("move round trip (mover)", result["round_trip_ms"]),
        _line("partner delivery (first other seat)", result["partner_delivery_ms"]),
        _line("delivery to each other seat", result["delivery_ms"]),
        _line("delivery to every other seat (the last)", result["all_seats_delivery_ms"]),
    ]
    if result["agent_reply_ms"]:
        lines.append(_line(f"agent reply ({result['agent_moves_per_s']} agent moves/s seen)", result["agent_reply_ms"]))
    lines += [
        f"errors {result['errors']} {result['error_kinds'] or ''}".rstrip()
        + f"; rejected moves {result['rejected_moves']}, unacknowledged {result['unacknowledged']}, "
        f"undelivered {result['undelivered']}",
        f"event log: lost {result['lost']}, duplicated {result['duplicated']}, version gaps {result['version_gaps']}, "
        f"applied but unacknowledged {result['applied_unacknowledged']}",
        f"client CPU {result['client_cpu_s']} s",
    ]
    lines += [f"  e.g. {sample}" for sample in result["error_samples"]]
    server = result["server"]
    if server:
        lines.append(
            f"server CPU {server['cpu_seconds']} s (by pid, children included: {server['cpu_seconds_by_pid']}; "
            f"{server['child_processes']} children): {server['cpu_ms_per_move']} ms per applied move"
        )
    if result["flood"]:
        flood = result["flood"]
        lines.append(f"flood: {flood['sockets']} sockets sent {flood['frames_sent']} clear frames; the server closed "
                     f"{flood['closed']} of them and refused {flood['reconnects_refused']} reconnections")
    return "\n".join(lines)
