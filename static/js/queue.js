// Sending a hand, and the hands that wait on the phone while there is no network.
import { state, setBusy, COUNTERS, visible, newKey, tell, within, submits } from "./state.js";
import { store, allHands, waiting } from "./store.js";
import { nextField, focusEntry } from "./fields.js";
import { show, refresh, putContent, markStale, noteSaved } from "./live.js";

// the table page sends its hands itself; the answer (its content: X-Part) replaces the content
// in place (no page to go back to); without network the hand is kept
export function setUpSending(root) {
  root.querySelectorAll("[data-entry-forms] form").forEach((form) => {
    form.querySelector("input[name=key]").value = newKey();
    // sent untouched too (the server says what is missing), but not as a 2nd tap after a save
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      if (state.typed || Date.now() - state.savedAt > 2000) send(form);
    });
  });
}

async function send(form) {
  const section = form.closest("[data-entry-forms]");
  if (state.busy) return;
  const untouched = !state.typed;
  setBusy(true);
  const fields = [...new FormData(form)].map(([k, v]) => [k, String(v)]);
  let html, url, part;
  try {
    // hands that wait go first: this one waits behind them
    if ((await waiting(section.dataset.table)).some((h) => !h.refused)) throw new Error("queue");
    const answer = await fetch(form.action, { method: "POST", body: new URLSearchParams(fields),
      credentials: "same-origin", headers: { "X-Part": "content" }, signal: within(10000) });
    if (answer.status >= 502) throw new Error("no server");
    [html, url] = [await answer.text(), answer.redirected ? answer.url : null];
    part = answer.headers.get("X-Part") === "content";
  } catch (error) {
    if (untouched) return;
    try {
      await keep(form, section, fields);
      flush();
    } catch (failed) { // not kept either: the form keeps it, and says so
      alert(section.dataset.textUnsaved);
      submits(form, false);
    }
    return;
  } finally {
    setBusy(false);
  }
  // the answer is the page's new content (or what the hand changed in it), else a whole page
  // (a redirect's); a change that does not fit what this page shows: the page is asked for
  if (part && putContent(html)) state.savedAt = Date.now();
  else if (part) { // saved, but not to be put in place: the page is fetched; meanwhile (and if
    // it cannot be) no form to type the next hand into, its number and key are taken
    const note = document.createElement("p");
    note.className = "done";
    note.append(section.dataset.textStale, " ", Object.assign(document.createElement("a"),
      { className: "button wide", href: location.href, textContent: section.dataset.textReload }));
    section.replaceChildren(note);
    noteSaved(html);
    if (await refresh(true).catch(() => false)) { noteSaved(html); state.savedAt = Date.now(); }
    else markStale(); // the next version heard fetches it
  } else show(html, url);
  focusEntry();
}

// a kept hand in the list: its number and what was entered, in the words of the data-labels;
// ticked data-player boxes: who plays; data-switch: no value
function describe(form, seq) {
  const parts = [], players = [], more = [], groups = new Map();
  for (const el of form.elements) {
    const label = el.closest("[data-label]")?.dataset.label;
    if (el.type === "number") {
      const counter = el.closest(COUNTERS); // their 0 is "none", not a score
      if (el.value !== "" && !(el.value === "0" && counter) && (visible(el) || counter)) parts.push(`${label} ${el.value}`);
    } else if (el.hasAttribute("data-player")) {
      if (el.checked) players.push(label);
    } else if (!label || el.hasAttribute("data-switch")) {
      continue;
    } else if (el.type === "radio") {
      if (el.checked && el.value) more.push(`${label}: ${el.value}`);
    } else if (el.type === "checkbox") { // a box alone, or one of its fieldset's
      const group = el.parentElement.closest("[data-label]")?.dataset.label;
      if (!el.checked || !el.dataset.label) continue;
      if (!group) more.push(label);
      else if (groups.has(group)) groups.get(group).push(label);
      else { groups.set(group, [label]); more.push(group); }
    } else if (el.tagName === "SELECT" || (el.type === "text" && el.value.trim())) {
      more.push(`${label}: ${el.selectedOptions?.[0]?.text ?? el.value.trim()}`);
    }
  }
  if (players.length) parts.push(`▶ ${players.join(", ")}`);
  parts.push(...more.map((m) => (groups.has(m) ? `${m}: ${groups.get(m).join(", ")}` : m)));
  return `#${seq}: ${parts.join(" · ")}`;
}

