// OBS overlay: fetches the full state on every load (OBS reloads sources), then follows the events.
"use strict";

(() => {
  const { el, cardFace, seatName, seatText, alertTitle } = UNO;
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  const bannerSeconds = Math.max(1, Number(params.get("banner")) || 6);
  let state = null;
  let queue = [];
  let showing = false;

  function render() {
    cardFace($("top-card"), state.top_card, state.colour);
    $("colour").textContent = state.colour || "—";
    $("colour-dot").className = "dot" + (state.colour ? " bg-" + state.colour : "");
    $("direction").textContent = state.direction === -1 ? "↺" : "↻";
    $("turn").textContent = state.round_over ? "round over" : seatName(state, state.turn);
    $("pending").textContent = state.pending_draw ? "+" + state.pending_draw : (state.pending_skip ? "skip" : "");
    const players = $("players");
    players.replaceChildren();
    for (let seat = 0; seat < (state.players || 0); seat++) {
      const count = (state.hand_counts || [])[seat];
      const li = el("li", {}, seatName(state, seat),
        el("span", { class: "count", text: count === null || count === undefined ? "?" : String(count) }),
        el("span", { class: "score", text: ((state.scores || [])[seat] || 0) + " pts" }));
      if (seat === state.turn && !state.round_over) li.classList.add("turn");
      players.append(li);
    }
  }

  function nextBanner() {
    if (showing || !queue.length) return;
    const alert = queue.shift();
    showing = true;
    const banner = $("banner");
    $("banner-code").textContent = alertTitle(alert.code);
    $("banner-who").textContent = seatName(state, alert.seat);
    $("banner-penalty").textContent = alert.penalty_cards ? "+" + alert.penalty_cards : "";
    $("banner-message").textContent = seatText(state, alert.message);
    banner.hidden = false;
    banner.classList.remove("fading");
    setTimeout(() => banner.classList.add("fading"), bannerSeconds * 1000);
    setTimeout(() => { banner.hidden = true; showing = false; nextBanner(); }, bannerSeconds * 1000 + 900);
  }

  UNO.follow({
    onState: (fresh) => { state = fresh; render(); },
    onEvent: (event) => {
      state = event.state;
      render();
      if (event.kind === "observation" || event.kind === "correct") {
        // An alert the camera was unsure of (the pipeline fell behind) is for the operator to check,
        // not a verdict to show the audience.
        for (const out of event.outputs || []) if (out.type === "alert" && !out.unsure) queue.push(out);
        nextBanner();
      }
    },
    onConnection: () => {},
  });
})();
