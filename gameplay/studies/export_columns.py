"""The columns of a study's files and what the README says about each, and which rounds.csv columns the
analysis tests, counts and follows to the goal: from the platform's own columns and what the study's game
declares (``GameSpec.measures``, ``goal_measure``), never from its id. ``exports`` writes the files."""

from __future__ import annotations

from gameplay.studies import measures, participant_measures, questionnaire
from gameplay.studies.analysis import report
from gameplay.studies.models import Study

KIND_WORDS = {"number": "a number", "bool": "1 (yes) or 0 (no)"}

# The platform's columns of rounds.csv, in order, with what the README says about each; the game's declared
# measures follow them (round_columns). measures builds rows with these keys.
ROUND_COLUMNS: dict[str, str] = {
    "study": "the study's slug",
    "participant": "pseudonymous participant id (P + database id; the same in every file)",
    "prolific_pid": "PROLIFIC_PID, if the study stores the ids from its link",
    "condition": "the participant's condition key",
    "condition_partner": "who the condition prescribes the participant plays with (e.g. 'agent random')",
    "round": "round number, 1-based, in the order the participant played",
    "options": "the round's game options as JSON (the study's round options with the condition's on top)",
    "match_id": "the round's match (every participant of a shared match has a row for it)",
    "seat": "the participant's seat in the match (0-based; the seat names are listed above); the row's measures "
    "are this seat's",
    "partner": "everyone else in the match in seat order, ';'-separated: participant ids or agent names",
    "partner_kind": "human, agent, mixed (people and agents) or blank (played alone)",
    "as_assigned": "1 if every seat was played as the condition prescribes (0 e.g. after a pairing timeout, "
    "and in the later rounds of a study that keeps the fallback agent: pairing_after_timeout \"agent\")",
    "status": "the match's status at export: finished, aborted (e.g. a partner left) or active",
    "departure": "left: this participant left the round mid-game (page closed or offline for 20 s); "
    "partner-left-agent / partner-left-end: a partner left and the study's rule applied (the fallback agent took "
    "their seat / the round ended); blank: nobody left",
    "completed": "1 if the match finished (the game reached its end)",
    "censored": "1 if the round finished without reaching the game's goal (its goal measure is 0, e.g. the turn "
    "cap was hit): its time and until-goal measures are censored, not times to the goal; 0 if the goal was "
    "reached; blank if not finished, or if the game declares no goal",
    "score": "the participant's seat's score from the game (0..1, all seats sum to 1); blank until finished",
    "won": "1 if the participant's team won (its summed score above every other team's, with the teams as they stood "
    "at the end: hidden camps count), 0 if it lost or drew; blank in cooperative games and until finished",
    "actions": "actions applied in the match by all seats (the match version)",
    "time_to_complete_s": "seconds from the round's start event to the match's end; blank if not completed",
    "messages_participant": "chat lines sent by this participant (free-text actions are not counted here: they "
    "are rows of messages.csv with kind action)",
    "messages_partner": "chat lines sent by everyone else in the match",
    "chars_participant": "total characters of this participant's messages",
    "chars_partner": "total characters of the others' messages",
    "mean_length_participant": "mean characters per message of this participant; blank without messages",
    "mean_length_partner": "mean characters per message of the others; blank without messages",
    "agent_think_ms_mean": "agent seats: mean decision time in ms (blank without agents)",
    "agent_think_ms_median": "agent seats: median decision time in ms",
    "agent_think_ms_max": "agent seats: longest decision time in ms",
    "agent_fallbacks": "agent seats: moves the platform or the agent played as a random legal fallback (a model "
    "that did not answer usably, an agent that failed); the reasons are in the match transcript",
    "agent_notes": "agent seats: the last note each agent recorded with a move, as 'agent: note', ' | '-separated "
    "(e.g. which intent parser the communicating agent trusted); blank without notes",
    "started_at": "server time of the round's start event (ISO 8601, UTC)",
    "finished_at": "server time the match ended, blank while playing or if aborted",
}
MESSAGE_COLUMNS: dict[str, str] = {
    "study": "the study's slug",
    "participant": "the participant the row is listed under: the writer, or, for a seat no participant of the study "
    "holds (an agent, a person outside the export), the match's participant with the lowest id",
    "condition": "that participant's condition key",
    "round": "round number, 1-based",
    "match_id": "the round's match",
    "seat": "the writer's seat (0-based; the seat names are listed above)",
    "seat_name": "the writer's seat as the game names it (in some games this names the role, e.g. 'Player 3 (Red "
    "Operative)')",
    "team": "the writer's team as the teams stood when the match ended (the game's name for it; a camp hidden "
    "during play, e.g. the spies in Who is Spy, is shown once the game is over); blank when every seat plays for "
    "itself or all play together",
    "sender": "participant (the writer is this row's participant), partner (a human not in this study's export) or "
    "the agent's name (also for a seat an agent took over from its person)",
    "kind": "chat: a chat line every seat could read; team_chat: a team chat's line (see audience); action: a "
    "free-text action, a move made by writing (a clue, a description, what was said with an offer, an argument)",
    "action": "kind action: the game's id of the move the text belonged to (e.g. clue, describe, say, talk, an "
    "offer's id); blank for chat",
    "action_label": "kind action: the move as it read to the writer's seat (the game's label; it may repeat the "
    "text); blank for chat",
    "length": "characters in the text as written (the ' below not counted)",
    "text": "what was written; a move's text as the game accepted it (a game may normalise it, e.g. a Codenames clue "
    "in capitals); a leading = + - @ is prefixed with ' so spreadsheets do not run it as a formula",
    "sent_at": "server time (ISO 8601, UTC)",
    "turn": "moves made in the match before this row (a free-text action is move turn + 1)",
    "audience": "kind team_chat: the seats that could read the line, ' '-separated; blank otherwise (who reads a "
    "free-text action is the game's rule: its action and action_label say, e.g. a whisper)",
}
SURVEY_COLUMNS: dict[str, str] = {
    "study": "the study's slug",
    "participant": "pseudonymous participant id",
    "condition": "the participant's condition key",
    "item_key": "the item's key (a Likert item or a question; listed above)",
    "value": "likert: 1 (the item's low label) .. the study's scale (its high label); single: the chosen option's "
    "number (1 = the first listed above); number: the number given; blank for multiple and text, and for an "
    "optional question left out",
    "answered_at": "server time (ISO 8601, UTC)",
    "kind": "likert, single (one choice), multiple (any choices), number or text",
    "choices": "multiple: the chosen options' numbers in the item's order, ';'-separated (e.g. 1;3); blank otherwise",
    "text": "the answer in words: the chosen option's label (single), the chosen labels ' | '-separated (multiple), "
    "what was written (text; a leading = + - @ is prefixed with '); blank for likert and number",
    "passed": "attention checks (items with an expected answer, listed above): 1 if the answer was the expected one, "
    "0 if not, recorded when answered; blank for every other item",
}
COMPREHENSION_COLUMNS: dict[str, str] = {
    "study": "the study's slug",
    "participant": "pseudonymous participant id",
    "condition": "the participant's condition key",
    "attempt": "the try, 1 for the first (each try answers every question of the check)",
    "item_key": "the comprehension question's key (listed above)",
    "choice": "the option chosen (1 = the first listed above)",
    "choice_label": "that option's label",
    "correct": "1 if it was the right answer, 0 if not",
    "answered_at": "server time of the try (ISO 8601, UTC)",
}
PAYMENT_COLUMNS: dict[str, str] = {
    "study": "the study's slug",
    "participant": "pseudonymous participant id",
    "prolific_pid": "PROLIFIC_PID (if stored): with bonus, what Prolific's bulk bonus form takes",
    "condition": "the participant's condition key",
    "step": "the furthest step reached (complete, or where a participant who did not complete stopped: ended = not "
    "paired, screened = screened out by the comprehension check, or a dropout's step)",
    "completed": "1 if the participant completed the study (submitted the survey)",
    "minutes": "minutes from consent to completion (to the last request for those who did not complete)",
    "base": "the study's base payment if completed, else 0",
    "bonus_basis": "the bonus rule's measure over the participant's completed rounds (sum or mean, see above); "
    "blank without a rule or without completed rounds",
    "bonus": "the bonus by the rule (per unit x basis, at least 0, at most the cap, to the cent) if completed, else 0",
    "total": "base + bonus",
    "currency": "the study's currency (ISO code)",
}
PARTICIPANT_COLUMNS: dict[str, str] = {
    "study": "the study's slug",
    "participant": "pseudonymous participant id",
    "prolific_pid": "PROLIFIC_PID (if stored)",
    "prolific_study_id": "STUDY_ID (if stored)",
    "prolific_session_id": "SESSION_ID (if stored)",
    "condition": "condition key",
    "step": "the furthest step reached: consent, instructions, comprehension, rounds, survey, complete, ended (not "
    "paired) or screened (screened out by the comprehension check)",
    "current_round": "while in the rounds step: the round being played (1-based)",
    "created_at": "when the participant record was created (at consent)",
    "consented_at": "consent time",
    "completed_at": "completion time (survey submitted)",
    "last_seen_at": "last request of the participant",
    "dropped": "1 if not complete or ended and silent for longer than the study's dropout_after_s",
    "dropout_step": "for dropouts: the step where they stopped",
    "dropout_round": "for dropouts in the rounds step: the round (1-based)",
    "rounds_started": "rounds with a match",
    "rounds_completed": "rounds whose match finished",
    "rounds_won": "rounds won (blank in cooperative games)",
    "attention_checks": "attention checks answered (survey.csv rows with passed 0 or 1)",
    "attention_passed": "attention checks passed",
    "comprehension_attempts": "tries at the comprehension check (0 without one, or before it; comprehension.csv)",
    "comprehension_passed": "1 if a try had every answer right, 0 if the last allowed try failed; blank before "
    "the end of the check or without one",
}
PER_ROUND_COLUMNS: dict[str, str] = {
    "status": "per round k: the match's status (rounds.csv status)",
    "actions": "per round k: actions in the match",
    "time_s": "per round k: time to complete in seconds",
    "score": "per round k: the participant's score",
    "won": "per round k: 1 if won (blank in cooperative games)",
}


