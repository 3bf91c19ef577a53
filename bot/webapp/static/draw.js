// The board in SVG, seen from the bottom side: its points 13..24 along the top from the left,
// 12..1 along the bottom, the bar between the halves, the borne-off checkers in the tray on the
// right (the same layout as the bot's pictures). Pure drawing: what to draw comes in.

const NS = "http://www.w3.org/2000/svg";
const EDGE = 6;
const COLUMN = 26;
const BAR = 20;
const HALF = 6 * COLUMN;
const TOP = EDGE;
const BOTTOM = 320 - EDGE;
const MIDDLE = 160;
const RADIUS = 12;
const TRAY_LEFT = EDGE + 2 * HALF + BAR + EDGE;
const TRAY_WIDTH = 28;
const BAR_LEFT = EDGE + HALF;

function column(point) {
  return point >= 13 ? point - 13 : 12 - point;
}

function left(point) {
  const index = column(point);
  return EDGE + index * COLUMN + (index >= 6 ? BAR : 0);
}

function isTop(point) {
  return point >= 13;
}

/** Where checker ``index`` of a stack of ``stack`` on the viewer's ``point`` lies. */
export function checkerAt(point, index, stack) {
  if (point === 25) return barAt(true, index);
  if (point === 0) return { x: TRAY_LEFT + TRAY_WIDTH / 2, y: BOTTOM - 20 };
  const spacing = stack > 6 ? (MIDDLE - TOP - 2 * RADIUS - 4) / (stack - 1) : 2 * RADIUS;
  const x = left(point) + COLUMN / 2;
  const offset = RADIUS + index * spacing;
  return { x, y: isTop(point) ? TOP + offset : BOTTOM - offset };
}

function barAt(bottom, index) {
  const y = bottom ? MIDDLE + 24 + index * 18 : MIDDLE - 24 - index * 18;
  return { x: BAR_LEFT + BAR / 2, y };
}

function element(name, attributes, parent) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

/**
 * Draws ``view`` into ``svg``: {points, bar, off, bottom, top, cube, last, sources, targets,
 * selected, lifted}; every point, the bar (25) and the tray (0) get a hit area with data-point.
 * ``lifted`` ({from, side, x, y}): a checker being dragged, drawn at (x, y) over everything
 * (see :func:`moveGhost`) and no longer on its point ``from``.
 */
