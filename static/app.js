// Small helpers for thumbs: steppers, the last score filling itself, seating by taps.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const num = (input) => parseInt(input.value, 10) || 0;

  // +/- steppers; a group's steppers together never pass data-total
  document.querySelectorAll(".stepper").forEach((box) => {
    const input = box.querySelector("input");
    const group = box.dataset.group;
    const peers = () => [...document.querySelectorAll(`.stepper[data-group="${group}"] input`)];
    const total = () => parseInt(box.closest("[data-total]")?.dataset.total || "0", 10);
    const step = (by) => {
      let value = Math.max(0, Math.min(parseInt(box.dataset.max, 10), num(input) + by));
      const limit = total();
      if (limit && by > 0) {
        // a value filled in by itself gives way; only what players entered counts
        const others = peers().filter((p) => p !== input && !p.dataset.auto)
          .reduce((s, p) => s + num(p), 0);
        value = Math.min(value, limit - others);
      }
      input.value = value;
      input.dispatchEvent(new Event("input", { bubbles: true }));
    };
    box.querySelector(".minus").addEventListener("click", () => step(-1));
    box.querySelector(".plus").addEventListener("click", () => step(1));
  });

  // the one field of a [data-fill] group nobody has touched shows what is left of the total
  document.querySelectorAll("[data-fill]").forEach((group) => {
    const total = parseInt(group.dataset.fill, 10);
    const inputs = [...group.querySelectorAll("input[type=number]")];
    inputs.forEach((i) => { if (i.value !== "" && i.value !== "0") i.dataset.touched = "1"; });
    const update = () => {
      const open = inputs.filter((i) => !i.dataset.touched);
      if (open.length !== 1) return;
      const rest = total - inputs.filter((i) => i !== open[0]).reduce((s, i) => s + num(i), 0);
      open[0].value = rest >= 0 ? rest : "";
      open[0].dataset.auto = "1";
    };
    inputs.forEach((i) => i.addEventListener("input", () => {
      i.dataset.touched = "1";
      delete i.dataset.auto;
      update();
    }));
  });

  // a stepper with tricks ticks "plays" for its player
  document.querySelectorAll("[data-plays]").forEach((input) => {
    const tick = () => {
      const box = document.getElementById(input.dataset.plays);
      if (box && num(input) > 0) box.checked = true;
    };
    input.addEventListener("input", tick);
    tick();
  });

  // seating order: the order in which players are ticked
  document.querySelectorAll("[data-seating]").forEach((form) => {
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

  // one tap sends once; a slow network must not tempt a second tap
  document.querySelectorAll("form[data-once]").forEach((form) => {
    form.addEventListener("submit", () => {
      setTimeout(() => form.querySelectorAll("button[type=submit]").forEach((b) => { b.disabled = true; }), 0);
    });
  });

  document.querySelectorAll("[data-confirm]").forEach((el) => {
    el.addEventListener("click", (e) => { if (!confirm(el.dataset.confirm)) e.preventDefault(); });
  });

  // live: a page that shows a table, an evening or the standings polls its version every two
  // seconds (an unchanged one answers 304). When it changed, the page reloads; when the player
  // has typed into a form, only the live part is replaced and a note says so: nothing typed is
  // lost, and a hand entered meanwhile is refused by the server, not recorded twice.
  const live = document.querySelector("[data-live]");
  if (live) {
    let version = live.dataset.version;
    let typed = false;
    document.addEventListener("input", () => { typed = true; });
    document.addEventListener("change", () => { typed = true; });
    const refresh = async () => {
      const page = await fetch(location.href, { cache: "no-store", credentials: "same-origin" });
      if (!page.ok) return;
      const fresh = new DOMParser().parseFromString(await page.text(), "text/html");
      document.querySelectorAll("[data-live-part]").forEach((part) => {
        const next = fresh.querySelector(`[data-live-part="${part.dataset.livePart}"]`);
        if (next) part.replaceWith(next);
      });
      const note = document.querySelector("[data-live-notice]");
      if (note) note.hidden = false;
    };
    const poll = async () => {
      if (document.hidden) return;
      try {
        const answer = await fetch(live.dataset.live, { cache: "no-cache", credentials: "same-origin" });
        if (!answer.ok) return;
        const now = String((await answer.json()).version);
        if (now === version) return;
        version = now;
        if (typed) await refresh();
        else location.reload();
      } catch (e) {
        // no network for a moment: the next poll tries again
      }
    };
    setInterval(poll, 2000);
    document.addEventListener("visibilitychange", poll);
    // back or forward to a page kept in the browser's memory: bring it up to date
    window.addEventListener("pageshow", (e) => { if (e.persisted) poll(); });
  }
});