def round_columns(study: Study) -> dict[str, str]:
    """rounds.csv's columns with their README lines: the platform's, then one per measure the game declares."""
    declared = {measures.measure_column(m.name): _describe(m) for m in measures.declared_measures(study)}
    return {**ROUND_COLUMNS, **declared}


def participant_column_docs(study: Study) -> dict[str, str]:
    """participants.csv's columns as the README lists them (round<k>_ and survey_ columns as patterns)."""
    declared = measures.declared_measures(study)
    docs = dict(PARTICIPANT_COLUMNS)
    for m in declared:
        if m.kind == "bool":
            docs[f"rounds_{measures.measure_column(m.name)}"] = f"rounds where {measures.measure_column(m.name)} = 1"
    for suffix, column in participant_measures.participant_round_fields(declared):
        docs[f"round<k>_{suffix}"] = PER_ROUND_COLUMNS.get(suffix) or f"per round k: {column} (see rounds.csv)"
    docs["survey_<item>"] = (
        "the answer to each item, in survey order: likert, single and number items as survey.csv's value, multiple as "
        "its choices, text as its text"
    )
    return docs


def participant_columns(study: Study) -> list[str]:
    declared = measures.declared_measures(study)
    fixed = [c for c in participant_column_docs(study) if "<" not in c]
    per_round = [
        f"round{k}_{suffix}"
        for k in range(1, measures.round_count(study) + 1)
        for suffix, _ in participant_measures.participant_round_fields(declared)
    ]
    return fixed + per_round + [f"survey_{key}" for key in measures.survey_keys(study)]


