// The board page: connects to the bot, draws each state it is pushed, and lets the player to
// move build a turn from the step tree the server sent (the page knows no rules: it offers
// exactly the tree's steps), then sends the whole turn once with Confirm. It follows its
// players from game to game (a match's next game, a rematch): the state names the game. The
// board fills the room the page leaves it, redrawn when that changes (a phone turned); under
// it a line lists the turns its reader has not seen made (the state's ``recent``), and those
// turns slide over the board as they come.

import {
  applyTheme,
  confirmClosing,
  disableVerticalSwipes,
  initData,
  onEvent,
  postEvent,
  showConfirm,
  startParam,
  themeParams,
} from "./tg.js";
import { dieFace, drawBoard, geometry, moveGhost, slide } from "./draw.js";

const svg = document.getElementById("board");
const diceBox = document.getElementById("dice");
const statusLine = document.getElementById("status");
const controls = document.getElementById("controls");
const lastLine = document.getElementById("last");
const wrap = document.getElementById("board-wrap");
const toastBox = document.getElementById("toast");
const headers = { top: document.getElementById("top"), bottom: document.getElementById("bottom") };

let gameId = (() => {
  const asked = new URLSearchParams(location.search).get("game");
  const start = /^g(\d+)$/.exec(startParam() || "");
  return Number(asked || (start && start[1]) || 0);
})();

let texts = {};
let state = null;
let picked = []; // [src, dst, die] from the turn's start
let selected = null; // the point a checker was picked up from
let waiting = false; // a turn or an action sent, its answer not back yet
let socket = null;
let retries = 0;
let closedForGood = false;
let clockOffset = 0; // server time minus this clock's
let drag = null; // a checker held: {from, id (the pointer), x0, y0, moved, x, y}
let refusal = null; // why the server will not serve this page (it stops reconnecting)
let geo = geometry(wrap.clientWidth, wrap.clientHeight); // the board laid out in its room

const other = (side) => (side === "w" ? "b" : "w");
const t = (key, values = {}) =>
  (texts[key] || key).replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));

// --- the connection --------------------------------------------------------------------------

