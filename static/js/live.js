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
  document.title = fresh.title;
  document.body.replaceWith(fresh.body);
  if (url && url !== location.href) history.replaceState(null, "", url);
  state.typed = false;
  state.onPart(document.body);
  navigator.serviceWorker?.controller?.postMessage({ keep: location.href, html });
}

export async function refresh(whole) {
  const page = await fetch(location.href, { cache: "no-store", credentials: "same-origin" });
  if (!page.ok) return false;
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

// A table's content after a hand (`html`: the same for every phone, without a CSRF token):
// in place of the page's, with this phone's token; the service worker keeps the page. Another
// phone's (`theirs`): without its "saved", and only the live parts once something is typed.
// False if `html` is no table's content.
export function putContent(html, theirs) {
  const content = new DOMParser().parseFromString(html, "text/html").querySelector("[data-table-part]");
  const old = document.querySelector("[data-table-part]");
  if (!content || !old) return false;
  const token = document.querySelector("meta[name=csrf-token]")?.content || old.querySelector("input[name=csrf_token]")?.value;
  if (token) content.querySelectorAll("input[name=csrf_token]").forEach((i) => { i.value ||= token; });
  if (theirs) content.querySelectorAll(".saved").forEach((el) => el.remove());
  if (theirs && state.typed) { patch(content); return true; }
  old.replaceWith(content);
  state.typed = false;
  state.onPart(content);
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
