// The fields of an entry form: what a game's form needs, its templates say in data attributes.
import { state, num, visible, tell } from "./state.js";

export function setUpFields(root) {
  // +/- steppers; a group's steppers together never pass data-total
  root.querySelectorAll(".stepper").forEach((box) => {
    const input = box.querySelector("input");
    const step = (by) => {
      const wanted = Math.max(0, Math.min(parseInt(box.dataset.max, 10), num(input) + by));
      const value = capped(box, input, wanted, by > 0);
      if (value < wanted) { refuse(box, value - num(input)); return; }
      put(input, value);
    };
    box.querySelector(".minus").addEventListener("click", () => step(-1));
    box.querySelector(".plus").addEventListener("click", () => step(1));
  });

  // why a tap was refused goes once a count of its group changes: it would no longer be true
  root.querySelectorAll("[data-total]").forEach((group) => {
    const note = group.parentElement.querySelector("[data-over-note]");
    if (note) group.addEventListener("input", () => { note.hidden = true; clearTimeout(note.timer); });
  });

  // a count set by one tap on its number (tricks); the same number again takes it back
  root.querySelectorAll(".tally").forEach((box) => {
    const input = box.querySelector("input[type=number]");
    const counts = box.querySelector(".counts");
    for (let n = counts.children.length + 1; n <= counts.dataset.max; n++) counts.insertAdjacentHTML("beforeend", `<button type="button" data-set="${n}">${n}</button>`);
    const buttons = [...counts.children];
    const show = () => buttons.forEach((b) => b.setAttribute("aria-pressed", String(num(input) === parseInt(b.dataset.set, 10))));
    buttons.forEach((b) => b.addEventListener("click", () => {
      const n = parseInt(b.dataset.set, 10);
      const value = num(input) === n ? 0 : capped(box, input, n, true);
      if (num(input) !== n && value < n) { refuse(box, value); return; }
      put(input, value);
    }));
    input.addEventListener("input", show);
    show();
  });

  // the one field of a [data-fill] group nobody has touched shows what is left of the total
  root.querySelectorAll("[data-fill]").forEach((group) => {
    const total = parseInt(group.dataset.fill, 10);
    const inputs = [...group.querySelectorAll("input[type=number]")];
    inputs.forEach((i) => { if (i.value !== "" && i.value !== "0") i.dataset.touched = "1"; });
    // a form that comes filled and adding up (a correction): its last field follows the others
    if (inputs.length > 1 && inputs.every((i) => i.value !== "")
        && inputs.reduce((s, i) => s + num(i), 0) === total) delete inputs.at(-1).dataset.touched;
    const update = () => {
      const open = inputs.filter((i) => !i.dataset.touched);
      if (open.length !== 1) return;
      const rest = total - inputs.filter((i) => i !== open[0]).reduce((s, i) => s + num(i), 0);
      open[0].value = rest >= 0 || !total ? rest : "";
      open[0].dataset.auto = "1";
    };
    inputs.forEach((i) => i.addEventListener("input", (e) => {
      if (e.isTrusted) i.dataset.touched = "1";
      delete i.dataset.auto;
      update();
    }));
  });

  // data-negate: a tap flips the sign of its field's number (a number pad has no minus)
  root.querySelectorAll("[data-negate]").forEach((b) => {
    const input = b.previousElementSibling;
    b.onmousedown = (e) => e.preventDefault(); // the keypad stays open
    b.onclick = () => { if (input.value) put(input, -num(input)); input.focus(); };
  });

  // a count above 0 ticks the data-plays box (0: unticks); data-check-all ticks the
  // data-player boxes; data-clears unticks its name's
  root.querySelectorAll("[data-plays]").forEach((input) => {
    const box = document.getElementById(input.dataset.plays);
    if (!box) return;
    const tick = () => {
      if (num(input) > 0 && !box.checked) { box.checked = true; box.dataset.ticked = "1"; }
      else if (num(input) === 0 && box.dataset.ticked) { box.checked = false; delete box.dataset.ticked; }
    };
    box.addEventListener("change", () => { delete box.dataset.ticked; });
    input.addEventListener("input", tick);
    tick();
  });
  root.querySelectorAll("[data-check-all]").forEach((button) => button.addEventListener("click", () => {
    button.form.querySelectorAll("input[data-player]").forEach((b) => { b.checked = true; delete b.dataset.ticked; });
    state.typed = true;
  }));
  root.querySelectorAll("[data-clears]").forEach((el) => el.addEventListener("click", () => {
    const other = el.form?.elements[el.dataset.clears];
    if (other && el.checked !== false) other.checked = false;
  }));

  // data-says: where its words are; data-next: move on
  root.querySelectorAll("[data-next]").forEach((out) => {
    let form = out.closest("form"), texts = [], groups = [];
    const say = (e) => {
      const data = new FormData(form);
      out.textContent = texts[groups.map(([names, keys]) => keys[names.map((n) => data.getAll(n).join()).join("|")]).find((i) => i >= 0)] ?? "";
      if (e?.target.type === "radio" && out.dataset.next.split(" ").every((n) => data.get(n))) nextField(form).focus();
    };
    ["input", "change"].forEach((type) => form.addEventListener(type, say));
    if (out.dataset.says) fetch(out.dataset.says).then((a) => a.json()).then((t) => { [texts, groups] = t; say(); }).catch(() => {});
  });

  // keypad: typing replaces the value; a full number moves on; "next"/"go" (the last: saves)
  root.querySelectorAll("form input[type=number]").forEach((input) => {
    const hint = () => input.setAttribute("enterkeyhint", isSave(nextField(input.form, input)) ? "go" : "next");
    hint();
    input.addEventListener("focus", () => { hint(); input.select(); });
    input.addEventListener("input", (e) => {
      if (!e.isTrusted || input.value === "" || document.activeElement !== input) return;
      if (num(input) === 0 || num(input) * 10 > most(input)) moveOn(input);
    });
    input.addEventListener("keydown", (e) => {
      if (e.key !== "Enter") return;
      e.preventDefault();
      const next = nextField(input.form, input);
      if (isSave(next)) input.form.requestSubmit(next);
      else moveOn(input);
    });
  });
}

