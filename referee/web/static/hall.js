// The hall page: a tile per table, every table's alerts, standings across tables; live by server-sent events.
// In the players' language (I18N, i18n.js: ?lang=, else the one kept in this browser, else English): the
// page's labels, cards, players ("Player N" for a seat without a name) and alerts in words.
"use strict";

(() => {
  const { el, cardFace, alertTitle } = UNO;
  const { t } = I18N;
  const $ = (id) => document.getElementById(id);
  const tiles = new Map();
  const FEED_MAX = 200;
  let lastId = 0;

  function tileNode(name) {
    let node = document.querySelector(`.tile[data-table="${CSS.escape(name)}"]`);
    if (!node) {
      node = el("article", { class: "tile", "data-table": name });
      const tilesBox = $("tiles");
      const after = [...tilesBox.querySelectorAll(".tile")].find((t) => t.dataset.table > name);
      tilesBox.insertBefore(node, after || null);
      $("no-tables").hidden = true;
    }
    return node;
  }

  function renderTile(tile) {
    tiles.set(tile.table, tile);
    const node = tileNode(tile.table);
    node.classList.toggle("offline", !tile.live);
    const link = el("a", { href: "t/" + encodeURIComponent(tile.table) + "/", text: tile.table });
    const pill = el("span", { class: "pill " + (tile.live ? "pill-on" : "pill-off"), text: t(tile.live ? "live" : "offline") });
    const card = el("div");
    cardFace(card, tile.top_card, tile.colour);
    const names = tile.names || [];
    const seats = el("ol", { class: "tile-seats" });
    names.forEach((_, seat) => {
      const count = (tile.hand_counts || [])[seat];
      const item = el("li", { class: seat === tile.turn ? "turn" : "" },
        el("span", { class: "seat-name", text: I18N.playerWords(seat, names) }),
        el("span", { class: "muted", text: count === null || count === undefined ? ""
          : count === 1 ? t("card_one") : t("cards_many", { n: count }) }),
        el("span", { text: String((tile.scores || [])[seat] ?? 0) }));
      seats.append(item);
    });
    const turn = tile.turn === null || tile.turn === undefined ? "—" : I18N.playerWords(tile.turn, names);
    const info = el("div", { class: "tile-info" },
      el("span", { class: "tile-card-words", text: cardWords(tile.top_card, tile.colour) }),
      el("span", { class: "tile-turn", text: t("turn") + " " + turn }),
      el("span", { class: "muted small", text: I18N.presetWords(tile.preset) + (tile.round ? " · " + t("round_n", { n: tile.round }) : "") +
        (tile.match_over ? " · " + t("match_done") : "") }));
    const last = tile.last_alert;
    node.replaceChildren(
      el("div", { class: "tile-head" }, link, el("span", { class: "spacer" }), pill),
      el("div", { class: "tile-body" }, card, info),
      seats,
      el("div", { class: "tile-alert", text: last ? alertTitle(last.code) + who(last, names, " · ", "") : "" }));
    $("table-count").textContent = tiles.size === 1 ? t("table_one") : t("tables_many", { n: tiles.size });
  }

  /** The top card in words, with the colour a wild was given ("Wild Draw Four · Red"). */
  function cardWords(label, colour) {
    if (!label) return "";
    const black = !UNO.parseLabel(label).colour;
    return I18N.cardWords(label) + (black && colour ? " · " + I18N.colourWords(colour) : "");
  }

  /** An alert's player as people say it, between ``before`` and ``after`` ("" for no seat). */
  function who(alert, names, before, after) {
    if (alert.seat === null || alert.seat === undefined) return alert.who ? before + alert.who + after : "";
    return before + I18N.playerWords(alert.seat, names) + after;
  }

  function addAlert(alert) {
    const names = (tiles.get(alert.table) || {}).names || [];
    const sentence = I18N.alertSentence(alert, names);
    const item = el("li", { "data-code": alert.code || "", "data-table": alert.table },
      el("span", { class: "feed-table", text: alert.table }),
      el("span", { class: "feed-code", text: alertTitle(alert.code) }),
      el("span", { text: sentence || who(alert, names, "", ": ") + I18N.sentence(alert.message, names) }));
    const feed = $("feed");
    feed.prepend(item);
    while (feed.children.length > FEED_MAX) feed.lastChild.remove();
  }

  function renderStandings() {
    const rows = [];
    for (const tile of tiles.values()) {
      (tile.names || []).forEach((_, seat) => rows.push({
        table: tile.table, name: I18N.playerWords(seat, tile.names), score: (tile.scores || [])[seat] || 0, won: (tile.rounds_won || [])[seat] || 0 }));
    }
    rows.sort((a, b) => b.score - a.score || b.won - a.won || a.table.localeCompare(b.table));
    $("standings").replaceChildren(...rows.map((r, i) => el("tr", {},
      el("td", { text: String(i + 1) }), el("td", { text: r.name }), el("td", { text: r.table }),
      el("td", { text: String(r.score) }), el("td", { text: String(r.won) }))));
  }

  function connection(up) {
    $("conn").dataset.i18n = up ? "live" : "offline";
    $("conn").textContent = t(up ? "live" : "offline");
    $("conn").className = "pill " + (up ? "pill-on" : "pill-off");
  }

  async function start() {
    try {
      const response = await fetch("api/hall", { cache: "no-store" });
      if (!response.ok) throw new Error("hall " + response.status);
      const hall = await response.json();
      lastId = hall.event_id || 0;
      $("broker").textContent = t("broker", { url: hall.broker.url });
      hall.tables.forEach(renderTile);
      $("feed").replaceChildren();
      hall.alerts.forEach(addAlert);
      renderStandings();
    } catch (err) {
      connection(false);
      setTimeout(start, 2000);
      return;
    }
    const source = new EventSource("api/hall/events?after=" + lastId);
    source.onopen = () => connection(true);
    source.onerror = () => connection(false);
    let pending = false;
    source.onmessage = (message) => {
      const line = JSON.parse(message.data);
      lastId = line.id;
      renderTile(line.tile);
      (line.alerts || []).forEach(addAlert);
      if (!pending) { pending = true; requestAnimationFrame(() => { pending = false; renderStandings(); }); }
    };
  }
  I18N.load().then(start);  // the words first: every tile is drawn in them
})();
