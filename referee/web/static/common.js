// Shared by the dashboard and the overlay: state + live events, card faces, names, rule quotes.
// Words people read come from I18N (i18n.js) where the page loads it; /teach does not, and gets English.
"use strict";

const UNO = (() => {
  const words = typeof I18N === "undefined" ? null : I18N;
  const SYMBOLS = { skip: "⊘", reverse: "⇄", draw2: "+2", wild: "W", wild_draw4: "+4", blank: "✎", back: "UNO" };

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else node.setAttribute(key, value);
    }
    for (const child of children) node.append(child);
    return node;
  }

  function parseLabel(label) {
    if (!label) return { colour: null, value: null };
    const i = label.indexOf("_");
    const black = ["wild", "wild_draw4", "blank", "back"];
    if (black.includes(label)) return { colour: null, value: label };
    return { colour: label.slice(0, i), value: label.slice(i + 1) };
  }

  function cardFace(node, label, colour) {
    const card = parseLabel(label);
    node.className = "card";
    if (!label) {
      node.classList.add("card-none");
      node.textContent = "?";
      return;
    }
    node.classList.add("c-" + (card.colour || "black"));
    if (!card.colour && colour) node.classList.add("named-" + colour);
    node.textContent = SYMBOLS[card.value] || card.value;
    node.title = words ? words.cardWords(label) : label;
  }

  /** A seat as people say it: its name, else "Player N", N 1-based (JSON keeps seats 0..N-1). */
  function seatName(state, seat) {
    const names = (state && state.names) || [];
    if (words) return words.playerWords(seat, names);
    if (seat === null || seat === undefined) return "someone";
    return names[seat] || "Player " + (seat + 1);
  }

  /** A referee message with its "Player N" mentions (1-based) shown by the names the page gives them. */
  function seatText(state, message) {
    return (message || "").replace(/\bPlayer (\d+)/g, (_, n) => seatName(state, Number(n) - 1));
  }

  function alertTitle(code) {
    if (words) return words.alertTitle(code);
    const plain = (code || "alert").replaceAll("_", " ");  // a page without i18n.js: "Illegal card"
    return plain[0].toUpperCase() + plain.slice(1);
  }

  /** What an alert's rule sheet says (its ``rule``: sheet, lang, quote, quote_en), as page nodes: the
   * sheet's words in its language, with the English beside them when the sheet is not English. */
  function ruleQuote(rule) {
    if (!rule || !rule.sheet) return [];
    const t = words ? words.t : (key) => key;
    // The sheet by its title ("Dutch rule sheet"); its file name is kept in the tooltip for who looks it up.
    const key = "sheet_" + String(rule.sheet).slice(0, 3);
    const title = t(key) === key ? rule.sheet : t(key);
    const cite = el("cite", { class: "rule-sheet", title: rule.sheet, "data-i18n-raw": "", text: t("rule_sheet") + ": " + title });
    if (!rule.quote) return [el("p", { class: "alert-rule alert-rule-silent" }, t("sheet_silent") + " ", cite)];
    const quote = el("blockquote", { class: "alert-rule", lang: rule.lang || "en" },
      el("span", { class: "rule-quote", text: "“" + rule.quote + "”" }), " ", cite);
    if (!rule.quote_en || rule.quote_en === rule.quote) return [quote];
    return [quote, el("p", { class: "alert-rule-en", lang: "en", text: t("in_english") + ": “" + rule.quote_en + "”" })];
  }

  /** Fetch the whole state, then follow the events from that point (resuming after drops). */
  function follow({ onState, onEvent, onConnection }) {
    let source = null;
    let lastId = 0;
    async function start() {
      try {
        const response = await fetch("api/state", { cache: "no-store" });
        if (!response.ok) throw new Error("state " + response.status);
        const state = await response.json();
        lastId = state.event_id || 0;
        onState(state);
      } catch (err) {
        onConnection(false);
        setTimeout(start, 2000);
        return;
      }
      source = new EventSource("api/events?after=" + lastId);
      source.onopen = () => onConnection(true);
      source.onerror = () => {
        onConnection(false);
        // A refused reconnect (the server answered, but not with events) ends the stream for good:
        // start over (state, then events) in a while, so "reconnecting" stays true.
        if (source.readyState === EventSource.CLOSED) { source.close(); setTimeout(start, 2000); }
      };
      source.onmessage = (message) => {
        const event = JSON.parse(message.data);
        lastId = event.id;
        onEvent(event);
      };
    }
    start();
    return { refresh: async () => {
      const response = await fetch("api/state", { cache: "no-store" });
      if (response.ok) onState(await response.json(), true);
    } };
  }

  // The controls of an admin page (the dashboard, /teach): the token taken from the URL fragment
  // (#token=...) once, then kept in this browser and changed with the page's #token-form; say() writes to
  // #result; call() is an admin request (a Blob body is sent as it is, anything else as JSON) that throws
  // the server's plain-words error.
  function adminPage() {
    const TOKEN_KEY = "uno-admin-token";
    const $ = (id) => document.getElementById(id);
    const hashToken = new URLSearchParams(location.hash.slice(1)).get("token");
    if (hashToken) {
      localStorage.setItem(TOKEN_KEY, hashToken);
      history.replaceState(null, "", location.pathname + location.search);
    }
    $("token").value = localStorage.getItem(TOKEN_KEY) || "";
    $("token-form").addEventListener("submit", (e) => {
      e.preventDefault();
      localStorage.setItem(TOKEN_KEY, $("token").value.trim());
      say(words ? words.t("token_saved") : "Token saved in this browser.");
    });

    function say(text, isError) {
      const node = $("result");
      node.textContent = text;
      node.classList.toggle("error", !!isError);
    }

    async function call(method, path, body, contentType) {
      const headers = { "X-Admin-Token": $("token").value.trim() };
      if (body !== undefined) headers["Content-Type"] = contentType || "application/json";
      const raw = body instanceof Blob;
      const response = await fetch(path, {
        method, headers, body: body === undefined ? undefined : (raw ? body : JSON.stringify(body)),
      });
      let data = null;
      try { data = await response.json(); } catch (err) { data = null; }
      if (!response.ok) {
        let detail = data && data.detail;
        if (Array.isArray(detail)) detail = detail.map((d) => (d.loc || []).slice(1).join(".") + ": " + d.msg).join("; ");
        detail = detail || response.statusText || String(response.status);
        // Said in the page's language; the server's own words and the status stay on the error for code.
        const error = new Error(words ? words.sentence(detail) : detail);
        error.raw = detail;
        error.status = response.status;
        throw error;
      }
      return data;
    }

    return { say, call };
  }

  return { el, cardFace, seatName, seatText, alertTitle, ruleQuote, follow, parseLabel, adminPage };
})();