def outcomes(study: Study) -> list[report.Outcome]:
    """The numeric outcomes the bundle tests: time, actions, score (not in a cooperative game, where every seat
    gets the same even share), then every number measure the game declares."""
    declared = [
        report.Outcome(column, m.name.replace("_", " ").capitalize(), axis=m.name, stem=column)
        for m in measures.declared_measures(study)
        if m.kind == "number"
        for column in [measures.measure_column(m.name)]
    ]
    base = [o for o in report.BASE_OUTCOMES if o is not report.SCORE or not measures.is_cooperative(study)]
    return [*base, *declared]


def timed_outcomes(study: Study) -> list[report.Outcome]:
    """The outcomes that are times to the game's goal: time to complete and the until-goal measures (none when
    the game declares no goal)."""
    if not measures.goal_column(study):
        return []
    timed = {report.TIME.column, *measures.until_goal_columns(study)}
    return [o for o in outcomes(study) if o.column in timed]


def flags(study: Study) -> list[str]:
    """The yes/no columns rates.csv counts: won (unless the game is cooperative), then every bool measure."""
    declared = [measures.measure_column(m.name) for m in measures.declared_measures(study) if m.kind == "bool"]
    return ([] if measures.is_cooperative(study) else ["won"]) + declared


def _describe(measure) -> str:
    return f"{measure.description} ({KIND_WORDS.get(measure.kind, measure.kind)}; declared by the game)"


