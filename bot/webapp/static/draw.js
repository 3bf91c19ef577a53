// The board in SVG, seen from the bottom side, as the chat's picture draws it (render/layout.py):
// points 13..24 along the top from the left, 12..1 along the bottom, their numbers on the frame,
// the bar between the halves, the borne-off checkers in the tray on the right; its colours are
// the picture's (palette.css). It fills the room it is given: geometry(width, height) lays the
// board out in that many CSS pixels, taller points in a tall room, and stacks taller than their
// point holds show their count on the last checker drawn. Pure drawing: what to draw comes in.

const NS = "http://www.w3.org/2000/svg";

// The picture's proportions, in point widths (render/theme.py: a point 62, the frame 14, the
// bar 60, the tray 66, a checker 56).
const FRAME = 14 / 62;
const BAR = 60 / 62;
const TRAY = 66 / 62;
const CHECKER = 56 / 62;
const ACROSS = 12 + 3 * FRAME + BAR + TRAY;
// The board keeps between these shapes (height / width); the room around it stays empty.
const FLATTEST = 0.62;
const TALLEST = 1.5;

/**
 * The board's geometry for a room of ``width`` x ``height`` CSS pixels: the board's own size
 * (``width``, ``height``: the SVG's viewBox, centred in the room), a point's width ``col``,
 * the checkers' radius, the bands, and how many checkers a point shows before it counts.
 */
export function geometry(width, height) {
  let w = Math.max(width, 120);
  let h = Math.max(height, 80);
  if (h > w * TALLEST) h = w * TALLEST;
  if (h < w * FLATTEST) w = h / FLATTEST;
  const col = w / ACROSS;
  const frame = col * FRAME;
  const band = Math.min(Math.max(col * 0.55, 13), 22); // the frame above and below: numbers
  const top = band;
  const bottom = h - band;
  const middle = (top + bottom) / 2;
  const gap = col * 0.7; // between the two rows of points
  const half = (bottom - top - gap) / 2;
  const radius = (col * CHECKER) / 2;
  return {
    width: w,
    height: h,
    col,
    frame,
    band,
    top,
    bottom,
    middle,
    gap,
    half,
    radius,
    point: half * 0.94,
    fits: Math.max(1, Math.floor(half / (2 * radius))),
    barLeft: frame + 6 * col,
    barWidth: col * BAR,
    trayLeft: frame + 12 * col + col * BAR + frame,
    trayWidth: col * TRAY,
  };
}

function column(point) {
  return point >= 13 ? point - 13 : 12 - point;
}

function left(g, point) {
  const index = column(point);
  return g.frame + index * g.col + (index >= 6 ? g.barWidth : 0);
}

function isTop(point) {
  return point >= 13;
}

/** Where checker ``index`` of a stack of ``stack`` on the viewer's ``point`` lies. */
export function checkerAt(g, point, index, stack) {
  if (point === 25) return barAt(g, true, index);
  if (point === 0) return { x: g.trayLeft + g.trayWidth / 2, y: g.bottom - g.radius };
  const shown = Math.min(index, g.fits - 1);
  const x = left(g, point) + g.col / 2;
  const offset = g.radius + shown * 2 * g.radius;
  return { x, y: isTop(point) ? g.top + offset : g.bottom - offset };
}

function barFits(g) {
  return Math.max(1, Math.floor((g.half - g.col * 0.5) / (2 * g.radius)));
}

function barAt(g, bottom, index) {
  const step = 2 * g.radius;
  const first = g.middle + g.col * 0.5 + g.radius + 2; // below (above) a cube in the middle
  const y = bottom ? first + index * step : 2 * g.middle - first - index * step;
  return { x: g.barLeft + g.barWidth / 2, y };
}

function element(name, attributes, parent) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function round(value) {
  return Math.round(value * 10) / 10;
}

function checker(svg, g, side, x, y, extra = {}) {
  const group = element("g", { class: `checker ${side}`, "data-side": side, ...extra }, svg);
  element("circle", { class: "rim", cx: round(x), cy: round(y), r: round(g.radius - 0.6) }, group);
  element("circle", { class: "ring", cx: round(x), cy: round(y), r: round(g.radius * 0.62) }, group);
  return group;
}

function label(svg, g, side, x, y, count) {
  const text = element("text", { class: `count ${side}`, x: round(x), y: round(y), "font-size": round(g.radius * 1.05) }, svg);
  text.textContent = String(count);
}

