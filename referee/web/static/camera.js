// /camera: the phone's rear camera, streamed to the referee as its live source (referee run --source phone).
// Each frame goes as one message: 8 bytes, the time it was taken (ms, little-endian float64), then a JPEG.
// The WebSocket (api/camera/stream) first; where the browser refuses it (an iPhone refuses a self-signed
// certificate on a WebSocket even where it accepted it for the page), one POST a frame (api/camera/frame).
// A frame is only taken while the one before has left: a slow network sends fewer frames, never old ones.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const admin = UNO.adminPage();
  const { t } = I18N;  // the token from #token=..., kept in this browser
  const MAX_SIDE = 1280;  // the long side sent: the detector needs no more, the network is spared
  const QUALITY = 0.8;
  const video = $("view");
  const canvas = document.createElement("canvas");
  const context = canvas.getContext("2d", { alpha: false });
  let stream = null;
  let socket = null;
  let transport = null;  // "ws" or "http" once the referee said ready
  let connection = 0;
  let inFlight = false;
  let stopped = false;  // another phone took over, or the token is wrong: wait for the user
  let wsFailures = 0;
  let retryTimer = null;
  let sent = 0;
  let sentAt = [];
  let lastStatus = null;

  function token() { return $("token").value.trim(); }

  function setLink(text, kind) {
    const pill = $("link");
    pill.textContent = text;
    pill.className = "pill pill-" + kind;
  }

  function problem(text) {
    $("problem").textContent = text || "";
    $("problem").hidden = !text;
  }

  function state(text) { $("state").textContent = text; }

  // The camera.
  async function startCamera() {
    $("btn-start").hidden = true;
    if (!window.isSecureContext || !navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
      problem(t("cam_insecure"));
      setLink(t("cam_link_none"), "off");
      state(t("cam_no_camera"));
      return;
    }
    try {
      stream = await navigator.mediaDevices.getUserMedia({
        audio: false,
        video: { facingMode: { ideal: "environment" }, width: { ideal: 1280 }, height: { ideal: 720 },
                 frameRate: { ideal: 30 } },
      });
    } catch (err) {
      const name = err && err.name;
      if (name === "NotAllowedError" || name === "SecurityError") {
        problem(t("cam_not_allowed"));
      } else if (name === "NotFoundError" || name === "OverconstrainedError") {
        problem(t("cam_no_device"));
      } else if (name === "NotReadableError") {
        problem(t("cam_busy"));
      } else {
        problem(t("cam_did_not_start", { error: err && err.message ? err.message : String(err) }));
      }
      $("btn-start").hidden = false;
      setLink(t("cam_link_none"), "off");
      state(t("cam_no_camera"));
      return;
    }
    problem("");
    video.srcObject = stream;
    try { await video.play(); } catch (err) { /* autoplay of a muted inline video: allowed */ }
    keepAwake();
    for (const track of stream.getVideoTracks()) {
      track.addEventListener("ended", () => { state(t("cam_stopped")); $("btn-start").hidden = false; });
    }
    scheduleFrames();
    connect();
  }

  async function keepAwake() {
    try { if (navigator.wakeLock) await navigator.wakeLock.request("screen"); } catch (err) { /* optional */ }
  }
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") keepAwake(); });

  function settings() {
    const track = stream && stream.getVideoTracks()[0];
    return (track && track.getSettings && track.getSettings()) || {};
  }

  // The link to the referee.
  function connect() {
    clearTimeout(retryTimer);
    if (stopped) return;
    if (wsFailures >= 2 || !("WebSocket" in window)) { connectHttp(); return; }
    const url = new URL("api/camera/stream", location.href);
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    url.hash = "";
    setLink(t("connecting"), "warn");
    let opened = false;
    const ws = new WebSocket(url);
    ws.binaryType = "arraybuffer";
    socket = ws;
    ws.onopen = () => {
      opened = true;
      const s = settings();
      ws.send(JSON.stringify({ type: "hello", token: token(), width: s.width || video.videoWidth,
        height: s.height || video.videoHeight, fps: s.frameRate, agent: navigator.userAgent }));
    };
    ws.onmessage = (event) => {
      if (typeof event.data !== "string") return;
      let message = null;
      try { message = JSON.parse(event.data); } catch (err) { return; }
      if (message.type === "ready") {
        transport = "ws";
        connection = message.connection;
        wsFailures = 0;
        problem("");
        setLink(t("cam_link_streaming"), "on");
      } else if (message.type === "status") {
        showStatus(message);
      } else if (message.type === "refused") {
        state(t("cam_refused_frame", { error: message.message }));
      } else if (message.type === "error") {
        refused(message.message, message.code);
      }
    };
    ws.onclose = async (event) => {
      if (socket === ws) { socket = null; transport = null; inFlight = false; }
      if (event.code === 4409) { refused(t("cam_taken_over"), 4409); return; }
      if (event.code === 4401 || event.code === 4404 || event.code === 4400) return;  // said in "error"
      // Never opened while the server answers plain requests: a WebSocket the browser refuses (an
      // iPhone's, to a self-signed certificate); twice, and the frames go as requests instead.
      if (!opened && await reachable()) wsFailures += 1;
      retry();
    };
  }

  async function reachable() {
    try { return (await fetch("api/camera", { cache: "no-store" })).ok; } catch (err) { return false; }
  }

  async function connectHttp() {
    setLink(t("connecting"), "warn");
    try {
      const s = settings();
      const ready = await admin.call("POST", "api/camera/connect", { width: s.width, height: s.height,
        fps: s.frameRate, agent: navigator.userAgent });
      transport = "http";
      connection = ready.connection;
      problem("");
      setLink(t("cam_link_streaming"), "on");
    } catch (err) {
      const text = String(err.message || err);
      const raw = String(err.raw || text);  // the server's own words (the message may be translated)
      if (/admin token/i.test(raw)) refused(text, 4401);
      else if (/--source phone/.test(raw)) refused(text, 4404);
      else retry();
    }
  }

  function refused(text, code) {
    transport = null;
    problem(text);
    if (code === 4401) {
      $("token-form").hidden = false;
      stopped = true;
      setLink(t("cam_link_no_token"), "off");
    } else if (code === 4409) {
      stopped = true;
      $("btn-take-over").hidden = false;
      setLink(t("cam_link_replaced"), "done");
    } else if (code === 4404) {
      setLink(t("cam_link_not_taken"), "off");
      clearTimeout(retryTimer);
      retryTimer = setTimeout(connect, 5000);  // the referee may be started with --source phone later
    } else {
      retry();
    }
  }

  function retry(delay) {
    if (stopped) return;
    setLink(t("cam_link_reconnecting"), "warn");
    state(t("cam_reconnecting"));
    clearTimeout(retryTimer);
    retryTimer = setTimeout(connect, delay || 1000);
  }

  $("token-form").addEventListener("submit", () => { stopped = false; $("token-form").hidden = true; problem(""); connect(); });
  $("btn-take-over").addEventListener("click", () => { stopped = false; $("btn-take-over").hidden = true; problem(""); connect(); });
  $("btn-start").addEventListener("click", startCamera);
  window.addEventListener("pagehide", () => {
    if (socket) socket.close(1000, "page closed");
    else if (transport === "http") {
      fetch("api/camera/bye?connection=" + connection, { method: "POST", keepalive: true,
        headers: { "X-Admin-Token": token() } }).catch(() => {});
    }
  });

  function showStatus(status) {
    lastStatus = status;
    const now = performance.now();
    sentAt = sentAt.filter((t) => now - t <= 2000);
    const rate = sentAt.length > 1 ? (sentAt.length - 1) / ((sentAt[sentAt.length - 1] - sentAt[0]) / 1000) : 0;
    const size = status.size ? status.size[0] + "×" + status.size[1] : "";
    const got = typeof status.fps === "number" ? status.fps.toFixed(1) : "…";
    state(t("cam_streaming", { got, sent: rate.toFixed(1) }) +
      (size ? " · " + size : "") + (typeof status.kbps === "number" ? " · " + (status.kbps / 1000).toFixed(1) + " Mbit/s" : ""));
  }

  // The frames: one for each new camera frame, while the one before has left.
  function scheduleFrames() {
    if ("requestVideoFrameCallback" in HTMLVideoElement.prototype) {
      const onFrame = () => { sendFrame(); video.requestVideoFrameCallback(onFrame); };
      video.requestVideoFrameCallback(onFrame);
    } else {
      const fps = settings().frameRate || 30;
      setInterval(sendFrame, 1000 / fps);
    }
  }

  function sendFrame() {
    if (!transport || inFlight || !video.videoWidth) return;
    if (transport === "ws" && (!socket || socket.readyState !== WebSocket.OPEN || socket.bufferedAmount > 0)) return;
    const takenAt = performance.timeOrigin + performance.now();
    const scale = Math.min(1, MAX_SIDE / Math.max(video.videoWidth, video.videoHeight));
    const width = Math.round(video.videoWidth * scale);
    const height = Math.round(video.videoHeight * scale);
    if (canvas.width !== width || canvas.height !== height) { canvas.width = width; canvas.height = height; }
    context.drawImage(video, 0, 0, width, height);
    inFlight = true;
    const via = transport;
    const target = socket;
    canvas.toBlob(async (blob) => {
      try {
        if (!blob || transport !== via) return;
        const header = new DataView(new ArrayBuffer(8));
        header.setFloat64(0, takenAt, true);
        const message = new Blob([header.buffer, blob]);
        if (via === "ws") {
          const bytes = await message.arrayBuffer();
          if (target.readyState === WebSocket.OPEN) target.send(bytes);
        } else {
          await postFrame(message);
        }
        sent += 1;
        sentAt.push(performance.now());
      } catch (err) {
        /* the link's own handlers report it */
      } finally {
        inFlight = false;
      }
    }, "image/jpeg", QUALITY);
  }

  async function postFrame(message) {
    const response = await fetch("api/camera/frame?connection=" + connection, {
      method: "POST", body: message, headers: { "X-Admin-Token": token(), "Content-Type": "application/octet-stream" },
    }).catch(() => null);
    if (!response) { transport = null; retry(); return; }
    let data = null;
    try { data = await response.json(); } catch (err) { data = null; }
    if (response.ok) { showStatus(data || {}); return; }
    const detail = (data && data.detail) || response.statusText;
    if (response.status === 409) refused(t("cam_taken_over"), 4409);
    else if (response.status === 401) refused(String(detail), 4401);
    else if (response.status === 404) refused(String(detail), 4404);
    else if (response.status === 400 || response.status === 413) state(t("cam_refused_frame", { error: detail }));
    else { transport = null; retry(); }
  }

  // For tests and the curious: what this page has sent.
  window.cameraPage = { sent: () => sent, transport: () => transport, status: () => lastStatus };

  I18N.load().then(startCamera);  // the words first: everything this page says is in them
})();