async function keep(form, section, fields) {
  const seq = parseInt(form.querySelector("input[name=seq]").value, 10);
  const hand = { table: section.dataset.table, url: form.action, fields, seq,
    text: describe(form, seq), at: Date.now() };
  await store("readwrite", (s) => s.add(hand));
  // the form is ready for the next hand: a new key, the next entry number
  section.querySelectorAll("form").forEach((f) => {
    f.querySelectorAll("input").forEach((i) => {
      delete i.dataset.touched;
      delete i.dataset.auto;
      if (i.type === "number") i.value = i.closest(COUNTERS) ? "0" : "";
      if (i.type === "checkbox" || (i.type === "radio" && !i.hasAttribute("data-switch"))) i.checked = false;
    });
    f.querySelector("input[name=key]").value = newKey();
    f.querySelector("input[name=seq]").value = seq + 1;
    f.querySelectorAll("input[type=number]").forEach((i) => tell(i, "input"));
    submits(f, false);
  });
  state.typed = false;
  state.savedAt = Date.now();
  await showWaiting();
  nextField(form).focus?.();
}

export async function showWaiting() {
  const box = document.querySelector("[data-waiting]");
  if (!box) return;
  const hands = await waiting(box.dataset.table);
  box.hidden = hands.length === 0;
  const sending = hands.some((h) => !h.refused);
  box.querySelector("[data-waiting-note]").hidden = !sending;
  box.dataset.sending = String(sending); // the form's "hand N, X deals" is not known then
  const list = box.querySelector("[data-waiting-list]");
  list.innerHTML = "";
  hands.forEach((hand) => {
    const item = document.createElement("li");
    item.textContent = hand.text;
    const note = document.createElement("small");
    note.className = hand.refused ? "error" : "muted";
    note.textContent = hand.refused ? `${box.dataset.textRefused}: ${hand.refused}` : box.dataset.textSending;
    item.append(" ", note);
    if (hand.refused) {
      const gone = document.createElement("button");
      gone.type = "button";
      gone.className = "secondary";
      gone.textContent = "✕";
      gone.setAttribute("aria-label", "OK");
      gone.addEventListener("click", async () => { await store("readwrite", (s) => s.delete(hand.id)); showWaiting(); });
      item.append(" ", gone);
    }
    list.append(item);
  });
  const section = document.querySelector("[data-entry-forms]");
  if (!section) return;
  // the form goes on after the hands that wait: their entry numbers come first
  const last = hands.filter((h) => !h.refused).map((h) => h.seq).pop();
  if (last) {
    section.querySelectorAll("input[name=seq]").forEach((i) => { if (parseInt(i.value, 10) <= last) i.value = last + 1; });
    section.querySelectorAll("input[name=key]").forEach((i) => { if (hands.some((h) => h.fields.some(([k, v]) => k === "key" && v === i.value))) i.value = newKey(); });
  }
}

// send what waits, oldest first, with a fresh CSRF token (a lost answer's hand counts once: its
// key); a hand that no longer fits is refused, and its table's later ones with it
export async function flush() {
  // one page of this phone at a time (two open tables must not send a hand twice)
  if (state.flushing) return;
  state.flushing = true;
  try {
    if (navigator.locks) await navigator.locks.request("scorekeeper-flush", { ifAvailable: true }, (lock) => lock && sendWaiting());
    else await sendWaiting();
  } finally {
    state.flushing = false;
  }
}

async function sendWaiting() {
  let sent = false;
  const refusedTables = new Map();
  try {
    for (const hand of await allHands()) {
      if (hand.refused) continue;
      if (refusedTables.has(hand.table)) { // it came after one that was not saved
        const held = document.querySelector("[data-waiting]")?.dataset.textHeld;
        await store("readwrite", (s) => s.put({ ...hand, refused: held || refusedTables.get(hand.table) }));
        continue;
      }
      const page = await fetch(hand.table, { cache: "no-store", credentials: "same-origin", signal: within(10000) });
      if (!page.ok) break; // no server, or this phone is not let in just now: later
      const token = new DOMParser().parseFromString(await page.text(), "text/html")
        .querySelector("input[name=csrf_token]")?.value;
      const body = new URLSearchParams(hand.fields.map(([k, v]) => [k, k === "csrf_token" && token ? token : v]));
      const answer = await fetch(hand.url, { method: "POST", body, credentials: "same-origin",
        headers: { Accept: "application/json" }, signal: within(10000) });
      const result = await answer.json().catch(() => null);
      if (!result) break; // not the app's answer (a proxy's page, an error): it waits on
      if (result.refused) {
        await store("readwrite", (s) => s.put({ ...hand, refused: result.refused }));
        refusedTables.set(hand.table, result.refused);
      } else {
        await store("readwrite", (s) => s.delete(hand.id));
        sent = true;
      }
    }
  } catch (error) {
    // still no network: the next try comes
  }
  await showWaiting();
  // the table as it is now: with the hands sent, or the other phone's that came first
  if ((sent || refusedTables.size) && document.querySelector("[data-entry-forms]")) {
    await refresh(!state.typed).catch(() => {});
  }
}
