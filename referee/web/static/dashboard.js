// The operator's dashboard: live state, alert feed, score board, controls, setup.
"use strict";

(() => {
  const { el, cardFace, seatName, seatText, alertTitle } = UNO;
  const $ = (id) => document.getElementById(id);
  let state = null;
  let alerts = [];        // newest last; each carries the seq of the observation that caused it
  let pinnedSeat = null;  // null: act for the seat whose turn it is

  const { say, call } = UNO.adminPage();

  async function send(obs, what) {
    try {
      const result = await call("POST", "api/observations", obs);
      const alertsNow = (result.outputs || []).filter((o) => o.type === "alert");
      say(what + (alertsNow.length ? " → " + alertsNow.map((a) => alertTitle(a.code)).join(", ") : " ✓"));
      pinnedSeat = null;
      renderActing();
    } catch (err) {
      say(what + ": " + err.message, true);
    }
  }

  function actingSeat() {
    if (pinnedSeat !== null) return pinnedSeat;
    return state && state.turn !== undefined ? state.turn : null;
  }

  function cardsFrom(text) {
    return text.split(/[\s,;]+/).map((s) => s.trim().toLowerCase()).filter(Boolean);
  }

  // Controls.
  function nameColour(colour) {
    const seat = state && state.last_play_seat !== undefined ? state.last_play_seat : null;
    send({ type: "color", color: colour, seat }, seatName(state, seat) + " names " + colour);
  }
  const controls = {
    uno: () => send({ type: "uno", seat: actingSeat() }, seatName(state, actingSeat()) + " calls UNO"),
    draw: () => {
      const count = Math.max(1, parseInt($("draw-count").value, 10) || 1);
      send({ type: "draw", seat: actingSeat(), count }, seatName(state, actingSeat()) + " draws " + count);
    },
    pass: () => send({ type: "pass", seat: actingSeat() }, seatName(state, actingSeat()) + " passes"),
    challenge: () => send({ type: "challenge", seat: actingSeat() }, seatName(state, actingSeat()) + " challenges"),
    play: () => {
      const card = $("card").value.trim().toLowerCase();
      if (!card) { $("card").focus(); return; }
      send({ type: "play", card, seat: actingSeat() }, seatName(state, actingSeat()) + " plays " + card);
    },
    correct: async () => {
      const card = $("card").value.trim().toLowerCase();
      if (!card) { $("card").focus(); say("Type the right card, then press m again."); return; }
      try {
        await call("POST", "api/correct", { card });
        say("Last play corrected to " + card + " ✓");
      } catch (err) { say("Correct: " + err.message, true); }
    },
    reveal: () => {
      const cards = cardsFrom($("reveal").value);
      send({ type: "reveal", seat: actingSeat(), cards }, seatName(state, actingSeat()) + " shows " + cards.length + " cards");
    },
    undo: async () => {
      try { await call("POST", "api/undo"); say("Last observation undone ✓"); }
      catch (err) { say("Undo: " + err.message, true); }
    },
  };
  document.querySelectorAll("[data-colour]").forEach((b) => b.addEventListener("click", () => nameColour(b.dataset.colour)));
  $("btn-uno").onclick = controls.uno;
  $("btn-draw").onclick = controls.draw;
  $("btn-pass").onclick = controls.pass;
  $("btn-challenge").onclick = controls.challenge;
  $("btn-play").onclick = controls.play;
  $("btn-correct").onclick = controls.correct;
  $("btn-reveal").onclick = controls.reveal;
  $("btn-undo").onclick = controls.undo;
  $("help-toggle").onclick = () => { $("help").hidden = !$("help").hidden; };
  $("card").addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); controls.play(); } });
  $("reveal").addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); controls.reveal(); } });

  const KEYS = {
    r: () => nameColour("red"), g: () => nameColour("green"), b: () => nameColour("blue"),
    y: () => nameColour("yellow"), o: () => nameColour("orange"), v: () => nameColour("violet"),
    u: controls.uno, d: controls.draw, p: controls.pass, c: controls.challenge,
    k: () => $("card").focus(), m: controls.correct, h: () => $("reveal").focus(), z: controls.undo,
    "?": () => { $("help").hidden = !$("help").hidden; },
  };
  document.addEventListener("keydown", (e) => {
    const typing = ["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement.tagName);
    if (e.key === "Escape") { document.activeElement.blur(); return; }
    if (typing || e.ctrlKey || e.metaKey || e.altKey) return;
    if (/^[0-9]$/.test(e.key)) {
      const seat = parseInt(e.key, 10) - 1;
      pinnedSeat = seat < 0 || !state || seat >= state.players ? null : seat;
      renderActing();
      e.preventDefault();
      return;
    }
    const action = KEYS[e.key];
    if (action) { e.preventDefault(); action(); }
  });

  // Rendering.
  function renderActing() {
    const seat = actingSeat();
    $("acting").textContent = seat === null ? "—" : seatName(state, seat) + (pinnedSeat === null ? " (turn)" : "");
    document.querySelectorAll("#seats li").forEach((li) => li.classList.toggle("acting", Number(li.dataset.seat) === seat));
  }

  function renderTable() {
    cardFace($("top-card"), state.top_card, state.colour);
    const colour = $("colour");
    colour.textContent = state.colour || "—";
    colour.className = "colour-name" + (state.colour ? " t-" + state.colour : "");
    $("direction").textContent = state.direction === -1 ? "↺ counter-clockwise" : "↻ clockwise";
    const pending = [];
    if (state.pending_draw) pending.push("+" + state.pending_draw + " to take");
    if (state.pending_skip) pending.push("skip");
    if (state.round_over) pending.push("round over");
    if (state.match_over) pending.push("match over: " + seatName(state, state.match_winner) + " wins");
    $("pending").textContent = pending.join(", ") || "—";
    const seats = $("seats");
    seats.replaceChildren();
    for (let seat = 0; seat < (state.players || 0); seat++) {
      const count = (state.hand_counts || [])[seat];
      const li = el("li", { "data-seat": String(seat), title: "key " + (seat + 1) },
        el("span", { class: "seat-key", text: String(seat + 1) }),
        el("span", { class: "seat-name", text: seatName(state, seat) }),
        el("span", { class: "seat-count", text: count === null || count === undefined ? "? cards" : count + (count === 1 ? " card" : " cards") }),
        el("span", { class: "seat-score", text: ((state.scores || [])[seat] || 0) + " pts" }));
      if (seat === state.turn) li.classList.add("turn");
      if (seat === state.dealer) li.append(el("span", { class: "dealer", text: "dealer" }));
      li.addEventListener("click", () => { pinnedSeat = seat === pinnedSeat ? null : seat; renderActing(); });
      seats.append(li);
    }
    renderActing();
    const preset = state.preset ? " · " + state.preset : "";
    const target = state.target ? " · to " + state.target : "";
    $("match-info").textContent = "Match " + state.match_id + preset + " · round " + (state.round || 1) + target;
    document.querySelectorAll(".extra-colour").forEach((b) => { b.hidden = !["lb"].includes(state.preset); });
  }

  function renderStatus() {
    const status = state.status || {};
    const parts = Object.entries(status)
      .filter(([k, v]) => k !== "warning" && v !== null && v !== undefined)
      .map(([k, v]) => k + ": " + (typeof v === "number" ? Math.round(v * 10) / 10 : v));
    $("status").textContent = parts.length ? "pipeline · " + parts.join(" · ") : "pipeline: no camera attached";
    // What the pipeline says plainly about itself ("falling behind: ..."), above everything else.
    const warning = $("pipeline-warning");
    warning.textContent = status.warning || "";
    warning.hidden = !status.warning;
  }

  function renderAlerts() {
    const list = $("alerts");
    list.replaceChildren();
    for (const alert of alerts.slice().reverse()) {
      const who = seatName(state, alert.seat);
      const penalty = alert.penalty_cards ? "+" + alert.penalty_cards + " cards" : "no penalty cards";
      const unsure = alert.unsure ? " alert-unsure" : "";
      const item = el("li", { class: "alert alert-" + (alert.code || "info") + unsure, "data-code": alert.code || "" },
        el("div", { class: "alert-head" },
          el("strong", { text: alertTitle(alert.code) + (alert.unsure ? " (may be wrong)" : "") }),
          el("span", { class: "alert-who", text: who }),
          el("span", { class: "alert-penalty", text: penalty })),
        el("p", { class: "alert-message", text: seatText(state, alert.message) }),
        ...(alert.unsure ? [el("p", { class: "alert-unsure-why", text: alert.unsure })] : []));
      list.append(item);
    }
    $("alert-count").textContent = String(alerts.length);
    $("no-alerts").hidden = alerts.length > 0;
  }

  function renderScores() {
    const players = state.players || 0;
    const head = el("tr", {}, el("th", { text: "Round" }));
    for (let s = 0; s < players; s++) head.append(el("th", { text: seatName(state, s) }));
    head.append(el("th", { text: "Winner" }), el("th", { text: "Points" }));
    $("scoreboard").tHead.replaceChildren(head);
    const body = $("scoreboard").tBodies[0];
    body.replaceChildren();
    for (const round of state.rounds || []) {
      const row = el("tr", {}, el("td", { text: String(round.number) }));
      for (let s = 0; s < players; s++) row.append(el("td", { text: round.scores ? String(round.scores[s] ?? "") : "" }));
      row.append(el("td", { text: round.winner === null || round.winner === undefined ? "…" : seatName(state, round.winner) }));
      row.append(el("td", { text: round.points === null || round.points === undefined ? (round.winner === null || round.winner === undefined ? "" : "hands?") : String(round.points) }));
      body.append(row);
    }
    const total = el("tr", {}, el("th", { text: "Match" }));
    for (let s = 0; s < players; s++) total.append(el("th", { text: String((state.scores || [])[s] || 0) }));
    total.append(el("th", { text: state.match_over ? seatName(state, state.match_winner) : "" }), el("th", { text: state.target ? "to " + state.target : "" }));
    $("scoreboard").tFoot.replaceChildren(total);
    // Hands to score: one field per seat still holding cards.
    const form = $("score-form");
    if (form.dataset.players !== String(players) || form.dataset.names !== (state.names || []).join("|")) {
      form.replaceChildren();
      for (let s = 0; s < players; s++) {
        const file = el("input", { type: "file", accept: "image/jpeg,image/png", hidden: "", "data-photo-seat": String(s) });
        const button = el("button", { type: "button", class: "photo", title: "propose this hand from a photo of it (check it, then score)", text: "From photo" });
        button.addEventListener("click", () => file.click());
        file.addEventListener("change", () => { if (file.files.length) handFromPhoto(s, file.files[0]); file.value = ""; });
        form.append(el("div", { class: "row hand-row" },
          el("label", { class: "inline grow" }, seatName(state, s) + " ",
            el("input", { "data-seat": String(s), list: "labels", placeholder: "cards left", spellcheck: "false" })),
          button, file));
      }
      form.append(el("button", { type: "submit", text: "Score the hands" }));
      form.dataset.players = String(players);
      form.dataset.names = (state.names || []).join("|");
    }
  }

  function renderSetup() {
    const playersSel = $("setup-players");
    if (!playersSel.options.length) {
      for (let n = 2; n <= 10; n++) playersSel.append(el("option", { value: String(n), text: String(n) }));
      playersSel.value = String(state.players || 4);
      playersSel.addEventListener("change", renderSetupSeats);
    }
    renderSetupSeats();
  }

  function renderSetupSeats() {
    const n = parseInt($("setup-players").value, 10);
    const names = $("setup-names");
    const old = Array.from(names.querySelectorAll("input")).map((i) => i.value);
    names.replaceChildren();
    for (let s = 0; s < n; s++) {
      const value = old[s] !== undefined && old[s] !== "" ? old[s] : ((state && state.names) || [])[s] || "";
      names.append(el("li", {}, el("input", { "data-seat": String(s), value, placeholder: "Seat " + (s + 1) + " name", "aria-label": "seat " + (s + 1) + " name" })));
    }
    const dealer = $("setup-dealer");
    const was = dealer.value || String((state && state.dealer) || 0);
    dealer.replaceChildren();
    for (let s = 0; s < n; s++) dealer.append(el("option", { value: String(s), text: "Seat " + (s + 1) }));
    dealer.value = Number(was) < n ? was : "0";
  }

  function render() {
    renderTable();
    renderAlerts();
    renderScores();
    renderStatus();
  }

  // A photo of a hand laid out on the table: the detector proposes its cards for the operator to check.
  async function handFromPhoto(seat, file) {
    const who = seatName(state, seat);
    say(who + ": reading the photo…");
    try {
      const result = await call("POST", "api/hands/photo?seat=" + seat, file, file.type || "application/octet-stream");
      const input = $("score-form").querySelector('input[data-seat="' + seat + '"]');
      if (input) { input.value = result.cards.join(" "); input.focus(); }
      const unsure = result.detections.filter((d) => d.confidence < 0.5 || d.colour_confidence < 0.6).map((d) => d.label);
      say(who + ": " + result.cards.length + " card(s) proposed from the photo" +
        (unsure.length ? " (unsure: " + unsure.join(", ") + ")" : "") + ". Check them, then score the hands.",
        unsure.length > 0 || !result.cards.length);
    } catch (err) { say(who + " photo: " + err.message, true); }
  }

  $("score-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const inputs = Array.from($("score-form").querySelectorAll("input[data-seat]"));
    let sent = 0;
    for (const input of inputs) {
      const cards = cardsFrom(input.value);
      if (!cards.length) continue;
      const seat = Number(input.dataset.seat);
      try {
        await call("POST", "api/observations", { type: "reveal", seat, cards });
        input.value = "";
        sent++;
      } catch (err) { say(seatName(state, seat) + ": " + err.message, true); return; }
    }
    say(sent ? "Hands scored for " + sent + " seat(s) ✓" : "Type the cards left in each hand first.");
  });

  $("setup-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const mode = (e.submitter && e.submitter.dataset.mode) || "match";
    const names = Array.from($("setup-names").querySelectorAll("input")).map((i) => i.value.trim());
    const options = {};
    document.querySelectorAll("[data-option]").forEach((box) => { if (box.checked) options[box.dataset.option] = true; });
    for (const pair of $("setup-extra").value.split(",")) {
      const [key, raw] = pair.split("=").map((s) => (s || "").trim());
      if (!key || raw === undefined || raw === "") continue;
      options[key] = raw === "true" ? true : raw === "false" ? false : (/^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw);
    }
    const body = { mode, names, players: names.length, dealer: Number($("setup-dealer").value), options };
    if ($("setup-rules").value) body.rules = $("setup-rules").value;
    if ($("setup-target").value) body.target = Number($("setup-target").value);
    if ($("setup-hand").value) body.hand_size = Number($("setup-hand").value);
    try {
      await call("POST", "api/setup", body);
      say(mode === "match" ? "New match started ✓" : "Next round started ✓");
    } catch (err) { say("Setup: " + err.message, true); }
  });

  $("btn-names").addEventListener("click", async () => {
    const names = Array.from($("setup-names").querySelectorAll("input")).map((i) => i.value.trim());
    try { await call("POST", "api/names", { names: names.slice(0, state.players) }); say("Seats renamed ✓"); }
    catch (err) { say("Rename: " + err.message, true); }
  });

  $("log-link").addEventListener("click", async (e) => {
    e.preventDefault();
    try {
      const response = await fetch("api/log", { headers: { "X-Admin-Token": $("token").value.trim() } });
      if (!response.ok) throw new Error((await response.json()).detail);
      const url = URL.createObjectURL(await response.blob());
      const a = el("a", { href: url, download: "match-" + state.match_id + ".jsonl" });
      document.body.append(a); a.click(); a.remove();
      URL.revokeObjectURL(url);
    } catch (err) { say("Log: " + err.message, true); }
  });

  fetch("api/meta").then((r) => r.json()).then((meta) => {
    const list = $("labels");
    for (const label of meta.labels) list.append(el("option", { value: label }));
    const rules = $("setup-rules");
    rules.append(el("option", { value: "", text: "(current)" }));
    for (const preset of meta.presets) rules.append(el("option", { value: preset, text: preset }));
  }).catch(() => {});

  const live = UNO.follow({
    onState: (fresh, keepAlerts) => {
      const first = state === null;
      state = fresh;
      if (!keepAlerts) alerts = fresh.alerts || [];
      render();
      if (first) renderSetup();
    },
    onEvent: (event) => {
      const status = state ? state.status : {};
      if (event.kind === "match") alerts = [];
      if (event.kind === "undo") alerts = alerts.filter((a) => a.seq !== event.seq);
      if (event.kind === "correct") alerts = alerts.filter((a) => a.seq !== event.undone_seq);
      if (event.kind !== "undo") {
        for (const out of event.outputs || []) if (out.type === "alert") alerts.push(Object.assign({ seq: event.seq }, out));
      }
      state = Object.assign({}, event.state, { status, event_id: event.id });
      render();
      if (event.kind === "match" || event.kind === "names") renderSetupSeats();
    },
    onConnection: (up) => {
      const pill = $("conn");
      pill.textContent = up ? "live" : "offline";
      pill.className = "pill " + (up ? "pill-on" : "pill-off");
    },
  });
  // Pipeline health is not an event: look at it every few seconds.
  setInterval(async () => {
    try {
      const response = await fetch("api/state", { cache: "no-store" });
      if (response.ok && state) { state.status = (await response.json()).status; renderStatus(); }
    } catch (err) { /* offline: the pill says so */ }
  }, 3000);
  void live;
})();
