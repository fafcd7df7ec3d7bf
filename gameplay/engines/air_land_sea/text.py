"""Everything the engine says: action labels, event wording and observations, each worded for one viewer.

A viewer only ever sees a card's id (its name) when the card is theirs, face up, or was shown face up earlier in
this battle (``state.seen``); every other card is "a face-down card".
"""

from __future__ import annotations

from ..api import ActionLabels
from . import board
from .cards import CARDS, THEATER_NAMES, withdraw_points


def theater(state, pos: int) -> str:
    return THEATER_NAMES[state.theaters[pos]]


def name(state, seat: int) -> str:
    return state.game.seat_name(seat)


def whose(state, viewer: int | None, side: int) -> str:
    return "your" if viewer == side else f"{name(state, side)}'s"


def visible(state, viewer: int | None, side: int, card: dict) -> bool:
    return card["up"] or viewer == side or card["id"] in state.seen


def card_words(state, viewer: int | None, side: int, card: dict) -> str:
    if not visible(state, viewer, side, card):
        return "a face-down card"
    return CARDS[card["id"]].title + ("" if card["up"] else " (face down)")


def owned_card_words(state, viewer: int | None, side: int, card: dict) -> str:
    """"your A3 Maneuver", "Red's A3 Maneuver (face down)" or "Red's face-down card" (never "Red's a ...")."""
    words = card_words(state, viewer, side, card)
    return f"{whose(state, viewer, side)} {words.removeprefix('a ')}"


# --- labels of legal actions (the acting seat's words) ------------------------------------------------------
def play_label(state, seat: int, slot: int, pos: int, up: bool, doom: str | None) -> str:
    """``doom``: what would destroy this play (board.destroyed_on_play), worked out once per theater."""
    card = CARDS[state.hands[seat][slot]]
    warn = f" (destroyed by {doom})" if doom else ""
    if up:
        return f"Deploy {card.title} face up to {theater(state, pos)}{warn}"
    return f"Improvise: {card.title} face down to {theater(state, pos)}{warn}"


def withdraw_label(state, seat: int) -> str:
    points = withdraw_points(seat == state.first, len(state.hands[seat]))
    return f"Withdraw from this battle ({name(state, 1 - seat)} scores {points} VP)"


def flip_label(state, seat: int, pos: int, side: int) -> str:
    card = state.stacks[pos][side][-1]
    turn = "face down" if card["up"] else "face up"
    return f"Flip {owned_card_words(state, seat, side, card)} in {theater(state, pos)} {turn}"


def move_label(state, seat: int, pos: int, index: int, dest: int) -> str:
    card = state.stacks[pos][seat][index]
    return f"Transport {card_words(state, seat, seat, card)} from {theater(state, pos)} to {theater(state, dest)}"


def return_label(state, seat: int, pos: int, index: int) -> str:
    card = state.stacks[pos][seat][index]
    return f"Redeploy: return {card_words(state, seat, seat, card)} from {theater(state, pos)} to your hand"


def reinforce_label(state, seat: int, pos: int) -> str:
    top = CARDS[state.deck[0]].title
    return f"Reinforce: place the top deck card ({top}) face down in {theater(state, pos)}"


