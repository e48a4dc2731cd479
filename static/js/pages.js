// The hall's TV: a long ranking a page at a time ([data-pages]: rows a page), turning by itself;
// a ranking that came anew (live.js) goes on from the page it was on.
const turn = { timer: null, page: 0 };
const EVERY = 8000; // ms a page stays

export function setUpPages(root) {
  const box = root.matches?.("[data-pages]") ? root : root.querySelector("[data-pages]");
  if (!box) return;
  const rows = [...box.querySelectorAll("tbody tr")];
  const size = Number(box.dataset.pages) || rows.length || 1;
  const count = Math.max(1, Math.ceil(rows.length / size));
  const show = () => rows.forEach((row, i) => { row.hidden = Math.floor(i / size) !== turn.page; });
  turn.page %= count;
  show();
  clearInterval(turn.timer);
  turn.timer = count > 1 ? setInterval(() => { turn.page = (turn.page + 1) % count; show(); }, EVERY) : null;
}