/**
 * Draws ``view`` into ``svg`` on geometry ``g`` (:func:`geometry`): {points, bar, off,
 * bottom, top, cube, last, lastSide, sources, targets, selected, lifted}; every point, the bar
 * (25) and the tray (0) get a hit area with data-point. ``last``: the steps [src, dst] of the
 * turn shown (the last one, or the one being built), marked as the chat's picture marks them:
 * a ring where a checker left, a dot on a checker that arrived. ``lifted`` ({from, side, x,
 * y}): a checker being dragged, drawn at (x, y) over everything and no longer on its point.
 */
export function drawBoard(svg, view, g) {
  svg.setAttribute("viewBox", `0 0 ${round(g.width)} ${round(g.height)}`);
  svg.replaceChildren();
  element("rect", { class: "frame", x: 0, y: 0, width: round(g.width), height: round(g.height), rx: 4 }, svg);
  const fieldHeight = round(g.bottom - g.top);
  element("rect", { class: "field", x: round(g.frame), y: round(g.top), width: round(6 * g.col), height: fieldHeight }, svg);
  element("rect", { class: "field", x: round(g.barLeft + g.barWidth), y: round(g.top), width: round(6 * g.col), height: fieldHeight }, svg);
  element("rect", { class: "bar", x: round(g.barLeft), y: round(g.top), width: round(g.barWidth), height: fieldHeight }, svg);
  element("rect", { class: "tray", x: round(g.trayLeft), y: round(g.top), width: round(g.trayWidth), height: fieldHeight, rx: 3 }, svg);
  const size = round(Math.min(g.band * 0.72, g.col * 0.5));
  for (let point = 1; point <= 24; point++) {
    const x = left(g, point);
    const top = isTop(point);
    const base = top ? g.top : g.bottom;
    const tip = top ? g.top + g.point : g.bottom - g.point;
    const shade = (column(point) + (top ? 0 : 1)) % 2 ? "b" : "a";
    element("polygon", {
      class: `tri ${shade}`,
      points: `${round(x + 1)},${round(base)} ${round(x + g.col - 1)},${round(base)} ${round(x + g.col / 2)},${round(tip)}`,
    }, svg);
    const number = element("text", {
      class: "num",
      x: round(x + g.col / 2),
      y: round(top ? g.band / 2 : g.height - g.band / 2),
      "font-size": size,
    }, svg);
    number.textContent = String(point);
  }
  // the tray: each side's borne-off checkers as slabs, the bottom side's from the bottom
  const slab = Math.min(g.radius * 0.5, (g.half - 4) / 15);
  for (const [side, fromBottom] of [[view.bottom, true], [view.top, false]]) {
    const count = view.off[side] || 0;
    for (let i = 0; i < count; i++) {
      const y = fromBottom ? g.bottom - 2 - (i + 1) * slab : g.top + 2 + i * slab;
      element("rect", { class: `slab ${side}`, x: round(g.trayLeft + 3), y: round(y), width: round(g.trayWidth - 6), height: round(slab - 1), rx: 1.5 }, svg);
    }
    if (count) {
      const y = fromBottom ? g.bottom - 2 - count * slab - size : g.top + 2 + count * slab + size;
      const text = element("text", { class: "num off", x: round(g.trayLeft + g.trayWidth / 2), y: round(y), "font-size": size }, svg);
      text.textContent = String(count);
    }
  }
  const lifted = view.lifted;
  const [left_, arrived] = marks(view.last || []);
  for (let point = 1; point <= 24; point++) {
    const [side, full] = view.points[point];
    const count = lifted && lifted.from === point ? full - 1 : full;
    const shown = Math.min(count, g.fits);
    for (let i = 0; side && i < shown; i++) {
      const { x, y } = checkerAt(g, point, i, count);
      checker(svg, g, side, x, y);
      if (i >= count - (arrived.get(point) || 0)) {
        element("circle", { class: "last-to", cx: round(x), cy: round(y), r: round(g.radius * 0.22) }, svg);
      }
    }
    if (side && count > shown) {
      const { x, y } = checkerAt(g, point, shown - 1, count);
      label(svg, g, side, x, y, count);
    }
    for (let i = 0; i < (left_.get(point) || 0) && count + i < g.fits; i++) {
      const { x, y } = checkerAt(g, point, count + i, count + i + 1);
      element("circle", { class: "last-from", cx: round(x), cy: round(y), r: round(g.radius - 1.5) }, svg);
    }
  }
  const fits = barFits(g);
  for (const [side, fromBottom] of [[view.bottom, true], [view.top, false]]) {
    const count = (view.bar[side] || 0) - (lifted && lifted.from === 25 && side === lifted.side ? 1 : 0);
    const shown = Math.min(count, fits);
    for (let i = 0; i < shown; i++) {
      const { x, y } = barAt(g, fromBottom, i);
      checker(svg, g, side, x, y);
    }
    if (count > shown) {
      const { x, y } = barAt(g, fromBottom, shown - 1);
      label(svg, g, side, x, y, count);
    }
  }
  if (view.cube) {
    const owner = view.cube.owner;
    const edge = Math.min(g.barWidth - 4, g.col * 0.9);
    const y = owner === view.bottom ? g.bottom - edge - 3 : owner ? g.top + 3 : g.middle - edge / 2;
    const group = element("g", { class: `cube${view.cube.offered ? " offered" : ""}` }, svg);
    element("rect", { x: round(g.barLeft + (g.barWidth - edge) / 2), y: round(y), width: round(edge), height: round(edge), rx: 3 }, group);
    const text = element("text", { x: round(g.barLeft + g.barWidth / 2), y: round(y + edge / 2), "font-size": round(edge * 0.55) }, group);
    text.textContent = String(view.cube.offered ? view.cube.value * 2 : view.cube.value);
  }
  // hit areas last, over everything: a point, the bar (25), the tray (0)
  const mark = (point) =>
    view.targets.has(point) ? " target" : point === view.selected ? " selected" : view.sources.has(point) ? " source" : "";
  for (let point = 1; point <= 24; point++) {
    const y = isTop(point) ? g.top : g.middle;
    element("rect", { class: `hit${mark(point)}`, x: round(left(g, point)), y: round(y), width: round(g.col), height: round(g.middle - g.top), "data-point": point }, svg);
  }
  element("rect", { class: `hit${mark(25)}`, x: round(g.barLeft), y: round(g.top), width: round(g.barWidth), height: fieldHeight, "data-point": 25 }, svg);
  element("rect", { class: `hit${mark(0)}`, x: round(g.trayLeft), y: round(g.top), width: round(g.trayWidth), height: fieldHeight, "data-point": 0 }, svg);
  if (lifted) {
    const ghost = checker(svg, g, lifted.side, lifted.x, lifted.y, { "data-ghost": lifted.from });
    ghost.classList.add("dragged");
  }
}

