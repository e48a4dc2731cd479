// The table in the hand: few taps per hand, other phones' hands live, hands kept without network.
"use strict";
(() => {
  const num = (input) => parseInt(input.value, 10) || 0;
  const visible = (el) => el.offsetParent !== null;
  const newKey = () => [...crypto.getRandomValues(new Uint8Array(16))]
    .map((b) => b.toString(16).padStart(2, "0")).join("");
  const tell = (el, name) => el.dispatchEvent(new Event(name, { bubbles: true }));
  let typed = false; // the player has typed into a form on this page since it was shown

  // --- the fields of an entry form ------------------------------------------------------------

  function setUpFields(root) {
    // +/- steppers; a group's steppers together never pass data-total
    root.querySelectorAll(".stepper").forEach((box) => {
      const input = box.querySelector("input");
      const step = (by) => {
        input.value = capped(box, input, Math.max(0, Math.min(parseInt(box.dataset.max, 10), num(input) + by)), by > 0);
        input.dataset.touched = "1";
        typed = true;
        tell(input, "input");
      };
      box.querySelector(".minus").addEventListener("click", () => step(-1));
      box.querySelector(".plus").addEventListener("click", () => step(1));
    });

    // a count set by one tap on its number (tricks); the same number again takes it back
    root.querySelectorAll(".tally").forEach((box) => {
      const input = box.querySelector("input[type=number]");
      const buttons = [...box.querySelectorAll("button[data-set]")];
      const show = () => buttons.forEach((b) => b.setAttribute("aria-pressed", String(num(input) === parseInt(b.dataset.set, 10))));
      buttons.forEach((b) => b.addEventListener("click", () => {
        const n = parseInt(b.dataset.set, 10);
        input.value = num(input) === n ? 0 : capped(box, input, n, true);
        input.dataset.touched = "1";
        typed = true;
        tell(input, "input");
      }));
      input.addEventListener("input", show);
      show();
    });

    // the one field of a [data-fill] group nobody has touched shows what is left of the total
    root.querySelectorAll("[data-fill]").forEach((group) => {
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
      inputs.forEach((i) => i.addEventListener("input", (e) => {
        if (e.isTrusted) i.dataset.touched = "1";
        delete i.dataset.auto;
        update();
      }));
    });

    // tricks tick "plays" for their player; "everyone plays" ticks them all
    root.querySelectorAll("[data-plays]").forEach((input) => {
      const tick = () => {
        const box = document.getElementById(input.dataset.plays);
        if (box && num(input) > 0) box.checked = true;
      };
      input.addEventListener("input", tick);
      tick();
    });
    root.querySelectorAll("[data-check-all]").forEach((button) => {
      button.addEventListener("click", () => {
        const form = button.form;
        form.querySelectorAll(`input[type=checkbox][name^="${button.dataset.checkAll}"]`).forEach((b) => { b.checked = true; });
        const nobody = form.querySelector("input[name=nobody]");
        if (nobody) nobody.checked = false;
        typed = true;
      });
    });

    // the numeric keypad: what is there is replaced by what is typed, "next" goes to the next
    // player still to enter, and after the last one to the save button
    root.querySelectorAll("form input[type=number]").forEach((input) => {
      input.setAttribute("enterkeyhint", "next");
      input.addEventListener("focus", () => input.select());
      input.addEventListener("keydown", (e) => {
        if (e.key !== "Enter") return;
        e.preventDefault();
        const next = nextField(input.form, input);
        next.focus({ preventScroll: true });
        next.scrollIntoView({ block: "nearest" });
      });
    });
  }

  // a value for `input` that keeps its group within data-total (a value filled in by itself
  // gives way: only what players entered counts)
  function capped(box, input, value, up) {
    const limit = parseInt(box.closest("[data-total]")?.dataset.total || "0", 10);
    if (!limit || !up) return value;
    const others = [...box.closest("[data-total]").querySelectorAll("input[type=number]")]
      .filter((p) => p !== input && !p.dataset.auto).reduce((s, p) => s + num(p), 0);
    return Math.max(0, Math.min(value, limit - others));
  }

  function nextField(form, after) {
    const fields = [...form.querySelectorAll("input[type=number]")].filter(visible);
    const rest = after ? fields.slice(fields.indexOf(after) + 1) : fields;
    return rest.find((f) => !f.dataset.auto && (f.value === "" || !f.dataset.touched))
      || form.querySelector("button[type=submit]");
  }

  // after a save: the next hand's first field, or what the server asks about (a playoff, an error)
  function focusEntry() {
    const section = document.querySelector("[data-entry-forms]");
    if (!section) return;
    const wrong = section.querySelector("[aria-invalid=true], .error");
    const form = section.querySelector("form");
    const target = wrong ? (wrong.closest("label, fieldset, .stepper, .tally")?.querySelector("input") || wrong) : nextField(form);
    if (target?.matches?.("input")) target.focus({ preventScroll: true });
    if (wrong) wrong.scrollIntoView({ block: "center" });
    else window.scrollTo(0, 0); // the slate, the last hand and the form: one screen
  }

  // --- pages --------------------------------------------------------------------------------

  function setUp(root) {
    setUpFields(root);

    // seating order: the order in which players are ticked
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

    // one tap sends once; a slow network must not tempt a second tap
    root.querySelectorAll("form[data-once]").forEach((form) => {
      if (form.closest("[data-entry-forms]")) return; // see `send`
      form.addEventListener("submit", () => {
        setTimeout(() => form.querySelectorAll("button[type=submit]").forEach((b) => { b.disabled = true; }), 0);
      });
    });

    root.querySelectorAll("[data-confirm]").forEach((el) => {
      el.addEventListener("click", (e) => { if (!confirm(el.dataset.confirm)) e.preventDefault(); });
    });

    // the table page sends its hands itself: the answer replaces the page where it is (no
    // reload, no page in the browser's history to go back to), and without network the hand
    // is kept on the phone
    root.querySelectorAll("[data-entry-forms] form").forEach((form) => {
      form.querySelector("input[name=key]").value = newKey();
      // a 2nd tap: nothing typed, not sent
      form.addEventListener("submit", (e) => { e.preventDefault(); if (typed) send(form); });
    });

    setUpWakeLock(root);
    showWaiting();
  }

  // the page's body becomes that of `html` (the server's answer), as if it had been loaded;
  // the service worker's copy of the page is this one now (static/sw.js keeps it in CACHE)
  const CACHE = "scorekeeper-2";
  function show(html, url) {
    const fresh = new DOMParser().parseFromString(html, "text/html");
    document.title = fresh.title;
    document.body.replaceWith(fresh.body);
    if (url && url !== location.href) history.replaceState(null, "", url);
    typed = false;
    setUp(document.body);
    if (window.caches && navigator.serviceWorker?.controller) {
      caches.open(CACHE).then((cache) => cache.put(location.href,
        new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } }))).catch(() => {});
    }
  }

  // a request that gets no answer in time counts as no network (Wi-Fi that passes nothing)
  const within = (ms) => { const stop = new AbortController(); setTimeout(() => stop.abort(), ms); return stop.signal; };

  async function send(form) {
    const section = form.closest("[data-entry-forms]");
    const body = document.body;
    if (body.dataset.busy) return;
    body.dataset.busy = "1"; // until the answer is shown (the browser tests wait for it)
    const fields = [...new FormData(form)].map(([k, v]) => [k, String(v)]);
    let html, url;
    try {
      // hands that wait go first: this one waits behind them
      if ((await waiting(section.dataset.table)).some((h) => !h.refused)) throw new Error("queue");
      const answer = await fetch(form.action, { method: "POST", body: new URLSearchParams(fields),
        credentials: "same-origin", signal: within(10000) });
      if (answer.status >= 502) throw new Error("no server");
      [html, url] = [await answer.text(), answer.redirected ? answer.url : null];
    } catch (error) {
      try {
        await keep(form, section, fields);
        flush();
      } catch (failed) { // the phone could not keep it: nothing is lost from the form, it says so
        alert(section.dataset.textUnsaved);
        form.querySelectorAll("button[type=submit]").forEach((b) => { b.disabled = false; });
      }
      return;
    } finally {
      delete body.dataset.busy;
    }
    show(html, url);
    focusEntry();
  }

  // --- without network: hands wait on the phone (IndexedDB) -------------------------------------

  const store = (mode, work) => new Promise((resolve, reject) => {
    const opening = indexedDB.open("scorekeeper", 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore("hands", { keyPath: "id", autoIncrement: true });
    opening.onerror = () => reject(opening.error);
    opening.onsuccess = () => {
      try {
        const tx = opening.result.transaction("hands", mode);
        const result = work(tx.objectStore("hands"));
        tx.oncomplete = () => { opening.result.close(); resolve(result && result.result); };
        tx.onerror = tx.onabort = () => { opening.result.close(); reject(tx.error); };
      } catch (error) {
        opening.result.close();
        reject(error);
      }
    };
  });
  const allHands = () => store("readonly", (s) => s.getAll()).then((hands) => hands || [], () => []);
  const waiting = (table) => allHands().then((hands) => hands.filter((h) => h.table === table));

  // what a kept hand shows in the list: its entry number and what was entered
  function describe(form, seq) {
    const text = (el) => (el?.textContent || "").trim();
    const parts = [];
    form.querySelectorAll("input[type=number]").forEach((input) => {
      const counter = input.closest(".stepper, .tally"); // their 0 is "none", not a score
      if (input.value === "" || (input.value === "0" && counter) || !(visible(input) || counter)) return;
      const row = input.closest(".tally, .stepper, label");
      parts.push(`${input.getAttribute("aria-label") || text(row?.querySelector(".who, .chip span, span"))} ${input.value}`);
    });
    const playing = [...form.querySelectorAll("input[type=checkbox][name^='playing-']:checked")]
      .map((box) => text(box.closest("label")));
    if (playing.length) parts.push(`▶ ${playing.join(", ")}`); // who plays (a type-2 hand)
    form.querySelectorAll("input[type=radio]:checked").forEach((input) => {
      if (!input.value || input.name === "mode") return;
      parts.push(input.getAttribute("aria-label") || `${text(input.closest("fieldset")?.querySelector("legend"))} ${input.value}`);
    });
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
        if (i.type === "number") i.value = i.closest(".stepper, .tally") ? "0" : "";
        if (i.type === "checkbox" || (i.type === "radio" && i.name !== "mode")) i.checked = false;
      });
      f.querySelector("input[name=key]").value = newKey();
      f.querySelector("input[name=seq]").value = seq + 1;
      f.querySelectorAll("input[type=number]").forEach((i) => tell(i, "input"));
      f.querySelectorAll("button[type=submit]").forEach((b) => { b.disabled = false; });
    });
    typed = false;
    await showWaiting();
    nextField(form).focus?.();
  }

  async function showWaiting() {
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

  // send what waits, oldest first, each with a fresh CSRF token (it may be hours old). The key
  // makes a hand that arrived before its answer was lost count once; a hand that no longer
  // fits is refused by the server, and the ones of that table after it with it.
  let flushing = false;
  async function flush() {
    // one page of this phone at a time sends (two open tables must not send a hand twice)
    if (flushing) return;
    flushing = true;
    try {
      if (navigator.locks) await navigator.locks.request("scorekeeper-flush", { ifAvailable: true }, (lock) => lock && sendWaiting());
      else await sendWaiting();
    } finally {
      flushing = false;
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
      await refresh(!typed).catch(() => {});
    }
  }

  // --- live: other phones' hands ---------------------------------------------------------------

  // A page that shows a table, an evening or the standings polls its version every two seconds
  // (an unchanged one answers 304). When it changed, the page shows the new one; when the
  // player has typed into a form, only the live parts are replaced and a note says so: nothing
  // typed is lost, and a hand entered meanwhile is refused by the server, not recorded twice.
  async function refresh(whole) {
    const page = await fetch(location.href, { cache: "no-store", credentials: "same-origin" });
    if (!page.ok) return false;
    const html = await page.text();
    if (document.body.dataset.busy) return false; // a hand is on its way: its answer comes first
    if (whole) { show(html); return true; }
    const fresh = new DOMParser().parseFromString(html, "text/html");
    document.querySelectorAll("[data-live-part]").forEach((part) => {
      const next = fresh.querySelector(`[data-live-part="${part.dataset.livePart}"]`);
      if (next) { part.replaceWith(next); setUp(next); }
    });
    const note = document.querySelector("[data-live-notice]");
    if (note) note.hidden = false;
    return true;
  }

  async function poll() {
    const live = document.querySelector("[data-live]");
    if (!live || document.hidden || document.body.dataset.busy) return;
    try {
      const answer = await fetch(live.dataset.live, { cache: "no-cache", credentials: "same-origin" });
      if (!answer.ok) return;
      const now = String((await answer.json()).version);
      if (now !== live.dataset.version && await refresh(!typed)) live.dataset.version = now;
    } catch (e) {
      // no network for a moment: the next poll tries again
    }
  }

  // --- the screen stays on while a table is open ---------------------------------------------

  let lock = null;
  let asking = null; // one request for the lock at a time
  const wanted = () => localStorage.getItem("wake-lock") !== "off";
  async function holdScreen() {
    if (asking) await asking;
    const button = document.querySelector("[data-wake-lock]");
    if (button && wanted() && !document.hidden && !lock) {
      asking = navigator.wakeLock.request("screen").then((sentinel) => {
        lock = sentinel;
        lock.addEventListener("release", () => { lock = null; });
      }, () => { lock = null; }); // refused (battery saver): the toggle shows it is off
      await asking;
      asking = null;
    } else if ((!button || !wanted()) && lock) {
      await lock.release();
      lock = null;
    }
    const shown = document.querySelector("[data-wake-lock]");
    if (shown) shown.setAttribute("aria-pressed", String(Boolean(lock)));
  }
  function setUpWakeLock(root) {
    const button = root.querySelector("[data-wake-lock]");
    if (!button || !("wakeLock" in navigator)) return;
    button.hidden = false;
    button.addEventListener("click", () => {
      localStorage.setItem("wake-lock", wanted() ? "off" : "on");
      holdScreen();
    });
    holdScreen();
  }

  document.addEventListener("input", (e) => { if (e.isTrusted) typed = true; });
  document.addEventListener("change", (e) => { if (e.isTrusted) typed = true; });
  document.addEventListener("DOMContentLoaded", () => {
    setUp(document.body);
    setInterval(poll, 2000);
    setInterval(flush, 5000);
    flush();
    if ("serviceWorker" in navigator && document.body.dataset.sw) {
      navigator.serviceWorker.register(document.body.dataset.sw, { scope: "/" }).catch(() => {});
    }
  });
  window.addEventListener("online", flush);
  document.addEventListener("visibilitychange", () => { poll(); holdScreen(); });
  // back or forward to a page kept in the browser's memory: bring it up to date
  window.addEventListener("pageshow", (e) => { if (e.persisted) poll(); });
})();
