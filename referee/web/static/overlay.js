// OBS overlay: fetches the full state on every load (OBS reloads sources), then follows the events.
// Its language: ?lang= in the source's address, else the match's (the dashboard's setup), see i18n.js.
// Its sizes follow the browser source's (overlay.css); ?banner=S keeps each alert's banner up S seconds,
// ?strip=N shows the last N alerts in the strip (3; 0: no strip).
"use strict";

(() => {
  const { el, cardFace, seatName, alertTitle } = UNO;
  const { t } = I18N;
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  const bannerSeconds = Math.max(1, Number(params.get("banner")) || 6);
  const stripSize = Math.max(0, Math.min(10, params.has("strip") ? Math.floor(Number(params.get("strip"))) || 0 : 3));
  let state = null;
  let queue = [];
  let showing = false;
  // The audience's alerts of this match, oldest first, each with the seq of the observation behind it
  // (so an undo or a corrected misread takes its alert off the strip again).
  let recent = [];

  /** "5 cards", "1 card", "? cards": a count the audience reads without knowing what the number is. */
  function cardsWords(count) {
    if (count === null || count === undefined) return t("cards_unknown");
    return count === 1 ? t("card_one") : t("cards_many", { n: count });
  }

  function render() {
    cardFace($("top-card"), state.top_card, state.colour);
    $("colour").textContent = state.colour ? I18N.colourWords(state.colour) : "—";
    $("colour-dot").className = "dot" + (state.colour ? " bg-" + state.colour : "");
    $("direction").textContent = state.direction === -1 ? "↺" : "↻";
    // A round that is over has no turn: the line says so ("Round over"), not "Turn: round over".
    $("turn-label").hidden = !!state.round_over;
    $("turn").textContent = state.round_over ? t("turn_round_over") : seatName(state, state.turn);
    $("pending").textContent = state.pending_draw ? t("to_draw", { n: state.pending_draw }) : (state.pending_skip ? t("skip") : "");
    const players = $("players");
    players.replaceChildren();
    for (let seat = 0; seat < (state.players || 0); seat++) {
      const li = el("li", {}, seatName(state, seat),
        el("span", { class: "count", text: cardsWords((state.hand_counts || [])[seat]) }),
        el("span", { class: "score", text: t("pts", { n: (state.scores || [])[seat] || 0 }) }));
      if (seat === state.turn && !state.round_over) li.classList.add("turn");
      players.append(li);
    }
    renderStrip();
  }

  /** The last alerts, newest first; the newest slides in when it is new to the strip. */
  function renderStrip(arrived) {
    const strip = $("strip");
    strip.hidden = !stripSize || !recent.length;
    strip.replaceChildren();
    for (const alert of recent.slice(-stripSize).reverse()) {
      const item = el("li", { "data-code": alert.code || "", "data-seq": String(alert.seq) },
        el("span", { class: "strip-title", text: alertTitle(alert.code) }), " · ",
        el("span", { class: "strip-who", text: seatName(state, alert.seat) }),
        ...(alert.penalty_cards ? [" · ", el("span", { class: "strip-penalty", text: I18N.penaltyWords(alert.penalty_cards) })] : []));
      if (arrived && alert === arrived) item.classList.add("arriving");
      strip.append(item);
    }
  }

  function nextBanner() {
    if (showing || !queue.length) return;
    const alert = queue.shift();
    showing = true;
    const banner = $("banner");
    $("banner-code").textContent = alertTitle(alert.code);
    $("banner-who").textContent = seatName(state, alert.seat);
    $("banner-penalty").textContent = alert.penalty_cards ? I18N.penaltyWords(alert.penalty_cards) : "";
    $("banner-message").textContent = I18N.alertSentence(alert, state && state.names) || I18N.sentence(alert.message, state && state.names);
    const rule = $("banner-rule");
    // The sheet's own words; the English beside them only for an English-speaking audience.
    rule.replaceChildren(...UNO.ruleQuote(alert.rule).slice(0, I18N.lang === "en" ? 2 : 1));
    rule.hidden = !rule.childNodes.length;
    banner.hidden = false;
    banner.classList.remove("fading");
    setTimeout(() => banner.classList.add("fading"), bannerSeconds * 1000);
    setTimeout(() => { banner.hidden = true; showing = false; nextBanner(); }, bannerSeconds * 1000 + 900);
  }

  // An alert the camera was unsure of (the pipeline fell behind) is for the operator to check, not a
  // verdict to show the audience: neither the banner nor the strip shows it.
  const forAudience = (out) => out.type === "alert" && !out.unsure;

  I18N.load().then(() => UNO.follow({
    onState: (fresh) => {
      state = fresh;
      recent = (fresh.alerts || []).filter((a) => !a.unsure).map((a) => Object.assign({ type: "alert" }, a));
      render();
    },
    onEvent: (event) => {
      state = event.state;
      // A new match may bring another language (the setup's): follow it unless this page was given one.
      if (event.kind === "match") { recent = []; I18N.load().then(render); }
      if (event.kind === "undo") recent = recent.filter((a) => a.seq !== event.seq);
      if (event.kind === "correct") recent = recent.filter((a) => a.seq !== event.undone_seq);
      let arrived = null;
      if (event.kind === "observation" || event.kind === "correct") {
        for (const out of event.outputs || []) {
          if (!forAudience(out)) continue;
          arrived = Object.assign({ seq: event.seq }, out);
          recent.push(arrived);
          queue.push(out);
        }
        recent = recent.slice(-10);
      }
      render();
      if (arrived) renderStrip(arrived);
      nextBanner();
    },
    onConnection: () => {},
  }));
})();
