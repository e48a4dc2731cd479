// The screen stays on while a table is open (Wake Lock API), unless this phone says no.
import { state } from "./state.js";

const wanted = () => localStorage.getItem("wake-lock") !== "off";

export async function holdScreen() {
  if (state.asking) await state.asking;
  const button = document.querySelector("[data-wake-lock]");
  if (button && wanted() && !document.hidden && !state.lock) {
    state.asking = navigator.wakeLock.request("screen").then((sentinel) => {
      state.lock = sentinel;
      sentinel.addEventListener("release", () => { state.lock = null; });
    }, () => { state.lock = null; }); // refused (battery saver): the toggle shows it is off
    await state.asking;
    state.asking = null;
  } else if ((!button || !wanted()) && state.lock) {
    await state.lock.release();
    state.lock = null;
  }
  const shown = document.querySelector("[data-wake-lock]");
  if (shown) shown.setAttribute("aria-pressed", String(Boolean(state.lock)));
}

export function setUpWakeLock(root) {
  const button = root.querySelector("[data-wake-lock]");
  if (!button || !("wakeLock" in navigator)) return;
  button.hidden = false;
  button.addEventListener("click", () => {
    localStorage.setItem("wake-lock", wanted() ? "off" : "on");
    holdScreen();
  });
  holdScreen();
}
