/* Event pages: live refresh of pairings/standings fragments, and the hall display (大屏),
   which cycles through the open round's tables and the standings and updates itself from
   the event's live stream (server-sent events). */
(function () {
  "use strict";

  // -- pairings / standings pages: refetch a fragment on every live message ------------------
  function refreshFragments(root) {
    var url = root.getAttribute("data-refresh"), sel = root.getAttribute("data-refresh-target");
    fetch(url, { headers: { "HX-Request": "true" } }).then(function (r) { return r.text(); }).then(function (html) {
      var target = root.querySelector(sel);
      if (target) { target.outerHTML = html; }
    }).catch(function () { /* keep what is shown */ });
  }
  function initFragments() {
    var els = document.querySelectorAll("[data-refresh]");
    for (var i = 0; i < els.length; i++) {
      (function (el) {
        var timer = null;
        el.addEventListener("live:message", function () {
          clearTimeout(timer);
          timer = setTimeout(function () { refreshFragments(el); }, 300);
        });
      })(els[i]);
    }
  }

  // -- hall display -------------------------------------------------------------------------------
  function esc(s) {
    return String(s === null || s === undefined ? "" : s).replace(/[&<>"]/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c];
    });
  }
  function fmtClock(seconds) {
    seconds = Math.max(0, Math.ceil(seconds));
    var h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    return (h ? h + ":" + String(m).padStart(2, "0") : String(m)) + ":" + String(s).padStart(2, "0");
  }
  function chunk(list, size) {
    var out = [];
    for (var i = 0; i < list.length; i += size) { out.push(list.slice(i, i + size)); }
    return out;
  }

  function Hall(root) {
    this.root = root;
    this.label = function (name) { return root.getAttribute("data-label-" + name) || name; };
    this.cycle = Math.max(3, Number(root.getAttribute("data-cycle-seconds") || 12)) * 1000;
    this.slides = [];
    this.index = 0;
    this.data = null;
    this.fetchedAt = 0;
  }
  Hall.prototype.load = function () {
    var self = this;
    return fetch(this.root.getAttribute("data-url"), { headers: { Accept: "application/json" } })
      .then(function (r) { return r.json(); })
      .then(function (data) {
        self.data = data;
        self.fetchedAt = performance.now() / 1000;
        self.build();
        self.show();
      }).catch(function () { /* keep the last picture */ });
  };
  Hall.prototype.build = function () {
    var d = this.data, slides = [];
    chunk(d.tables, 8).forEach(function (tables, i, all) {
      slides.push({ kind: "tables", rows: tables, page: i + 1, pages: all.length });
    });
    chunk(d.standings, 10).forEach(function (rows, i, all) {
      slides.push({ kind: "standings", rows: rows, page: i + 1, pages: all.length });
    });
    this.slides = slides;
    if (this.index >= slides.length) { this.index = 0; }
  };
  Hall.prototype.show = function () {
    var d = this.data, body = document.getElementById("hall-body");
    var roundEl = document.getElementById("hall-round"), pageEl = document.getElementById("hall-page");
    if (!d || !body) { return; }
    roundEl.textContent = d.round ? this.label("round") + " " + d.round : "";
    var slide = this.slides[this.index];
    if (!slide) { body.innerHTML = '<p class="hall-wait">…</p>'; return; }
    var html = "", self = this, elapsed = performance.now() / 1000 - this.fetchedAt;
    if (slide.kind === "tables") {
      html += '<h2>' + esc(this.label("round")) + " " + esc(d.round) + "</h2><table class=\"hall-tables\"><tbody>";
      slide.rows.forEach(function (t) {
        var clock = "";
        if (t.clock && t.clock.limit) {
          var left = t.clock.running ? t.clock.remaining - elapsed : t.clock.remaining;
          clock = t.clock.time_up || left <= 0 ? '<span class="hall-timeup">' + esc(self.label("time-up")) + "</span>"
            : '<span class="hall-timer" data-left="' + left + '">' + fmtClock(left) + "</span>";
        }
        var state = t.finished ? '<span class="hall-done">✔ ' + esc(self.label("finished")) + "</span>" : clock;
        var levels = t.levels ? esc(t.levels.join(" : ")) : "";
        html += '<tr><td class="hall-num">' + esc(t.table) + '</td><td class="hall-pair">' + esc(t.home) +
          '</td><td class="hall-vs">' + levels + '</td><td class="hall-pair">' + esc(t.away) +
          '</td><td class="hall-state">' + state + "</td></tr>";
      });
      html += "</tbody></table>";
      if (d.byes.length && slide.page === slide.pages) {
        html += '<p class="hall-byes">' + esc(this.label("bye")) + ": " + d.byes.map(esc).join(", ") + "</p>";
      }
    } else {
      html += "<h2>" + esc(this.label("standings")) + "</h2><table class=\"hall-standings\"><tbody>";
      slide.rows.forEach(function (r) {
        var extra = r.decided_by.slice(1).filter(function (v) { return v[1] !== null; })
          .map(function (v) { return esc(v[0]) + " " + esc(v[1]); }).join(" · ");
        html += '<tr class="' + (r.playoff ? "playoff" : "") + '"><td class="hall-num">' + esc(r.rank) +
          '</td><td class="hall-pair">' + esc(r.pair) + '</td><td class="hall-points">' + esc(r.match_points) +
          '</td><td class="hall-tb">' + extra + (r.playoff ? " · " + esc(self.label("playoff")) : "") + "</td></tr>";
      });
      html += "</tbody></table>";
    }
    body.innerHTML = html;
    body.setAttribute("data-slide", slide.kind);
    pageEl.textContent = (this.index + 1) + " / " + this.slides.length;
  };
  Hall.prototype.tick = function () {
    var timers = document.querySelectorAll(".hall-timer"), elapsed = 1;
    for (var i = 0; i < timers.length; i++) {
      var left = Number(timers[i].getAttribute("data-left")) - elapsed;
      timers[i].setAttribute("data-left", left);
      timers[i].textContent = fmtClock(left);
    }
    var now = document.getElementById("hall-now");
    if (now) { now.textContent = new Date().toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }); }
  };
  Hall.prototype.start = function () {
    var self = this;
    this.load();
    setInterval(function () {
      if (self.slides.length) { self.index = (self.index + 1) % self.slides.length; self.show(); }
    }, this.cycle);
    setInterval(function () { self.tick(); }, 1000);
    setInterval(function () { self.load(); }, 60000);
    var url = this.root.getAttribute("data-live-url");
    if (url && window.EventSource) {
      var timer = null, source = new EventSource(url);
      source.addEventListener("update", function () {
        clearTimeout(timer);
        timer = setTimeout(function () { self.load(); }, 300);
      });
    }
    document.addEventListener("keydown", function (e) {
      if (e.key === "ArrowRight" || e.key === " ") { self.index = (self.index + 1) % Math.max(1, self.slides.length); self.show(); }
      if (e.key === "ArrowLeft") { self.index = (self.index + self.slides.length - 1) % Math.max(1, self.slides.length); self.show(); }
    });
  };

  function start() {
    initFragments();
    var root = document.getElementById("hall");
    if (root) { window.hall = new Hall(root); window.hall.start(); }
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
