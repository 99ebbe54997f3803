// The operator's dashboard: live state, alert feed, score board, controls, setup.
"use strict";

(() => {
  const { el, cardFace, seatName, alertTitle } = UNO;
  const { t } = I18N;
  const $ = (id) => document.getElementById(id);
  let state = null;
  let alerts = [];        // newest last; each carries the seq of the observation that caused it
  let pinnedSeat = null;  // null: act for the seat whose turn it is
  let connected = null;   // this page's event stream: null before it first opened

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
    send({ type: "color", color: colour, seat }, t("names_colour", { who: seatName(state, seat), colour: I18N.colourWords(colour) }));
  }
  const controls = {
    uno: () => send({ type: "uno", seat: actingSeat() }, t("calls_uno", { who: seatName(state, actingSeat()) })),
    draw: () => {
      const count = Math.max(1, parseInt($("draw-count").value, 10) || 1);
      send({ type: "draw", seat: actingSeat(), count }, t("draws", { who: seatName(state, actingSeat()), n: count }));
    },
    pass: () => send({ type: "pass", seat: actingSeat() }, t("passes", { who: seatName(state, actingSeat()) })),
    challenge: () => send({ type: "challenge", seat: actingSeat() }, t("challenges", { who: seatName(state, actingSeat()) })),
    play: () => {
      const card = $("card").value.trim().toLowerCase();
      if (!card) { $("card").focus(); return; }
      send({ type: "play", card, seat: actingSeat() }, t("plays", { who: seatName(state, actingSeat()), card: I18N.cardWords(card) }));
    },
    correct: async () => {
      const card = $("card").value.trim().toLowerCase();
      if (!card) { $("card").focus(); say(t("type_right_card")); return; }
      try {
        await call("POST", "api/correct", { card });
        say(t("corrected", { card: I18N.cardWords(card) }));
      } catch (err) { say(t("correct_failed") + ": " + err.message, true); }
    },
    reveal: () => {
      const cards = cardsFrom($("reveal").value);
      send({ type: "reveal", seat: actingSeat(), cards }, t("shows", { who: seatName(state, actingSeat()), n: cards.length }));
    },
    undo: async () => {
      try { await call("POST", "api/undo"); say(t("undone")); }
      catch (err) { say(t("undo_failed") + ": " + err.message, true); }
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
    $("acting").textContent = seat === null ? "—" : seatName(state, seat) + (pinnedSeat === null ? " " + t("turn_suffix") : "");
    document.querySelectorAll("#seats li").forEach((li) => li.classList.toggle("acting", Number(li.dataset.seat) === seat));
  }

  function renderTable() {
    cardFace($("top-card"), state.top_card, state.colour);
    const colour = $("colour");
    colour.textContent = state.colour ? I18N.colourWords(state.colour) : "—";
    colour.className = "colour-name" + (state.colour ? " t-" + state.colour : "");
    $("direction").textContent = t(state.direction === -1 ? "counter_clockwise" : "clockwise");
    const pending = [];
    if (state.pending_draw) pending.push(t("to_take", { n: state.pending_draw }));
    if (state.pending_skip) pending.push(t("skip"));
    if (state.round_over) pending.push(t("round_over"));
    if (state.match_over) pending.push(t("match_over", { who: seatName(state, state.match_winner) }));
    $("pending").textContent = pending.join(", ") || "—";
    const seats = $("seats");
    seats.replaceChildren();
    for (let seat = 0; seat < (state.players || 0); seat++) {
      const count = (state.hand_counts || [])[seat];
      const li = el("li", { "data-seat": String(seat), title: t("key_n", { n: seat + 1 }) },
        el("span", { class: "seat-key", text: String(seat + 1) }),
        el("span", { class: "seat-name", text: seatName(state, seat) }),
        el("span", { class: "seat-count", text: count === null || count === undefined ? t("cards_unknown") : (count === 1 ? t("card_one") : t("cards_many", { n: count })) }),
        el("span", { class: "seat-score", text: t("pts", { n: (state.scores || [])[seat] || 0 }) }));
      if (seat === state.turn) li.classList.add("turn");
      if (seat === state.dealer) li.append(el("span", { class: "dealer", text: t("dealer") }));
      li.addEventListener("click", () => { pinnedSeat = seat === pinnedSeat ? null : seat; renderActing(); });
      seats.append(li);
    }
    renderActing();
    const preset = state.preset ? " · " + I18N.presetWords(state.preset) : "";
    if (state.hand_size) $("setup-hand").placeholder = String(state.hand_size);  // what this round dealt
    const target = state.target ? " · " + t("to_target", { n: state.target }) : "";
    $("match-info").textContent = t("match_info", { id: state.match_id }) + preset + " · " + t("round_n", { n: state.round || 1 }) + target;
    document.querySelectorAll(".extra-colour").forEach((b) => { b.hidden = !["lb"].includes(state.preset); });
  }

  const PHONE_WORDS = { connected: "phone_connected", waiting: "phone_waiting", stalled: "phone_stalled",
    disconnected: "phone_disconnected", closed: "phone_closed" };

  /** The pipeline's health in words: "judging 15 frames a second of 15 · 300 frames judged · ...". */
  function statusWords(status) {
    const num = (v) => String(Math.round(v * 10) / 10);
    const count = (key, n) => (typeof n === "number" && n > 0 ? [t(key, { n })] : []);
    const parts = [];
    const phone = status.phone;  // referee run --source phone: the phone's link to /camera
    if (phone && phone.link) {
      const fps = typeof phone.fps === "number" ? num(phone.fps) : "…";
      parts.push(t(PHONE_WORDS[phone.link] || "phone_waiting", { fps }));
    }
    if (typeof status.fps === "number") {
      parts.push(typeof status.source_fps === "number" && status.source_fps > 0
        ? t("judging_of", { n: num(status.fps), of: num(status.source_fps) }) : t("judging", { n: num(status.fps) }));
    }
    parts.push(...count("frames_judged", status.frames), ...count("observations_n", status.observations),
      ...count("dropped_n", status.dropped), ...count("corrupt_n", status.corrupt),
      ...count("reconnects_n", status.reconnects));
    if (typeof status.late_s === "number" && status.late_s >= 1) parts.push(t("late_n", { n: num(status.late_s) }));
    if (status.camera && status.camera !== "live" && status.camera_message) parts.push(I18N.sentence(status.camera_message));
    if (status.source) parts.push(t("source_is", { source: status.source }));
    return parts;
  }

  // The pill says what the operator is watching: first this page's link to the referee (the browser
  // reconnects by itself), then the camera's own state (a file that ended, a camera reconnecting).
  const CAMERA_PILL = {
    ended: ["footage_ended", "done"], stopped: ["camera_stopped", "done"], failed: ["camera_failed", "off"],
    reconnecting: ["camera_reconnecting", "warn"], starting: ["camera_starting", "warn"],
  };
  function renderPill() {
    const status = (state && state.status) || {};
    let [key, kind] = ["connecting", "warn"];
    if (connected === false) [key, kind] = ["reconnecting", "warn"];
    else if (connected) [key, kind] = CAMERA_PILL[status.camera] || ["live", "on"];
    const pill = $("conn");
    pill.textContent = t(key);
    pill.className = "pill pill-" + kind;
    pill.title = (connected && status.camera && status.camera !== "live" && I18N.sentence(status.camera_message)) || t("conn_title");
  }

  function renderStatus() {
    const status = state.status || {};
    const parts = statusWords(status);
    $("status").textContent = parts.length ? t("pipeline") + " · " + parts.join(" · ") : t("no_camera");
    renderPill();
    // What the pipeline says plainly about itself ("falling behind: ..."), above everything else.
    const warning = $("pipeline-warning");
    warning.textContent = I18N.sentence(status.warning);
    warning.hidden = !status.warning;
  }

  function renderAlerts() {
    const list = $("alerts");
    list.replaceChildren();
    for (const alert of alerts.slice().reverse()) {
      const who = seatName(state, alert.seat);
      const unsure = alert.unsure ? " alert-unsure" : "";
      const sentence = I18N.alertSentence(alert, state && state.names);
      const item = el("li", { class: "alert alert-" + (alert.code || "info") + unsure, "data-code": alert.code || "", "data-seq": String(alert.seq) },
        el("div", { class: "alert-head" },
          el("strong", { text: alertTitle(alert.code) + (alert.unsure ? " " + t("may_be_wrong") : "") }),
          el("span", { class: "alert-who", text: who }),
          el("span", { class: "alert-penalty", text: I18N.penaltyWords(alert.penalty_cards) })),
        ...(sentence ? [el("p", { class: "alert-sentence", text: sentence })] : []),
        ...UNO.ruleQuote(alert.rule),
        el("p", { class: "alert-message", title: t("log_line"), text: I18N.sentence(alert.message, state && state.names) }),
        ...(alert.unsure ? [el("p", { class: "alert-unsure-why", text: I18N.sentence(alert.unsure) })] : []));
      list.append(item);
    }
    $("alert-count").textContent = String(alerts.length);
    $("no-alerts").hidden = alerts.length > 0;
  }

  function renderScores() {
    const players = state.players || 0;
    const head = el("tr", {}, el("th", { text: t("round") }));
    for (let s = 0; s < players; s++) head.append(el("th", { text: seatName(state, s) }));
    head.append(el("th", { text: t("winner") }), el("th", { text: t("points") }));
    $("scoreboard").tHead.replaceChildren(head);
    const body = $("scoreboard").tBodies[0];
    body.replaceChildren();
    for (const round of state.rounds || []) {
      const row = el("tr", {}, el("td", { text: String(round.number) }));
      for (let s = 0; s < players; s++) row.append(el("td", { text: round.scores ? String(round.scores[s] ?? "") : "" }));
      row.append(el("td", { text: round.winner === null || round.winner === undefined ? "…" : seatName(state, round.winner) }));
      row.append(el("td", { text: round.points === null || round.points === undefined ? (round.winner === null || round.winner === undefined ? "" : t("hands_missing")) : String(round.points) }));
      body.append(row);
    }
    const total = el("tr", {}, el("th", { text: t("match") }));
    for (let s = 0; s < players; s++) total.append(el("th", { text: String((state.scores || [])[s] || 0) }));
    total.append(el("th", { text: state.match_over ? seatName(state, state.match_winner) : "" }), el("th", { text: state.target ? t("to_target", { n: state.target }) : "" }));
    $("scoreboard").tFoot.replaceChildren(total);
    // Hands to score: one field per seat still holding cards.
    const form = $("score-form");
    if (form.dataset.players !== String(players) || form.dataset.names !== (state.names || []).join("|") || form.dataset.lang !== I18N.lang) {
      form.replaceChildren();
      for (let s = 0; s < players; s++) {
        const file = el("input", { type: "file", accept: "image/jpeg,image/png", hidden: "", "data-photo-seat": String(s) });
        const button = el("button", { type: "button", class: "photo", title: t("from_photo_title"), text: t("from_photo") });
        button.addEventListener("click", () => file.click());
        file.addEventListener("change", () => { if (file.files.length) handFromPhoto(s, file.files[0]); file.value = ""; });
        form.append(el("div", { class: "row hand-row" },
          el("label", { class: "inline grow" }, seatName(state, s) + " ",
            el("input", { "data-seat": String(s), list: "labels", placeholder: t("cards_left"), spellcheck: "false" })),
          button, file));
      }
      form.append(el("button", { type: "submit", text: t("score_hands") }));
      form.dataset.players = String(players);
      form.dataset.lang = I18N.lang;
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
      const given = ((state && state.names) || [])[s] || "";  // a default "Player N" shows as the placeholder
      const value = old[s] !== undefined && old[s] !== "" ? old[s] : (given === "Player " + (s + 1) ? "" : given);
      const label = t("name_placeholder", { player: I18N.playerWords(s) });
      names.append(el("li", {}, el("input", { "data-seat": String(s), value, placeholder: label, "aria-label": label })));
    }
    const dealer = $("setup-dealer");
    const was = dealer.value || String((state && state.dealer) || 0);
    dealer.replaceChildren();
    for (let s = 0; s < n; s++) dealer.append(el("option", { value: String(s), text: seatName(state, s) }));
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
    say(t("reading_photo", { who }));
    try {
      const result = await call("POST", "api/hands/photo?seat=" + seat, file, file.type || "application/octet-stream");
      const input = $("score-form").querySelector('input[data-seat="' + seat + '"]');
      if (input) { input.value = result.cards.join(" "); input.focus(); }
      const unsure = result.detections.filter((d) => d.confidence < 0.5 || d.colour_confidence < 0.6).map((d) => d.label);
      say(t("proposed", { who, n: result.cards.length }) +
        (unsure.length ? " " + t("unsure_cards", { cards: unsure.join(", ") }) : "") + ". " + t("check_then_score"),
        unsure.length > 0 || !result.cards.length);
    } catch (err) { say(t("photo_failed", { who }) + ": " + err.message, true); }
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
    say(sent ? t("scored", { n: sent }) : t("type_hands_first"));
  });

  $("setup-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const mode = (e.submitter && e.submitter.dataset.mode) || "match";
    const names = Array.from($("setup-names").querySelectorAll("input")).map((i) => i.value.trim());
    const options = { lang: $("setup-lang").value || I18N.lang };  // saved with the setup: the overlay follows it
    document.querySelectorAll("[data-option]").forEach((box) => { if (box.checked) options[box.dataset.option] = true; });
    for (const pair of $("setup-extra").value.split(",")) {
      const [key, raw] = pair.split("=").map((s) => (s || "").trim());
      if (!key || raw === undefined || raw === "") continue;
      options[key] = raw === "true" ? true : raw === "false" ? false : (/^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw);
    }
    const body = { mode, names, players: names.length, dealer: Number($("setup-dealer").value), options };
    if ($("setup-rules").value) body.rules = $("setup-rules").value;
    if ($("setup-target").value) body.target = Number($("setup-target").value);
    // Left empty: a new round deals as this one did (the demo's table deals 4), a new match as its rules do.
    if ($("setup-hand").value) body.hand_size = Number($("setup-hand").value);
    else if (mode === "round" && state && state.hand_size) body.hand_size = state.hand_size;
    try {
      await call("POST", "api/setup", body);
      say(t(mode === "match" ? "match_started" : "round_started"));
    } catch (err) { say(t("setup_failed") + ": " + err.message, true); }
  });

  $("btn-names").addEventListener("click", async () => {
    const names = Array.from($("setup-names").querySelectorAll("input")).map((i) => i.value.trim());
    try { await call("POST", "api/names", { names: names.slice(0, state.players) }); say(t("renamed")); }
    catch (err) { say(t("rename_failed") + ": " + err.message, true); }
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
    } catch (err) { say(t("log_failed") + ": " + err.message, true); }
  });

  fetch("api/meta").then((r) => r.json()).then((meta) => {
    const list = $("labels");
    for (const label of meta.labels) list.append(el("option", { value: label }));
    const rules = $("setup-rules");
    rules.append(el("option", { value: "", text: t("current_rules"), "data-i18n": "current_rules" }));
    for (const preset of meta.presets) rules.append(el("option", { value: preset, text: I18N.presetWords(preset), "data-i18n": "preset_" + preset }));
  }).catch(() => {});

  // The language: the page's labels, the colour buttons and the setup's picker, then everything drawn.
  function relabel() {
    document.querySelectorAll("button[data-colour]").forEach((b) => {
      I18N.fill(b, I18N.colourWords(b.dataset.colour) + " [" + b.dataset.colour[0] + "]");
    });
    const picker = $("setup-lang");
    if (!picker.options.length) {
      const names = (I18N.words && I18N.words.languages) || {};
      for (const code of I18N.LANGS) picker.append(el("option", { value: code, text: names[code] || code }));
    }
    picker.value = I18N.lang;
    renderPill();
    if (state) { render(); renderSetupSeats(); }
  }
  $("setup-lang").addEventListener("change", () => I18N.choose($("setup-lang").value).then(relabel));

  let live = null;
  I18N.load().then(() => { relabel(); live = UNO.follow({
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
    onConnection: (up) => { connected = up; renderPill(); },
  }); });
  // Pipeline health is not an event: look at it every few seconds.
  setInterval(async () => {
    try {
      const response = await fetch("api/state", { cache: "no-store" });
      if (response.ok && state) { state.status = (await response.json()).status; renderStatus(); }
    } catch (err) { /* offline: the pill says so */ }
  }, 3000);
  void live;
})();
