"""The pages in the players' language (real Chromium): Dutch and German dashboards with an alert in
words and its rule sheet's quote, the instant replays' play list and buttons in Dutch, a language chosen in
the setup that the overlay follows, every page label in every language, and /api/words."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from referee.clips import ClipStore
from referee.phrases import phrases
from referee.session import MatchSession
from referee.store import Store
from referee.words import card_words, catalog
from tests.web.conftest import TOKEN, TestClient, live_server
from tests.web.test_browser import CHROMIUM, chromium
from tests.web.test_replay_browser import write_clip

STATIC = Path(__file__).resolve().parents[2] / "referee" / "web"


def _session(rules: str) -> MatchSession:
    match = MatchSession(Store(":memory:"), rules=rules, players=3, names=["Ann", "Bob", "Cy"])
    match.submit({"type": "start", "card": "red_5"})
    return match


def test_words_are_served_per_language(client: TestClient) -> None:
    got = client.get("/api/words?lang=de").json()
    assert got["lang"] == "de" and got["cards"]["wild_draw4"] == "Zieh Vier Farbenwahlkarte"
    assert got == {**catalog("de"), "match_lang": None}
    assert client.get("/api/words?lang=xx").json()["lang"] == "en"  # an unknown language: English
    assert client.get("/api/words").json()["lang"] == "en"  # no setup chose one


def test_the_setup_saves_the_language_with_the_match(client: TestClient) -> None:
    auth = {"X-Admin-Token": TOKEN}
    body = {"mode": "match", "names": ["Ann", "Bob"], "options": {"lang": "lb", "stack_draw2": True}}
    assert client.post("/api/setup", json=body, headers=auth).status_code == 200
    log = client.get("/api/log", headers=auth).text
    assert '"lang":"lb"' in log and '"stack_draw2":true' in log
    assert client.get("/api/words").json()["lang"] == "lb"
    assert client.get("/api/words?lang=nl").json()["match_lang"] == "lb"


def _illegal_play(page: Any, live: Any, expect: Any) -> Any:
    expect(page.locator("#conn")).to_have_text("live")
    assert live.post("/api/observations", {"type": "play", "card": "blue_7", "seat": 1}).status_code == 200
    alert = page.locator("#alerts li[data-code=illegal_card]")
    expect(alert).to_be_visible()
    return alert


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")
def test_the_dashboard_in_dutch_then_the_language_is_kept(tmp_path: Path) -> None:
    errors: list[str] = []
    clips = ClipStore(tmp_path / "clips")
    session = _session("nl")
    with live_server(session, clips=clips) as live, chromium() as (browser, expect):
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(live.url + "/?lang=nl#token=" + TOKEN)
        expect(page.locator("html")).to_have_attribute("lang", "nl")
        expect(page.locator("#btn-pass")).to_have_text("Passen p")
        expect(page.locator("span[data-i18n=alerts]")).to_have_text("Meldingen")
        expect(page.locator("button[data-colour=red]")).to_have_text("Rood r")
        expect(page.locator("#setup-lang")).to_have_value("nl")
        alert = _illegal_play(page, live, expect)
        expect(alert.locator("strong")).to_have_text("Verkeerde kaart")
        expect(alert.locator(".alert-who")).to_have_text("Bob")
        expect(alert.locator(".alert-penalty")).to_have_text("pakt 2 kaarten")
        expect(alert.locator(".alert-sentence")).to_have_text(
            "Bob speelde Blauw 7, die in kleur, cijfer en symbool niet past op de bovenste kaart.")
        quote = alert.locator("blockquote.alert-rule")
        expect(quote).to_have_attribute("lang", "nl")
        expect(quote).to_contain_text("Wanneer een speler een verkeerde kaart speelt en een andere speler heeft")
        expect(quote.locator("cite")).to_have_text("Spelregels: Nederlandse klassieke regels")
        expect(quote.locator("cite")).to_have_attribute("title", "000_6215b461eaecddde.txt")
        expect(alert.locator(".alert-rule-en")).to_contain_text("When a player plays a wrong card")
        expect(page.locator("#colour")).to_have_text("Blauw")

        # The instant replays in Dutch: the play list (cards and players in words), its buttons, the cue.
        plays = page.locator("#replay-plays")
        expect(plays.locator("h2 span[data-i18n=replay_plays]")).to_have_text("Zetten")
        expect(plays).to_have_attribute("aria-label", "Zetten")
        expect(plays.locator("li.replay-play").first.locator(".replay-card")).to_have_text("Blauw 7")
        expect(plays.locator("li.replay-play").first.locator(".replay-who")).to_have_text("Bob")
        expect(plays.locator("li.replay-play").nth(1).locator(".replay-who")).to_have_text("startkaart")
        expect(plays.locator("li.replay-play").nth(1).locator(".replay-card")).to_have_text("Rood 5")
        write_clip(clips, session.match_id, int(alert.get_attribute("data-seq") or 0))
        expect(alert.locator(".replay-btn")).to_have_text("▶ herhaling")
        expect(alert.locator(".replay-btn")).to_have_attribute("title", "speel dit moment opnieuw af")
        expect(plays.locator("li.replay-play").first.locator(".replay-air")).to_have_text("op de overlay")
        expect(plays.locator("li.replay-play").nth(1).locator(".replay-none")).to_have_text("geen clip")
        plays.locator("h2 .replay-air").click()
        expect(page.locator("#result")).to_have_text("Herhaling op de overlay ✓")

        # Every label the pages' scripts and templates use is in the catalogue (referee/phrases/, which has
        # every phrase in all four languages by construction), and the words the browser says are Python's.
        keys = set(phrases("en"))
        used = set(page.evaluate(
            "Array.from(document.querySelectorAll('[data-i18n]'), (n) => n.dataset.i18n)"))
        scripts = "".join(path.read_text() for path in (STATIC / "static").glob("*.js"))
        used |= set(re.findall(r"\bt\(\"(\w+)\"", scripts))
        for pair in re.findall(r"labelled\(\"\w+\", \{[^}]*\}, (\"\w+\"(?:, \"\w+\")?)\)", scripts):
            used |= set(re.findall(r"\"(\w+)\"", pair))  # replay.js: labelled(tag, attrs, key, title key)
        assert {"replay_label", "replay_no_plays", "replay_last_title", "cam_streaming", "hint_corner"} <= used
        used |= set(re.findall(r"data-i18n(?:-[a-z-]+)?=\"(\w+)\"",
                               "".join(p.read_text() for p in (STATIC / "templates").glob("*.html"))))
        used = {key for key in used if not key.endswith("_")}  # t("preset_" + name): a family, checked by name
        assert used and used <= keys, used - keys
        for label in ("wild_draw4", "violet_skip", "blue_1/2", "blank"):
            assert page.evaluate("(l) => I18N.cardWords(l)", label) == card_words(label, "nl")

        page.goto(live.url + "/")  # no ?lang= now: the choice was kept in this browser
        expect(page.locator("#btn-pass")).to_have_text("Passen p")
    assert errors == []


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")
def test_the_dashboard_in_german_and_a_setup_language_the_overlay_follows() -> None:
    errors: list[str] = []
    with live_server(_session("de")) as live, chromium() as (browser, expect):
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(live.url + "/?lang=de#token=" + TOKEN)
        expect(page.locator("#btn-undo")).to_have_text("Letztes rückgängig z")
        expect(page.locator("#btn-challenge")).to_have_text("Zieh Vier anzweifeln c")
        expect(page.locator("#token")).to_have_attribute("placeholder", "für die Steuerung")
        alert = _illegal_play(page, live, expect)
        expect(alert.locator("strong")).to_have_text("Falsche Karte")
        expect(alert.locator(".alert-penalty")).to_have_text("zieht 1 Karte")  # the German sheet's misplay: 1
        expect(alert.locator(".alert-sentence")).to_contain_text("Bob hat Blau 7 gelegt")
        expect(alert.locator("blockquote.alert-rule")).to_contain_text(
            "Wer eine Karte legt, obwohl er nicht dran ist, oder eine falsche Karte gelegt hat")
        expect(alert.locator(".alert-rule-en")).to_contain_text("Whoever lays a card when it is not their turn")
        expect(page.locator("#seats li").first.locator(".seat-score")).to_have_text("0 Pkt.")

        # Luxembourgish chosen in the setup: saved with the new match, and a fresh overlay follows it.
        page.select_option("#setup-lang", "lb")
        expect(page.locator("#btn-pass")).to_have_text("Passen p")
        expect(page.locator(".setup h2")).to_have_text("Spill astellen")
        page.locator("button[data-mode=match]").click()
        expect(page.locator("#result")).to_have_text("Neit Spill ugefaangen ✓")
        overlay = browser.new_context().new_page()  # its own storage: nothing kept from the dashboard
        overlay.on("pageerror", lambda exc: errors.append(str(exc)))
        overlay.goto(live.url + "/overlay")
        expect(overlay.locator("html")).to_have_attribute("lang", "lb")
        expect(overlay.locator(".hud-line span[data-i18n=turn]")).to_have_text("Um Tour:")
        overlay.goto(live.url + "/overlay?lang=en")  # ?lang= beats the match's
        expect(overlay.locator(".hud-line span[data-i18n=turn]")).to_have_text("Turn:")
    assert errors == []
