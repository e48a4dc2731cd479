// What the modules share: one state object, a few helpers.
export const state = {
  typed: false, // typed into a form since the page was shown
  savedAt: 0, // when a hand's answer came
  busy: false, // a hand is on its way (and body[data-busy])
  flushing: false, // sending the waiting hands
  lock: null, // the screen's wake lock
  asking: null, // the request for it (one at a time)
  onPart: null, // sets up a part that came anew (main.js)
  forms: null, // the entry forms as they came (live.js keepForms)
};

export function setBusy(on) {
  state.busy = on;
  if (on) document.body.dataset.busy = "1"; // the browser tests wait for it
  else delete document.body.dataset.busy;
}

export const COUNTERS = ".stepper, .tally"; // their 0 is "none", not a score
export const num = (input) => parseInt(input.value, 10) || 0;
export const visible = (el) => el.offsetParent !== null;
export const newKey = () => [...crypto.getRandomValues(new Uint8Array(16))]
  .map((b) => b.toString(16).padStart(2, "0")).join("");
// a form's save buttons off, or on again
export const submits = (form, off) => form.querySelectorAll("button[type=submit]").forEach((b) => { b.disabled = off; });
export const tell = (el, name) => el.dispatchEvent(new Event(name, { bubbles: true }));
// no answer in time counts as no network (Wi-Fi that passes nothing)
export const within = (ms) => { const stop = new AbortController(); setTimeout(() => stop.abort(), ms); return stop.signal; };
