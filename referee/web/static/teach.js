// Teach this deck: photos of each card of the deck at the table, then learn-deck in the server.
"use strict";

(() => {
  const { el, cardFace } = UNO;
  const $ = (id) => document.getElementById(id);
  // Photos larger than this (or not JPEG/PNG, e.g. HEIC) are shrunk in the browser before they are sent.
  const SHRINK_BYTES = 1.5 * 1024 * 1024;
  const SHRINK_SIDE = 1600;
  let status = null;
  let shownLabels = "";
  let polling = null;

  const { say, call } = UNO.adminPage();

  const photoPath = (label) => "api/deck/photos?label=" + encodeURIComponent(label);
  const { t } = I18N;
  const card = (label) => I18N.cardWords(label);  // "Red 0", never red_0
  const photos = (n) => (n === 1 ? t("photo_one") : t("photos_many", { n }));
  const cards = (n) => (n === 1 ? t("card_one") : t("cards_many", { n }));

  // A big phone photo (or a HEIC) as a JPEG of at most SHRINK_SIDE pixels a side; the file itself if
  // it is small already or the browser cannot decode it (the server then says what is wrong).
  async function shrunk(file) {
    const plain = file.type === "image/jpeg" || file.type === "image/png";
    if ((plain && file.size <= SHRINK_BYTES) || typeof createImageBitmap !== "function") return file;
    try {
      const bitmap = await createImageBitmap(file);
      const scale = Math.min(1, SHRINK_SIDE / Math.max(bitmap.width, bitmap.height));
      const canvas = el("canvas", { width: String(Math.round(bitmap.width * scale)), height: String(Math.round(bitmap.height * scale)) });
      canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
      bitmap.close();
      const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.9));
      return blob || file;
    } catch (err) {
      return file;
    }
  }

  async function upload(label, files) {
    const list = Array.from(files).filter((f) => f && f.size !== undefined);
    if (!list.length) return;
    const tile = tileFor(label);
    if (tile) tile.classList.add("busy");
    let added = 0;
    try {
      for (const [i, file] of list.entries()) {
        say(t("sending_photo", { card: card(label), i: i + 1, n: list.length }));
        const body = await shrunk(file);
        const result = await call("POST", photoPath(label), body, body.type || "application/octet-stream");
        setCount(label, result.count);
        if (result.new) added++;
      }
      const already = added < list.length ? " " + t("already_there", { n: list.length - added }) : "";
      say(t("photos_added", { card: card(label), photos: photos(added) + already }));
    } catch (err) {
      say(card(label) + ": " + err.message, true);
    } finally {
      if (tile) tile.classList.remove("busy");
      refresh();
    }
  }

  async function forget(label) {
    const count = (status && status.photos[label]) || 0;
    if (!window.confirm(t("forget_confirm", { photos: photos(count), card: card(label) }))) return;
    try {
      const result = await call("DELETE", photoPath(label));
      setCount(label, 0);
      say(t("photos_forgotten", { card: card(label), photos: photos(result.removed) }));
    } catch (err) { say(card(label) + ": " + err.message, true); }
    refresh();
  }

  async function learn() {
    $("btn-learn").disabled = true;
    try {
      const views = new URLSearchParams(location.search).get("views");
      render(await call("POST", "api/deck/learn" + (views ? "?views=" + encodeURIComponent(views) : "")));
      say(t("learning_from_photos"));
      refresh();
    } catch (err) {
      say(t("learn_failed") + ": " + err.message, true);
      $("btn-learn").disabled = false;
    }
  }
  $("btn-learn").addEventListener("click", learn);

  // The grid.
  function tileFor(label) {
    return Array.from(document.querySelectorAll("#labels .tile")).find((t) => t.dataset.label === label) || null;
  }

  function setCount(label, count) {
    const tile = tileFor(label);
    if (!tile) return;
    tile.querySelector(".count").textContent = photos(count);
    tile.classList.toggle("has", count > 0);
    tile.querySelector(".forget").hidden = count === 0;
  }

  function makeTile(label) {
    const face = el("div", { class: "card", "aria-hidden": "true" });
    cardFace(face, label);
    const input = el("input", { type: "file", accept: "image/jpeg,image/png", multiple: "", hidden: "", "data-label": label, "aria-label": t("photos_of", { card: card(label) }) });
    const pick = el("button", { type: "button", class: "tile-pick", title: t("add_photos_of", { card: card(label) }) },
      face,
      el("span", { class: "tile-label", text: card(label) }),
      el("span", { class: "tile-count" }, el("span", { class: "count", "data-count": label, text: photos(0) })));
    const drop = el("button", { type: "button", class: "link forget", title: t("forget_photos_of", { card: card(label) }), text: "✕", hidden: "" });
    const tile = el("li", { class: "tile", "data-label": label }, pick, drop, input);
    pick.addEventListener("click", () => input.click());
    input.addEventListener("change", () => { const files = Array.from(input.files); input.value = ""; upload(label, files); });
    drop.addEventListener("click", () => forget(label));
    tile.addEventListener("dragover", (e) => { e.preventDefault(); tile.classList.add("drop"); });
    tile.addEventListener("dragleave", () => tile.classList.remove("drop"));
    tile.addEventListener("drop", (e) => {
      e.preventDefault();
      tile.classList.remove("drop");
      if (e.dataTransfer && e.dataTransfer.files.length) upload(label, e.dataTransfer.files);
    });
    return tile;
  }

  function renderGrid() {
    const extra = Object.keys(status.photos).filter((l) => !status.labels.includes(l)).sort();
    const labels = status.labels.concat(extra);
    const key = labels.join(" ");
    if (key !== shownLabels) {
      $("labels").replaceChildren(...labels.map(makeTile));
      shownLabels = key;
    }
    for (const label of labels) setCount(label, status.photos[label] || 0);
  }

  function renderState() {
    const node = $("state");
    const labels = { idle: "", learning: t("state_learning") + " ", ready: "✓ ", error: "✕ " };
    node.textContent = (labels[status.state] || "") + (I18N.sentence(status.message) || (status.state === "idle" ? t("no_deck_yet") : ""));
    node.className = "state " + status.state;
    const learning = status.state === "learning";
    $("btn-learn").disabled = learning;
    const bar = $("progress");
    bar.hidden = !learning;
    if (learning && status.progress && status.progress.total) {
      bar.max = status.progress.total + 1;
      bar.value = status.progress.done;
    } else if (learning) {
      bar.removeAttribute("value");
    }
    $("in-use").hidden = !status.in_use;
    $("no-pipeline").hidden = status.live;
    const withPhotos = Object.keys(status.photos).length;
    $("totals").textContent = t("teach_totals", { photos: photos(status.total_photos), n: withPhotos, total: status.labels.length });
    const s = status.summary;
    const summary = $("summary");
    summary.hidden = !s;
    if (s) {
      const parts = [t("last_learned", { cards: cards(s.labels_learned || 0), photos: photos(s.photos || 0), s: s.seconds })];
      if (s.views_read_right_generic !== undefined && s.views_read_right_learned !== undefined) {
        parts.push(t("views_read_right", { a: Math.round(s.views_read_right_generic * 100), b: Math.round(s.views_read_right_learned * 100) }));
      }
      if (s.palette && Object.keys(s.palette).length) parts.push(t("colours_list", { list: Object.keys(s.palette).map(I18N.colourWords).join(", ") }));
      if (s.skipped && s.skipped.length) parts.push(t("photos_no_card", { photos: photos(s.skipped.length) }));
      if (s.deck) parts.push(t("saved_in", { deck: s.deck }));
      summary.textContent = parts.join(" · ");
    }
  }

  function render(fresh) {
    const was = status && status.state;
    status = Object.assign({}, status || {}, fresh);
    if (was === "learning" && status.state !== "learning") say("");  // the state line says how it ended
    if (!status.labels) return;
    const deckName = status.deck ? t("deckname_" + status.deck) : "";
    $("deck-name").textContent = deckName && deckName !== "deckname_" + status.deck ? "· " + deckName : "";
    renderGrid();
    renderState();
    if (status.state === "learning" && polling === null) polling = setInterval(refresh, 1000);
    if (status.state !== "learning" && polling !== null) { clearInterval(polling); polling = null; }
  }

  async function refresh() {
    try {
      const response = await fetch("api/deck", { cache: "no-store" });
      if (!response.ok) throw new Error("deck status " + response.status);
      render(await response.json());
    } catch (err) {
      $("state").textContent = t("cannot_reach", { error: err.message });
      $("state").className = "state error";
    }
  }

  // Photos of the deck laid out in rows: every card found, a label proposed for each; a tap on one lets the
  // player pick the right card; "Learn from these cards" puts them among the deck's photos and learns.
  const photoImages = {};
  let rowCards = [];

  function photoImage(name) {
    if (!photoImages[name]) {
      photoImages[name] = new Promise((resolve) => {
        const img = new Image();
        img.onload = () => resolve(img);
        img.onerror = () => resolve(null);
        img.src = "api/deck/rows/photo?name=" + encodeURIComponent(name);
      });
    }
    return photoImages[name];
  }

  /** The card at ``box`` of its photo, drawn into a small canvas (the player sees the card itself). */
  function cardPicture(found) {
    const canvas = el("canvas", { width: "96", height: "132", "aria-hidden": "true" });
    photoImage(found.photo).then((img) => {
      if (!img) return;
      const [x1, y1, x2, y2] = found.box;
      const w = x2 - x1, h = y2 - y1;
      const scale = Math.min(96 / w, 132 / h);
      const ctx = canvas.getContext("2d");
      ctx.drawImage(img, x1, y1, w, h, (96 - w * scale) / 2, (132 - h * scale) / 2, w * scale, h * scale);
    });
    return canvas;
  }

  function pickFor(found, tile) {
    const labels = (status && status.labels) || [];
    const first = (found.choices || []).map((c) => c[0]).filter((l) => labels.includes(l));
    const order = first.concat(labels.filter((l) => !first.includes(l)));
    const select = el("select", { "aria-label": t("rows_pick") },
      ...order.map((label) => el("option", { value: label, text: card(label) })));
    select.value = found.label;
    select.addEventListener("change", async () => {
      try {
        const set = await call("PUT", "api/deck/rows/label?photo=" + encodeURIComponent(found.photo) + "&card="
          + found.card + "&label=" + encodeURIComponent(select.value));
        Object.assign(found, set);
        tile.replaceWith(rowTile(found));
        renderRowTotals();
      } catch (err) { say(card(select.value) + ": " + err.message, true); }
    });
    return select;
  }

  function rowTile(found) {
    const tile = el("li", { class: "tile" + (found.sure ? "" : " unsure") + (found.set ? " set" : ""),
      "data-photo": found.photo, "data-card": String(found.card), "data-label": found.label });
    const pick = el("button", { type: "button", class: "tile-pick", title: t("rows_pick") },
      cardPicture(found),
      el("span", { class: "tile-label", text: card(found.label) }),
      ...(found.sure ? [] : [el("span", { class: "tile-check", text: t("rows_check") })]));
    pick.addEventListener("click", () => { pick.replaceChildren(cardPicture(found), pickFor(found, tile)); });
    tile.append(pick);
    return tile;
  }

  function renderRowTotals() {
    const unsure = rowCards.filter((c) => !c.sure).length;
    const photosSeen = new Set(rowCards.map((c) => c.photo)).size;
    $("rows-totals").textContent = rowCards.length
      ? t("rows_totals", { cards: cards(rowCards.length), photos: photos(photosSeen), n: unsure }) : "";
    $("rows-actions").hidden = !rowCards.length;
  }

  function renderRows(listing) {
    rowCards = listing.cards || [];
    $("rows-cards").replaceChildren(...rowCards.map(rowTile));
    renderRowTotals();
  }

  async function addRows(files) {
    const list = Array.from(files).filter((f) => f && f.size !== undefined);
    for (const [i, file] of list.entries()) {
      say(t("rows_reading", { i: i + 1, n: list.length }));
      try {
        const body = await shrunk(file);
        renderRows(await call("POST", "api/deck/photos?layout=true", body, body.type || "application/octet-stream"));
        say("");
      } catch (err) { say(t("btn_rows") + ": " + err.message, true); return; }
    }
  }

  $("btn-rows").addEventListener("click", () => $("rows-input").click());
  $("rows-input").addEventListener("change", () => {
    const files = Array.from($("rows-input").files);
    $("rows-input").value = "";
    addRows(files);
  });
  $("btn-rows-use").addEventListener("click", async () => {
    try {
      const used = await call("POST", "api/deck/rows/use");
      say(t("rows_used", { cards: cards(used.cards) }));
      await refresh();
      learn();
    } catch (err) { say(t("btn_rows_use") + ": " + err.message, true); }
  });
  $("btn-rows-forget").addEventListener("click", async () => {
    try {
      await call("DELETE", "api/deck/rows/photos");
      for (const name of Object.keys(photoImages)) delete photoImages[name];
      renderRows({ cards: [] });
      say(t("rows_forgotten"));
    } catch (err) { say(t("btn_rows_forget") + ": " + err.message, true); }
  });

  async function refreshRows() {
    try {
      const response = await fetch("api/deck/rows", { cache: "no-store" });
      if (response.ok) renderRows(await response.json());
    } catch (err) { /* the deck's state line says when the referee cannot be reached */ }
  }

  document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(); });
  // The words first: every tile names its card in them.
  I18N.load().then(() => { refresh(); refreshRows(); });
})();
