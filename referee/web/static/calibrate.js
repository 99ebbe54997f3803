// Calibrate the table by clicking on the camera's view: the pile's corners, the stock zone, the seats.
// Every point is kept in the camera frame's own pixels (the SVG over the frame has the frame's size as
// its viewBox), so what is saved does not depend on how large the page shows the frame.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const SVG = "http://www.w3.org/2000/svg";
  const FRAME_EVERY_MS = 2000;   // the live frame's refresh
  const STATE_EVERY_MS = 5000;   // the suggestion's refresh (cards land meanwhile)
  const GRAB_PX = 22;            // a press this close (screen pixels) to a mark grabs it
  const TAP_PX = 6;              // a stock "drag" shorter than this (screen pixels) was a tap

  const { say, call } = UNO.adminPage();
  const { t } = I18N;
  const marks = $("marks");
  const img = $("frame");
  let info = null;               // GET api/calibration
  let size = null;               // {w, h}: the frame's pixels
  let step = "pile";
  let pile = [];                 // [[x, y]] up to 4
  let stock = null;              // [[x, y] x 4] or null
  let seats = [];                // [[x, y]] up to players
  let drag = null;               // what the pointer holds
  let frameNo = 0;

  const round = (v) => Math.round(v * 10) / 10;
  const copy = (points) => (points ? points.map((p) => [p[0], p[1]]) : null);

  function hint() {
    const players = info ? info.players : 0;
    const text = {
      pile: pile.length < 4 ? t("hint_corner", { n: pile.length + 1 }) : t("hint_pile_set"),
      stock: stock ? t("hint_stock_set") : t("hint_stock_drag"),
      seats: seats.length < players
        ? t(seats.length ? "hint_seat_next" : "hint_seat_first", { player: I18N.playerWords(seats.length, info && info.names) })
        : t("hint_seats_all", { n: players }),
    }[step];
    $("hint").textContent = size ? text : "";
  }

  function setStep(name) {
    step = name;
    for (const button of document.querySelectorAll(".step")) {
      const on = button.dataset.step === name;
      button.classList.toggle("on", on);
      button.setAttribute("aria-pressed", String(on));
    }
    marks.dataset.step = name;
    hint();
  }

  // Screen <-> frame pixels.
  function scale() {
    const box = marks.getBoundingClientRect();
    return box.width > 0 ? size.w / box.width : 1;
  }

  function toFrame(event) {
    const box = marks.getBoundingClientRect();
    const x = ((event.clientX - box.left) / box.width) * size.w;
    const y = ((event.clientY - box.top) / box.height) * size.h;
    return [round(Math.min(Math.max(x, 0), size.w)), round(Math.min(Math.max(y, 0), size.h))];
  }

  function nearest(points, at) {
    let best = -1;
    let bestD = Infinity;
    points.forEach((p, i) => {
      const d = Math.hypot(p[0] - at[0], p[1] - at[1]);
      if (d < bestD) { best = i; bestD = d; }
    });
    return { index: best, distance: bestD / scale() };  // in screen pixels
  }

  const rect = (a, b) => [[Math.min(a[0], b[0]), Math.min(a[1], b[1])], [Math.max(a[0], b[0]), Math.min(a[1], b[1])],
    [Math.max(a[0], b[0]), Math.max(a[1], b[1])], [Math.min(a[0], b[0]), Math.max(a[1], b[1])]];

  function onDown(event) {
    if (!size || event.button > 0) return;
    event.preventDefault();
    const at = toFrame(event);
    if (step === "pile") {
      const near = nearest(pile, at);
      if (near.index >= 0 && (near.distance <= GRAB_PX || pile.length === 4)) pile[near.index] = at;
      else pile.push(at);
      drag = { list: pile, index: pile.indexOf(at) };
    } else if (step === "seats") {
      const near = nearest(seats, at);
      if (near.index >= 0 && (near.distance <= GRAB_PX || seats.length >= info.players)) seats[near.index] = at;
      else seats.push(at);
      drag = { list: seats, index: seats.indexOf(at) };
    } else {
      drag = { from: at, before: copy(stock), x: event.clientX, y: event.clientY };
    }
    marks.setPointerCapture(event.pointerId);
    draw();
  }

  function onMove(event) {
    if (!drag) return;
    event.preventDefault();
    const at = toFrame(event);
    if (drag.list) drag.list[drag.index] = at;
    else stock = rect(drag.from, at);
    draw();
  }

  function onUp(event) {
    if (!drag) return;
    if (!drag.list && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < TAP_PX) stock = drag.before;
    drag = null;
    draw();
  }

  // Drawing: the suggestion, the zones, the seats; handles keep their screen size at any frame size.
  function node(tag, attrs, text) {
    const n = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
    if (text !== undefined) n.textContent = text;
    return n;
  }

  const pointsAttr = (points) => points.map((p) => p[0] + "," + p[1]).join(" ");

  function draw() {
    marks.replaceChildren();
    if (!size) return;
    const k = scale();
    const r = 9 * k;
    const font = 13 * k;
    const suggested = info && info.suggested_pile;
    if (suggested) marks.append(node("polygon", { points: pointsAttr(suggested), class: "suggested", "stroke-width": 2 * k, "stroke-dasharray": 6 * k + " " + 4 * k }));
    if (stock) {
      marks.append(node("polygon", { points: pointsAttr(stock), class: "stock", "stroke-width": 2 * k }));
      marks.append(node("text", { x: stock[0][0] + 4 * k, y: stock[0][1] + font, class: "tag", "font-size": font }, t("stock_tag")));
    }
    if (pile.length >= 2) {
      marks.append(node(pile.length === 4 ? "polygon" : "polyline", { points: pointsAttr(pile), class: "pile", "stroke-width": 2.5 * k }));
    }
    pile.forEach((p, i) => {
      marks.append(node("circle", { cx: p[0], cy: p[1], r, class: "corner", "stroke-width": 2 * k, "data-corner": i + 1 }));
      marks.append(node("text", { x: p[0], y: p[1] + font * 0.35, class: "num", "font-size": font }, String(i + 1)));
    });
    // A seat at the frame's edge is drawn whole, just inside it (where it is saved does not change).
    const inside = (v, most) => Math.min(Math.max(v, r * 1.25 + k), most - r * 1.25 - k);
    seats.forEach((p, i) => {
      const x = inside(p[0], size.w);
      const y = inside(p[1], size.h);
      marks.append(node("circle", { cx: x, cy: y, r: r * 1.25, class: "seat", "stroke-width": 2 * k, "data-seat": i }));
      marks.append(node("text", { x, y: y + font * 0.35, class: "num", "font-size": font }, t("seat_mark", { n: i + 1 })));
    });
    hint();
  }

  // The frame and the state.
  function showFrame() {
    if (!info || !info.frame) return;
    img.src = "api/calibration/frame.jpg?n=" + (++frameNo);
  }

  img.addEventListener("load", () => {
    $("no-frame").hidden = true;
    $("stage").hidden = false;
    if (size && (img.naturalWidth !== size.w || img.naturalHeight !== size.h)) load(true);  // the camera changed
  });
  img.addEventListener("error", () => {
    if (!info || !info.frame) return;
    $("no-frame").hidden = false;
  });

  function adopt(profile) {
    // The whole frame as the pile zone is "not calibrated": the corners start empty, to be clicked.
    pile = profile && !profile.whole_frame ? copy(profile.pile) : [];
    stock = profile ? copy(profile.stock) : null;
    seats = profile && profile.method !== "whole_frame" ? copy(profile.seats) : [];
    if (info && seats.length !== info.players) seats = [];
  }

  /** How the calibration in use was made, as a player says it ("set by clicking"), never its code name. */
  function methodWords(profile) {
    if (!profile) return t("cal_none");
    if (profile.whole_frame) return t("cal_none_yet");
    const key = "cal_method_" + profile.method;
    return t(key) === key ? t("cal_method_other") : t(key);
  }

  function describe() {
    const suggestion = info.suggested_pile;
    $("btn-suggest").disabled = !suggestion;
    $("suggest-info").textContent = suggestion
      ? t("suggest_from", { n: info.landed })
      : t("suggest_after", { min: info.min_landed, n: info.landed });
    $("where").textContent = t("cal_in_use", { what: methodWords(info.profile), file: info.file || t("cal_temp_folder") })
      + (info.saved ? "" : " " + t("cal_not_written"))
      + (info.live ? t("cal_applied_live") : t("cal_next_run"))
      + (info.file_error ? " " + t("cal_file_error", { error: info.file_error }) : "");
    $("frame-size").textContent = size ? t("frame_size", { w: size.w, h: size.h }) : "";
  }

  async function load(reset) {
    try {
      const response = await fetch("api/calibration", { cache: "no-store" });
      if (!response.ok) throw new Error("calibration " + response.status);
      const fresh = await response.json();
      const first = info === null;
      info = fresh;
      const newSize = info.frame ? { w: info.frame.width, h: info.frame.height } : null;
      const resized = !size || !newSize || size.w !== newSize.w || size.h !== newSize.h;
      size = newSize;
      if (size) marks.setAttribute("viewBox", "0 0 " + size.w + " " + size.h);
      $("stage").hidden = !size;
      $("no-frame").hidden = !!size;
      if (first || reset || resized) {
        adopt(info.profile);
        if (size && (first || resized)) showFrame();
      }
      describe();
      draw();
    } catch (err) {
      say(t("cannot_reach", { error: err.message }), true);
    }
  }

  async function save() {
    if (!size) { say(t("no_frame_yet"), true); return; }
    if (pile.length !== 4) { setStep("pile"); say(t("corners_first", { n: pile.length }), true); return; }
    if (seats.length && seats.length !== info.players) {
      setStep("seats");
      say(t("seats_first", { players: info.players, n: seats.length }), true);
      return;
    }
    $("btn-save").disabled = true;
    try {
      const result = await call("PUT", "api/calibration/profile",
        { image_size: [size.w, size.h], pile, stock, seats });
      const warnings = (result.warnings || []).length ? " " + t("cal_note", { warnings: result.warnings.join("; ") }) : "";
      say(t(result.applied ? "saved_applied" : "saved_to", { file: result.file, command: result.command }) + warnings);
      await load(true);
    } catch (err) {
      say(t("not_saved", { error: err.message }), true);
    } finally {
      $("btn-save").disabled = false;
    }
  }

  for (const button of document.querySelectorAll(".step")) button.addEventListener("click", () => setStep(button.dataset.step));
  marks.addEventListener("pointerdown", onDown);
  marks.addEventListener("pointermove", onMove);
  marks.addEventListener("pointerup", onUp);
  marks.addEventListener("pointercancel", onUp);
  $("btn-suggest").addEventListener("click", () => {
    if (!info || !info.suggested_pile) return;
    pile = copy(info.suggested_pile);
    setStep("pile");
    draw();
    say(t("suggested_taken"));
  });
  $("btn-clear").addEventListener("click", () => {
    if (step === "pile") pile = [];
    else if (step === "stock") stock = null;
    else seats = [];
    draw();
  });
  $("btn-undo-all").addEventListener("click", () => { if (info) { adopt(info.profile); draw(); } });
  $("btn-save").addEventListener("click", save);
  $("btn-reload").addEventListener("click", showFrame);
  window.addEventListener("resize", draw);
  img.addEventListener("load", draw);

  setInterval(() => {
    if ($("live-frame").checked && document.visibilityState === "visible" && !drag) showFrame();
  }, FRAME_EVERY_MS);
  setInterval(() => { if (document.visibilityState === "visible" && !drag) load(false); }, STATE_EVERY_MS);
  // The words first: the hints and marks are drawn in them.
  I18N.load().then(() => { setStep("pile"); load(false); });
})();
