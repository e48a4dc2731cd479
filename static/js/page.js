// What a page, or a part of it that came anew, needs.
import { setUpFields, setUpSeating } from "./fields.js";
import { setUpSending, showWaiting } from "./queue.js";
import { setUpWakeLock } from "./screen.js";
import { setUpShare } from "./share.js";

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
  setUpSending(root);
  setUpWakeLock(root);
  setUpShare(root);
  showWaiting();
}
