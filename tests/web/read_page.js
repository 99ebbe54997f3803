// What a person can read on a page, as [text, where] pairs (tests/web/page_words.py): each visible
// element's text (an element of only text and inline marks is one piece), its placeholder, title, label and
// alternative text, and every option of a visible <select>. Elements under `raw` are skipped.
(raw) => {
  const out = [];
  const seen = (el) => !el.closest(raw) && (!el.checkVisibility || el.checkVisibility());
  const inline = new Set(["KBD", "CODE", "WBR", "BR", "B", "STRONG", "EM"]);
  const flat = (el) => Array.from(el.childNodes).every((n) => n.nodeType === 3 || (n.nodeType === 1 && inline.has(n.tagName) && flat(n)));
  const say = (text, where) => { text = (text || "").replace(/\s+/g, " ").trim(); if (text) out.push([text, where]); };
  for (const el of document.body.querySelectorAll("*")) {
    if (["SCRIPT", "STYLE", "SELECT", "OPTION", "DATALIST", "TEMPLATE"].includes(el.tagName) || !seen(el)) continue;
    if (el.parentElement && flat(el.parentElement) && el.parentElement !== document.body) continue;
    if (flat(el)) say(el.textContent, el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (el.className && typeof el.className === "string" ? "." + el.className.split(" ")[0] : ""));
    else for (const n of el.childNodes) if (n.nodeType === 3) say(n.textContent, el.tagName.toLowerCase() + "#" + el.id + " (text)");
    for (const attr of ["placeholder", "title", "aria-label", "alt"]) {
      if (el.hasAttribute(attr)) say(el.getAttribute(attr), el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + "@" + attr);
    }
  }
  for (const select of document.body.querySelectorAll("select")) {
    if (!seen(select)) continue;
    for (const option of select.options) say(option.textContent, "select#" + select.id + " option");
    if (select.title) say(select.title, "select#" + select.id + "@title");
  }
  say(document.title, "title");
  return out;
}
