// A page's forms that send once, its confirmations, its folded forms.
import { state, within, submits, visible } from "./state.js";

export function setUpPage(root) {
  // one tap sends once; a slow network must not tempt a second tap (the table: queue.js)
  root.querySelectorAll("form[data-once]").forEach((form) => {
    if (form.closest("[data-entry-forms]")) return;
    form.addEventListener("submit", () => {
      setTimeout(() => submits(form, true), 0);
    });
  });
  root.querySelectorAll("[data-confirm]").forEach((el) => {
    el.addEventListener("click", (e) => { if (!confirm(el.dataset.confirm)) e.preventDefault(); });
  });
  // the part of a form that belongs to some choices of a select (a tournament's game: its rule
  // options) is shown with those choices only; without the script every part shows
  root.querySelectorAll("select[data-shows]").forEach((select) => {
    const parts = root.querySelectorAll(`[data-shown-by="${select.name}"]`);
    const show = () => parts.forEach((part) => { part.hidden = !part.dataset.choice.split(" ").includes(select.value); });
    select.addEventListener("change", show);
    show();
  });
  // a folded form that is not on the page: loaded when it is opened (without network its
  // link stays, which opens the page with the form)
  root.querySelectorAll("details[data-load]").forEach((fold) => {
    fold.addEventListener("toggle", () => { if (fold.open) unfold(fold); });
  });
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
    state.onPart(fresh);
  } catch (error) {
    delete fold.dataset.loading;
  }
}

// a number field holding what is no number ("4e", which the browser would send empty, as if
// left blank): nothing is sent, the field says so
export function refuseBadNumbers(e) {
  const bad = [...e.target.querySelectorAll("input[type=number]")].find((i) => i.validity.badInput && visible(i));
  if (!bad) return;
  e.preventDefault();
  e.stopImmediatePropagation();
  const field = bad.closest(".field, .stepper") || bad.parentElement;
  field.classList.add("has-error");
  field.querySelector("small.error")?.remove();
  field.insertAdjacentHTML("beforeend", '<small class="error"></small>');
  field.lastElementChild.textContent = document.body.dataset.textNumber;
  bad.focus();
}
