"""Who is Spy in the browser: one person on a phone against three LLM agents (one stored configuration, answered by
a scripted OpenAI-compatible server that reads each prompt's legal moves and its own secret word). The person starts
a 4-seat match from the new-match form (seat 1 "Me", seats 2-4 the agent), tries to describe with their own word
(a clear error; nothing changes), then describes validly, votes through the ballot (in the order the engine drew
for them), sees "You have voted" while the agents think, and plays on through describe and vote rounds until the
result is on the page. No page the person saw before the end holds the other word of the pair; no agent's prompt
holds any word but its own. Screenshots go to test-artifacts/.

The site runs in its own daphne process on its own database, so the configuration is created there with manage.py,
as an admin would create it in the admin."""

from __future__ import annotations

import json
import re
import subprocess
import sys

from tests.agents_app.table_model import TableModel
from tests.browser.conftest import ARTIFACTS
from tests.browser.journey_support import serious_violations
from tests.support.live_server import ROOT, daphne_server, migrate, server_env
from tests.support.openai_server import ScriptedReply, scripted_openai_server

SEED = 11
PAIR = 29  # cucumber / zucchini: words no other text of the page contains
AGENT = "spy-llm"
# The agents think a while before voting until the person has seen their "You have voted" state (a match's agents
# play one after another: 7.5 s a ballot for the three); from then on they vote at once, as waiting in every ballot
# showed nothing new and took most of the journey's time (42 s of its 43 alone).
VOTE_DELAY = 2.5
OWN_WORD = re.compile(r"Your secret word is ([^.\s]+)\.")
MY_DESCRIPTIONS = ("You find it in a garden", "It is long and green", "Good sliced in a salad",
                   "Some people grill it", "It grows on a vine", "Mostly water inside", "Fresh in summer")


class SpyTable(TableModel):
    """TableModel's play (a fresh generic description that never holds its own word; a vote among the offered
    ids), without its scripted mistake, and votes only after VOTE_DELAY seconds while ``hold_votes`` (the journey
    clears it once the person saw their vote waiting for the others)."""

    def __init__(self):
        super().__init__()
        self.hold_votes = True

    def __call__(self, body):
        reply = super().__call__(body)
        content = reply.content if isinstance(reply.content, dict) else {}
        if str(content.get("action", "")).startswith("vote:"):
            return ScriptedReply.text(content, delay=VOTE_DELAY if self.hold_votes else 0.0)
        return reply

    def _description(self, state, rng, correcting):
        return super()._description(state, rng, True)


def manage(env, *args: str) -> str:
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def has_word(text: str, word: str) -> bool:
    return re.search(rf"\b{re.escape(word)}\b", text, re.IGNORECASE) is not None


def version_of(page) -> int:
    return int(page.locator("#board").get_attribute("data-version"))


def wait_past(page, version: int) -> None:
    page.wait_for_function("v => +document.querySelector('#board').dataset.version > v", arg=version,
                           timeout=30_000)


def engine_facts(env, match_id: int) -> dict:
    """The finished match's words, spies and seat 0's ballots, read from the state as the server stored it."""
    code = ("import json; from gameplay.models import Match; from gameplay.reads.selectors import state_of; "
            f"s = state_of(Match.objects.get(pk={match_id})); "
            "print(json.dumps({'words': s.words, 'spies': s.spies, 'villager': s.villager_word, 'spy': s.spy_word, "
            "'ballots': [r['ballots'][0] for r in s.rounds], 'winners': s.winners}))")
    return json.loads(manage(env, "shell", "-c", code).strip().splitlines()[-1])


