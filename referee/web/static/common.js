// Shared by the dashboard and the overlay: state + live events, card faces, names.
"use strict";

const UNO = (() => {
  const ALERT_TITLES = {
    illegal_card: "Illegal card",
    out_of_turn: "Out of turn",
    skipped_turn_played: "Played while skipped",
    missed_draw_penalty: "Penalty cards not taken",
    missed_uno: "Missed UNO call",
    illegal_wild_draw_four: "Illegal Wild Draw Four",
    failed_challenge: "Failed challenge",
    impossible_card: "Impossible card",
  };
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
    node.title = label;
  }

  function seatName(state, seat) {
    if (seat === null || seat === undefined) return "someone";
    const names = (state && state.names) || [];
    return names[seat] || "Seat " + (seat + 1);
  }

  /** A referee message with its 0-based "seat N" mentions shown as the page names seats ("Ann", "Seat 3"). */
  function seatText(state, message) {
    return (message || "").replace(/\bseat (\d+)('s)?/g, (_, n, own) => seatName(state, Number(n)) + (own || ""));
  }

  function alertTitle(code) {
    return ALERT_TITLES[code] || (code || "alert").replaceAll("_", " ");
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
      source.onerror = () => onConnection(false);
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
      say("Token saved in this browser.");
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
        throw new Error(detail || response.statusText || String(response.status));
      }
      return data;
    }

    return { say, call };
  }

  return { el, cardFace, seatName, seatText, alertTitle, follow, parseLabel, adminPage };
})();
