/* The referee's tablet: seat → declare → bury → tricks → summary → next deal (升级), and
 * plays/passes, reports, tribute, finishing order (掼蛋). Plain JS, no build step.
 *
 * The server is the only judge: every entry goes through the outbox (table_queue.js) with
 * the seq it expects and an idempotency key; the answer carries the engine's new state,
 * which this page renders. Nothing here decides a rule; it only builds entries.
 */
(function () {
  "use strict";

  const $ = (sel, root) => (root || document).querySelector(sel);
  const el = (tag, attrs, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "on") for (const [ev, fn] of Object.entries(v)) node.addEventListener(ev, fn);
      else if (k === "dataset") Object.assign(node.dataset, v);
      else if (k === "text") node.textContent = v;
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child.nodeType ? child : document.createTextNode(String(child)));
    }
    return node;
  };

  const cfg = JSON.parse($("#table-config").textContent);
  const T = JSON.parse($("#table-i18n").textContent);
  let state = JSON.parse($("#table-state").textContent);
  const game = cfg.game;
  const fmt = (s, params) => String(s).replace(/%\((\w+)\)s/g, (_, k) => (params && k in params ? params[k] : ""));
  const Cards = window.Cards;
  const cardText = (c) => Cards.cardLabel(c, { bigJoker: T.big_joker, smallJoker: T.small_joker });
  const cardsHtml = (cards) => {
    const span = el("span", { class: "cards-text" });
    (cards || []).forEach((c, i) => {
      if (i) span.append(" ");
      span.append(el("span", { class: Cards.isRed(c) ? "r" : "" , text: cardText(c) }));
    });
    return span;
  };
  const seatName = (s) => {
    if (s === null || s === undefined) return "—";
    const name = (state.players || [])[s];
    return name ? name : fmt(T.seat_n, { n: s });
  };
  const next = (s, k) => (s + (k === undefined ? 1 : k)) % 4;

  // -- device identity, kept per tablet ------------------------------------------------------
  let device = localStorage.getItem("tr-device");
  if (!device) {
    device = "tablet-" + window.TableQueue.newKey().slice(0, 8);
    localStorage.setItem("tr-device", device);
  }
  let csrf = cfg.csrf || ($('meta[name="csrf-token"]') || {}).content;

  // -- composers: what the referee is building, per mode -------------------------------------
  let mode = null;
  let comp = {};
  // entries stopped by a conflict, waiting for the referee's choice (kept across reloads)
  const heldKey = "tr-held-" + cfg.match_id;
  let held = [];
  try { held = JSON.parse(localStorage.getItem(heldKey) || "[]") || []; } catch (e) { held = []; }
  function setHeld(list) {
    held = list;
    try { localStorage.setItem(heldKey, JSON.stringify(held)); } catch (e) { /* memory only */ }
  }

  function deal() { return state.deal || null; }
  function phase() { return deal() ? deal().phase : null; }

  function freshTrick() {
    const d = deal();
    const leader = d && d.next_leader !== null && d.next_leader !== undefined ? d.next_leader : null;
    return { leader, seat: leader, plays: [[], [], [], []], leadSize: 1, leaderDone: false, stage: "play",
             throwFail: null };
  }
  function freshComp(m) {
    const d = deal() || {};
    switch (m) {
      case "tricks": return freshTrick();
      case "declare": return { seat: null, cards: [], faceDown: false };
      case "bury": return { seat: d.bury_seat !== undefined && d.bury_seat !== null ? d.bury_seat : d.dealer, cards: [] };
      case "penalty": return { seat: null, kind: null, points: 0, cards: 1, note: "", pointsEdited: false };
      case "quick": return { defender_points: 0, bottom_points: 0, winner: null, shape: "single", largest: "single", trump: false };
      case "play": return { seat: d.next_to_play !== undefined ? d.next_to_play : null, cards: [] };
      case "tribute": return { kind: "tribute", from: null, to: null, cards: [] };
      case "order": return { order: [] };
      case "seat": return { players: (state.players && state.players.some(Boolean) ? state.players : state.default_players || ["", "", "", ""]).slice() };
      default: return {};
    }
  }
  function setMode(m) {
    mode = m;
    if (!comp[m]) comp[m] = freshComp(m);
    render();
  }

  // -- which panels exist and which one the phase asks for -----------------------------------
  function tabsFor() {
    if (game === "guandan") return ["seat", "tribute", "play", "order", "penalty", "summary"];
    return ["seat", "declare", "bury", "tricks", "quick", "penalty", "summary"];
  }
  function modeForPhase() {
    if (!state.seated) return "seat";
    const p = phase();
    if (!deal() || p === "finished" || p === "redeal" || p === "not_started") return "summary";
    if (game === "guandan") return p === "tribute" ? "tribute" : "play";
    if (p === "declaring") return "declare";
    if (p === "burying") return "bury";
    return "tricks";
  }
  function compIsEmpty(m) {
    const c = comp[m];
    if (!c) return true;
    if (m === "tricks") return c.plays.every((p) => p.length === 0) && !c.throwFail;
    if (m === "declare" || m === "bury" || m === "play" || m === "tribute") return c.cards.length === 0;
    if (m === "order") return c.order.length === 0;
    return true;
  }

  // -- the picker ------------------------------------------------------------------------------
  const picker = new window.CardPicker($("#picker"), {
    onTap: onCard,
    labels: { trump: T.trump, bigJoker: T.big_joker, smallJoker: T.small_joker },
  });

  function pendingCards() {
    /* cards in entries not yet answered: shown as gone so a card is never offered twice */
    const counts = {};
    for (const entry of queue.entries.concat(held)) {
      const ev = entry.body && entry.body.event;
      if (!ev) continue;
      let cards = [];
      if (ev.type === "trick") cards = ev.plays.flat();
      else if (ev.type === "bury" || ev.type === "play") cards = ev.cards;
      for (const c of cards) counts[c] = (counts[c] || 0) + 1;
    }
    return counts;
  }
  function composerCards() {
    const c = comp[mode];
    if (!c) return [];
    if (mode === "tricks") {
      const all = c.plays.flat();
      if (c.throwFail && c.stage === "blocking") return all.concat(c.throwFail.blocking);
      return all;
    }
    if (mode === "declare" || mode === "bury" || mode === "play" || mode === "tribute") return c.cards;
    return [];
  }
  function refreshPicker() {
    const needsCards = ["declare", "bury", "tricks", "play", "tribute"].includes(mode);
    $("#picker").classList.toggle("hidden", !needsCards);
    $("#camera-slot").classList.toggle("hidden", !(mode === "tricks" || mode === "play"));
    if (!needsCards) return;
    const d = deal() || {};
    const trumpSuit = game === "shengji" ? d.trump_suit || null : null;
    picker.render({ level: d.level || (state.levels || [])[0] || null, trumpSuit, game, unplayed: state.unplayed || {} });
    const taken = pendingCards();
    // declarations and the blocker's shown cards come from the hand, not the table
    if (mode !== "declare") for (const c of composerCards()) taken[c] = (taken[c] || 0) + 1;
    if (mode === "tricks" && comp.tricks.throwFail && comp.tricks.stage === "blocking") {
      for (const c of comp.tricks.throwFail.blocking) taken[c] -= 1;
    }
    picker.setTaken(taken);
    picker.setDisabled(mode === "tricks" && comp.tricks.seat === null);
  }

  function onCard(card) {
    const c = comp[mode];
    if (!c) return;
    if (mode === "tricks") tapTrickCard(c, card);
    else if (mode === "declare") { if (c.cards.length < 4) c.cards.push(card); }
    else if (mode === "bury") { if (c.cards.length < 8) c.cards.push(card); }
    else if (mode === "play") c.cards.push(card);
    else if (mode === "tribute") {
      if (c.kind === "anti_tribute") { if (c.cards.length < 2) c.cards.push(card); }
      else c.cards = [card];
    }
    render();
  }

  // -- trick entry: auto-advance when a seat has played as many cards as the leader -----------
  function leaderCount(c) { return c.plays[c.leader].length; }
  function trickComplete(c) {
    if (c.leader === null || !c.leaderDone) return false;
    const n = leaderCount(c);
    return n > 0 && c.plays.every((p) => p.length === n);
  }
  function tapTrickCard(c, card) {
    if (c.stage === "blocking") { c.throwFail.blocking.push(card); return; }
    if (c.seat === null || trickComplete(c)) return;
    c.plays[c.seat].push(card);
    advanceTrick(c);
  }
  function advanceTrick(c) {
    if (c.seat === c.leader && !c.leaderDone) {
      if (c.leadSize && c.plays[c.leader].length >= c.leadSize) { c.leaderDone = true; c.seat = next(c.leader); }
      return;
    }
    const n = leaderCount(c);
    // move to the first seat after the leader still short of cards
    for (let k = 1; k < 4; k++) {
      const s = next(c.leader, k);
      if (c.plays[s].length < n) { c.seat = s; return; }
    }
    c.seat = null; // complete: waiting for the confirm tap
  }
  function backspaceTrick(c) {
    if (c.stage === "blocking") { c.throwFail.blocking.pop(); return; }
    for (let k = 3; k >= 0; k--) {
      const s = next(c.leader, k);
      if (c.plays[s].length) {
        c.plays[s].pop();
        c.seat = s;
        if (s === c.leader) c.leaderDone = false;
        return;
      }
    }
  }
  function setLeadSize(c, n) {
    c.leadSize = n;
    if (c.seat === c.leader && !c.leaderDone && n && c.plays[c.leader].length >= n) {
      c.leaderDone = true;
      c.seat = next(c.leader);
    }
  }

  // -- seats -------------------------------------------------------------------------------------
  function onSeat(seat) {
    const c = comp[mode];
    if (mode === "tricks") {
      if (c.stage === "blocker") { c.throwFail.blocker = seat; c.stage = "blocking"; }
      else if (compIsEmpty("tricks")) { c.leader = seat; c.seat = seat; c.leaderDone = false; }
      else {
        // tapping a seat mid-trick enters that seat's cards again
        c.plays[seat] = [];
        c.seat = seat;
        if (seat === c.leader) c.leaderDone = false;
      }
    } else if (mode === "play") {
      c.seat = seat;
    } else if (mode === "tribute") {
      if (c.kind === "anti_tribute") c.from = seat;
      else if (c.from === null || (c.from !== null && c.to !== null)) { c.from = seat; c.to = null; }
      else c.to = seat;
    } else if (mode === "order") {
      if (!c.order.includes(seat)) c.order.push(seat);
    } else if (c && "seat" in c && mode !== "seat") {
      c.seat = seat;
      if (mode === "penalty") updatePenaltyDefault(c);
    }
    render();
  }
  document.querySelectorAll(".seat").forEach((b) =>
    b.addEventListener("click", () => onSeat(Number(b.dataset.seat))));

  // -- posting through the outbox ------------------------------------------------------------
  async function send(entry) {
    const res = await fetch(cfg.post_url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify(Object.assign({}, entry.body, {
        expected_seq: entry.expected_seq, idempotency_key: entry.key, device,
      })),
    });
    let data = null;
    try { data = await res.json(); } catch (e) { data = null; }
    if (res.status === 400 && (!data || data.error === "csrf")) {
      await refreshCsrf();
      data = data || { error: "csrf" };
      data.error = "csrf";
    }
    return { status: res.status, data };
  }
  async function refreshCsrf() {
    try {
      const res = await fetch(cfg.csrf_url, { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (res.ok) csrf = (await res.json()).csrf_token;
    } catch (e) { /* offline: the next retry asks again */ }
  }

  function onResult(entry, result) {
    const data = result.data || {};
    if (result.status === 200) {
      if (data.state) applyState(data.state);
      if (data.replayed) showBanner("info", T.already_stored);
      else if (!held.length) hideBanner();
      return "next";
    }
    if (result.status === 409) {
      // someone else logged first: keep this entry and the rest for the referee to decide
      setHeld(held.concat([entry], queue.entries.splice(0)));
      for (const h of held) h.expected_seq = null;
      if (data.state) applyState(data.state); else fetchState();
      showConflict();
      return "stop";
    }
    if (result.status === 422) {
      if (data.state) applyState(data.state);
      // a declaration rule the engine names by id is shown in the reader's language
      const rule = data.rule_id && (T.rules || {})[data.rule_id];
      showBanner("error", (rule ? T.rejected + " " + rule : (data.message || T.rejected)) + (entry.label ? " — " + entry.label : ""));
      return "next";
    }
    if (result.status === 401 || result.status === 403) {
      // the tablet lost its PIN session: keep the entries until the referee is back in
      setHeld(held.concat([entry], queue.entries.splice(0)));
      for (const h of held) h.expected_seq = null;
      showBanner("error", fmt(T.http_error, { status: result.status }), heldButtons());
      return "stop";
    }
    // 400/404: cannot be sent at all; say so and drop it
    showBanner("error", (data && data.message) || fmt(T.http_error, { status: result.status }));
    return "next";
  }

  const queue = new window.TableQueue({
    storageKey: "tr-outbox-" + cfg.match_id,
    send,
    onResult,
    getSeq: () => state.seq,
    onChange: () => { renderBadge(); refreshPicker(); },
  });

  // An entry is built on the view the referee saw when beginning it. If another tablet
  // logged something since (the log's tail names each entry's device), the entry is held
  // for the referee instead of being stored on top: never the same trick twice.
  function touch() {
    const c = comp[mode];
    if (c && c.baseSeq === undefined) c.baseSeq = state.seq;
  }
  $("#table-app").addEventListener("click", (ev) => {
    if (ev.target.closest("#picker, #seats, #panel")) touch();
  }, true);
  $("#table-app").addEventListener("input", touch, true);
  function foreignSince(seq) {
    return (state.tail || []).filter((e) => e.seq > seq && e.device !== device);
  }

  function submit(body, label) {
    const c = comp[mode];
    if (c && c.baseSeq !== undefined && foreignSince(c.baseSeq).length) {
      setHeld(held.concat([{ body, label, key: window.TableQueue.newKey(), expected_seq: null }]));
      showConflict();
      render();
      return;
    }
    queue.submit({ body, label });
    render();
  }
  function postEvent(event, label) { submit({ kind: "event", event }, label || event.type); }

  // -- state ---------------------------------------------------------------------------------------
  function applyState(newState) {
    if (!newState || (state && newState.seq < state.seq && newState.match_id === state.match_id)) return;
    const oldPhase = phase();
    const oldDeal = deal() ? deal().number : null;
    const oldSeq = state.seq;
    state = newState;
    const d = deal();
    const dealChanged = (d ? d.number : null) !== oldDeal;
    if (dealChanged) comp = {};
    // the live feed may repeat the state the tablet has (an update whose answer came
    // first, a reconnect): only a log that moved on resets an empty composer, so a lead
    // size chosen or a seat tapped in the meantime stays
    const moved = state.seq !== oldSeq;
    // a trick composer waiting for its leader takes the engine's next leader (and keeps
    // the lead size the referee chose while the answer was on its way)
    if (moved && comp.tricks && compIsEmpty("tricks")) {
      const leadSize = comp.tricks.leadSize;
      comp.tricks = freshTrick();
      comp.tricks.leadSize = leadSize;
    }
    // an empty play composer follows the engine's next seat; without one it keeps its own guess
    if (moved && comp.play && compIsEmpty("play") && d && d.next_to_play !== undefined && d.next_to_play !== null) comp.play.seat = d.next_to_play;
    if (moved && comp.bury && compIsEmpty("bury")) comp.bury = freshComp("bury");
    if (moved && (phase() !== oldPhase || dealChanged || mode === null || !state.seated || mode === "seat")) {
      const wanted = modeForPhase();
      if (compIsEmpty(mode)) mode = wanted;
      if (!comp[mode]) comp[mode] = freshComp(mode);
    }
    render();
  }
  async function fetchState() {
    try {
      const res = await fetch(cfg.state_url, { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (res.ok) {
        applyState(await res.json());
        if (!queue.pending) queue.setOffline(false);
      }
    } catch (e) { queue.setOffline(true); }
  }

  // -- banners ------------------------------------------------------------------------------------
  function showBanner(kind, text, extra) {
    const b = $("#banner");
    b.className = "banner " + kind;
    b.textContent = "";
    b.append(el("span", { text }));
    if (extra) b.append(...extra);
    if (kind === "info") setTimeout(() => { if (b.classList.contains("info")) hideBanner(); }, 2500);
  }
  function hideBanner() { $("#banner").className = "banner hidden"; }
  function showConflict() {
    const labels = held.map((h) => h.label).filter(Boolean).join(", ");
    showBanner("conflict", T.conflict + (held.length ? " " + fmt(T.held_n, { n: held.length }) + (labels ? " (" + labels + ")" : "") : ""), heldButtons());
  }
  function heldButtons() {
    if (!held.length) return [];
    return [
      el("button", { type: "button", id: "held-resubmit", text: T.resubmit, on: { click: () => {
        const again = held; setHeld([]); hideBanner();
        for (const h of again) queue.submit({ body: h.body, label: h.label, key: h.key });
      } } }),
      el("button", { type: "button", id: "held-discard", text: T.discard, on: { click: () => { setHeld([]); hideBanner(); render(); } } }),
    ];
  }

  function renderBadge() {
    const b = $("#net-badge");
    const n = queue.pending + held.length;
    b.classList.toggle("offline", queue.offline);
    b.classList.toggle("online", !queue.offline && n === 0);
    b.classList.toggle("pending", !queue.offline && n > 0);
    b.dataset.pending = String(n);
    b.textContent = queue.offline ? fmt(T.offline_pending, { n }) : n ? fmt(T.pending_n, { n }) : T.online;
  }

  // -- rendering --------------------------------------------------------------------------------
  function render() {
    renderTop();
    renderSeats();
    renderTabs();
    renderPanel();
    refreshPicker();
    renderActions();
    renderAnswer();
    renderBadge();
    labelCameraSeats();
  }

  function renderTop() {
    const box = $("#deal-info");
    box.textContent = "";
    const d = deal();
    const chip = (label, value, id) => el("span", { class: "chip", id }, label, " ", el("b", {}, value));
    box.append(chip(T.levels, (state.levels || []).join(" : "), "chip-levels"));
    if (!d) return;
    box.append(chip(T.deal_no, String(d.number), "chip-deal"));
    if (d.level) box.append(chip(T.level_card, d.level, "chip-level"));
    if (game === "shengji") {
      const trump = d.trump_known ? (d.trump_suit ? Cards.SUIT_SYMBOL[d.trump_suit] : T.no_trump) : "?";
      box.append(chip(T.trump, trump, "chip-trump"));
      if (d.dealer !== null && d.dealer !== undefined) box.append(chip(T.dealer, seatName(d.dealer), "chip-dealer"));
      box.append(chip(T.defenders_points, String(d.defender_total ?? 0), "chip-defenders"));
    }
  }

  function renderSeats() {
    const d = deal() || {};
    const c = comp[mode] || {};
    document.querySelectorAll(".seat").forEach((b) => {
      const s = Number(b.dataset.seat);
      $(".seat-name", b).textContent = (state.players || [])[s] || fmt(T.seat_n, { n: s });
      const tags = $(".seat-tags", b);
      tags.textContent = "";
      if (game === "shengji" && d.dealer !== undefined && d.dealer !== null) {
        if (s === d.dealer) tags.append(el("span", { class: "seat-tag", text: T.dealer_short }));
      }
      const cardsBox = $(".seat-cards", b);
      cardsBox.textContent = "";
      const extra = $(".seat-extra", b);
      extra.textContent = "";
      b.classList.remove("turn", "leader", "done", "selected", "out");
      if (mode === "tricks") {
        cardsBox.append(cardsHtml(c.plays[s]));
        if (c.stage === "blocker" || c.stage === "blocking") {
          if (c.throwFail && c.throwFail.blocker === s) { b.classList.add("selected"); cardsBox.textContent = ""; cardsBox.append(cardsHtml(c.throwFail.blocking)); }
        } else {
          if (c.seat === s) b.classList.add("turn");
          if (c.leader === s) b.classList.add("leader");
          if (c.leaderDone && c.plays[s].length === leaderCount(c) && c.plays[s].length) b.classList.add("done");
        }
      } else if (mode === "play") {
        if (c.seat === s) b.classList.add("turn");
        if (c.seat === s) cardsBox.append(cardsHtml(c.cards));
        const left = (d.cards_left || [])[s];
        if (left !== undefined) extra.textContent = fmt(T.cards_left_n, { n: left });
        if ((d.order || []).includes(s)) { b.classList.add("out"); extra.textContent = fmt(T.finished_nth, { n: d.order.indexOf(s) + 1 }); }
      } else if (mode === "order") {
        const i = c.order.indexOf(s);
        if (i >= 0) { b.classList.add("selected"); extra.textContent = fmt(T.finished_nth, { n: i + 1 }); }
      } else if (mode === "tribute") {
        if (c.from === s) { b.classList.add("selected"); extra.textContent = c.kind === "anti_tribute" ? T.seat_label : T.from_seat; }
        if (c.to === s) { b.classList.add("turn"); extra.textContent = T.to_seat; }
      } else if (c && c.seat === s && mode !== "seat") {
        b.classList.add("turn");
        if (mode === "declare" || mode === "bury") cardsBox.append(cardsHtml(c.cards));
      }
      if (game === "shengji" && mode === "tricks" && d.next_leader === s && compIsEmpty("tricks")) b.classList.add("leader");
    });
  }

  function renderTabs() {
    const nav = $("#tabs");
    nav.textContent = "";
    for (const t of tabsFor()) {
      nav.append(el("button", { type: "button", class: t === mode ? "active" : "", dataset: { tab: t },
        text: T["tab_" + t], on: { click: () => setMode(t) } }));
    }
    const undo = $("#undo-btn");
    undo.disabled = !state.can_undo && !queue.pending;
    undo.title = state.last_entry || "";
  }

  function onUndo() {
    submit({ kind: "undo" }, T.undo);
  }
  $("#undo-btn").addEventListener("click", onUndo);

  // -- the panel above the picker (forms, hints) ---------------------------------------------------
  function choiceRow(label, options, current, onPick, extraClass) {
    return el("div", { class: "choice-row " + (extraClass || "") },
      label ? el("span", { class: "lbl", text: label }) : null,
      options.map(([value, text]) => el("button", {
        type: "button", class: value === current ? "on" : "", dataset: { value: String(value) }, text,
        on: { click: () => { onPick(value); render(); } },
      })));
  }
  const seatOptions = () => [0, 1, 2, 3].map((s) => [s, seatName(s)]);

  function renderPanel() {
    const panel = $("#panel");
    // a live update must not pull the text field from under the referee's finger
    const active = document.activeElement;
    if (active && active.tagName === "INPUT" && panel.contains(active) && panel.dataset.mode === mode) return;
    panel.dataset.mode = mode;
    panel.textContent = "";
    panel.classList.remove("hidden");
    const c = comp[mode] || {};
    const d = deal() || {};
    if (mode === "seat") {
      panel.append(el("h2", { text: T.tab_seat }), el("p", { class: "hint", text: T.seat_hint }));
      const form = el("div", { class: "seat-form" });
      for (let s = 0; s < 4; s++) {
        const input = el("input", { type: "text", name: "player" + s, value: c.players[s] || "", "aria-label": fmt(T.seat_n, { n: s }) });
        input.addEventListener("input", () => { c.players[s] = input.value; });
        form.append(el("label", {}, el("span", { text: fmt(T.seat_n, { n: s }) + (s % 2 ? " · " + T.side_b : " · " + T.side_a) }), input));
      }
      panel.append(form);
    } else if (mode === "declare") {
      panel.append(el("h2", { text: T.tab_declare }));
      const rows = (d.declarations || []).map((r) => el("div", { class: r.accepted === false ? "refused" : "" }, seatName(r.seat), " · ", r.label || r.kind, " ", cardsHtml(r.cards || []), r.effect ? " → " + r.effect : ""));
      panel.append(rows.length ? el("div", { class: "decl-history" }, rows) : el("p", { class: "hint", text: T.declare_hint }));
      if (state.rulebook && state.rulebook.declaration_round) panel.append(el("p", { class: "hint", id: "round-hint", text: T.round_hint }));
      if (state.rulebook && state.rulebook.declaration_face_down) {
        panel.append(choiceRow(T.face_down, [[false, T.no], [true, T.yes]], c.faceDown, (v) => { c.faceDown = v; }));
      }
    } else if (mode === "bury") {
      panel.append(el("h2", { text: fmt(T.bury_title, { n: c.cards.length }) }),
        el("p", { class: "hint", text: fmt(T.bury_hint, { seat: seatName(c.seat) }) }));
    } else if (mode === "tricks") {
      const hint = c.stage === "blocker" ? T.throw_pick_blocker
        : c.stage === "blocking" ? fmt(T.throw_pick_blocking, { seat: seatName(c.throwFail.blocker) })
          : c.leader === null ? T.pick_leader
            : c.seat === null ? T.tap_confirm : fmt(T.seat_to_play, { seat: seatName(c.seat) });
      panel.append(el("p", { class: "hint", id: "trick-hint" }, el("b", {}, fmt(T.trick_no, { n: (d.trick_count || 0) + 1 })), " · ", hint));
      if (c.throwFail && c.stage === "play") panel.append(el("p", { class: "hint" }, T.throw_forced, " ", cardsHtml(c.throwFail.attempted)));
    } else if (mode === "quick") {
      renderQuick(panel, c);
    } else if (mode === "penalty") {
      renderPenalty(panel, c);
    } else if (mode === "summary") {
      renderSummary(panel);
    } else if (mode === "play") {
      const onTable = d.on_table;
      panel.append(el("p", { class: "hint", id: "play-hint" },
        c.seat === null ? T.pick_seat : fmt(T.seat_to_play, { seat: seatName(c.seat) }),
        onTable && onTable.cards ? el("span", {}, " · ", T.on_table, " ", seatName(onTable.seat), " ", cardsHtml(onTable.cards)) : ""));
      if (c.report) renderReport(panel, c);
    } else if (mode === "tribute") {
      panel.append(el("h2", { text: T.tab_tribute }));
      panel.append(choiceRow("", [["tribute", T.tribute], ["return", T.return_], ["anti_tribute", T.anti_tribute]], c.kind,
        (v) => { c.kind = v; c.cards = []; c.to = null; }));
      panel.append(el("p", { class: "hint", text: c.kind === "anti_tribute" ? fmt(T.anti_hint, { seat: seatName(c.from) })
        : fmt(T.tribute_hint, { from: seatName(c.from), to: seatName(c.to) }) }));
      if (d.tribute_text) panel.append(el("p", { class: "hint", id: "tribute-due", text: d.tribute_text }));
    } else if (mode === "order") {
      panel.append(el("h2", { text: T.tab_order }), el("p", { class: "hint", text: T.order_hint }),
        el("p", {}, c.order.map((s, i) => fmt(T.finished_nth, { n: i + 1 }) + " " + seatName(s)).join(" · ")));
    } else {
      panel.classList.add("hidden");
    }
  }

  function numberRow(label, value, step, onChange, id) {
    const input = el("input", { type: "number", id, value: String(value), step: String(step), min: "0", inputmode: "numeric" });
    // typing only updates the draft: a re-render on blur would replace the field the
    // referee is tapping next
    input.addEventListener("input", () => { onChange(Number(input.value) || 0); renderActions(); });
    const bump = (delta) => el("button", { type: "button", text: (delta > 0 ? "+" : "−") + Math.abs(delta), on: { click: () => { onChange(Math.max(0, (Number(input.value) || 0) + delta)); render(); } } });
    return el("div", { class: "choice-row" }, el("span", { class: "lbl", text: label }), bump(-step * 2), bump(-step), input, bump(step), bump(step * 2));
  }

  function renderQuick(panel, c) {
    panel.append(el("h2", { text: T.tab_quick }), el("p", { class: "hint", text: T.quick_hint }));
    panel.append(numberRow(T.defender_points_in_tricks, c.defender_points, 5, (v) => { c.defender_points = v; }, "quick-defender"));
    panel.append(numberRow(T.bottom_points, c.bottom_points, 5, (v) => { c.bottom_points = v; }, "quick-bottom"));
    panel.append(choiceRow(T.last_trick_winner, seatOptions(), c.winner, (v) => { c.winner = v; }));
    panel.append(choiceRow(T.last_trick_shape, [["single", T.shape_single], ["pair", T.shape_pair], ["tractor2", T.shape_tractor2],
      ["tractor3", T.shape_tractor3], ["tractor4", T.shape_tractor4], ["throw", T.shape_throw]], c.shape, (v) => { c.shape = v; }));
    if (c.shape === "throw") {
      panel.append(choiceRow(T.throw_largest, [["single", T.shape_single], ["pair", T.shape_pair], ["tractor2", T.shape_tractor2], ["tractor3", T.shape_tractor3]],
        c.largest, (v) => { c.largest = v; }));
    }
    panel.append(choiceRow(T.last_trick_trump, [[false, T.no], [true, T.yes]], c.trump, (v) => { c.trump = v; }));
  }

  function catalogue() { return state.penalty_catalogue || []; }
  function updatePenaltyDefault(c) {
    const item = catalogue().find((k) => k.kind === c.kind);
    if (item && !c.pointsEdited) c.points = item.per_card ? item.points * (c.cards || 1) : item.points;
  }
  function renderPenalty(panel, c) {
    panel.append(el("h2", { text: T.tab_penalty }));
    panel.append(choiceRow(T.seat_label, seatOptions(), c.seat, (v) => { c.seat = v; }));
    panel.append(choiceRow(T.offence, catalogue().map((k) => [k.kind, k.label]), c.kind, (v) => {
      if (v === "failed_throw" && game === "shengji") { startThrowFail(); return; }
      c.kind = v; c.pointsEdited = false; c.cards = 1; updatePenaltyDefault(c);
    }));
    const item = catalogue().find((k) => k.kind === c.kind);
    if (item && item.per_card) {
      panel.append(numberRow(T.cards_count, c.cards, 1, (v) => {
        c.cards = Math.max(1, v);
        updatePenaltyDefault(c);
        const points = $("#penalty-points");
        if (points) points.value = String(c.points);
      }, "penalty-cards"));
    }
    if (item && item.has_points) {
      panel.append(numberRow(T.points, c.points, 5, (v) => { c.points = v; c.pointsEdited = true; }, "penalty-points"));
    }
    if (item && item.note) panel.append(el("p", { class: "hint", text: item.note }));
    const note = el("input", { type: "text", id: "penalty-note", value: c.note, placeholder: T.note_placeholder });
    note.addEventListener("input", () => { c.note = note.value; });
    panel.append(el("div", { class: "choice-row" }, el("span", { class: "lbl", text: T.note }), note));
  }

  function startThrowFail() {
    mode = "tricks";
    const c = comp.tricks || (comp.tricks = freshTrick());
    if (c.leader === null || !c.plays[c.leader].length) {
      showBanner("error", T.throw_enter_first);
      render();
      return;
    }
    c.throwFail = { seat: c.leader, attempted: c.plays[c.leader].slice(), blocker: null, blocking: [] };
    c.stage = "blocker";
    render();
  }

  function renderSummary(panel) {
    const d = deal();
    if (!state.seated) { panel.append(el("p", { class: "hint", text: T.seat_first })); return; }
    if (!d) { panel.append(el("h2", { text: T.no_deal_yet })); return; }
    panel.append(el("h2", { text: fmt(T.deal_summary, { n: d.number }) }));
    if (d.phase === "redeal") panel.append(el("p", { class: "outcome", text: T.redeal }));
    const rows = [];
    if (game === "shengji") {
      rows.push([T.dealer, seatName(d.dealer)]);
      rows.push([T.level_card, d.level || "—"]);
      rows.push([T.trump, d.trump_known ? (d.trump_suit ? Cards.SUIT_SYMBOL[d.trump_suit] : T.no_trump) : "—"]);
      rows.push([T.captured, String(d.captured ?? 0)]);
      if (d.bottom) rows.push([d.bottom.won_by === "defenders" ? T.bottom_won : T.bottom, fmt(T.bottom_value, { points: d.bottom.points ?? 0, multiplier: d.bottom.multiplier ?? 0, won_by: d.bottom.won_by === "defenders" ? T.defenders : T.dealer_side })]);
      for (const p of d.penalties || []) rows.push([T.penalty + " · " + seatName(p.seat), (p.label || p.kind) + " " + (p.points ?? "")]);
      rows.push([T.defender_total, String(d.defender_total ?? 0)]);
    } else {
      rows.push([T.level_card, d.level || "—"]);
      if (d.order && d.order.length) rows.push([T.tab_order, d.order.map((s) => seatName(s)).join(" → ")]);
    }
    if (d.levels_after) rows.push([T.levels_after, d.levels_after.join(" : ")]);
    panel.append(el("table", { class: "summary-table" }, rows.map(([a, b]) => el("tr", {}, el("td", { text: a }), el("td", { text: b })))));
    if (d.outcome_text) panel.append(el("p", { class: "outcome", id: "outcome", text: d.outcome_text }));
    if (game === "shengji" && d.tricks && d.tricks.length) {
      panel.append(el("div", { class: "trick-list", id: "trick-list" }, d.tricks.map((t) => el("span", {
        class: "trick-cell" + ((d.dealer !== null && t.winner % 2 !== d.dealer % 2) ? " defenders" : ""),
        title: seatName(t.leader) + " → " + seatName(t.winner),
      }, el("b", { text: String(t.number) }), " ", seatName(t.winner), t.points ? " +" + t.points : ""))));
    }
    if (state.match_finished) panel.append(el("p", { class: "outcome", text: state.match_result_text || T.match_over }));
    const links = el("div", { class: "choice-row" });
    if (cfg.scoresheet_url) links.append(el("a", { class: "btn", href: cfg.scoresheet_url, target: "_blank", id: "scoresheet-link", text: T.scoresheet }));
    if (state.match_finished && cfg.confirm_url) {
      links.append(el("button", { type: "button", class: "btn", id: "confirm-scoresheet", text: T.confirm_scoresheet, on: { click: confirmScoresheet } }));
    }
    if (links.childNodes.length) panel.append(links);
  }

  async function confirmScoresheet() {
    try {
      const res = await fetch(cfg.confirm_url, {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf },
        body: JSON.stringify({ actor: "referee", device }),
      });
      const data = await res.json().catch(() => ({}));
      if (res.ok) showBanner("info", T.scoresheet_confirmed);
      else showBanner("error", data.error || fmt(T.http_error, { status: res.status }));
    } catch (e) {
      showBanner("error", T.offline_try_later);
    }
  }

  // -- the action bar ---------------------------------------------------------------------------
  function renderActions() {
    const bar = $("#actionbar");
    bar.textContent = "";
    const c = comp[mode] || {};
    const d = deal() || {};
    const btn = (text, attrs, onClick) => el("button", Object.assign({ type: "button", text }, attrs || {}, { on: { click: () => { onClick(); render(); } } }));
    const confirm = (enabled, onClick, text) => btn(text || T.confirm, { class: "confirm", id: "confirm", disabled: !enabled }, onClick);
    const spacer = () => el("span", { class: "spacer" });
    if (mode === "seat") {
      bar.append(spacer(), confirm(true, () => {
        submit({ kind: "seat", players: c.players.map((p) => p.trim()) }, T.tab_seat);
      }));
    } else if (mode === "declare") {
      const seatOk = c.seat !== null && c.cards.length > 0;
      // (the redeal button is optional: DOM append would print a null as the text "null")
      bar.append(...[
        btn("⌫", { id: "backspace", "aria-label": T.backspace }, () => c.cards.pop()),
        btn(T.declare, { id: "btn-declare", disabled: !seatOk }, () => sendDeclare("declare")),
        btn(T.overcall, { id: "btn-overcall", disabled: !seatOk }, () => sendDeclare("overcall")),
        btn(T.reinforce, { id: "btn-reinforce", disabled: !seatOk }, () => sendDeclare("reinforce")),
        // 不反: a seat passes in the pass/overcall round (eighty-rr); elsewhere the engine only notes it
        btn(T.pass_round, { id: "btn-pass", class: (state.rulebook || {}).declaration_round ? "" : "secondary",
          disabled: c.seat === null || c.cards.length > 0 }, () => {
          postEvent({ type: "pass", seat: c.seat }, T.pass_round + " " + seatName(c.seat));
          comp.declare = freshComp("declare");
        }),
        btn(T.flip, { id: "btn-flip", disabled: c.cards.length !== 1 }, () => {
          postEvent({ type: "flip", card: c.cards[0] }, T.flip);
          comp.declare = freshComp("declare");
        }),
        (state.rulebook || {}).nobody_declares === "redeal" && d.event_count === 0
          ? btn(T.redeal_button, { class: "danger", id: "btn-redeal" }, () => {
            // the empty deal is taken back and logged again as redealt (nobody declared)
            submit({ kind: "undo" }, T.undo);
            submit({ kind: "deal", redeal: true }, T.redeal_button);
          })
          : null,
        spacer(),
        btn(T.to_bury, { class: "secondary", id: "btn-to-bury" }, () => setMode("bury"))].filter(Boolean));
    } else if (mode === "bury") {
      bar.append(btn("⌫", { id: "backspace", "aria-label": T.backspace }, () => c.cards.pop()), spacer(),
        confirm(c.cards.length === 8 && c.seat !== null && c.seat !== undefined, () => {
          postEvent({ type: "bury", seat: c.seat, cards: c.cards.slice() }, T.bury);
          comp.bury = { seat: c.seat, cards: [] };
          mode = "tricks";
          comp.tricks = freshTrick();
        }));
    } else if (mode === "tricks") {
      renderTrickActions(bar, c, btn, confirm, spacer);
    } else if (mode === "quick") {
      bar.append(spacer(), confirm(c.winner !== null, () => {
        const ev = { type: "result", defender_points: c.defender_points, bottom_points: c.bottom_points,
          last_trick_winner: c.winner, last_trick_shape: c.shape, last_trick_trump: c.trump };
        if (c.shape === "throw") ev.last_trick_throw_largest = c.largest;
        postEvent(ev, T.tab_quick);
        comp.quick = freshComp("quick");
      }));
    } else if (mode === "penalty") {
      bar.append(spacer(), confirm(c.seat !== null && !!c.kind, () => {
        const item = catalogue().find((k) => k.kind === c.kind) || {};
        const ev = { type: "penalty", seat: c.seat, kind: c.kind };
        if (item.has_points) ev.points = c.points;
        if (c.note) ev.note = c.note;
        postEvent(ev, T.penalty + " " + (item.label || c.kind));
        comp.penalty = freshComp("penalty");
      }));
    } else if (mode === "summary") {
      const canNext = state.seated && !state.match_finished && (!deal() || ["finished", "redeal"].includes(phase()));
      bar.append(spacer(), btn(deal() ? T.next_deal : T.start_deal, { class: "confirm", id: "next-deal", disabled: !canNext },
        () => submit({ kind: "deal" }, T.next_deal)));
    } else if (mode === "play") {
      bar.append(
        btn("⌫", { id: "backspace", "aria-label": T.backspace }, () => c.cards.pop()),
        btn(T.report, { id: "btn-report", class: c.report ? "on" : "" }, () => openReport(c)),
        spacer(),
        btn(T.pass, { class: "secondary", id: "btn-pass", disabled: c.seat === null || c.cards.length > 0 }, () => {
          postEvent({ type: "pass", seat: c.seat }, seatName(c.seat) + " " + T.pass);
          c.seat = nextGuandanSeat(c.seat);
        }),
        confirm(c.seat !== null && c.cards.length > 0, () => {
          postEvent({ type: "play", seat: c.seat, cards: c.cards.slice() }, seatName(c.seat) + " " + c.cards.map(cardText).join(" "));
          c.cards = [];
          c.seat = nextGuandanSeat(c.seat);
        }, T.play));
    } else if (mode === "tribute") {
      const ok = c.kind === "anti_tribute" ? c.from !== null && c.cards.length > 0 : c.from !== null && c.to !== null && c.cards.length === 1;
      bar.append(btn("⌫", { id: "backspace" }, () => c.cards.pop()), spacer(), confirm(ok, () => {
        const ev = c.kind === "anti_tribute" ? { type: "anti_tribute", seat: c.from, cards: c.cards.slice() }
          : { type: c.kind, from: c.from, to: c.to, card: c.cards[0] };
        postEvent(ev, T[c.kind === "return" ? "return_" : c.kind]);
        comp.tribute = { kind: c.kind === "tribute" ? "tribute" : c.kind, from: null, to: null, cards: [] };
      }));
    } else if (mode === "order") {
      bar.append(btn("⌫", { id: "backspace" }, () => c.order.pop()), spacer(), confirm(c.order.length === 4, () => {
        postEvent({ type: "result", order: c.order.slice() }, T.tab_order);
        comp.order = freshComp("order");
      }));
    }
  }

  function nextGuandanSeat(seat) {
    const out = (deal() && deal().order) || [];
    for (let k = 1; k <= 4; k++) { const s = next(seat, k); if (!out.includes(s)) return s; }
    return null;
  }

  function openReport(c) {
    const d = deal() || {};
    c.report = !c.report;
    c.reportSeat = d.last_play ? d.last_play.seat : c.seat;
  }
  function renderReport(panel, c) {
    const d = deal() || {};
    panel.append(choiceRow(T.report, seatOptions(), c.reportSeat, (v) => { c.reportSeat = v; }, "report-seat"));
    const left = (d.cards_left || [])[c.reportSeat];
    panel.append(choiceRow(fmt(T.report_for, { seat: seatName(c.reportSeat) }), [1, 2, 3, 4, 5, 6].map((n) => [n, String(n)]), left,
      (n) => {
        if (c.reportSeat === null || c.reportSeat === undefined) return;
        postEvent({ type: "report", seat: c.reportSeat, remaining: n }, seatName(c.reportSeat) + " " + T.report + " " + n);
        c.report = false;
      }, "report-row"));
  }

  function sendDeclare(type) {
    const c = comp.declare;
    const ev = { type, seat: c.seat, cards: c.cards.slice() };
    if (c.faceDown && type !== "reinforce") ev.face_down = true;
    postEvent(ev, T[type] + " " + seatName(c.seat));
    comp.declare = freshComp("declare");
  }

  function renderTrickActions(bar, c, btn, confirm, spacer) {
    if (c.stage === "blocker" || c.stage === "blocking") {
      bar.append(btn("⌫", { id: "backspace" }, () => backspaceTrick(c)),
        btn(T.cancel, { class: "danger", id: "throw-cancel" }, () => { c.throwFail = null; c.stage = "play"; }),
        spacer(),
        confirm(c.stage === "blocking" && c.throwFail.blocking.length > 0, () => {
          const tf = c.throwFail;
          postEvent({ type: "throw_fail", seat: tf.seat, attempted: tf.attempted, blocker: tf.blocker, blocking: tf.blocking.slice() }, T.throw_fail);
          // the same trick is now entered again with the forced play
          const keep = { attempted: tf.attempted };
          comp.tricks = freshTrick();
          comp.tricks.leader = tf.seat; comp.tricks.seat = tf.seat;
          comp.tricks.throwFail = keep; comp.tricks.stage = "play";
        }, T.throw_fail));
      return;
    }
    const sizes = el("div", { class: "group", id: "lead-size" }, el("span", { class: "lbl", text: T.lead_size }),
      [1, 2, 3, 4, 6].map((n) => btn(String(n), { class: c.leadSize === n ? "on" : "", dataset: { size: String(n) } }, () => setLeadSize(c, n))),
      btn(T.lead_free, { class: c.leadSize === 0 ? "on" : "", dataset: { size: "0" } }, () => setLeadSize(c, 0)));
    const leaderOpen = c.leader !== null && c.seat === c.leader && !c.leaderDone && c.plays[c.leader].length > 0;
    bar.append(sizes,
      btn(T.leader_done, { id: "leader-done", disabled: !leaderOpen }, () => { c.leaderDone = true; advanceTrick(c); }),
      btn("⌫", { id: "backspace", "aria-label": T.backspace }, () => backspaceTrick(c)),
      btn(T.throw_fail_short, { class: "secondary", id: "throw-fail", disabled: c.leader === null || !c.plays[c.leader].length }, startThrowFail),
      spacer(),
      confirm(trickComplete(c), () => {
        const plays = [0, 1, 2, 3].map((k) => c.plays[next(c.leader, k)].slice());
        postEvent({ type: "trick", leader: c.leader, plays }, fmt(T.trick_no, { n: ((deal() || {}).trick_count || 0) + 1 }));
        comp.tricks = freshTrick();
        comp.tricks.leader = null; comp.tricks.seat = null;  // the engine names the next leader
      }));
  }

  // -- the engine's answer --------------------------------------------------------------------------
  function renderAnswer() {
    const box = $("#answer");
    box.textContent = "";
    const d = deal();
    if (!d) { box.append(el("p", { class: "hint", text: state.seated ? T.no_deal_yet : T.seat_first })); return; }
    if (game === "shengji") {
      box.append(el("h3", { text: T.defenders_points }), el("div", { class: "big", id: "answer-defenders" }, String(d.defender_total ?? 0)));
      const last = d.last_trick;
      if (last) {
        box.append(el("h3", { text: fmt(T.trick_no, { n: last.number }) }));
        box.append(el("div", { class: "row", id: "answer-winner" }, el("span", { text: T.winner }), el("b", { text: seatName(last.winner) })));
        box.append(el("div", { class: "row" }, el("span", { text: T.points }), el("b", { id: "answer-points", text: String(last.points ?? 0) })));
        if (last.shape) box.append(el("div", { class: "row" }, el("span", { text: T.shape }), el("b", { text: last.shape_label || last.shape })));
      }
      if (d.next_leader !== null && d.next_leader !== undefined && d.phase === "playing") {
        box.append(el("div", { class: "row" }, el("span", { text: T.next_leader }), el("b", { id: "answer-next", text: seatName(d.next_leader) })));
      }
      if (d.bottom_cards && d.bottom_cards.length) box.append(el("div", { class: "row" }, el("span", { text: T.bottom }), cardsHtml(d.bottom_cards)));
    } else {
      if (d.next_to_play !== null && d.next_to_play !== undefined) box.append(el("div", { class: "row" }, el("span", { text: T.next_to_play }), el("b", { id: "answer-next", text: seatName(d.next_to_play) })));
      if (d.last_play) {
        box.append(el("h3", { text: T.on_table }));
        box.append(el("div", { class: "row", id: "answer-last-play" }, el("b", { text: seatName(d.last_play.seat) }), cardsHtml(d.last_play.cards)));
        if (d.last_play.label) box.append(el("div", { class: "row" }, el("span", { text: d.last_play.label })));
      }
    }
    const violations = d.violations || [];
    if (violations.length) {
      box.append(el("h3", { text: T.violations }));
      for (const v of violations) {
        box.append(el("div", { class: "violation", dataset: { rule: v.rule_id || "" } }, el("b", { text: v.label || v.kind }), " · ", seatName(v.seat),
          v.rule ? el("div", { class: "rule", text: v.rule }) : null,
          v.where ? el("div", { text: v.where }) : null, v.proof ? el("div", { text: v.proof }) : null));
      }
    }
    if (state.recent && state.recent.length) {
      box.append(el("h3", { text: T.recent }));
      box.append(el("ul", { class: "recent", id: "recent" }, state.recent.map((r) => el("li", { text: r }))));
    }
  }

  // -- live updates ---------------------------------------------------------------------------------
  function connectLive() {
    if (!cfg.live_url || !window.EventSource) return;
    const source = new EventSource(cfg.live_url);
    const onUpdate = (msg) => {
      let data = {};
      try { data = JSON.parse(msg.data); } catch (e) { data = {}; }
      if (data.seq === undefined || data.seq > state.seq) fetchState();
    };
    source.addEventListener("update", onUpdate);  // web/live.py names its events "update"
    source.onmessage = onUpdate;
    source.onopen = () => fetchState();
  }

  // -- camera pre-fill (static/js/camera.js): fills the draft, never posts ---------------------
  document.addEventListener("camera:detections", (ev) => {
    const detail = ev.detail || {};
    const perSeat = detail.perSeat || {};
    const seats = Object.keys(perSeat).filter((s) => (perSeat[s] || []).length);
    const names = (list) => (list || []).map((d) => (typeof d === "string" ? d : d.card)).filter(Boolean);
    const c = comp[mode];
    if (!c) return;
    if (mode === "tricks" && seats.length && c.leader !== null) {
      for (const s of seats) c.plays[Number(s)] = names(perSeat[s]);
      if (c.plays[c.leader].length) c.leaderDone = true;
      advanceTrick(c);
    } else if (mode === "tricks") {
      for (const card of names(detail.cards)) tapTrickCard(c, card);
    } else if (mode === "play" || mode === "bury" || mode === "declare") {
      const cards = seats.length && mode === "play" && c.seat !== null ? names(perSeat[String(c.seat)]) : names(detail.cards);
      c.cards = c.cards.concat(cards).slice(0, mode === "bury" ? 8 : 27);
    } else {
      return;
    }
    showBanner("info", T.camera_filled);
    render();
  });

  // -- camera request (static/js/camera.js asks before each photo; answered synchronously) -----
  // expected: cards each seat must play this trick, from the lead size once the leader has
  // played (else null); played: copies of each card already played or buried in this deal,
  // from the engine's unplayed counts (two decks); bottomSeat: the seat at the photo's bottom.
  const DECK_COPIES = 2;
  const bottomKey = "tr-camera-bottom-" + cfg.match_id;
  function cameraBottom() {
    const stored = Number(localStorage.getItem(bottomKey));
    return Number.isInteger(stored) && stored >= 0 && stored < 4 ? stored : 0;
  }
  function cameraExpected() {
    const c = comp.tricks;
    if (mode !== "tricks" || !c || c.leader === null || c.leader === undefined || !c.leaderDone) return null;
    const n = leaderCount(c);
    if (!n) return null;
    return { "0": n, "1": n, "2": n, "3": n };
  }
  function cameraPlayed() {
    const played = {};
    for (const [card, left] of Object.entries(state.unplayed || {})) {
      const n = DECK_COPIES - Number(left);
      if (n > 0) played[card] = n;
    }
    return played;
  }
  document.addEventListener("camera:request", (ev) => {
    const detail = ev.detail;
    if (!detail) return;
    detail.expected = cameraExpected();
    detail.played = deal() ? cameraPlayed() : null;
    detail.bottomSeat = cameraBottom();
  });
  function labelCameraSeats() {
    const select = $("#camera-bottom-seat");
    if (select) for (const option of select.options) option.textContent = seatName(Number(option.value));
  }
  const bottomSelect = $("#camera-bottom-seat");
  if (bottomSelect) {
    bottomSelect.value = String(cameraBottom());
    bottomSelect.addEventListener("change", () => localStorage.setItem(bottomKey, bottomSelect.value));
  }

  window.addEventListener("offline", () => queue.setOffline(true));
  window.addEventListener("online", () => fetchState());

  // first paint
  mode = modeForPhase();
  comp[mode] = freshComp(mode);
  render();
  connectLive();
  if (queue.pending) queue.flush();
  if (held.length) showConflict();
  window.tableApp = { get state() { return state; }, queue, fetchState, get mode() { return mode; }, get composer() { return comp[mode]; } };
})();
