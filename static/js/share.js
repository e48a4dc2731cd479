// Share: the share sheet (Web Share API; a data-share-image as a PNG file), else copy the link.
async function png(url, name) {
  const img = new Image();
  img.src = url;
  await img.decode();
  const c = Object.assign(document.createElement("canvas"),
    { width: img.naturalWidth, height: img.naturalHeight });
  c.getContext("2d").drawImage(img, 0, 0);
  return new File([await new Promise((done) => c.toBlob(done))], name, { type: "image/png" });
}

export function setUpShare(root) {
  root.querySelectorAll("button[data-share]").forEach((button) => {
    button.hidden = false;
    button.addEventListener("click", async () => {
      const { share: url, shareTitle: title, shareImage } = button.dataset;
      try {
        const files = shareImage && navigator.canShare ? [await png(shareImage, button.dataset.shareFile)] : [];
        if (files.length && navigator.canShare({ files })) return await navigator.share({ files, title });
        if (navigator.share) return await navigator.share({ title, url });
      } catch (e) { if (e.name === "AbortError") return; }
      const field = button.parentElement.querySelector("input.link");
      try { await navigator.clipboard.writeText(url); }
      catch { field?.select(); document.execCommand("copy"); }
      button.textContent = button.dataset.copied;
    });
  });
  root.querySelectorAll("[data-print]").forEach((b) => { b.hidden = false; b.onclick = () => print(); });
}
