// The page of chinese-poker serve: deal or paste a round, settle it, draw it. Plain JavaScript, no build
// step; every number shown comes from the service's /v1 endpoints.
"use strict";

const $ = (id) => document.getElementById(id);
const SUITS = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };
const ROWS = ["front", "middle", "back"];

// An element with a class and text (textContent only: nothing from the server is parsed as HTML).
function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = String(text);
  return node;
}

function signed(value) {
  return value > 0 ? "+" + value : String(value);
}

async function call(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.body = typeof body === "string" ? body : JSON.stringify(body);
    options.headers["Content-Type"] = "application/json";
  }
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) {
    const error = data && data.error ? data.error : { message: response.statusText };
    throw new Error(`${response.status}: ${error.message}`);
  }
  return data;
}

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

function setStatus(text) {
  $("status").textContent = text;
}

// A row of cards ("As Kd Th") drawn as cards.
function drawCards(text) {
  const row = el("div", "cards");
  for (const card of text.split(/\s+/).filter(Boolean)) {
    const rank = card.slice(0, -1);
    const suit = card.slice(-1).toLowerCase();
    const node = el("div", "card" + (suit === "h" || suit === "d" ? " red" : ""));
    node.title = card;
    node.append(el("span", "rank", rank), el("span", "suit", SUITS[suit] || suit));
    row.append(node);
  }
  return row;
}

function drawRows(rows) {
  const box = el("div", "rows");
  for (const name of ROWS) {
    const row = rows[name];
    const line = el("div", "row");
    const royalty = row.royalty ? ` (royalty ${row.royalty})` : "";
    line.append(el("span", "row-label", name), drawCards(row.cards), el("span", "row-text", row.text + royalty));
    box.append(line);
  }
  return box;
}

function drawSeat(player) {
  const seat = el("div", "seat");
  seat.dataset.player = String(player.index);
  if (player.foul) seat.classList.add("foul");
  if (player.natural) seat.classList.add("natural");
  const head = el("div", "seat-head");
  const name = el("span", "seat-name", player.name);
  if (player.foul) name.append(el("span", "badge foul", "FOUL"));
  if (player.natural) name.append(el("span", "badge natural", "natural: " + player.natural.replace(/_/g, " ")));
  if (player.surrendered) name.append(el("span", "badge other", "surrendered"));
  if (player.home_run) name.append(el("span", "badge other", "home run"));
  const net = el("span", "net net-value " + (player.net > 0 ? "plus" : player.net < 0 ? "minus" : ""), signed(player.net));
  head.append(name, net);
  seat.append(head);
  if (player.rows) {
    seat.append(drawRows(player.rows));
  } else if (player.declared) {
    const line = el("div", "row");
    line.append(el("span", "row-label", "declared"), drawCards(player.declared));
    seat.append(line);
  }
  return seat;
}

function rowWinner(value, a, b) {
  return value > 0 ? a : value < 0 ? b : "tie";
}

function drawPairs(result) {
  const body = $("pairs").querySelector("tbody");
  body.replaceChildren();
  const names = result.players.map((p) => p.name);
  for (const pair of result.pairs) {
    const a = names[pair.i];
    const b = names[pair.j];
    const tr = el("tr");
    tr.append(el("td", "", `${a} v ${b}`));
    for (let k = 0; k < 3; k++) {
      tr.append(el("td", "", pair.rows ? rowWinner(pair.rows[k], a, b) : "\u2014"));
    }
    tr.append(el("td", "", pair.decided_by));
    tr.append(el("td", "", signed(pair.royalty_units)));
    tr.append(el("td", "", pair.scoop ? rowWinner(pair.scoop, a, b) : "\u2014"));
    tr.append(el("td", "", pair.stake));
    tr.append(el("td", "units", signed(pair.units)));
    body.append(tr);
  }
}

function drawResult(result) {
  $("seats").replaceChildren(...result.players.map(drawSeat));
  const rules = typeof result.rules === "string" ? result.rules : "custom rules";
  $("rules-used").textContent = `round ${JSON.stringify(result.id)}, ${rules}`;
  drawPairs(result);
  $("explain").textContent = result.explain || "";
  $("result").hidden = false;
  document.body.dataset.settled = String(result.id);
}

// The most players a round of a preset seats: 4, one more per suit its pack adds (RULES.md 1.1), read from
// the preset's knobs once.
const mostPlayersOf = new Map();

async function mostPlayers(preset) {
  if (!mostPlayersOf.has(preset)) {
    const knobs = await call("GET", "/v1/rules/" + encodeURIComponent(preset));
    mostPlayersOf.set(preset, 4 + knobs.extra_suits.length);
  }
  return mostPlayersOf.get(preset);
}