/** Per point, how many checkers left it and how many arrived, by the steps [src, dst] of a
 * turn (a checker that goes on from a point it arrived at counts at neither). */
function marks(steps) {
  const left = new Map();
  const arrived = new Map();
  for (const [src, dst] of steps) {
    if (src >= 1 && src <= 24) {
      if (arrived.get(src)) arrived.set(src, arrived.get(src) - 1);
      else left.set(src, (left.get(src) || 0) + 1);
    }
    if (dst >= 1 && dst <= 24) arrived.set(dst, (arrived.get(dst) || 0) + 1);
  }
  return [left, arrived];
}

/** Moves the dragged checker (drawn by :func:`drawBoard` with ``lifted``) to (x, y). */
export function moveGhost(svg, x, y) {
  for (const circle of svg.querySelectorAll("[data-ghost] circle")) {
    circle.setAttribute("cx", x);
    circle.setAttribute("cy", y);
  }
}

/** Slides a checker of ``side`` from ``src`` to ``dst`` (viewer points) over the board. */
export function slide(svg, g, side, src, dst, stackDst) {
  return new Promise((resolve) => {
    const from = src === 25 ? barAt(g, false, 0) : checkerAt(g, src, 0, 1);
    const to = dst === 0 ? checkerAt(g, 0, 0, 1) : checkerAt(g, dst, Math.max(0, stackDst - 1), Math.max(1, stackDst));
    const ghost = checker(svg, g, side, from.x, from.y);
    ghost.classList.add("ghost");
    requestAnimationFrame(() => {
      ghost.style.transform = `translate(${to.x - from.x}px, ${to.y - from.y}px)`;
    });
    setTimeout(() => {
      ghost.remove();
      resolve();
    }, 260);
  });
}

/** A die with pips as an SVG of ``size`` CSS pixels: the face's value drawn as the chat's dice
 * are, not as a digit. */
export function dieFace(value, size) {
  const svg = element("svg", { class: "face", viewBox: "0 0 30 30", width: size, height: size, role: "img", "aria-label": String(value) });
  element("rect", { class: "die-body", x: 1, y: 1, width: 28, height: 28, rx: 6 }, svg);
  const at = { 1: [[15, 15]], 2: [[9, 9], [21, 21]], 3: [[8, 8], [15, 15], [22, 22]], 4: [[9, 9], [21, 9], [9, 21], [21, 21]], 5: [[8, 8], [22, 8], [15, 15], [8, 22], [22, 22]], 6: [[9, 7.5], [21, 7.5], [9, 15], [21, 15], [9, 22.5], [21, 22.5]] };
  for (const [cx, cy] of at[value] || []) element("circle", { class: "pip", cx, cy, r: 2.8 }, svg);
  return svg;
}
