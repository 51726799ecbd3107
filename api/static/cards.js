// Cards shown as pictures: each card code of the wire format (docs/wire-format.md) becomes an inline
// SVG named in words that shows the referee's picture of it (GET /v1/cards/{code}.svg: rank and suit
// symbol, red for hearts and diamonds, black for spades and clubs; a joker apart, and, in a meld, the
// card it stands for).  No card is ever shown as its code.

import {parse, name, names} from "./cardwords.js";

export const Cards = (() => {
  const SVG = "http://www.w3.org/2000/svg";  // the SVG namespace: a name, never fetched
  const SUITS = {S: {symbol: "\u2660", name: "spades", red: false}, H: {symbol: "\u2665", name: "hearts", red: true},
                 D: {symbol: "\u2666", name: "diamonds", red: true}, C: {symbol: "\u2663", name: "clubs", red: false}};
  const RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"];

  function el(tag, attrs, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // The picture of a card (or of the back) as the referee serves it: GET /v1/cards/{code}.svg, the
  // one place cards are drawn (api/cards.py), cacheable, for this page and for any app alike.
  function url(code) { return `/v1/cards/${encodeURIComponent(code)}.svg`; }

  // One card as an <svg> (60 x 84 units) with an accessible name, showing the served picture.
  function picture(code, options) {
    const opts = options || {};
    const c = parse(code);
    const svg = el("svg", {viewBox: "0 0 60 84", class: "card-svg", role: "img", "aria-label": name(code)});
    svg.appendChild(el("title", {}, name(code)));
    if (!c) {  // not a card: no picture to ask for
      svg.appendChild(el("rect", {x: 1, y: 1, width: 58, height: 82, rx: 6, class: "card-face unknown"}));
      svg.appendChild(el("text", {x: 30, y: 50, "text-anchor": "middle", class: "card-big"}, "?"));
      return svg;
    }
    svg.classList.add(c.joker ? "joker" : (SUITS[c.suit].red ? "red" : "black"));
    if (opts.small) svg.classList.add("small");
    svg.appendChild(el("image", {href: url(code), width: 60, height: 84}));
    return svg;
  }

  // The back of a card, for the stock: how many cards are in it is written on it.
  /** Face-down cards, `count` of them, said as what they are (`what`: "the stock", "cards nobody can see"). */
  function back(count, what = "the stock") {
    const label = `${what}: ${count === 1 ? "1 card" : `${count} cards`}`;
    const svg = el("svg", {viewBox: "0 0 60 84", class: "card-svg card-back", role: "img", "aria-label": label});
    svg.appendChild(el("title", {}, label));
    svg.appendChild(el("image", {href: url("back"), width: 60, height: 84}));
    svg.appendChild(el("text", {x: 30, y: 50, "text-anchor": "middle", class: "back-count"}, String(count)));
    return svg;
  }

  // A card as an element of the page: <span class="card" data-card="9H"> with its picture.
  function card(code, options) {
    const span = document.createElement("span");
    span.className = "card";
    span.dataset.card = code;
    span.appendChild(picture(code, options));
    return span;
  }

  // A row of cards.
  function row(codes, options) {
    const div = document.createElement("div");
    div.className = "card-row";
    for (const code of codes) div.appendChild(card(code, options));
    return div;
  }

  return {parse, name, names, picture, back, card, row, url, SUITS, RANKS};
})();