def action_labels(state, seat: int, action_id: str) -> ActionLabels:
    """The acting seat reads its own label; everyone else reads a wording that names no hidden card."""
    own = next((a.label for a in state.legal_actions(seat) if a.id == action_id), action_id)
    parts = action_id.split(":")
    who = name(state, seat)
    verb = parts[0]
    if verb == "play":
        pos, up = int(parts[2]), parts[3] == "up"
        if up:  # the card is still in hand (secret) when labels are made: the board's event feed names it
            other = f"{who} deploys a card face up to {theater(state, pos)}"
        else:
            other = f"{who} plays a card face down to {theater(state, pos)}"
    elif verb == "flip":
        pos, side = int(parts[1]), int(parts[2])
        card = state.stacks[pos][side][-1]
        turn = "face down" if card["up"] else "face up"
        other = f"{who} flips {owned_card_words(state, None, side, card)} in {theater(state, pos)} {turn}"
    elif verb == "move":
        p, i, q = (int(x) for x in parts[1:])
        card = state.stacks[p][seat][i]
        route = f"from {theater(state, p)} to {theater(state, q)}"
        other = f"{who} transports {card_words(state, None, seat, card)} {route}"
    elif verb == "return":
        p, i = int(parts[1]), int(parts[2])
        card = state.stacks[p][seat][i]
        other = f"{who} returns {card_words(state, None, seat, card)} from {theater(state, p)} to hand (Redeploy)"
    elif verb == "reinforce":
        other = f"{who} places the top deck card face down in {theater(state, int(parts[1]))} (Reinforce)"
    elif verb in ("withdraw", "next_battle"):
        other = f"{who}: {own[0].lower()}{own[1:]}"
    else:
        other = f"{who} does not use the optional effect"
    return ActionLabels(by_seat=tuple(own if s == seat else other for s in (0, 1)), public=other)


# --- event wording (after the fact; a tuple is (actor's text, everyone else's)) -------------------------------
def played_text(state, seat: int, card_id: str, pos: int, up: bool, source: str, reason: str | None):
    who, where, title = name(state, seat), theater(state, pos), CARDS[card_id].title
    fate = f", destroyed by {reason}" if reason else ""
    if up:
        return f"{who} deploys {title} face up to {where}{fate}."
    origin = " from the top of the deck (Reinforce)" if source == "deck" else ""
    return (f"{who} plays {title} face down{origin} to {where}{fate}.",
            f"{who} plays a face-down card{origin} to {where}{fate}.")


def flipped_text(state, seat: int, pos: int, side: int) -> str:
    card = state.stacks[pos][side][-1]  # already flipped; either way it has now been seen face up
    turn = "face up" if card["up"] else "face down"
    return f"{name(state, seat)} flips {name(state, side)}'s {CARDS[card['id']].title} in {theater(state, pos)} {turn}."


def moved_text(state, seat: int, card: dict, src: int, dest: int):
    route = f"from {theater(state, src)} to {theater(state, dest)}"
    return (f"{name(state, seat)} transports {card_words(state, seat, seat, card)} {route}.",
            f"{name(state, seat)} transports {card_words(state, None, seat, card)} {route}.")


def returned_text(state, seat: int, card_id: str, pos: int):
    card = {"id": card_id, "up": False}
    return (f"{name(state, seat)} returns {card_words(state, seat, seat, card)} from {theater(state, pos)} to hand.",
            f"{name(state, seat)} returns {card_words(state, None, seat, card)} from {theater(state, pos)} to hand.")


def battle_result(state, entry: dict) -> str:
    how = "after a withdrawal" if entry["how"] == "withdrawal" else "holding two or more theaters"
    return (f"Battle {entry['battle']} goes to {name(state, entry['winner'])} {how}: +{entry['points']} VP "
            f"(now {name(state, 0)} {state.vp[0]}, {name(state, 1)} {state.vp[1]}).")


def battle_start(state) -> str:
    return (f"Battle {state.battle} begins: theaters {', '.join(theater(state, p) for p in range(3))}; "
            f"{name(state, state.first)} is the 1st Player.")


def leader(state) -> int | None:
    """The seat that won the war: the one that reached the target VP, else (the action cap) the one with more VP;
    None for a draw (the cap with the VP level)."""
    if state.winner_seat is not None:
        return state.winner_seat
    if state.vp[0] == state.vp[1]:
        return None
    return 0 if state.vp[0] > state.vp[1] else 1


