// Live: a stream brings each new version (the current one first), else a poll every 2 s; not
// with the screen off. Once typed: live parts (not one typed in) and a note. After another
// phone's hand the stream brings the table's new content itself ("part"), put in place as if
// fetched; a version missed in between, and the page is fetched.
import { state } from "./state.js";

const stream = { source: null, url: null, open: false, missed: false };
const liveBox = () => document.querySelector("[data-live]");

// the page's body becomes that of `html`; the service worker keeps it
export function show(html, url) {
  const fresh = new DOMParser().parseFromString(html, "text/html");
  keepForms(fresh);
  document.title = fresh.title;
  document.body.replaceWith(fresh.body);
  if (url && url !== location.href) history.replaceState(null, "", url);
  state.typed = false;
  state.onPart(document.body);
  navigator.serviceWorker?.controller?.postMessage({ keep: location.href, html });
}

export async function refresh(whole) {
  const page = await fetch(location.href, { cache: "no-store", credentials: "same-origin" });
  if (!page.ok || page.headers.has("X-Kept")) return false; // the worker's copy: no answer
  const html = await page.text();
  if (state.busy) return false; // a hand is on its way: its answer comes first
  if (whole) { show(html); return true; }
  patch(new DOMParser().parseFromString(html, "text/html"));
  return true;
}

// the live parts of `fresh` in place of the page's (not one typed in), and the note
function patch(fresh) {
  document.querySelectorAll("[data-live-part]").forEach((part) => {
    const next = fresh.querySelector(`[data-live-part="${part.dataset.livePart}"]`);
    if (next && ![...part.querySelectorAll("input")].some((f) => f.value != f.defaultValue)) { part.replaceWith(next); state.onPart(next); }
  });
  const note = document.querySelector("[data-live-notice]");
  if (note) note.hidden = false;
}

// the page no longer shows its table as it is: the next version heard fetches it whole
export function markStale() {
  const live = liveBox();
  if (live) live.dataset.version = "-1";
  state.typed = false;
}

// the "saved" of a hand's answer `html` above the table (a page fetched after it has none)
export function noteSaved(html) {
  const saved = new DOMParser().parseFromString(html, "text/html").querySelector(".saved");
  const heading = document.querySelector("[data-table-part] h1");
  if (!saved || !heading) return;
  heading.querySelectorAll(".saved").forEach((el) => el.remove());
  heading.append(saved);
}

// the entry forms as they came (nothing typed or set up): a change (below) empties them so
export function keepForms(root) {
  state.forms = root.querySelector("[data-entry-forms]")?.outerHTML ?? null;
}

// A table's content after a hand (`html`: the same for every phone, without a CSRF token):
// in place of the page's, with this phone's token; the service worker keeps the page. Another
// phone's (`theirs`): without its "saved", and only the live parts once something is typed.
// False if `html` is no table's content, or a change that does not follow the page's.
export function putContent(html, theirs) {
  const fresh = new DOMParser().parseFromString(html, "text/html");
  const change = fresh.querySelector("[data-table-change]");
  if (change) return putChange(change, theirs);
  const content = fresh.querySelector("[data-table-part]");
  const old = document.querySelector("[data-table-part]");
  if (!content || !old) return false;
  const token = document.querySelector("meta[name=csrf-token]")?.content || old.querySelector("input[name=csrf_token]")?.value;
  if (token) content.querySelectorAll("input[name=csrf_token]").forEach((i) => { i.value ||= token; });
  if (theirs) content.querySelectorAll(".saved").forEach((el) => el.remove());
  if (theirs && state.typed) { patch(content); return true; }
  keepForms(content);
  old.replaceWith(content);
  return shown([content]);
}

