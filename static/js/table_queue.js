/* The tablet's outbox: every entry is stored in localStorage before it is sent, so a
 * Wi-Fi drop loses nothing. Each entry carries an idempotency key made once, when the
 * referee confirms it, and reused on every retry; the server stores a key once, so a
 * retry after a lost answer never doubles an event.
 *
 *   const q = new TableQueue({storageKey, send, onResult, onChange});
 *   q.submit({kind: "event", body: {...}, label: "..."});   // kind: event | undo | seat | deal
 *
 * `send(entry)` returns a Promise of {status, data}; a network failure rejects it.
 * Entries are sent one at a time in order; the seq each one expects is fixed at its first
 * attempt (the server's seq as last seen) and kept for its retries.
 */
(function (global) {
  "use strict";

  function newKey() {
    if (global.crypto && global.crypto.randomUUID) return global.crypto.randomUUID();
    return "k-" + Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 12);
  }

  class TableQueue {
    constructor(options) {
      this.storageKey = options.storageKey;
      this.send = options.send;
      this.onResult = options.onResult || function () {};
      this.onChange = options.onChange || function () {};
      this.getSeq = options.getSeq || function () { return null; };
      this.retryMs = options.retryMs || 3000;
      this.entries = this.load();
      this.inFlight = false;
      this.offline = false;
      this.timer = null;
      global.addEventListener("online", () => this.flush());
    }

    load() {
      try {
        const raw = global.localStorage.getItem(this.storageKey);
        const list = raw ? JSON.parse(raw) : [];
        return Array.isArray(list) ? list : [];
      } catch (e) {
        return [];
      }
    }

    save() {
      try {
        global.localStorage.setItem(this.storageKey, JSON.stringify(this.entries));
      } catch (e) {
        /* storage full or private mode: the entry still lives in memory */
      }
      this.onChange(this);
    }

    get pending() {
      return this.entries.length;
    }

    submit(entry) {
      const full = Object.assign({ key: newKey(), created: Date.now(), expected_seq: null, tries: 0 }, entry);
      this.entries.push(full);
      this.save();
      this.flush();
      return full;
    }

    /* Drop every entry (after a conflict the referee chose to discard them). */
    clear() {
      this.entries = [];
      this.save();
    }

    schedule() {
      if (this.timer) return;
      this.timer = setTimeout(() => {
        this.timer = null;
        this.flush();
      }, this.retryMs);
    }

    async flush() {
      if (this.inFlight || this.entries.length === 0) return;
      this.inFlight = true;
      try {
        while (this.entries.length) {
          const entry = this.entries[0];
          if (entry.expected_seq === null || entry.expected_seq === undefined) {
            entry.expected_seq = this.getSeq();
            this.save();
          }
          entry.tries += 1;
          let result;
          try {
            result = await this.send(entry);
          } catch (e) {
            result = null;
          }
          if (!result || result.status === 0 || result.status >= 500) {
            /* offline, server restarting, or the answer was lost: keep it, retry later */
            this.setOffline(true);
            this.save();
            this.schedule();
            return;
          }
          this.setOffline(false);
          if (result.status === 400 && result.data && result.data.error === "csrf") {
            /* token expired: the caller fetched a new one; try again at once */
            entry.csrfTries = (entry.csrfTries || 0) + 1;
            if (entry.csrfTries <= 2) continue;
          }
          this.entries.shift();
          const follow = this.onResult(entry, result, this);
          this.save();
          if (follow === "stop") {
            /* a conflict: the rest were built on a stale view; the caller decides */
            return;
          }
        }
      } finally {
        this.inFlight = false;
      }
    }

    setOffline(offline) {
      if (this.offline !== offline) {
        this.offline = offline;
        this.onChange(this);
      }
    }
  }

  global.TableQueue = TableQueue;
  global.TableQueue.newKey = newKey;
})(window);
