// The share buttons (the invite's links, an evening's result): the phone's share sheet (Web
// Share API) where there is one, else the link is copied and the button says so. A button with
// `data-share-image` shares that picture (an SVG of the app's) as a PNG file where the phone
// can share files, drawn on a canvas here; else its link as above.
export function setUpShare(root) {
  root.querySelectorAll("button[data-share]").forEach((button) => {
    button.hidden = false;
    button.addEventListener("click", async () => {
      const url = button.dataset.share;
      const title = button.dataset.shareTitle;
      if (button.dataset.shareImage && navigator.canShare) {
        try {
          const file = await pngFile(button.dataset.shareImage, button.dataset.shareFile);
          if (navigator.canShare({ files: [file] })) {
            await navigator.share({ files: [file], title });
            return;
          }
        } catch (e) { if (e.name === "AbortError") return; } // else: share the link instead
      }
      if (navigator.share) {
        try { await navigator.share({ title, url }); return; }
        catch (e) { if (e.name === "AbortError") return; } // closed the sheet: nothing to do
      }
      const field = button.parentElement.querySelector("input.link");
      try { await navigator.clipboard.writeText(url); }
      catch { field?.select(); document.execCommand("copy"); }
      button.textContent = button.dataset.copied;
    });
  });
  root.querySelectorAll("button[data-print]").forEach((button) => {
    button.hidden = false;
    button.addEventListener("click", () => window.print());
  });
}

// The picture at `url` (same origin, so the canvas may be read) as a PNG file.
export async function pngFile(url, name) {
  const image = new Image();
  image.src = url;
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = image.naturalWidth;
  canvas.height = image.naturalHeight;
  canvas.getContext("2d").drawImage(image, 0, 0);
  const blob = await new Promise((done) => canvas.toBlob(done, "image/png"));
  return new File([blob], name || "result.png", { type: "image/png" });
}
