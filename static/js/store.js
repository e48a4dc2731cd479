// Hands kept without network: IndexedDB, one connection opened once and reused.
let opened = null;

function connect() {
  opened ??= new Promise((resolve, reject) => {
    const request = indexedDB.open("scorekeeper", 1);
    request.onupgradeneeded = () => request.result.createObjectStore("hands", { keyPath: "id", autoIncrement: true });
    request.onerror = () => { opened = null; reject(request.error); };
    request.onsuccess = () => {
      const db = request.result;
      // a newer page upgrades, or the browser closed it: the next use opens it again
      db.onversionchange = () => { db.close(); opened = null; };
      db.onclose = () => { opened = null; };
      resolve(db);
    };
  });
  return opened;
}

export async function store(mode, work) {
  const db = await connect();
  return new Promise((resolve, reject) => {
    const tx = db.transaction("hands", mode);
    const result = work(tx.objectStore("hands"));
    tx.oncomplete = () => resolve(result && result.result);
    tx.onerror = tx.onabort = () => reject(tx.error);
  });
}

export const allHands = () => store("readonly", (s) => s.getAll()).then((hands) => hands || [], () => []);
export const waiting = (table) => allHands().then((hands) => hands.filter((h) => h.table === table));