// Offer 2 to the most players the chosen rules seat; keep `wanted` (else the current choice) when it is
// one of them, else 4. Returns the most.
async function offerPlayers(wanted) {
  const most = await mostPlayers($("rules").value);
  const select = $("players");
  const keep = Number(wanted === undefined ? select.value : wanted);
  select.replaceChildren();
  for (let count = 2; count <= most; count++) {
    const option = el("option", "", count);
    option.value = String(count);
    select.append(option);
  }
  select.value = String(Number.isInteger(keep) && keep >= 2 && keep <= most ? keep : Math.min(4, most));
  return most;
}

// Show (and put in the address bar) the link that opens the page on the round just dealt; hide it for a
// round that was not dealt here.
function showLink(dealt) {
  const link = $("link");
  if (!dealt) {
    link.hidden = true;
    return;
  }
  link.href = "/?" + new URLSearchParams(dealt).toString();
  link.hidden = false;
  window.history.replaceState(null, "", link.href);
}

async function settle() {
  showError("");
  setStatus("settling\u2026");
  try {
    const result = await call("POST", "/v1/settle?explain=true", $("round").value);
    drawResult(result);
    setStatus("settled");
    return result;
  } catch (error) {
    setStatus("");
    showError(error.message);
    throw error;
  }
}

async function deal() {
  showError("");
  // Without a seed, one is drawn here, so that the link shown opens this very round.
  const seed = $("seed").value !== "" ? $("seed").value : String(Math.floor(Math.random() * 1e6));
  const dealt = { rules: $("rules").value, players: $("players").value, seed };
  setStatus("dealing\u2026");
  try {
    const round = await call("GET", "/v1/deal?" + new URLSearchParams(dealt).toString());
    $("round").value = JSON.stringify(round, null, 2);
  } catch (error) {
    setStatus("");
    showError(error.message);
    throw error;
  }
  const result = await settle();
  showLink(dealt);
  return result;
}

async function arrangeHand() {
  const box = $("arrange-result");
  box.replaceChildren();
  showError("");
  try {
    const body = { cards: $("arrange-cards").value, rules: $("rules").value, strategy: $("strategy").value };
    const answer = await call("POST", "/v1/arrange", body);
    const seat = el("div", "seat");
    const head = el("div", "seat-head");
    head.append(
      el("span", "seat-name", `${answer.strategy}: ${answer.expected_units.toFixed(2)} expected units v ${answer.opponents}`),
      el("span", "net", answer.declare ? "declare " + answer.declare.replace(/_/g, " ") : ""),
    );
    seat.append(head, drawRows(answer.rows));
    box.append(seat);
  } catch (error) {
    showError(error.message);
  }
}

async function start() {
  try {
    const [presets, version] = await Promise.all([call("GET", "/v1/rules"), call("GET", "/v1/version")]);
    const select = $("rules");
    for (const preset of presets.presets) {
      const option = el("option", "", preset.name);
      option.value = preset.name;
      option.title = preset.description;
      select.append(option);
    }
    select.value = presets.default;
    $("engine").textContent = `${version.engine.name} ${version.engine.version}`;
  } catch (error) {
    showError(error.message);
  }
  $("deal").addEventListener("click", () => deal().catch(() => {}));
  $("settle").addEventListener("click", () => {
    showLink(null);
    settle().catch(() => {});
  });
  $("arrange").addEventListener("click", arrangeHand);
  $("rules").addEventListener("change", () => offerPlayers().catch((error) => showError(error.message)));
  // A link such as /?seed=7&players=4&rules=pagat shows that round.
  const params = new URLSearchParams(window.location.search);
  try {
    await openLink(params);
  } catch (error) {
    showError(error.message);
  }
  document.body.dataset.ready = "true";
}

// The rules and players of a link, checked against what the page offers (a clear message, never a
// request the service refuses), then its round dealt when it names a seed.
async function openLink(params) {
  if (params.has("rules")) {
    const name = params.get("rules");
    if (![...$("rules").options].some((option) => option.value === name)) {
      throw new Error(`the link's rules ${JSON.stringify(name)} are not a preset of this service`);
    }
    $("rules").value = name;
  }
  const wanted = params.has("players") ? params.get("players") : undefined;
  const most = await offerPlayers(wanted);
  if (wanted !== undefined && $("players").value !== wanted) {
    throw new Error(
      `the link's players ${JSON.stringify(wanted)}: ${$("rules").value} seats 2 to ${most} players`,
    );
  }
  if (params.has("seed")) {
    $("seed").value = params.get("seed");
    await deal();
  }
}

start();
