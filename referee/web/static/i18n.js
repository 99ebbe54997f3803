// The pages' language: their own labels per language (below), and the words for cards, players,
// penalties and alerts, which come from Python (GET api/words, referee/words.py) so that the pages and
// the command line say the same. Languages: English, Dutch, German, Luxembourgish (the rule sheets').
// Which one: ?lang= in the address (kept in this browser from then on), else the one kept, else the
// match's (chosen in the dashboard's setup), else English.
"use strict";

const I18N = (() => {
  // Every word comes from the one catalogue (referee/phrases/ and referee/words.py, served at api/words):
  // "[x]" in a phrase is the key x, shown as <kbd>x</kbd>; "`x`" a command, shown as <code>x</code>;
  // "{name}" is filled in by t(). Before the words arrive a page shows its HTML's English.
  const LANGS = ["en", "nl", "de", "lb"];
  const KEY = "uno-lang";
  let lang = "en";
  let words = null;  // the catalog of api/words: cards, colours, player, penalty, alerts

  function known(value) {
    const code = (value || "").trim().toLowerCase().slice(0, 2);
    return LANGS.includes(code) ? code : "";
  }

  function kept() {
    try { return known(localStorage.getItem(KEY)); } catch (err) { return ""; }
  }

  function keep(code) {
    try { localStorage.setItem(KEY, code); } catch (err) { /* private mode: for this page only */ }
  }

  /** The language this page was asked for: ?lang= (then kept), else the kept one, else "" (the match's). */
  function requested() {
    const asked = known(new URLSearchParams(location.search).get("lang"));
    if (asked) keep(asked);
    return asked || kept();
  }

  function t(key, vars) {
    let text = (words && words.strings && words.strings[key]) ?? key;
    for (const [name, value] of Object.entries(vars || {})) text = text.replaceAll("{" + name + "}", String(value));
    return text;
  }

  /** ``node``'s content becomes ``text``, each "[x]" in it a <kbd>x</kbd>, each "`x`" a <code>x</code>. */
  function fill(node, text) {
    node.replaceChildren();
    let at = 0;
    for (const found of text.matchAll(/\[([^\]]+)\]|`([^`]+)`/g)) {
      if (found.index > at) node.append(text.slice(at, found.index));
      const tag = found[1] !== undefined ? "kbd" : "code";
      const part = document.createElement(tag);
      part.textContent = found[1] !== undefined ? found[1] : found[2];
      node.append(part);
      at = found.index + found[0].length;
    }
    if (at < text.length) node.append(text.slice(at));
  }

  /** Every labelled element under ``root`` in the current language (data-i18n, data-i18n-ATTR). */
  function translate(root) {
    root.querySelectorAll("[data-i18n]").forEach((node) => fill(node, t(node.dataset.i18n)));
    for (const attr of ["placeholder", "title", "aria-label", "alt"]) {
      root.querySelectorAll("[data-i18n-" + attr + "]").forEach((node) => node.setAttribute(attr, t(node.getAttribute("data-i18n-" + attr))));
    }
    const title = document.querySelector("title[data-i18n-page]");
    if (title) document.title = t(title.dataset.i18nPage);
  }

  /** Load the words of ``choice`` (or of the page's request, or the match's) and relabel the page. */
  async function load(choice) {
    const asked = known(choice) || requested();
    try {
      const response = await fetch("api/words" + (asked ? "?lang=" + asked : ""), { cache: "no-store" });
      if (response.ok) { words = await response.json(); patterns = null; }
    } catch (err) { /* offline: labels in the page's language, cards as labels */ }
    lang = known(words && words.lang) || asked || "en";
    document.documentElement.lang = lang;
    translate(document);
    // Whatever a page draws from the words outside a data-i18n label (replay.js) draws it again on this.
    document.dispatchEvent(new CustomEvent("i18n:loaded", { detail: { lang } }));
    return lang;
  }

  /** The operator picked ``code``: keep it in this browser and relabel. */
  function choose(code) {
    if (known(code)) keep(known(code));
    return load(code);
  }

  // The words of api/words (referee/words.py), with plain fallbacks before they arrive.
  function cardWords(label) { return (words && words.cards[label]) || label || ""; }
  function colourWords(colour) { return (words && words.colours[colour]) || colour || ""; }

  /** A seat as people say it: its name, else "Player N" (1-based) in this language. */
  function playerWords(seat, names) {
    if (seat === null || seat === undefined) return words ? words.someone : "someone";
    const generic = (words ? words.player : "Player {n}").replace("{n}", String(seat + 1));
    const name = (names || [])[seat];
    return name && name !== "Player " + (seat + 1) ? name : generic;
  }

  /** A rule preset by the name people know it by ("Dutch rules"); its code name when the catalogue has none. */
  function presetWords(preset) {
    const key = "preset_" + preset;
    return preset ? (t(key) === key ? preset : t(key)) : "";
  }

  function penaltyWords(cards) {
    const p = words ? words.penalty : { none: "no penalty cards", one: "draws 1 card", many: "draws {n} cards" };
    return !cards ? p.none : cards === 1 ? p.one : p.many.replace("{n}", String(cards));
  }

  function alertTitle(code) {
    const found = words && words.alerts[code];
    return found ? found.title : (code || "alert").replaceAll("_", " ");
  }

  /** The rule an alert says was broken, in one sentence naming the player and the card ("" for a code
   * without words, or before the words arrived: the referee's message says it then). */
  function alertSentence(alert, names) {
    const found = words && words.alerts[alert.code];
    if (!found) return "";
    return found.sentence
      .replaceAll("{player}", playerWords(alert.seat, names))
      .replaceAll("{card}", alert.card ? cardWords(alert.card) : words.a_card);
  }

  // The referee's own English lines (an alert's detail, the camera's state) in this language: each line is
  // matched against the English of the catalogue's sentences (their "{slot}"s any text), and its slots said
  // in this language too (players, cards, colours, a nested sentence). A line no sentence fits stays as it is.
  let patterns = null;
  function sentencePatterns() {
    if (patterns) return patterns;
    const quote = (part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    patterns = Object.values((words && words.sentences) || {}).map((s) => {
      const slots = [];
      const source = s.en.split(/(\{\w+\})/).map((part) => {
        const slot = /^\{(\w+)\}$/.exec(part);
        if (!slot) return quote(part);
        slots.push(slot[1]);
        return "(.+?)";
      }).join("");
      return { re: new RegExp("^" + source + "$"), slots, text: s.text, fixed: s.en.replace(/\{\w+\}/g, "").length };
    }).sort((a, b) => b.fixed - a.fixed);  // the most specific first
    return patterns;
  }

  function slotWords(slot, value, names) {
    const strings = (words && words.strings) || {};
    if (slot === "player" || slot === "other") {
      const seat = /^Player (\d+)$/.exec(value);
      return seat ? playerWords(Number(seat[1]) - 1, names) : value;
    }
    if (slot === "label") return cardWords(value);
    if (slot === "card") {
      const label = words && words.english_cards && words.english_cards[value];
      return label ? cardWords(label) : value;
    }
    if (slot === "colour") return value === "unnamed" ? t("msg_unnamed") : colourWords(value);
    if (slot === "source" || slot === "deck" || slot === "zone") {
      const key = { source: "src_", deck: "deck_", zone: "zone_" }[slot] + value;
      return key in strings ? strings[key] : value;
    }
    if (slot === "top" || slot === "reason" || slot === "learned") return lineWords(value, names) ?? value;
    return value;
  }

  function lineWords(line, names) {
    for (const { re, slots, text } of sentencePatterns()) {
      const found = re.exec(line);
      if (!found) continue;
      let said = text;
      slots.forEach((slot, i) => { said = said.replace("{" + slot + "}", slotWords(slot, found[i + 1], names)); });
      return said;
    }
    return null;
  }

  /** A line the referee wrote in English (an alert's message, the camera's state) in this language, its
   * players by the names the page gives them; the line as it is when no sentence of the catalogue fits. */
  function sentence(line, names) {
    if (!line) return "";
    return lineWords(String(line), names) ?? String(line).replace(/\bPlayer (\d+)/g, (_, n) => playerWords(Number(n) - 1, names));
  }

  return {
    LANGS, t, fill, translate, load, choose, cardWords, colourWords, playerWords, penaltyWords, presetWords,
    alertTitle, alertSentence, sentence,
    get lang() { return lang; },
    get words() { return words; },
  };
})();
