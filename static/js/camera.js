/* Camera pre-fill (拍照录入): photograph a trick, pre-fill the card picker per seat.
 *
 * DOM CONTRACT (between this file, templates/camera/_camera.html and the tablet's picker):
 *
 *  - The partial renders one `[data-camera]` element with `data-endpoint` (POST URL),
 *    `data-csrf`, translated strings in `data-t-*`, a camera button `[data-camera-open]`,
 *    a file input `[data-camera-file]` (the fallback when getUserMedia is missing or
 *    refused), a live view `[data-camera-live]` with `[data-camera-video]`,
 *    `[data-camera-shoot]` and `[data-camera-close]`, a status line `[data-camera-status]`
 *    and a result list `[data-camera-results]`.
 *  - Before a photo is sent, `camera:request` is dispatched on `document` with a mutable
 *    `detail` object; the page's listener may set (synchronously):
 *        detail.expected   = {"0": 2, "1": 2, "2": 2, "3": 2}   // cards each seat must play
 *        detail.played     = {"AS": 1, ...}                     // copies already played
 *        detail.bottomSeat = 0        // seat at the photo's bottom edge (play goes CCW)
 *  - After recognition `camera:detections` is dispatched on `document` with
 *        detail = {cards: [{card, confidence, box: [x, y, w, h], alternatives}],
 *                  perSeat: {"0": [{card, confidence, box, alternatives}], "1": [...], ...}}
 *    Cards use the record's notation ("10H", "AS", "BJ" 大王, "SJ" 小王). The picker fills
 *    its draft for each seat (showing the confidence); NOTHING is posted by this file:
 *    the referee checks, corrects and confirms through the normal entry.
 *  - On failure `camera:error` is dispatched with detail {message}.
 *  - `window.TableCamera.send(blob)` sends any image Blob (used by tests and scripts).
 */
(function () {
  "use strict";

  function t(root, key, n) {
    const text = root.dataset["t" + key.charAt(0).toUpperCase() + key.slice(1)] || key;
    return n === undefined ? text : text.replace("{n}", String(n));
  }

  function setStatus(root, text, kind) {
    const el = root.querySelector("[data-camera-status]");
    if (!el) return;
    el.textContent = text;
    el.className = "camera-status" + (kind ? " " + kind : "");
  }

  function label(card) {
    if (card === "BJ") return "大王";
    if (card === "SJ") return "小王";
    const suit = { S: "♠", H: "♥", C: "♣", D: "♦" }[card.slice(-1)];
    return card.slice(0, -1) + suit;
  }

  function renderResults(root, perSeat) {
    const list = root.querySelector("[data-camera-results]");
    if (!list) return;
    list.textContent = "";
    for (const seat of Object.keys(perSeat).sort()) {
      const cards = perSeat[seat];
      if (!cards.length) continue;
      const li = document.createElement("li");
      li.dataset.seat = seat;
      const head = document.createElement("strong");
      head.textContent = t(root, "seat", seat) + ": ";
      li.append(head);
      for (const c of cards) {
        const span = document.createElement("span");
        span.className = "camera-card" + (c.confidence < 0.6 ? " unsure" : "") +
          (/[HD]$/.test(c.card) || c.card === "BJ" ? " red" : "");
        span.dataset.card = c.card;
        span.title = (c.alternatives || []).map((a) => a[0] + " " + Math.round(a[1] * 100) + "%").join(", ");
        span.textContent = label(c.card) + " " + Math.round(c.confidence * 100) + "% ";
        li.append(span);
      }
      list.append(li);
    }
  }

  async function send(root, blob) {
    const detail = { expected: null, played: null, bottomSeat: 0 };
    document.dispatchEvent(new CustomEvent("camera:request", { detail }));
    const form = new FormData();
    form.append("image", blob, "photo.jpg");
    if (detail.expected) form.append("expected", JSON.stringify(detail.expected));
    if (detail.played) form.append("played", JSON.stringify(detail.played));
    form.append("bottom_seat", String(detail.bottomSeat || 0));
    setStatus(root, t(root, "sending"), "busy");
    let data;
    try {
      const resp = await fetch(root.dataset.endpoint, {
        method: "POST", body: form, credentials: "same-origin",
        headers: { "X-CSRFToken": root.dataset.csrf || "" },
      });
      data = await resp.json();
      if (!resp.ok || !data.ok) throw new Error(data.message || resp.statusText);
    } catch (err) {
      const message = t(root, "error") + ": " + (err && err.message ? err.message : err);
      setStatus(root, message, "error");
      document.dispatchEvent(new CustomEvent("camera:error", { detail: { message } }));
      return null;
    }
    const perSeat = data.per_seat_detail || {};
    renderResults(root, perSeat);
    setStatus(root, data.cards.length ? t(root, "found", data.cards.length) : t(root, "none"),
      data.cards.length ? "ok" : "warn");
    const out = { cards: data.cards, perSeat };
    document.dispatchEvent(new CustomEvent("camera:detections", { detail: out }));
    return out;
  }

  function setup(root) {
    const video = root.querySelector("[data-camera-video]");
    const live = root.querySelector("[data-camera-live]");
    const file = root.querySelector("[data-camera-file]");
    let stream = null;

    function close() {
      if (stream) stream.getTracks().forEach((tr) => tr.stop());
      stream = null;
      if (live) live.classList.add("hidden");
    }

    async function open() {
      if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
        setStatus(root, t(root, "noCamera"), "warn");
        if (file) file.click();
        return;
      }
      try {
        stream = await navigator.mediaDevices.getUserMedia({
          video: { facingMode: "environment", width: { ideal: 1280 }, height: { ideal: 720 } },
          audio: false,
        });
      } catch (err) {
        setStatus(root, t(root, "noCamera"), "warn");
        if (file) file.click();
        return;
      }
      video.srcObject = stream;
      live.classList.remove("hidden");
      await video.play().catch(() => {});
    }

    async function shoot() {
      if (!stream || !video.videoWidth) return;
      const canvas = document.createElement("canvas");
      canvas.width = video.videoWidth;
      canvas.height = video.videoHeight;
      canvas.getContext("2d").drawImage(video, 0, 0);
      const blob = await new Promise((res) => canvas.toBlob(res, "image/jpeg", 0.92));
      close();
      if (blob) await send(root, blob);
    }

    root.querySelector("[data-camera-open]").addEventListener("click", open);
    const shootBtn = root.querySelector("[data-camera-shoot]");
    if (shootBtn) shootBtn.addEventListener("click", shoot);
    const closeBtn = root.querySelector("[data-camera-close]");
    if (closeBtn) closeBtn.addEventListener("click", close);
    if (file) {
      file.addEventListener("change", () => {
        if (file.files && file.files[0]) send(root, file.files[0]);
        file.value = "";
      });
    }
    return { open, close, shoot, send: (blob) => send(root, blob) };
  }

  function init() {
    const root = document.querySelector("[data-camera]");
    if (!root || root.dataset.cameraReady) return;
    root.dataset.cameraReady = "1";
    window.TableCamera = setup(root);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
