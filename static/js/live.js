/* Live pages: one EventSource per element with data-live="<channel>".
   On each message the element gets the htmx event "live" (hx-trigger="live" refreshes it)
   and a DOM event "live:message" with the parsed data in event.detail. */
(function () {
  "use strict";
  function connect(el) {
    var channel = el.getAttribute("data-live");
    if (!channel || !window.EventSource) { return; }
    var source = new EventSource("/live/" + encodeURIComponent(channel));
    source.addEventListener("update", function (message) {
      var data = null;
      try { data = JSON.parse(message.data); } catch (e) { data = null; }
      el.dispatchEvent(new CustomEvent("live:message", { detail: data, bubbles: true }));
      if (window.htmx) { window.htmx.trigger(el, "live", { data: data }); }
      document.body.setAttribute("data-live-last", String(message.lastEventId || ""));
    });
    source.onopen = function () { el.classList.add("live-connected"); };
    source.onerror = function () { el.classList.remove("live-connected"); };
  }
  function start() {
    var els = document.querySelectorAll("[data-live]");
    for (var i = 0; i < els.length; i++) { connect(els[i]); }
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else { start(); }
})();