def test_a_person_plays_who_is_spy_against_three_llm_agents_on_a_phone(chromium, tmp_path):
    env = server_env(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    migrate(env)
    ARTIFACTS.mkdir(exist_ok=True)
    model = SpyTable()
    with scripted_openai_server(model) as server:
        manage(env, "shell", "-c", "from agents_app.models import AgentConfig; "
               f"AgentConfig.objects.create(name={AGENT!r}, base_url={server.base_url!r}, model='scripted-model', "
               "api_key_env='', retries=1, http_retries=0, timeout_s=10)")
        with daphne_server(env, log_path=ARTIFACTS / "who-is-spy-daphne.log") as url:
            # A phone-sized context; bypass_csp only to inject axe, as test_accessibility does.
            context = chromium.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                           is_mobile=True, has_touch=True, bypass_csp=True)
            page = context.new_page()
            page.set_default_timeout(10_000)
            axe: dict[str, list] = {}
            saved: list[str] = []  # the person's board, every state they acted or waited in, before the end
            ballots_seen: list[list[str]] = []
            ballot_rounds: set[tuple] = set()
            try:
                page.goto(url + "/")
                page.get_by_role("link", name="New Who is Spy match").click()
                page.get_by_label("Seed").fill(str(SEED))
                page.get_by_label("Word pair", exact=True).fill(str(PAIR))
                assert page.get_by_label("Player 1", exact=True).input_value() == "you"  # "Me (this browser)"
                for name in ("Player 2", "Player 3", "Player 4"):
                    page.get_by_label(name, exact=True).select_option(f"agent:{AGENT}")
                page.get_by_role("button", name="Start match").click()
                page.wait_for_url(re.compile(r"/play/[\w-]+/$"))
                page.wait_for_selector("[ws-connect][data-socket=live]", timeout=30_000)
                page.wait_for_selector("#board .spy")
                match_id = int(re.search(r"match #(\d+)", page.locator("h1").inner_text()).group(1))

                my_word = page.locator("#board #spy-word").inner_text().strip()
                assert my_word in ("cucumber", "zucchini")
                other_word = ({"cucumber", "zucchini"} - {my_word}).pop()
                card = page.locator("#board .spy-card")
                assert "Only you see it" in card.inner_text() and "spy" not in card.locator("h3").inner_text()
                assert page.locator("#board .spy-players .seat").count() == 4
                assert page.locator("#board .spy-order li").count() == 4
                assert page.evaluate("document.documentElement.scrollWidth") <= 390
                page.screenshot(path=str(ARTIFACTS / "who-is-spy-phone-start.png"), full_page=True)

                described = voted = 0
                seen_voted_state = False
                while True:
                    page.wait_for_selector("#board #spy-describe-text, #board .spy-ballot, #board #spy-final",
                                           timeout=60_000)
                    if page.locator("#board #spy-final").count():
                        break
                    saved.append(page.content())
                    version = version_of(page)
                    if page.locator("#board #spy-describe-text").count():
                        assert page.locator("#board .spy-order li.now.you").count() == 1  # marked as speaking
                        assert "at most 10 words" in page.locator("#spy-describe-help").inner_text()
                        field = page.locator("#board #spy-describe-text")
                        if described == 0:
                            # A description holding one's own word is refused: a clear error, nothing changes.
                            field.fill(f"I would say {my_word.capitalize()} is tasty")
                            page.get_by_role("button", name="Describe", exact=True).click()
                            page.wait_for_selector("#flash.error:not(:empty)")
                            error = page.locator("#flash").inner_text()
                            assert "contains your own secret word" in error, error
                            page.screenshot(path=str(ARTIFACTS / "who-is-spy-phone-own-word-refused.png"),
                                            full_page=True)
                            assert version_of(page) == version
                            assert page.locator("#board #spy-describe-text").count() == 1
                            # ... and repeated under the field, which keeps what was typed (static/js/who_is_spy.js).
                            note = page.locator("#board #spy-describe-error")
                            note.wait_for(state="visible")
                            assert "contains your own secret word" in note.inner_text()
                            assert field.input_value() == f"I would say {my_word.capitalize()} is tasty"
                            box = note.bounding_box()
                            assert box and box["y"] + box["height"] <= 844 + page.evaluate("window.scrollY")
                            axe.update({f"describe: {v['id']}": v["nodes"] for v in serious_violations(page)})
                            assert my_word.capitalize() not in page.locator("#board .spy-round").inner_text()
                        text = MY_DESCRIPTIONS[described]
                        field.fill(text)
                        field.press("Enter")  # the keyboard sends it
                        wait_past(page, version)
                        page.wait_for_selector(f"#board .talk-line.mine:has-text('{text}')")
                        described += 1
                    else:
                        ballot = page.locator("#board .spy-ballot")
                        options = ballot.locator("input[type=radio]").evaluate_all("els => els.map(e => e.value)")
                        spy = page.locator("#board .spy")
                        key = (spy.get_attribute("data-round"), spy.get_attribute("data-runoff"))
                        if key not in ballot_rounds:
                            # Once per ballot: under load the page may still show it after another seat's vote
                            # moved the version on, before this person's vote landed.
                            ballot_rounds.add(key)
                            ballots_seen.append(options)
                        me = page.locator("#board .spy-players .seat.you").get_attribute("data-seat")
                        assert f"vote:{me}" not in options and 1 <= len(options) <= 3
                        if voted == 0:
                            page.screenshot(path=str(ARTIFACTS / "who-is-spy-phone-ballot.png"), full_page=True)
                            axe.update({f"ballot: {v['id']}": v["nodes"] for v in serious_violations(page)})
                            ballot.get_by_role("radio").first.check()
                            page.get_by_role("button", name="Cast my vote").click()
                        else:  # by keyboard: the first choice has the focus, an arrow moves it, Tab to the button
                            ballot.get_by_role("radio").first.focus()
                            page.keyboard.press("ArrowDown" if len(options) > 1 else "Space")
                            page.keyboard.press("Tab")
                            assert page.evaluate("document.activeElement.textContent") == "Cast my vote"
                            page.keyboard.press("Enter")
                        wait_past(page, version)
                        if page.locator("#board .spy-turn:has-text('You have voted.')").count():
                            seen_voted_state = True
                            saved.append(page.content())
                            assert page.locator("#board .spy-ballot").count() == 0
                            assert "you voted for Player" in page.locator("#board .spy-round .spy-votes").inner_text()
                            page.screenshot(path=str(ARTIFACTS / "who-is-spy-phone-voted.png"), full_page=True)
                            model.hold_votes = False  # seen: the agents need not keep the person waiting
                        voted += 1
                    assert described + voted < 30, "the game does not end"

                # The result is on the page: both words, the spy, the winners.
                final = page.locator("#board #spy-final")
                assert final.locator("h3").inner_text() in ("Game over: the spies win", "Game over: the villagers win")
                words = {final.locator(".villager-word").inner_text(), final.locator(".spy-word-final").inner_text()}
                assert words == {"cucumber", "zucchini"}
                page.wait_for_selector("#result")
                assert page.evaluate("document.documentElement.scrollWidth") <= 390
                page.screenshot(path=str(ARTIFACTS / "who-is-spy-phone-result.png"), full_page=True)
                axe.update({f"result: {v['id']}": v["nodes"] for v in serious_violations(page)})
                assert not axe, axe

                facts = engine_facts(env, match_id)
                assert facts["words"][0] == my_word
                assert final.locator(".spy-winners").inner_text()
                spy_names = ", ".join(f"Player {s + 1}" for s in facts["spies"])
                assert spy_names in final.inner_text()
                # The ballots were in the engine's order for this voter (drawn per voter; never sorted).
                engine_ballots = [[f"vote:{c}" for c in b] for b in facts["ballots"] if b]
                assert ballots_seen == engine_ballots[:len(ballots_seen)]
            except Exception:
                page.screenshot(path=str(ARTIFACTS / "who-is-spy-phone-failure.png"), full_page=True)
                raise
            finally:
                context.close()

    assert described >= 1 and voted >= 1, (described, voted)
    assert seen_voted_state, "the person never saw the 'You have voted' state"
    # The person's pages before the end never held the other word.
    assert saved
    for html in saved:
        assert has_word(html, my_word) and not has_word(html, other_word)
    # Each agent's prompt holds its own word and never the other one.
    prompts = [r.prompt_text for r in server.requests]
    assert prompts
    for prompt in prompts:
        own = OWN_WORD.search(prompt).group(1)
        assert own in ("cucumber", "zucchini")
        assert not has_word(prompt, ({"cucumber", "zucchini"} - {own}).pop()), "an agent saw the other word"
    for text in MY_DESCRIPTIONS[:described]:
        assert any(text in p for p in prompts)  # the person's descriptions reached the agents (public)
