// The hall page: a tile per table, every table's alerts, standings across tables; live by server-sent events.
"use strict";

(() => {
  const { el, cardFace, alertTitle } = UNO;
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
    const pill = el("span", { class: "pill " + (tile.live ? "pill-on" : "pill-off"), text: tile.live ? "live" : "offline" });
    const card = el("div");
    cardFace(card, tile.top_card, tile.colour);
    const seats = el("ol", { class: "tile-seats" });
    (tile.names || []).forEach((name, seat) => {
      const count = (tile.hand_counts || [])[seat];
      const item = el("li", { class: seat === tile.turn ? "turn" : "" },
        el("span", { class: "seat-name", text: name }),
        el("span", { class: "muted", text: count === null || count === undefined ? "" : count + (count === 1 ? " card" : " cards") }),
        el("span", { text: String((tile.scores || [])[seat] ?? 0) }));
      seats.append(item);
    });
    const info = el("div", { class: "tile-info" },
      el("span", { class: "tile-turn", text: "Turn: " + (tile.turn_name || "—") }),
      el("span", { class: "muted small", text: (tile.preset || "") + (tile.round ? " · round " + tile.round : "") +
        (tile.match_over ? " · match over" : "") }));
    const last = tile.last_alert;
    node.replaceChildren(
      el("div", { class: "tile-head" }, link, el("span", { class: "spacer" }), pill),
      el("div", { class: "tile-body" }, card, info),
      seats,
      el("div", { class: "tile-alert", text: last ? alertTitle(last.code) + (last.who ? " · " + last.who : "") : "" }));
    $("table-count").textContent = tiles.size + (tiles.size === 1 ? " table" : " tables");
  }

  function addAlert(alert) {
    const item = el("li", { "data-code": alert.code || "", "data-table": alert.table },
      el("span", { class: "feed-table", text: alert.table }),
      el("span", { class: "feed-code", text: alertTitle(alert.code) }),
      el("span", { text: (alert.who ? alert.who + ": " : "") + (alert.message || "") }));
    const feed = $("feed");
    feed.prepend(item);
    while (feed.children.length > FEED_MAX) feed.lastChild.remove();
  }

  function renderStandings() {
    const rows = [];
    for (const tile of tiles.values()) {
      (tile.names || []).forEach((name, seat) => rows.push({
        table: tile.table, name, score: (tile.scores || [])[seat] || 0, won: (tile.rounds_won || [])[seat] || 0 }));
    }
    rows.sort((a, b) => b.score - a.score || b.won - a.won || a.table.localeCompare(b.table));
    $("standings").replaceChildren(...rows.map((r, i) => el("tr", {},
      el("td", { text: String(i + 1) }), el("td", { text: r.name }), el("td", { text: r.table }),
      el("td", { text: String(r.score) }), el("td", { text: String(r.won) }))));
  }

  function connection(up) {
    $("conn").textContent = up ? "live" : "offline";
    $("conn").className = "pill " + (up ? "pill-on" : "pill-off");
  }

  async function start() {
    try {
      const response = await fetch("api/hall", { cache: "no-store" });
      if (!response.ok) throw new Error("hall " + response.status);
      const hall = await response.json();
      lastId = hall.event_id || 0;
      $("broker").textContent = "broker " + hall.broker.url;
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
  start();
})();
