// The table in the hand: few taps per hand, other phones' hands live, hands kept without
// network. Start-up (templates/base.html loads it).
import { state } from "./state.js";
import { setUpFields, setUpSeating, focusEntry } from "./fields.js";
import { setUpPage, refuseBadNumbers } from "./page.js";
import { setUpSending, showWaiting, flush } from "./queue.js";
import { startPolling, keepForms } from "./live.js";
import { holdScreen, setUpWakeLock } from "./screen.js";
import { setUpShare } from "./share.js";

// what a page, or a part of it that came anew, needs
state.onPart = (root) => {
  [setUpFields, setUpSeating, setUpPage, setUpSending, setUpWakeLock, setUpShare].forEach((f) => f(root));
  showWaiting();
};

document.addEventListener("submit", refuseBadNumbers, true); // before the form's own
document.addEventListener("input", (e) => { if (e.isTrusted) state.typed = true; });
document.addEventListener("change", (e) => { if (e.isTrusted) state.typed = true; });
document.addEventListener("visibilitychange", holdScreen);
window.addEventListener("online", flush);
// a module runs once the page is parsed, before DOMContentLoaded
keepForms(document);
state.onPart(document.body);
// a freshly opened table: the cursor waits in the hand's first field (or at what is wrong);
// another form sent back with a mistake (no address of a section): its first one in view
if (document.activeElement === document.body) focusEntry();
if (!document.querySelector("[data-entry-forms]") && !location.hash) document.querySelector(".has-error, form .error")?.scrollIntoView({ block: "center" });
startPolling();
setInterval(flush, 5000);
flush();
if ("serviceWorker" in navigator && document.body.dataset.sw) {
  navigator.serviceWorker.register(document.body.dataset.sw, { scope: "/" }).catch(() => {});
}