# --- the codebook's lines on the questionnaire, the comprehension check and payment ------------------------------


def questionnaire_lines(study: Study) -> list[str]:
    """What the README says about the questions after the Likert items, the comprehension check and the payment
    rule: every item with its kind, numbered options and expected (or right) answer, so survey.csv,
    comprehension.csv and payments.csv can be read without the study's configuration."""
    lines = []
    if study.questions:
        lines.append("Questions after the Likert items (survey.csv, kind in brackets; options numbered from 1):")
        for item in study.questions:
            lines.append(f"  {item['key']} ({_question_kind(item)}): {item['prompt']}")
            if item.get("options"):
                lines.append("    options: " + "; ".join(f"{n} = {o}" for n, o in enumerate(item["options"], 1)))
    items = study.comprehension_items or []
    if items:
        after = ("is screened out (step screened)" if study.comprehension_fail_action == Study.ComprehensionFailed.END
                 else "plays on, recorded as failed")
        lines.append(f"Comprehension check before round 1 (comprehension.csv; {study.comprehension_max_attempts} "
                     f"tries; after the last failed try the participant {after}):")
        for item in items:
            right = questionnaire.option_number(item, item["answer"])
            lines.append(f"  {item['key']}: {item['prompt']} (right answer: {right} = {item['answer']})")
            lines.append("    options: " + "; ".join(f"{n} = {o}" for n, o in enumerate(item["options"], 1)))
    lines.append(payment_line(study))
    return lines


def _question_kind(item: dict) -> str:
    words = [item["kind"]]
    if item["kind"] == questionnaire.NUMBER:
        low, high = item.get("min"), item.get("max")
        words += ["whole"] if item.get("integer") else []
        if (low, high) != (None, None):
            words.append(f"{'' if low is None else low}..{'' if high is None else high}")
    if item["kind"] == questionnaire.TEXT:
        words.append(f"at most {questionnaire.text_limit(item)} characters")
    if not questionnaire.is_required(item):
        words.append("optional")
    if questionnaire.is_attention_check(item):
        words.append(f"attention check, expected: {item['expected']!r}")
    return ", ".join(words)


def payment_line(study: Study) -> str:
    currency, rule = study.payment_currency, study.bonus_rule or {}
    base = f"Payment (payments.csv): {study.base_payment} {currency} to every participant who completes"
    if not rule:
        return base + "; no bonus."
    declared = {m.name for m in measures.declared_measures(study)}
    column = measures.measure_column(rule["measure"]) if rule["measure"] in declared else rule["measure"]
    cap = f", at most {rule['cap']} {currency}" if rule.get("cap") is not None else ""
    over = "summed over" if rule.get("over", "sum") == "sum" else "averaged over"
    return (f"{base}; bonus: {rule['per_unit']} {currency} per unit of {column} (rounds.csv), {over} the "
            f"participant's completed rounds, at least 0{cap}, to the cent.")
