/* Tile faces drawn as SVG by this project: a suit tile is its numeral over the suit's character in the
   suit's colour (万 red, 筒 blue, 条 green), an honour its character, a flower its name. Readable at 40 px.
   The characters are the group's script's: `use(faces)` takes the server's (萬 條 東 發 in zh-Hant). */
"use strict";
const TileFaces = (() => {
  const NUMERALS = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];
  const SUITS = { m: ["万", "#c0392b"], p: ["筒", "#1f5fa8"], s: ["条", "#1e8449"] };
  const HONOURS = { 1: ["东", "#222"], 2: ["南", "#222"], 3: ["西", "#222"], 4: ["北", "#222"],
                    5: ["白", "#1f5fa8"], 6: ["发", "#1e8449"], 7: ["中", "#c0392b"] };
  const FLOWER_COLOURS = { "中": "#c0392b", "发": "#1e8449", "白": "#1f5fa8", "百搭": "#8e44ad" };
  let FLOWER_SHOWN = {};  // a flower's canonical name (its code) → the characters shown

  /** The faces in the group's script: {suits: {m, p, s}, honours: [1z…7z], flowers: {code: shown}}. */
  function use(faces) {
    if (!faces) return;
    for (const suit of "mps") if (faces.suits && faces.suits[suit]) SUITS[suit][0] = faces.suits[suit];
    (faces.honours || []).forEach((ch, i) => { if (HONOURS[i + 1]) HONOURS[i + 1][0] = ch; });
    FLOWER_SHOWN = faces.flowers || {};
  }
  const NS = "http://www.w3.org/2000/svg";

  function el(name, attrs, text) {
    const node = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function blank() {
    const svg = el("svg", { viewBox: "0 0 30 40", class: "face", "aria-hidden": "true" });
    svg.appendChild(el("rect", { x: 1, y: 1, width: 28, height: 38, rx: 4, class: "face-bg" }));
    return svg;
  }

  function label(code) {
    const rank = Number(code[0]), suit = code[1];
    if (!/^[1-9][mps]$|^[1-7]z$/.test(code)) return FLOWER_SHOWN[code] || code;
    if (suit === "z") return HONOURS[rank][0];
    return NUMERALS[rank - 1] + SUITS[suit][0];
  }

  /** The face of a playing tile ("5p", "1z") or a flower (its name: "春", "百搭"). */
  function face(code) {
    const svg = blank();
    const isTile = /^[1-9][mps]$|^[1-7]z$/.test(code);
    if (isTile && code[1] !== "z") {
      const [suitChar, colour] = SUITS[code[1]];
      svg.appendChild(el("text", { x: 15, y: 18, class: "num", fill: "#222" }, NUMERALS[Number(code[0]) - 1]));
      svg.appendChild(el("text", { x: 15, y: 34, class: "suit", fill: colour }, suitChar));
    } else if (isTile) {
      const [ch, colour] = HONOURS[Number(code[0])];
      if (code === "5z") svg.appendChild(el("rect", { x: 7, y: 9, width: 16, height: 22, rx: 2, class: "white-frame" }));
      svg.appendChild(el("text", { x: 15, y: 27, class: "honour", fill: colour }, ch));
    } else {
      const colour = FLOWER_COLOURS[code] || "#b03a2e";
      const shown = FLOWER_SHOWN[code] || code;
      const chars = Array.from(shown);
      if (chars.length === 1) {
        svg.appendChild(el("text", { x: 15, y: 27, class: "honour", fill: colour }, shown));
      } else {
        chars.forEach((ch, i) => svg.appendChild(el("text", {
          x: 15, y: 8 + (i + 1) * (30 / (chars.length + 0.4)), class: "flower-small", fill: colour }, ch)));
      }
      svg.appendChild(el("circle", { cx: 25, cy: 6, r: 2.2, fill: colour }));
    }
    return svg;
  }

  return { face, label, use };
})();