export function drawBoard(svg, view) {
  svg.replaceChildren();
  element("rect", { class: "frame", x: 0, y: 0, width: 378, height: 320, rx: 6 }, svg);
  element("rect", { class: "field", x: EDGE, y: TOP, width: HALF, height: BOTTOM - TOP }, svg);
  element("rect", { class: "field", x: BAR_LEFT + BAR, y: TOP, width: HALF, height: BOTTOM - TOP }, svg);
  element("rect", { class: "bar", x: BAR_LEFT, y: TOP, width: BAR, height: BOTTOM - TOP }, svg);
  element("rect", { class: "tray", x: TRAY_LEFT, y: TOP, width: TRAY_WIDTH, height: BOTTOM - TOP, rx: 3 }, svg);
  for (let point = 1; point <= 24; point++) {
    const x = left(point);
    const tip = isTop(point) ? TOP + 128 : BOTTOM - 128;
    const base = isTop(point) ? TOP : BOTTOM;
    const shade = (column(point) + (isTop(point) ? 0 : 1)) % 2 ? "b" : "a";
    element("polygon", {
      class: `tri ${shade}`,
      points: `${x + 1},${base} ${x + COLUMN - 1},${base} ${x + COLUMN / 2},${tip}`,
    }, svg);
  }
  for (const [src, dst] of view.last || []) {
    for (const point of [src, dst]) {
      if (point >= 1 && point <= 24) {
        const y = isTop(point) ? TOP : MIDDLE;
        element("rect", { class: "last", x: left(point) + 1.5, y: y + 1.5, width: COLUMN - 3, height: MIDDLE - TOP - 3, rx: 3 }, svg);
      }
    }
  }
  // the tray: each side's borne-off checkers as slabs, the bottom side's from the bottom
  for (const [side, fromBottom] of [[view.bottom, true], [view.top, false]]) {
    const count = view.off[side] || 0;
    for (let i = 0; i < count; i++) {
      const y = fromBottom ? BOTTOM - 2 - (i + 1) * 6 : TOP + 2 + i * 6;
      element("rect", { class: `slab ${side}`, x: TRAY_LEFT + 3, y, width: TRAY_WIDTH - 6, height: 5, rx: 1.5 }, svg);
    }
  }
  const lifted = view.lifted;
  for (let point = 1; point <= 24; point++) {
    const [side, full] = view.points[point];
    const count = lifted && lifted.from === point ? full - 1 : full;
    if (!side || !count) continue;
    const shown = Math.min(count, 15);
    for (let i = 0; i < shown; i++) {
      const { x, y } = checkerAt(point, i, shown);
      element("circle", { class: `checker ${side}`, cx: x, cy: y, r: RADIUS - 0.5, "data-side": side }, svg);
    }
  }
  for (const [side, fromBottom] of [[view.bottom, true], [view.top, false]]) {
    const count = (view.bar[side] || 0) - (lifted && lifted.from === 25 && side === lifted.side ? 1 : 0);
    for (let i = 0; i < Math.min(count, 4); i++) {
      const { x, y } = barAt(fromBottom, i);
      element("circle", { class: `checker ${side}`, cx: x, cy: y, r: 9, "data-side": side }, svg);
    }
    if (count > 4) {
      const { x, y } = barAt(fromBottom, 3);
      const label = element("text", { class: `count ${side}`, x, y }, svg);
      label.textContent = String(count);
    }
  }
  if (view.cube) {
    const owner = view.cube.owner;
    const y = owner === view.bottom ? BOTTOM - 22 : owner ? TOP + 4 : MIDDLE - 9;
    const group = element("g", { class: "cube" }, svg);
    element("rect", { x: BAR_LEFT + 1, y, width: 18, height: 18, rx: 3 }, group);
    const label = element("text", { x: BAR_LEFT + BAR / 2, y: y + 9 }, group);
    label.textContent = String(view.cube.offered ? view.cube.value * 2 : view.cube.value);
  }
  // hit areas last, over everything: a point, the bar (25), the tray (0)
  const mark = (point) =>
    view.targets.has(point) ? " target" : point === view.selected ? " selected" : view.sources.has(point) ? " source" : "";
  for (let point = 1; point <= 24; point++) {
    const y = isTop(point) ? TOP : MIDDLE;
    element("rect", { class: `hit${mark(point)}`, x: left(point), y, width: COLUMN, height: MIDDLE - TOP, "data-point": point }, svg);
  }
  element("rect", { class: `hit${mark(25)}`, x: BAR_LEFT, y: TOP, width: BAR, height: BOTTOM - TOP, "data-point": 25 }, svg);
  element("rect", { class: `hit${mark(0)}`, x: TRAY_LEFT, y: TOP, width: TRAY_WIDTH, height: BOTTOM - TOP, "data-point": 0 }, svg);
  if (lifted) {
    element("circle", { class: `checker ${lifted.side} dragged`, cx: lifted.x, cy: lifted.y, r: RADIUS + 1, "data-ghost": lifted.from }, svg);
  }
}

/** Moves the dragged checker (drawn by :func:`drawBoard` with ``lifted``) to (x, y). */
export function moveGhost(svg, x, y) {
  const ghost = svg.querySelector("[data-ghost]");
  if (ghost) {
    ghost.setAttribute("cx", x);
    ghost.setAttribute("cy", y);
  }
}

/** Slides a checker of ``side`` from ``src`` to ``dst`` (viewer points) over the board. */
export function slide(svg, side, src, dst, stackDst) {
  return new Promise((resolve) => {
    const from = src === 25 ? barAt(false, 0) : checkerAt(src, 0, 1);
    const to = dst === 0 ? checkerAt(0, 0, 1) : checkerAt(dst, Math.max(0, stackDst - 1), Math.max(1, stackDst));
    const ghost = element("circle", { class: `checker ${side} ghost`, cx: from.x, cy: from.y, r: RADIUS - 0.5 }, svg);
    requestAnimationFrame(() => {
      ghost.style.transform = `translate(${to.x - from.x}px, ${to.y - from.y}px)`;
    });
    setTimeout(() => {
      ghost.remove();
      resolve();
    }, 260);
  });
}
