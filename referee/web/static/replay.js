// Instant replays, on both pages (one file, so each template needs only its <script> tag):
// - the dashboard: a "▶ replay" button beside each alert (its entry's data-seq) and each play of the play
//   list (#replay-plays), opening an inline <video> player; "on overlay" and the key i cue a clip for the overlay;
// - the overlay (#replay): plays each clip the operator cues (GET api/replay/now, polled), and the newest
//   clip on the key i (OBS: "Interact").
// Clips appear about a second after their card settled, so the list of clips is fetched again now and then
// and whenever the alert feed changes. Every path is relative (a hub mounts the pages under /t/NAME/).
// Words come from I18N (i18n.js): labels carry data-i18n (relabelled by each I18N.load), and the play list
// is drawn again when the words arrive or the language changes ("i18n:loaded"), cards and players in words.
"use strict";

(() => {
  const el = (tag, attrs, ...children) => UNO.el(tag, attrs, ...children);
  const $ = (id) => document.getElementById(id);
  const t = (key, vars) => I18N.t(key, vars);
  // An element labelled by the key ``key`` (and its title by ``titleKey``): kept in the page's language.
  const labelled = (tag, attrs, key, titleKey) => el(tag, Object.assign({ "data-i18n": key, text: t(key) },
    titleKey ? { "data-i18n-title": titleKey, title: t(titleKey) } : {}, attrs));
  document.head.append(el("link", { rel: "stylesheet", href: "static/replay.css" }));

  async function getJson(path) {
    const response = await fetch(path, { cache: "no-store" });
    if (!response.ok) throw new Error(path + ": " + response.status);
    return response.json();
  }

  function typing() {
    const active = document.activeElement;
    return active && ["INPUT", "SELECT", "TEXTAREA"].includes(active.tagName);
  }

  // A <video> that plays a clip once, muted (browsers let only muted videos start by themselves).
  function video(url, controls) {
    const v = el("video", { class: "replay-video", src: url, muted: "", autoplay: "", playsinline: "", preload: "auto" });
    v.muted = true;
    v.controls = !!controls;
    return v;
  }

  // The overlay.
  const stage = $("replay");
  if (stage) {
    let seen = null;
    let hideTimer = null;
    const show = (url) => {
      clearTimeout(hideTimer);
      const v = video(url, false);
      const hide = () => { hideTimer = setTimeout(() => { stage.hidden = true; stage.replaceChildren(); }, 600); };
      v.addEventListener("ended", hide);
      v.addEventListener("error", hide);
      stage.replaceChildren(labelled("div", { class: "replay-label" }, "replay_label"), v);
      stage.hidden = false;
    };
    const poll = async () => {
      try {
        const cue = await getJson("api/replay/now");
        if (seen !== null && cue.n > seen && cue.url) show(cue.url);
        seen = cue.n;
      } catch (err) { /* offline: try again */ }
      setTimeout(poll, 1000);
    };
    poll();
    document.addEventListener("keydown", async (e) => {
      if (e.key !== "i" || e.ctrlKey || e.metaKey || e.altKey) return;
      try {
        const listing = await getJson("api/clips");
        if (listing.latest) show(listing.latest);
      } catch (err) { /* nothing to show */ }
    });
    return;
  }

  // The dashboard.
  const alertsList = $("alerts");
  const panel = $("replay-plays");
  if (!alertsList && !panel) return;
  let listing = { plays: [], clips: [], names: [], recording: false };
  const name = (seat) => UNO.seatName({ names: listing.names }, seat);
  const clipOf = (seq) => `api/alerts/${seq}/clip?match=${listing.match_id}`;

  function say(text, isError) {
    const node = $("result");
    if (!node) return;
    node.textContent = text;
    node.classList.toggle("error", !!isError);
  }

  async function cue(seq) {
    const token = $("token") ? $("token").value.trim() : "";
    const query = seq === undefined ? "" : "?seq=" + seq;
    try {
      const response = await fetch("api/replay" + query, { method: "POST", headers: { "X-Admin-Token": token } });
      const data = await response.json().catch(() => ({}));
      if (!response.ok) throw new Error(data.detail || String(response.status));
      say(t("replay_cued"));
    } catch (err) { say(t("replay_failed") + ": " + err.message, true); }
  }

  // One player at a time, right under the entry whose button opened it; the same button closes it.
  function toggle(entry, url) {
    const open = document.querySelector(".replay-player");
    const mine = open && open.parentElement === entry;
    if (open) open.remove();
    if (mine) return;
    entry.append(el("div", { class: "replay-player" }, video(url, true)));
  }

  function buttons(entry, seq, url) {
    const play = labelled("button", { type: "button", class: "replay-btn" }, "replay_play", "replay_play_title");
    play.addEventListener("click", () => toggle(entry, url));
    const air = labelled("button", { type: "button", class: "replay-air" }, "replay_air", "replay_air_title");
    air.addEventListener("click", () => cue(seq));
    return el("span", { class: "replay-buttons" }, play, air);
  }

  function decorateAlerts() {
    if (!alertsList) return;
    const have = new Set(listing.clips);
    for (const entry of alertsList.querySelectorAll("li[data-seq]")) {
      const seq = Number(entry.dataset.seq);
      if (entry.querySelector(".replay-buttons") || !have.has(seq)) continue;
      const head = entry.querySelector(".alert-head") || entry;
      head.append(buttons(entry, seq, clipOf(seq)));
    }
  }

  function renderPlays() {
    if (!panel) return;
    const open = panel.querySelector(".replay-player video");
    const openUrl = open ? open.getAttribute("src") : null;
    const list = el("ol", { class: "replay-list", reversed: "" });
    for (const play of listing.plays.slice().reverse().slice(0, 30)) {
      const who = play.type === "start" ? t("replay_start") : name(play.seat);
      const entry = el("li", { class: "replay-play", "data-seq": String(play.seq), "data-card": play.card || "" },
        el("span", { class: "replay-card", text: play.card ? I18N.cardWords(play.card) : "?" }),
        el("span", { class: "replay-who muted", text: who }));
      if (play.clip) {
        entry.append(buttons(entry, play.seq, play.clip));
        if (play.clip === openUrl) entry.append(open.parentElement);
      } else if (listing.recording) {
        entry.append(labelled("span", { class: "replay-none muted" }, "replay_no_clip"));
      }
      list.append(entry);
    }
    const air = labelled("button", { type: "button", class: "replay-air" }, "replay_last", "replay_last_title");
    air.addEventListener("click", () => cue());
    panel.setAttribute("aria-label", t("replay_plays"));
    panel.replaceChildren(
      el("h2", {}, labelled("span", {}, "replay_plays"), " ", el("span", { class: "badge", text: String(listing.plays.length) }), air),
      listing.plays.length ? list : labelled("p", { class: "muted" }, "replay_no_plays"));
  }

  let busy = false;
  let again = false;
  async function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    try {
      const fresh = await getJson("api/clips");
      const changed = JSON.stringify(fresh) !== JSON.stringify(listing);
      listing = fresh;
      decorateAlerts();
      if (changed) renderPlays();
    } catch (err) { /* offline: the pill says so */ }
    busy = false;
    if (again) { again = false; refresh(); }
  }

  let soon = null;
  if (alertsList) {
    // dashboard.js redraws the feed on every event: put the buttons back at once, look for new clips soon.
    new MutationObserver(() => {
      decorateAlerts();
      clearTimeout(soon);
      soon = setTimeout(refresh, 300);
    }).observe(alertsList, { childList: true });
  }
  // The words arrived, or the operator picked another language: cards and players in it.
  document.addEventListener("i18n:loaded", () => { if ("match_id" in listing) renderPlays(); });
  document.addEventListener("keydown", (e) => {
    if (e.key !== "i" || typing() || e.ctrlKey || e.metaKey || e.altKey) return;
    e.preventDefault();
    cue();
  });
  refresh();
  setInterval(refresh, 2500);
})();
