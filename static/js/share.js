// The invite's share buttons: the phone's share sheet (Web Share API) where there is one, else
// the link is copied and the button says so.
export function setUpShare(root) {
  root.querySelectorAll("button[data-share]").forEach((button) => {
    button.hidden = false;
    button.addEventListener("click", async () => {
      const url = button.dataset.share;
      if (navigator.share) {
        try { await navigator.share({ title: button.dataset.shareTitle, url }); return; }
        catch (e) { if (e.name === "AbortError") return; } // closed the sheet: nothing to do
      }
      const field = button.parentElement.querySelector("input.link");
      try { await navigator.clipboard.writeText(url); }
      catch { field?.select(); document.execCommand("copy"); }
      button.textContent = button.dataset.copied;
    });
  });
}
