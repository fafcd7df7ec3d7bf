"""The leaderboard in a real browser: computed by its button, tables render and every figure loads, on a laptop
and a phone."""

from tests.browser.conftest import ARTIFACTS

GAMEBENCH_AGENTS = {"gpt-3", "gpt-3-cot", "gpt-4", "gpt-4-cot", "gpt-4-rap", "human", "random"}

# Every <img> finished loading and decoded to a real picture (a broken PNG has naturalWidth 0).
IMAGES_LOADED = "() => Array.from(document.images).every(img => img.complete && img.naturalWidth > 0)"


def images(page) -> list[dict]:
    return page.eval_on_selector_all(
        "img", "els => els.map(e => ({src: e.currentSrc, width: e.naturalWidth, alt: e.alt}))"
    )


def assert_all_images_loaded(page, expected: int, width: int = 800) -> None:
    page.wait_for_function(IMAGES_LOADED)
    found = images(page)
    assert len(found) == expected, found
    for img in found:
        assert img["width"] >= width, img
        assert len(img["alt"]) > 20, img


def computed(page) -> None:
    """Press the page's compute button if the ratings are not computed yet (the server's Celery is eager)."""
    button = page.get_by_role("button", name="Compute ratings")
    if button.count():
        url = page.url
        button.click()
        page.wait_for_url(url)
        page.get_by_role("heading", name="Provenance").wait_for()


def test_gamebench_leaderboard_and_a_game_page(laptop_page, server_url):
    page = laptop_page
    page.goto(server_url + "/")
    page.get_by_role("link", name="Ratings").click()
    page.get_by_role("navigation", name="Rated matches").get_by_role("link", name="GameBench published data").click()
    page.wait_for_url("**/ratings/?source=gamebench")
    # Looking computes nothing: the page says so, and its button (a POST) has the ratings computed.
    assert page.get_by_role("heading", name="Not computed yet").is_visible()
    assert_all_images_loaded(page, expected=0)
    page.get_by_role("button", name="Compute ratings").click()
    page.wait_for_url("**/ratings/?source=gamebench")

    overall = page.locator("table", has=page.locator("caption", has_text="Overall ratings, best first"))
    agents = overall.locator('tbody th[scope="row"]').all_inner_texts()
    assert set(agents) == GAMEBENCH_AGENTS and len(agents) == 7
    assert agents[0] == "human"
    assert page.get_by_role("heading", name="Provenance").is_visible()
    assert page.get_by_role("link", name="Ratings as CSV").is_visible()
    assert_all_images_loaded(page, expected=10)  # overall + nine games
    page.screenshot(path=str(ARTIFACTS / "leaderboard.png"), full_page=True)

    santorini = page.locator("section.game", has=page.locator("h3#game-santorini"))
    santorini.get_by_role("link", name="Details, win probabilities and match counts").click()
    page.wait_for_url("**/ratings/scope/santorini/?source=gamebench")
    assert page.get_by_role("heading", level=1).inner_text().startswith("Santorini")
    assert_all_images_loaded(page, expected=3)  # ratings, win probabilities, match counts
    page.screenshot(path=str(ARTIFACTS / "leaderboard-santorini.png"), full_page=True)


def test_leaderboard_fits_a_phone(phone_page, server_url):
    page = phone_page
    page.goto(server_url + "/ratings/scope/hive/?source=gamebench")
    computed(page)  # already, when the laptop test ran first
    assert page.get_by_text("Not rated in Hive").is_visible()
    assert_all_images_loaded(page, expected=3, width=440)  # the narrow rendering for phones
    assert "width=440" in images(page)[0]["src"]
    page.goto(server_url + "/ratings/?source=gamebench")
    assert_all_images_loaded(page, expected=10, width=440)
    # Wide tables scroll inside their box; the page itself never scrolls sideways.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=str(ARTIFACTS / "leaderboard-phone.png"), full_page=True)
