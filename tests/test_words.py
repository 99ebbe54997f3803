"""Words people read: cards, players, penalties and alerts in four languages, and the rule sheets'
own words each alert cites (verbatim: checked against the sheets where they are at hand)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee.cards import find_deck
from referee.rules import PRESETS
from referee.rules.quotes import ALERT_CODES, JOIN, QUOTES, SHEET_LANGUAGES, citation
from referee.words import (
    LANGUAGES,
    alert_sentence,
    alert_title,
    card_words,
    catalog,
    find_language,
    penalty_words,
    player_words,
)
from tests.rules.helpers import challenge, draw, play, reveal, run, setup, start

SHEETS = Path(__file__).resolve().parents[2] / "shared" / "rule-sheets"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_card_of_every_preset_deck_has_words(lang: str) -> None:
    for name, options in PRESETS.items():
        for label in (*find_deck(options.deck).labels(), "back"):
            said = card_words(label, lang)
            assert said and "_" not in said and said != label, (name, label, said)
    english = {card_words(label) for label in find_deck("classic_blanks").labels()}
    assert {"Red 2", "Wild Draw Four", "Blank card", "Blue Skip"} <= english


def test_card_words_examples() -> None:
    assert card_words("blue_1/2") == "Blue 1/2"
    assert card_words("orange_skip") == "Orange Skip"
    assert card_words("red_draw2", "nl") == "Rood Neem twee"
    assert card_words("green_reverse", "de") == "Grün Retour"
    assert card_words("violet_7", "lb") == "Violett 7"
    assert card_words("not_a_card") == "not_a_card"  # words never fail
    assert card_words("red_2", "fr") == "Red 2"  # an unknown language is English


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_alert_code_has_a_title_a_sentence_and_a_penalty(lang: str) -> None:
    for code in ALERT_CODES:
        assert alert_title(code, lang) != code.replace("_", " ")
        sentence = alert_sentence({"code": code, "seat": 1, "card": "red_2"}, lang, ["Ann", "Bob"])
        assert "Bob" in sentence and "{" not in sentence and sentence.endswith("."), (code, sentence)
    assert penalty_words(0, lang) and penalty_words(1, lang) != penalty_words(2, lang)
    assert "2" in penalty_words(2, lang) and "+" not in penalty_words(2, lang)
    assert set(catalog(lang)["alerts"]) == set(ALERT_CODES)


def test_penalties_players_and_languages_in_words() -> None:
    assert [penalty_words(n) for n in (0, 1, 2)] == ["no penalty cards", "draws 1 card", "draws 2 cards"]
    assert penalty_words(4, "de") == "zieht 4 Karten"
    assert player_words(2) == "Player 3"  # seats are 0-based in JSON, 1-based for people
    assert player_words(0, "nl", ["Ann"]) == "Ann"
    assert player_words(1, "de", ["Ann", "Player 2"]) == "Spieler 2"  # a default name, said in German
    assert player_words(None, "lb") == "een"
    assert find_language("de-AT") == "de" and find_language(None) == "en"


def test_an_alert_in_words_names_player_card_and_rule() -> None:
    alert = {"code": "illegal_card", "seat": 1, "card": "red_2", "penalty_cards": 2, "message": "..."}
    assert alert_sentence(alert, "en", ["Ann", "Bob"]) == (
        "Bob played Red 2, which matches neither the colour nor the number or symbol of the top card.")
    assert alert_sentence({"code": "missed_uno", "seat": 0}, "de") == (
        "Spieler 1 hatte nur noch eine Karte und hat nicht UNO gerufen, bevor der nächste Spieler dran war.")
    assert alert_sentence({"code": "brand_new", "message": "as it is"}) == "as it is"


def test_every_preset_sheet_is_quoted_for_every_alert() -> None:
    for name, options in PRESETS.items():
        assert options.sheet in QUOTES and options.sheet in SHEET_LANGUAGES, name
        for code in ALERT_CODES:
            cited = citation(options.sheet, code)
            assert cited["sheet"] == options.sheet and cited["lang"] == SHEET_LANGUAGES[options.sheet]
            if "quote" in cited:  # 002 never counts its deck: impossible_card cites the sheet alone
                assert cited["quote_en"]
                assert (cited["quote_en"] == cited["quote"]) == (cited["lang"] == "en"), (name, code)
            else:
                assert (options.sheet, code) == ("002_b6167d2e732525d9.txt", "impossible_card")


def _as_printed(text: str) -> str:
    """A sheet's text without its print layout: words hyphenated across a line break joined, every run
    of white space one space (003 is printed in narrow columns)."""
    return re.sub(r"\s+", " ", re.sub(r"-\n", "", text))


@pytest.mark.skipif(not SHEETS.is_dir(), reason="the rule sheets are in the project's shared folder")
def test_the_quotes_are_the_sheets_own_words() -> None:
    for sheet, codes in QUOTES.items():
        text = _as_printed((SHEETS / sheet).read_text(encoding="utf-8"))
        for code, (quote, _) in codes.items():
            for passage in quote.split(JOIN):
                assert passage in text, (sheet, code, passage)
    # A few by hand, so a broken normaliser cannot hide a wrong quote.
    nl = (SHEETS / "000_6215b461eaecddde.txt").read_text(encoding="utf-8")
    assert QUOTES["000_6215b461eaecddde.txt"]["missed_uno"][0] in nl
    de = (SHEETS / "002_b6167d2e732525d9.txt").read_text(encoding="utf-8")
    assert QUOTES["002_b6167d2e732525d9.txt"]["failed_challenge"][0] in de
    en = (SHEETS / "004_5ec70557fe9b417d.txt").read_text(encoding="utf-8")
    assert QUOTES["004_5ec70557fe9b417d.txt"]["illegal_card"][0] in en


@pytest.mark.parametrize("rules", sorted(PRESETS))
def test_alert_lines_carry_the_card_and_the_rule_of_their_preset(rules: str) -> None:
    deck = find_deck(PRESETS[rules].deck)
    colours = [c.value for c in deck.colours]
    low, high = ("1/2", "2/3") if rules == "breuken" else ("5", "7")
    _, out = run([setup(players=3, rules=rules), start(f"{colours[0]}_{low}"), play(1, f"{colours[1]}_{high}")])
    (alert,) = [line for line in out if line["type"] == "alert"]
    assert alert["code"] == "illegal_card" and alert["card"] == f"{colours[1]}_{high}"
    assert alert["rule"] == citation(PRESETS[rules].sheet, "illegal_card")
    assert alert["message"].startswith(f"Player 2 played {card_words(alert['card'])} on ")


def test_messages_count_players_from_one() -> None:
    _, out = run([setup(players=3), start("red_5"), play(2, "red_7")])
    (alert,) = [line for line in out if line["type"] == "alert"]
    assert alert["seat"] == 2  # JSON keeps seats 0..N-1
    assert alert["message"] == "Player 3 played Red 7 but it was Player 2's turn"
    _, out = run([setup(players=3, rules="de"), start("red_5"), play(1, "wild_draw4", color="blue"),
                  challenge(2), reveal(1, ["red_3", "blue_2"])])
    (guilty,) = [line for line in out if line["type"] == "alert"]
    assert guilty["card"] == "wild_draw4" and guilty["rule"]["lang"] == "de"
    assert guilty["message"] == "Player 2's hand holds red: its Wild Draw Four was illegal"
    _, out = run([setup(players=3, draws_reported=True), start("red_5"), play(1, "red_draw2"), play(0, "red_3")])
    missed = [line for line in out if line["type"] == "alert" and line["code"] == "missed_draw_penalty"]
    assert not missed or missed[0]["card"] == "red_draw2"
    _, out = run([setup(players=3, draws_reported=True), start("red_5"), play(1, "red_draw2"), draw(0, 1),
                  play(0, "red_3")])
    assert all(line.get("card") != "red_5" for line in out if line["type"] == "alert")