function connect() {
  const base = location.pathname.replace(/[^/]*$/, "");
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}${base}ws`);
  socket.addEventListener("open", () => {
    socket.send(JSON.stringify({ type: "hello", init: initData(), game: gameId }));
  });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    if (closedForGood) return;
    waiting = false;
    statusLine.textContent = texts.reconnecting || "…";
    document.body.dataset.connected = "no";
    const delay = Math.min(8000, 300 * 2 ** retries++);
    setTimeout(connect, delay);
  });
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify(message));
    return true;
  }
  return false;
}

function receive(message) {
  switch (message.type) {
    case "hello":
      texts = message.texts;
      if (message.lang) document.documentElement.lang = message.lang;
      showPrivacyLink();
      clockOffset = message.now - Date.now() / 1000;
      retries = 0;
      document.body.dataset.connected = "yes";
      break;
    case "state":
      onState(message);
      break;
    case "tree": {
      if (!state || message.version !== state.version) break;
      const node = nodeAt(message.steps);
      if (node) node[1] = message.node[1];
      render();
      break;
    }
    case "refused":
      waiting = false;
      if (message.reason || !state) {
        // the connection itself is refused (forged, expired, closed): trying again is no use
        closedForGood = true;
        refusal = message.text;
        if (message.lang) document.documentElement.lang = message.lang;
        document.body.dataset.refused = message.reason || "yes";
        document.body.dataset.connected = "no";
        statusLine.textContent = message.text;
        if (state) render();
      } else {
        toast(message.text);
        render();
      }
      break;
    case "clock":
      // the move's clock started later than saved (its chat board was shown late)
      if (state && message.game === state.game && message.version === state.version) {
        state.deadline = message.deadline;
        tick();
      }
      break;
    case "hint":
    case "note":
      waiting = false;
      toast(message.text);
      render();
      break;
    case "done":
      break;
  }
}

// --- state and the turn being built ----------------------------------------------------------

function storageKey(version) {
  return `nardy:${gameId}:${version}`;
}

function onState(next) {
  let before = state;
  if (next.game !== gameId) {
    // the players' next game (a match's, a rematch): this board follows it, and a reload
    // opens it
    gameId = next.game;
    before = null;
    try {
      history.replaceState(null, "", `${location.pathname}?game=${gameId}${location.hash}`);
    } catch {
      // an address that cannot change: a reload opens the game before, which leads here
    }
  }
  state = next;
  drag = null;
  waiting = false;
  selected = null;
  picked = [];
  if (next.tree) {
    let kept = null;
    try {
      kept = JSON.parse(sessionStorage.getItem(storageKey(next.version)) || "null");
    } catch {
      kept = null;
    }
    for (const candidate of [kept, next.picked]) {
      if (candidate && candidate.length && nodeAt(candidate)) {
        picked = candidate;
        break;
      }
    }
  }
  render();
  if (before && next.version > before.version) {
    // the turns made since the state before, but the reader's own choice (played here)
    const fresh = next.recent.filter((t) => t.n >= before.plies && (t.side !== next.you || t.auto));
    if (fresh.length) animate(fresh);
  }
}

function nodeAt(steps) {
  let node = state && state.tree;
  for (const [src, dst, die] of steps) {
    if (!node || !node[1]) return null;
    const option = node[1].find((o) => o[0] === src && o[1] === dst && o[2] === die);
    if (!option) return null;
    node = option[4];
  }
  return node;
}

function options() {
  const node = nodeAt(picked);
  return node && node[1] ? node[1] : [];
}

function keep() {
  try {
    sessionStorage.setItem(storageKey(state.version), JSON.stringify(picked));
  } catch {
    // private mode: a reload starts the turn again
  }
}

function play(option) {
  picked = [...picked, [option[0], option[1], option[2]]];
  selected = null;
  keep();
  const node = nodeAt(picked);
  if (node && node[1] === null) send({ type: "expand", version: state.version, steps: picked });
  render();
}

function undo() {
  picked = picked.slice(0, -1);
  selected = null;
  keep();
  render();
}

function confirmTurn() {
  if (send({ type: "turn", version: state.version, steps: picked })) {
    waiting = true;
    try {
      sessionStorage.removeItem(storageKey(state.version));
    } catch {
      // nothing kept
    }
    render();
  }
}

async function act(action, ask, yes) {
  if (ask && !(await showConfirm(ask, yes))) return; // Telegram's own popup
  if (send({ type: "act", version: state.version, action })) {
    waiting = true;
    render();
  }
}

/** The position after the steps picked so far (the mover is drawn at the bottom). */
function position() {
  const points = state.points.map((p) => [...p]);
  const bar = { ...state.bar };
  const off = { ...state.off };
  const pips = { ...state.pips };
  const me = state.turn;
  const node = [];
  let current = state.tree;
  for (const step of picked) {
    const option = current[1].find((o) => o[0] === step[0] && o[1] === step[1] && o[2] === step[2]);
    node.push(option);
    current = option[4];
  }
  for (const [src, dst, , hit] of node) {
    if (src === 25) bar[me] -= 1;
    else {
      points[src][1] -= 1;
      if (!points[src][1]) points[src] = [null, 0];
    }
    pips[me] -= src - dst;
    if (dst === 0) off[me] += 1;
    else {
      if (hit) {
        bar[other(me)] += 1;
        pips[other(me)] += 25 - state.flip[dst];
        points[dst] = [me, 0];
      }
      points[dst] = [me, points[dst][1] + 1];
    }
  }
  return { points, bar, off, pips, steps: node };
}

// --- drawing ---------------------------------------------------------------------------------

function render() {
  if (!state) return;
  const mine = state.tree && state.you === state.turn && !waiting && !closedForGood;
  const now = position();
  const offered = mine ? options() : [];
  const sources = new Set(offered.map((o) => o[0]));
  const targets = new Set(selected === null ? [] : offered.filter((o) => o[0] === selected).map((o) => o[1]));
  const bottom = state.bottom;
  const lastSteps = picked.length ? now.steps.map((o) => [o[0], o[1]]) : state.last.steps;
  geo = geometry(wrap.clientWidth, wrap.clientHeight);
  drawBoard(svg, {
    points: now.points,
    bar: now.bar,
    off: now.off,
    bottom,
    top: other(bottom),
    cube: state.cube,
    last: lastSteps,
    sources,
    targets,
    selected,
    lifted: drag && drag.moved ? { from: drag.from, side: state.turn, x: drag.x, y: drag.y } : null,
  }, geo);
  for (const [place, side] of [["bottom", bottom], ["top", other(bottom)]]) {
    const header = headers[place];
    header.replaceChildren();
    header.className = `player${!state.over && state.to_act === side ? " acting" : ""}`;
    header.dataset.side = side;
    const dot = document.createElement("span");
    dot.className = `dot ${side}`;
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = state.names[side];
    const pips = document.createElement("span");
    pips.className = "pips";
    pips.textContent = `${now.pips[side]} ${t("pips")}`;
    const clock = document.createElement("span");
    clock.className = "clock";
    clock.dataset.clock = !state.over && state.to_act === side ? "1" : "";
    header.append(dot, name, pips, clock);
  }
  drawDice();
  drawLast();
  drawControls(mine);
  if (refusal) statusLine.textContent = refusal;
  else if (state.result) statusLine.textContent = state.result;
  else if (state.you === null) statusLine.textContent = [t("watching"), state.match].filter(Boolean).join(" · ");
  else if (state.to_act === state.you) statusLine.textContent = [t("your_move"), state.match].filter(Boolean).join(" · ");
  else statusLine.textContent = [t("to_move", { name: state.names[state.to_act] }), state.match].filter(Boolean).join(" · ");
  tick();
  document.body.dataset.version = String(state.version);
  document.body.dataset.mine = mine ? "yes" : "no";
  // closing the board halfway through one's own turn asks first (the steps would be lost)
  confirmClosing(Boolean(state.tree && state.you === state.turn && picked.length));
}

function drawDice() {
  diceBox.replaceChildren();
  const values = state.moves.length ? state.moves : state.dice;
  const used = picked.map((p) => p[2]);
  const small = values.length > 4;
  let struck = state.struck;
  for (const value of values) {
    const die = document.createElement("span");
    die.className = `die${small ? " small" : ""}`;
    die.dataset.value = String(value);
    die.appendChild(dieFace(value, small ? 24 : 34));
    const index = used.indexOf(value);
    if (index >= 0) {
      used.splice(index, 1);
      die.classList.add("used");
    } else if (struck === value && !state.moves.length) {
      struck = null;
      die.classList.add("struck");
    }
    diceBox.appendChild(die);
  }
  if (state.label) {
    const label = document.createElement("span");
    label.className = "label";
    label.textContent = state.label;
    diceBox.appendChild(label);
  }
}

/** The turns the reader has not seen made (the opponent's, and their own played for them):
 * what the marks on the board show, in words. */
function drawLast() {
  const turns = state.recent || [];
  lastLine.replaceChildren();
  if (!turns.length) return;
  const moves = turns.map((turn) => turn.text).join(" → ");
  const mark = document.createElement("span");
  mark.className = "mark";
  const words = document.createTextNode(t(turns.length > 1 ? "last_turns" : "last", { moves }));
  lastLine.append(mark, words);
}

function button(text, action, primary = false, enabled = true) {
  const node = document.createElement("button");
  node.type = "button";
  node.textContent = text;
  node.disabled = !enabled || waiting;
  if (primary) node.className = "primary";
  node.addEventListener("click", action);
  controls.appendChild(node);
  node.dataset.action = text;
  return node;
}

function drawControls(mine) {
  controls.replaceChildren();
  if (closedForGood) return;
  if (mine) {
    button(t("undo"), undo, false, picked.length > 0).dataset.action = "undo";
    const node = nodeAt(picked);
    button(t("confirm"), confirmTurn, true, Boolean(node && node[0])).dataset.action = "confirm";
  }
  const cube = state.cube ? state.cube.value * 2 : 2;
  for (const action of state.actions) {
    let made;
    if (action === "roll") made = button(t("roll"), () => act("roll"), true);
    else if (action === "double") made = button(t("double", { value: cube }), () => act("double"));
    else if (action === "take") made = button(t("take", { value: cube }), () => act("take"), true);
    else if (action === "drop") made = button(t("drop"), () => act("drop"));
    else if (action === "hint") made = button(t("hint"), () => act("hint"));
    else if (action === "resign") made = button(t("resign"), () => act("resign", t("resign_ask"), t("resign")));
    else if (action === "next") made = button(t("next"), () => act("next"), true);
    else if (action === "rematch") made = button(t("rematch"), () => act("rematch"), true);
    else if (action.startsWith("strike:")) {
      const value = action.slice(7);
      made = button(t("strike", { value }), () => act(action), true);
    }
    if (made) made.dataset.action = action;
  }
}

function tick() {
  for (const clock of document.querySelectorAll("[data-clock]")) {
    if (!clock.dataset.clock || !state || !state.deadline) {
      clock.textContent = "";
      continue;
    }
    const left = Math.max(0, Math.round(state.deadline - (Date.now() / 1000 + clockOffset)));
    const hours = Math.floor(left / 3600);
    const minutes = Math.floor((left % 3600) / 60);
    const seconds = String(left % 60).padStart(2, "0");
    clock.textContent = hours ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
  }
}

async function animate(turns) {
  const moving = turns.flatMap((turn) => turn.steps.map((step) => [turn.side, step])).slice(-8);
  for (const [side, [src, dst]] of moving) {
    const stack = dst >= 1 && dst <= 24 ? state.points[dst][1] : 1;
    await slide(svg, geo, side, src, dst, stack);
  }
}

let toastTimer = null;
function toast(text) {
  toastBox.textContent = text;
  toastBox.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    toastBox.hidden = true;
  }, 3500);
}

// --- input: tap a checker then a lit point, or drag it there ---------------------------------

function pointUnder(event) {
  const found = document.elementFromPoint(event.clientX, event.clientY);
  const point = found && found.closest && found.closest("[data-point]");
  return point ? Number(point.dataset.point) : null;
}

function offeredFrom(src) {
  return options().filter((o) => o[0] === src);
}

function tapPoint(point) {
  if (!state || !state.tree || state.you !== state.turn || waiting || point === null) return;
  if (selected !== null) {
    const option = offeredFrom(selected).find((o) => o[1] === point);
    if (option) {
      play(option);
      return;
    }
  }
  selected = offeredFrom(point).length ? point : null;
  render();
}

// A press on a checker that may move picks it up (as a tap does); moved further than a few
// pixels, it follows the finger, and let go over a lit point it plays that step. Let go
// anywhere else it goes back, still picked up: a tap on a lit point plays it then.

const DRAG_PIXELS = 6;

function inBoard(event) {
  const matrix = svg.getScreenCTM();
  if (!matrix) return { x: 0, y: 0 };
  const found = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
  return { x: found.x, y: found.y };
}

svg.addEventListener("pointerdown", (event) => {
  const point = pointUnder(event);
  tapPoint(point);
  drag = null;
  if (point !== null && selected === point) {
    drag = { from: point, id: event.pointerId, x0: event.clientX, y0: event.clientY, moved: false };
    try {
      svg.setPointerCapture(event.pointerId);
    } catch {
      // a pointer the browser does not let us hold: taps still work
    }
  }
});

svg.addEventListener("pointermove", (event) => {
  if (!drag || event.pointerId !== drag.id) return;
  if (!drag.moved && Math.hypot(event.clientX - drag.x0, event.clientY - drag.y0) < DRAG_PIXELS) return;
  Object.assign(drag, inBoard(event));
  if (!drag.moved) {
    drag.moved = true;
    render(); // the checker leaves its point
  } else {
    moveGhost(svg, drag.x, drag.y);
  }
});

function endDrag(event, dropped) {
  if (!drag || event.pointerId !== drag.id) return;
  const held = drag;
  drag = null;
  if (!held.moved) return; // a tap: picked up, waiting for a tap on a lit point
  const point = dropped ? pointUnder(event) : null;
  const option = point === null || selected !== held.from ? null : offeredFrom(held.from).find((o) => o[1] === point);
  if (option) play(option);
  else render(); // back to its point, still picked up
}

svg.addEventListener("pointerup", (event) => endDrag(event, true));
svg.addEventListener("pointercancel", (event) => endDrag(event, false));

// --- privacy: a link under the board, and the Settings item of Telegram's menu -------------------

const privacyLink = document.getElementById("privacy");
const privacyText = document.getElementById("privacy-text");

function showPrivacyLink() {
  if (!texts.privacy_text) return;
  privacyLink.textContent = texts.privacy;
  privacyText.textContent = texts.privacy_text;
  privacyLink.hidden = false;
  postEvent("web_app_setup_settings_button", { is_visible: true });
}

function togglePrivacy(open = privacyText.hidden) {
  privacyText.hidden = !open;
  if (open) privacyText.scrollIntoView({ behavior: "smooth", block: "start" });
}

privacyLink.addEventListener("click", (event) => {
  event.preventDefault();
  togglePrivacy();
});
privacyText.addEventListener("click", () => togglePrivacy(false));

// --- start -----------------------------------------------------------------------------------

new ResizeObserver(() => {
  const next = geometry(wrap.clientWidth, wrap.clientHeight);
  if (next.width !== geo.width || next.height !== geo.height) render();
}).observe(wrap);
applyTheme(themeParams());
onEvent((type, data) => {
  if (type === "theme_changed" && data && data.theme_params) {
    applyTheme(data.theme_params);
    render();
  }
  if (type === "settings_button_pressed") togglePrivacy(true);
});
postEvent("web_app_ready");
postEvent("web_app_expand");
disableVerticalSwipes(); // a checker dragged down must not pull the board closed
setInterval(tick, 1000);
window.nardy = {
  state: () => state,
  picked: () => picked,
  options,
  waiting: () => waiting,
  game: () => gameId,
};
connect();
