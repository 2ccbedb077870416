// The colour theme, set before the page is drawn: what the reader chose with the toggle
// (kept in localStorage), else what the system prefers. site.js wires the toggle.
"use strict";
(function () {
  let chosen = null;
  try { chosen = localStorage.getItem("umf-theme"); } catch (error) { /* storage off */ }
  const dark = chosen ? chosen === "dark" : window.matchMedia("(prefers-color-scheme: dark)").matches;
  document.documentElement.dataset.theme = dark ? "dark" : "light";
})();