// what a hand changed (templates/games/_change.html) in place, on the version before with the
// same forms: these emptied for the next hand (not while another phone's hand meets typing)
function putChange(change, theirs) {
  const old = document.querySelector("[data-table-part]");
  const section = old?.querySelector("[data-entry-forms]");
  // the list's rows left empty: this page's own
  const rows = [...change.querySelectorAll("tr[data-row]:empty")];
  const kept = rows.map((row) => old?.querySelector(`[data-change=${row.closest("[data-change]").dataset.change}] tr[data-row="${row.dataset.row}"]`));
  if (!state.forms || liveBox()?.dataset.version !== change.dataset.from || section?.dataset.drawn !== change.dataset.forms || !kept.every(Boolean)) return false;
  rows.forEach((row, i) => row.replaceWith(kept[i]));
  old.querySelectorAll(".saved").forEach((el) => el.remove());
  if (!theirs) old.querySelector("h1").append(change.querySelector(".saved"));
  const typed = theirs && state.typed, parts = [];
  if (!typed) {
    const forms = new DOMParser().parseFromString(state.forms, "text/html").body;
    forms.querySelectorAll("input[name=seq]").forEach((i) => { i.value = change.dataset.seq; });
    forms.querySelector("[data-change=head]").replaceWith(change.querySelector("[data-change=head]"));
    keepForms(forms);
    parts.push(forms.firstElementChild);
    section.replaceWith(parts[0]);
  }
  change.querySelectorAll("[data-change]:not([data-change=head])").forEach((part) => {
    old.querySelector(`[data-change="${part.dataset.change}"]`).replaceWith(part);
    parts.push(part);
  });
  document.querySelector("[data-live-notice]").hidden = !typed;
  if (typed) { parts.forEach(state.onPart); return true; }
  return shown(parts);
}

// a table's content (or its `parts`) shown anew: set up, kept by the service worker
function shown(parts) {
  state.typed = false;
  parts.forEach((part) => state.onPart(part));
  navigator.serviceWorker?.controller?.postMessage({ keep: location.href,
    html: `<!doctype html>\n${document.documentElement.outerHTML}` });
  return true;
}

// another phone's hand (`version`): its content in place if it follows the version shown,
// else the page is asked for
async function arrivedPart({ version, html }) {
  const shown = Number(liveBox()?.dataset.version);
  if (version <= shown) return;
  if (version !== shown + 1 || document.hidden || state.busy || !putContent(html, true)) await arrived(String(version));
}

// `now`: the newest version; shown: back from memory (may still say hidden)
async function arrived(now, shown) {
  const live = liveBox();
  stream.missed = (document.hidden && shown !== true) || state.busy;
  if (!live || stream.missed) return;
  if (now !== live.dataset.version && await refresh(!state.typed)) live.dataset.version = now;
}

// one question at a time: what comes meanwhile asks once more when it is answered (the hall's
// TV hears of every table's hands)
const asking = { now: null, again: false };
function poll(shown) {
  if (asking.now) { asking.again = true; return asking.now; }
  asking.now = ask(shown).finally(() => {
    asking.now = null;
    if (asking.again) { asking.again = false; poll(); }
  });
  return asking.now;
}

async function ask(shown) {
  const live = liveBox();
  if (!live || (document.hidden && shown !== true) || state.busy) return;
  try {
    const answer = await fetch(live.dataset.live, { cache: "no-cache", credentials: "same-origin" });
    if (answer.ok) await arrived(String((await answer.json()).version), shown);
  } catch (e) { /* no network: the next poll tries again */ }
}

// a stream for the page's version URL
function listen(off) {
  const live = liveBox();
  const url = live && !off && window.EventSource ? `${live.dataset.live}/stream` : null;
  if (url === stream.url) return;
  stream.source?.close();
  Object.assign(stream, { source: null, url, open: false });
  if (!url) return;
  const source = stream.source = new EventSource(url);
  // a version, or "?" (a group's page): ask for it
  source.onmessage = (e) => { stream.open = true; if (e.data === "?") poll(); else arrived(e.data); };
  source.addEventListener("part", (e) => { stream.open = true; arrivedPart(JSON.parse(e.data)); });
  source.onerror = () => { // the browser reopens it, unless refused (204): we retry in 1 min
    stream.open = false;
    if (source.readyState === EventSource.CLOSED) setTimeout(() => { if (stream.source === source) stream.url = null; }, 60000);
  };
}

export function startPolling() {
  listen();
  setInterval(() => { listen(); if (!stream.open || stream.missed) poll(); }, 2000);
  document.addEventListener("visibilitychange", () => poll());
  window.addEventListener("pagehide", (e) => { if (e.persisted) listen(true); });
  window.addEventListener("pageshow", (e) => { if (e.persisted) { listen(); poll(true); } });
}