const isSave = (el) => el?.matches?.("button[type=submit]");

// a number set by a tap: as if typed
function put(input, value) {
  input.value = value;
  input.dataset.touched = "1";
  state.typed = true;
  tell(input, "input");
}

// the most `input` can still take: its max, and what its group's data-total leaves it
function most(input) {
  let max = parseInt(input.max, 10);
  if (Number.isNaN(max)) max = Infinity;
  const group = input.closest("[data-total]");
  return group ? Math.min(max, capped(group, input, Infinity, true)) : max;
}

function moveOn(input) {
  const next = nextField(input.form, input);
  next.focus({ preventScroll: true });
  next.scrollIntoView({ block: "nearest" });
}

// a tap past the group's data-total changes nothing; data-over says why ("{left}": what is free)
function refuse(box, left) {
  const group = box.closest("[data-total]");
  const note = group?.parentElement.querySelector("[data-over-note]");
  if (!note) return;
  note.textContent = group.dataset.over.replace("{left}", Math.max(0, left));
  note.hidden = false;
  clearTimeout(note.timer);
  note.timer = setTimeout(() => { note.hidden = true; }, 4000);
}

// a value for `input` that keeps its group within data-total (only what players entered counts)
function capped(box, input, value, up) {
  const group = box.closest("[data-total]");
  const limit = parseInt(group?.dataset.total || "0", 10);
  if (!limit || !up) return value;
  const others = [...group.querySelectorAll("input[type=number]")]
    .filter((p) => p !== input && !p.dataset.auto).reduce((s, p) => s + num(p), 0);
  return Math.max(0, Math.min(value, limit - others));
}

export function nextField(form, after) {
  const fields = [...form.querySelectorAll("input[type=number]")].filter(visible);
  const rest = after ? fields.slice(fields.indexOf(after) + 1) : fields;
  return rest.find((f) => !f.dataset.auto && (f.value === "" || !f.dataset.touched))
    || form.querySelector("button[type=submit]");
}

// after a save: the next hand's first field, or what the server asks about (a playoff, an error)
export function focusEntry() {
  const section = document.querySelector("[data-entry-forms]");
  if (!section?.querySelector("form")) return;
  const wrong = section.querySelector("[aria-invalid=true], .error:not([hidden])");
  const target = wrong ? (wrong.closest("label, fieldset, .stepper, .tally")?.querySelector("input") || wrong)
    : nextField(section.querySelector("form"));
  if (target?.matches?.("input")) target.focus({ preventScroll: true });
  if (wrong) wrong.scrollIntoView({ block: "center" });
  else window.scrollTo(0, 0); // the slate, the last hand and the form: one screen
}

// a new game's seating order: the order in which players are ticked
export function setUpSeating(root) {
  root.querySelectorAll("[data-seating]").forEach((form) => {
    const order = form.querySelector("textarea[name=order]");
    const dealer = form.querySelector("select[name=first_dealer]");
    const boxes = [...form.querySelectorAll("input[data-seat]")];
    let seq = order.value.split("\n").filter((n) => n && boxes.some((b) => b.value === n && b.checked));
    const render = () => {
      boxes.forEach((b) => {
        const badge = b.parentElement.querySelector(".order");
        const at = seq.indexOf(b.value);
        badge.textContent = at >= 0 ? at + 1 : "";
        badge.hidden = at < 0;
      });
      const unticked = boxes.map((b) => b.value).filter((n) => !seq.includes(n));
      order.value = seq.concat(unticked).join("\n");
      // the picture of the table: seat i gets the i-th tapped name
      form.querySelectorAll("[data-seat-pos]").forEach((seat) => {
        const at = parseInt(seat.dataset.seatPos, 10);
        seat.textContent = seq[at] || String(at + 1);
      });
      if (dealer) {
        const keep = dealer.value;
        dealer.innerHTML = "";
        seq.forEach((n) => dealer.add(new Option(n, n, false, n === keep)));
      }
    };
    boxes.forEach((b) => b.addEventListener("change", () => {
      seq = seq.filter((n) => n !== b.value);
      if (b.checked) seq.push(b.value);
      render();
    }));
    render();
  });
}