def result_text(state) -> str:
    """The board's last line: who won, the winner's VP first ("Red wins the war, 13–0 VP.")."""
    won = leader(state)
    if won is None:
        return f"Stopped at the platform's action cap with the VP level ({state.vp[0]}–{state.vp[1]}): a draw."
    score = f"{state.vp[won]}–{state.vp[1 - won]} VP"
    if state.winner_seat is not None:
        return f"{name(state, won)} wins the war, {score}."
    return f"Stopped at the platform's action cap: {name(state, won)} wins on VP, {score}."


def end_reason(state) -> str:
    """Why a finished game ended (State.end_reason): the battle that took a side to the target VP, or the action
    cap and the VP that decided it. Names no card: nothing hidden is revealed."""
    target = state.game.options["target_vp"]
    won = state.winner_seat
    if won is not None:
        last = state.history[-1]
        if last["how"] == "withdrawal":
            how = (f"{name(state, 1 - won)} withdrew from battle {last['battle']}; the {last['points']} VP this "
                   f"gave {name(state, won)} reached")
        else:
            how = (f"{name(state, won)} won battle {last['battle']} by holding two or more theaters "
                   f"(+{last['points']} VP) and reached")
        reason = (f"{how} the {target} VP target ({name(state, won)} {state.vp[won]}, "
                  f"{name(state, 1 - won)} {state.vp[1 - won]}).")
    else:
        cap = (f"The platform's {state.game.options['action_cap']:,}-action cap was reached before either side "
               f"had {target} VP")
        ahead = leader(state)
        if ahead is None:
            reason = f"{cap}, with the VP level ({state.vp[0]} each)."
        else:
            reason = f"{cap}; {name(state, ahead)} has more VP ({state.vp[ahead]} to {state.vp[1 - ahead]})."
    if state.game.options["gamebench_vp_share_scores"]:
        reason += " Each side scores its share of the VP."
    return reason


# --- observations ---------------------------------------------------------------------------------------------
def card_view(state, viewer: int | None, pos: int, side: int, index: int, ups: dict) -> dict:
    card = state.stacks[pos][side][index]
    shown = visible(state, viewer, side, card)
    info = CARDS[card["id"]] if shown else None
    return {
        "id": info.id if info else None,
        "name": info.name if info else None,
        "kind": info.kind if info else None,
        "effect": info.effect if info else None,
        "up": card["up"],
        "strength": board.card_strength(state.stacks, pos, side, index, ups),
        "printed": info.strength if info else None,
        "covered": index < len(state.stacks[pos][side]) - 1,
    }


def hand_view(card_id: str, slot: int) -> dict:
    info = CARDS[card_id]
    return {"slot": slot, "id": info.id, "name": info.name, "kind": info.kind, "effect": info.effect,
            "printed": info.strength, "type": info.type, "theater": THEATER_NAMES[info.type]}


def decision_prompt(state, viewer: int | None) -> str | None:
    d = state.decision
    if d is None:
        return None
    card = CARDS[d["card"]]
    if viewer != d["seat"]:
        return f"{name(state, d['seat'])} is choosing for {card.name}."
    kind = d["kind"]
    if kind == "maneuver":
        return f"{card.name}: flip an uncovered card in a theater next to {theater(state, d['pos'])}."
    if kind == "ambush":
        return "Ambush: flip an uncovered card in any theater."
    if kind == "disrupt":
        return f"Disrupt: flip one of {whose(state, viewer, d['side'])} uncovered cards."
    if kind == "transport":
        return "Transport: you may move one of your cards to another theater."
    if kind == "redeploy":
        return "Redeploy: you may return one of your face-down cards to hand, then play again."
    if kind == "redeploy_play":
        return "Redeploy: play another card now."
    return (f"Reinforce: the top deck card is {CARDS[state.deck[0]].title}; place it face down in a theater next "
            f"to {theater(state, d['pos'])}.")


