/* Match clocks (templates/events/_clock.html): count down from the server's remaining
   seconds; the server is the authority, so the page re-reads it every 30 s, on every live
   message about the match, and when it reaches zero (the server then records time-up). */
(function () {
  "use strict";
  if (window.__matchClocks) { return; }
  window.__matchClocks = true;

  function csrf() {
    var meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.getAttribute("content") : "";
  }
  function fmt(seconds) {
    seconds = Math.max(0, Math.ceil(seconds));
    var h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    var mm = (h ? String(m).padStart(2, "0") : String(m));
    return (h ? h + ":" : "") + mm + ":" + String(s).padStart(2, "0");
  }
  function apply(el, info) {
    if (!info || info.limit === null || info.limit === undefined) { return; }
    el._clock = {
      remaining: Number(info.remaining),
      at: performance.now() / 1000,
      running: !!info.running,
      timeUp: !!info.time_up,
      noNewDeal: Number(el.getAttribute("data-no-new-deal") || 0),
    };
    el.classList.toggle("time-up", !!info.time_up);
    var show = function (cls, on) { var b = el.querySelector(cls); if (b) { b.hidden = !on; } };
    show(".clock-start", !info.started);
    show(".clock-pause", !!info.running);
    show(".clock-resume", !!info.paused);
    render(el);
  }
  function left(el) {
    var c = el._clock;
    if (!c) { return null; }
    return c.running ? c.remaining - (performance.now() / 1000 - c.at) : c.remaining;
  }
  function render(el) {
    var c = el._clock, t = left(el);
    if (t === null) { return; }
    var time = el.querySelector(".clock-time"), note = el.querySelector(".clock-note");
    if (time) { time.textContent = fmt(t); }
    el.classList.toggle("last-minutes", c.noNewDeal > 0 && t < c.noNewDeal);
    if (note) {
      note.textContent = c.timeUp || t <= 0 ? (el.getAttribute("data-label-time-up") || "⏰")
        : (c.noNewDeal > 0 && t < c.noNewDeal ? (el.getAttribute("data-label-no-deal") || "⚠") : "");
    }
    if (c.running && t <= 0 && !c.asked) { c.asked = true; refresh(el); }
  }
  function refresh(el) {
    fetch(el.getAttribute("data-info-url"), { headers: { Accept: "application/json" } })
      .then(function (r) { return r.json(); })
      .then(function (info) { apply(el, info); })
      .catch(function () { /* offline: keep counting */ });
  }
  function post(el, action) {
    fetch(el.getAttribute("data-" + action + "-url"), {
      method: "POST",
      headers: { Accept: "application/json", "X-CSRFToken": csrf() },
      credentials: "same-origin",
    }).then(function (r) { return r.json(); }).then(function (info) {
      if (info && info.ok !== false) { apply(el, info); }
    }).catch(function () { refresh(el); });
  }
  function init(el) {
    if (el._clockInit) { return; }
    el._clockInit = true;
    apply(el, {
      remaining: el.getAttribute("data-remaining"),
      running: el.getAttribute("data-running") === "true",
      time_up: el.getAttribute("data-time-up") === "true",
      started: !el.querySelector(".clock-start") || el.querySelector(".clock-start").hidden,
      paused: el.querySelector(".clock-resume") && !el.querySelector(".clock-resume").hidden,
      limit: 1,
    });
    ["start", "pause", "resume"].forEach(function (action) {
      var b = el.querySelector(".clock-" + action);
      if (b) { b.addEventListener("click", function (e) { e.preventDefault(); post(el, action); }); }
    });
    // a page without an event-wide live stream (the tablet) listens to this clock's channel
    if (!document.querySelector("[data-live^='event-']") && window.EventSource) {
      var source = new EventSource("/live/" + encodeURIComponent(el.getAttribute("data-channel")));
      source.addEventListener("update", function (m) {
        try { apply(el, JSON.parse(m.data)); } catch (e) { /* ignore */ }
      });
    }
    setInterval(function () { if (document.body.contains(el)) { refresh(el); } }, 30000);
  }
  function scan() {
    var els = document.querySelectorAll("[data-clock]");
    for (var i = 0; i < els.length; i++) { init(els[i]); render(els[i]); }
  }
  document.addEventListener("live:message", function (e) {
    var data = e.detail;
    if (!data || data.kind !== "clock") { return; }
    var els = document.querySelectorAll('[data-clock][data-match="' + data.match_id + '"]');
    for (var i = 0; i < els.length; i++) { apply(els[i], data); }
  });
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", scan); } else { scan(); }
  setInterval(scan, 250);
})();
