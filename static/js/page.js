// What a page, or a part of it that came anew, needs.
import { setUpFields, setUpSeating } from "./fields.js";
import { setUpSending, showWaiting } from "./queue.js";
import { setUpWakeLock } from "./screen.js";
import { setUpShare } from "./share.js";
import { within } from "./state.js";

export function setUp(root) {
  setUpFields(root);
  setUpSeating(root);
  // one tap sends once; a slow network must not tempt a second tap (the table: queue.js)
  root.querySelectorAll("form[data-once]").forEach((form) => {
    if (form.closest("[data-entry-forms]")) return;
    form.addEventListener("submit", () => {
      setTimeout(() => form.querySelectorAll("button[type=submit]").forEach((b) => { b.disabled = true; }), 0);
    });
  });
  root.querySelectorAll("[data-confirm]").forEach((el) => {
    el.addEventListener("click", (e) => { if (!confirm(el.dataset.confirm)) e.preventDefault(); });
  });
  // a folded form that is not on the page: loaded when it is opened (without network its
  // link stays, which opens the page with the form)
  root.querySelectorAll("details[data-load]").forEach((fold) => {
    fold.addEventListener("toggle", () => { if (fold.open) unfold(fold); });
  });
  setUpSending(root);
  setUpWakeLock(root);
  setUpShare(root);
  showWaiting();
}

async function unfold(fold) {
  if (fold.dataset.loading) return;
  fold.dataset.loading = "1";
  try {
    const answer = await fetch(fold.dataset.load, { credentials: "same-origin", signal: within(10000) });
    const fresh = answer.ok && new DOMParser().parseFromString(await answer.text(), "text/html")
      .querySelector("details");
    if (!fresh) throw new Error("not the form");
    fold.replaceWith(fresh);
    setUp(fresh);
  } catch (error) {
    delete fold.dataset.loading;
  }
}