def observation_data(state, viewer: int | None) -> dict:
    theaters = []
    ups = board.face_up_map(state.stacks)
    for pos in range(3):
        theaters.append({
            "pos": pos, "type": state.theaters[pos], "name": theater(state, pos),
            "totals": [board.total(state.stacks, pos, s, ups) for s in (0, 1)],
            "controller": board.controller(state.stacks, pos, state.first, ups),
            "stacks": [[card_view(state, viewer, pos, s, i, ups) for i in range(len(state.stacks[pos][s]))]
                       for s in (0, 1)],
        })
    mine = viewer in (0, 1)
    acting = state.acting_seat()
    return {
        "you": viewer,
        "seat_names": [name(state, s) for s in (0, 1)],
        "battle": state.battle,
        "vp": list(state.vp),
        "target_vp": state.game.options["target_vp"],
        "first": state.first,
        "theaters": theaters,
        "hand": [hand_view(c, i) for i, c in enumerate(state.hands[viewer])] if mine else [],
        "hand_sizes": [len(h) for h in state.hands],
        "deck_size": len(state.deck),
        "turn_seat": state.turn_seat,
        "acting": acting,
        "my_turn": mine and acting == viewer,
        "decision": state.decision["kind"] if state.decision else None,
        "prompt": decision_prompt(state, viewer),
        "air_drop": bool(mine and state.airdrop[viewer]),
        "withdraw_vp": [withdraw_points(s == state.first, len(state.hands[s])) for s in (0, 1)],
        "events": [{"seat": e["seat"], "text": e["public"] if viewer is None else e["texts"][viewer]}
                   for e in state.events],
        "history": [battle_line(state, h) for h in state.history],
        "between": state.between,
        "over": state.is_terminal(),
        "result": result_text(state) if state.is_terminal() else None,
    }


def battle_line(state, entry: dict) -> str:
    how = "withdrawal" if entry["how"] == "withdrawal" else "control"
    return f"Battle {entry['battle']}: {name(state, entry['winner'])} +{entry['points']} VP ({how})"


def _card_line(card: dict) -> str:
    if card["id"] is None:
        return f"face-down card (strength {card['strength']})"
    face = "face up" if card["up"] else "face down"
    return f"{card['id']} {card['name']} ({face}, strength {card['strength']})"


def observation_text(state, viewer: int | None, data: dict) -> str:
    names = data["seat_names"]
    lines = [
        f"Battle {data['battle']}. VP: {names[0]} {data['vp'][0]}, {names[1]} {data['vp'][1]} "
        f"(first to {data['target_vp']}). 1st Player (wins ties): {names[data['first']]}.",
    ]
    if viewer is not None:
        lines.append(f"You are {names[viewer]}.")
    lines.append("Theaters, left to right (only the middle one is adjacent to the others):")
    for t in data["theaters"]:
        lines.append(f"- {t['name']} (position {t['pos'] + 1}): totals {names[0]} {t['totals'][0]}, "
                     f"{names[1]} {t['totals'][1]}; held by {names[t['controller']]}.")
        for side in (0, 1):
            stack = t["stacks"][side]
            shown = "; ".join(_card_line(c) for c in stack) if stack else "empty"
            lines.append(f"    {names[side]} (bottom to top): {shown}")
    if data["hand"]:
        lines.append("Your hand: " + "; ".join(
            f"{c['id']} {c['name']} [{c['kind']}: {c['effect']}]" for c in data["hand"]))
    lines.append(f"Cards in hand: {names[0]} {data['hand_sizes'][0]}, {names[1]} {data['hand_sizes'][1]}; "
                 f"deck {data['deck_size']}.")
    if data["air_drop"]:
        lines.append("Air Drop: your next play may go face up into any theater.")
    if data["prompt"]:
        lines.append(data["prompt"])
    if data["events"]:
        lines.append("This battle so far (latest last): " + " ".join(e["text"] for e in data["events"][-8:]))
    if data["history"]:
        lines.append("Earlier battles: " + "; ".join(data["history"]) + ".")
    if data["result"]:
        lines.append(data["result"])
    return "\n".join(lines)
