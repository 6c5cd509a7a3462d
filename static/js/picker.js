/* Card picker for the referee's tablet: all 54 faces, trump first, with unplayed counts.
 *
 * Plain JS, no build step. The picker only shows cards and reports taps; what a tap
 * means (a card for the current seat, a declaration, a buried card) is the caller's job.
 *
 *   const picker = new CardPicker(element, {onTap: (card) => ...});
 *   picker.render({level: "2", trumpSuit: "S", unplayed: {"AS": 2, ...}, game: "shengji"});
 *   picker.setTaken({"AS": 1});   // copies already tapped in the entry being built
 *
 * Card ids are the record's ASCII notation: "10H", "AS", "SJ" (小王), "BJ" (大王).
 */
(function (global) {
  "use strict";

  const SUITS = ["S", "H", "C", "D"];
  const SUIT_SYMBOL = { S: "♠", H: "♥", C: "♣", D: "♦" };
  const RANKS_DESC = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"];
  const ALL_CARDS = [];
  for (const s of SUITS) for (const r of RANKS_DESC) ALL_CARDS.push(r + s);
  ALL_CARDS.push("SJ", "BJ");

  function cardSuit(card) {
    if (card === "BJ" || card === "SJ") return null;
    return card.slice(-1);
  }
  function cardRank(card) {
    if (card === "BJ" || card === "SJ") return card;
    return card.slice(0, -1);
  }
  function cardPoints(card) {
    const r = cardRank(card);
    return r === "5" ? 5 : r === "10" || r === "K" ? 10 : 0;
  }
  function cardLabel(card, t) {
    if (card === "BJ") return (t && t.bigJoker) || "大王";
    if (card === "SJ") return (t && t.smallJoker) || "小王";
    return cardRank(card) + SUIT_SYMBOL[cardSuit(card)];
  }
  function isRed(card) {
    const s = cardSuit(card);
    return card === "BJ" || s === "H" || s === "D";
  }

  /* Rows of the picker, trump first. Shengji: [jokers + level cards], [trump suit],
   * then the side suits. Guandan has no trump suit: jokers and level cards come first
   * (the ♥ level cards are the wild cards 逢人配). Before trump is known, the level
   * cards still come first because every declaration is made with them. */
  function groupCards(opts) {
    const level = opts.level || null;
    const trumpSuit = opts.trumpSuit || null;
    const t = opts.labels || {};
    const rows = [];
    const top = ["BJ", "SJ"];
    if (level) {
      if (trumpSuit) top.push(level + trumpSuit);
      for (const s of SUITS) if (s !== trumpSuit) top.push(level + s);
    }
    rows.push({ key: "trump-top", trump: true, label: t.trump || "将牌", cards: top });
    if (trumpSuit) {
      rows.push({
        key: "trump-suit", trump: true, label: SUIT_SYMBOL[trumpSuit],
        cards: RANKS_DESC.filter((r) => r !== level).map((r) => r + trumpSuit),
      });
    }
    for (const s of SUITS) {
      if (s === trumpSuit) continue;
      rows.push({
        key: "suit-" + s, trump: false, label: SUIT_SYMBOL[s],
        cards: RANKS_DESC.filter((r) => r !== level).map((r) => r + s),
      });
    }
    return rows;
  }

  class CardPicker {
    constructor(root, options) {
      this.root = root;
      this.onTap = (options && options.onTap) || function () {};
      this.labels = (options && options.labels) || {};
      this.unplayed = {};
      this.taken = {};
      this.highlight = new Set();
      this.buttons = new Map();
      this.config = null;
      this.disabled = false;
      root.classList.add("picker");
      root.addEventListener("click", (ev) => {
        const button = ev.target.closest("button[data-card]");
        if (!button || !root.contains(button) || this.disabled) return;
        const card = button.dataset.card;
        if (this.remaining(card) <= 0) {
          button.classList.add("shake");
          setTimeout(() => button.classList.remove("shake"), 300);
          return;
        }
        this.onTap(card);
      });
    }

    /* Build the buttons for this level/trump. Rebuilds only when the grouping changes. */
    render(config) {
      const key = [config.level, config.trumpSuit, config.game].join("|");
      this.unplayed = config.unplayed || {};
      if (this.config !== key) {
        this.config = key;
        this.root.textContent = "";
        this.buttons.clear();
        for (const row of groupCards({ level: config.level, trumpSuit: config.trumpSuit, labels: this.labels })) {
          const rowEl = document.createElement("div");
          rowEl.className = "picker-row" + (row.trump ? " picker-row-trump" : "");
          rowEl.dataset.group = row.key;
          const label = document.createElement("span");
          label.className = "picker-label";
          label.textContent = row.label;
          rowEl.appendChild(label);
          const cardsEl = document.createElement("div");
          cardsEl.className = "picker-cards";
          for (const card of row.cards) {
            const button = document.createElement("button");
            button.type = "button";
            button.className = "card-btn" + (isRed(card) ? " red" : "") +
              (card === "BJ" || card === "SJ" ? " joker" : "") +
              (config.level && cardRank(card) === config.level ? " level" : "") +
              (config.game === "guandan" && config.level && card === config.level + "H" ? " wild" : "");
            button.dataset.card = card;
            const face = document.createElement("span");
            face.className = "face";
            face.textContent = cardLabel(card, this.labels);
            const count = document.createElement("span");
            count.className = "count";
            button.append(face, count);
            if (cardPoints(card)) button.classList.add("points");
            cardsEl.appendChild(button);
            this.buttons.set(card, button);
          }
          rowEl.appendChild(cardsEl);
          this.root.appendChild(rowEl);
        }
      }
      this.refresh();
    }

    remaining(card) {
      const unplayed = this.unplayed[card] === undefined ? 2 : this.unplayed[card];
      return unplayed - (this.taken[card] || 0);
    }

    setTaken(taken) {
      this.taken = taken || {};
      this.refresh();
    }

    setHighlight(cards) {
      this.highlight = new Set(cards || []);
      this.refresh();
    }

    setDisabled(disabled) {
      this.disabled = !!disabled;
      this.root.classList.toggle("disabled", this.disabled);
    }

    refresh() {
      for (const [card, button] of this.buttons) {
        const left = this.remaining(card);
        button.querySelector(".count").textContent = "×" + Math.max(left, 0);
        button.classList.toggle("gone", left <= 0);
        button.classList.toggle("one-left", left === 1);
        button.classList.toggle("hl", this.highlight.has(card));
        button.setAttribute("aria-label", cardLabel(card, this.labels) + " ×" + Math.max(left, 0));
      }
    }
  }

  global.CardPicker = CardPicker;
  global.Cards = { SUITS, SUIT_SYMBOL, RANKS_DESC, ALL_CARDS, cardSuit, cardRank, cardPoints, cardLabel, isRed, groupCards };
})(window);
