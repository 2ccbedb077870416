// The only script of the pages besides htmx (both static files: the CSP allows no inline
// script). It sends the CSRF token with htmx requests and fills the replay form's model
// suggestions for the chosen provider.
"use strict";

document.addEventListener("htmx:configRequest", (event) => {
  const meta = document.querySelector('meta[name="csrf-token"]');
  if (meta) event.detail.headers["X-CSRFToken"] = meta.content;
});

function fillModels(select, keepTyped = false) {
  const form = select.form;
  const source = document.getElementById("provider-models");
  const list = document.getElementById("replay-models");
  if (!form || !source || !list) return;
  const models = JSON.parse(source.textContent)[select.value] || [];
  list.replaceChildren(...models.map((name) => Object.assign(document.createElement("option"), { value: name })));
  const input = form.elements.namedItem("model");
  // On a change of provider, its first model; on load, what was typed stays (a form shown
  // again after an error keeps its values).
  if (keepTyped && input && input.value) return;
  if (input && models.length && !models.includes(input.value)) input.value = models[0];
}

document.addEventListener("change", (event) => {
  if (event.target.matches && event.target.matches("select[data-models]")) fillModels(event.target);
});
document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("select[data-models]").forEach((select) => fillModels(select, true));
});

// The list's filters fold into a disclosure on phones; on wider screens they start open.
document.addEventListener("DOMContentLoaded", () => {
  if (!window.matchMedia("(min-width: 821px)").matches) return;
  document.querySelectorAll("details.more-filters").forEach((details) => { details.open = true; });
});

// --- Dark mode: the toggle flips the theme theme.js set and remembers the choice; with no
// choice made, the page follows the system's setting as it changes.
function showTheme() {
  const dark = document.documentElement.dataset.theme === "dark";
  document.querySelectorAll("[data-theme-toggle]").forEach((button) => {
    button.setAttribute("aria-pressed", String(dark));
  });
}
document.addEventListener("click", (event) => {
  const button = event.target.closest && event.target.closest("[data-theme-toggle]");
  if (!button) return;
  const next = document.documentElement.dataset.theme === "dark" ? "light" : "dark";
  document.documentElement.dataset.theme = next;
  try { localStorage.setItem("umf-theme", next); } catch (error) { /* storage off */ }
  showTheme();
});
window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", (event) => {
  let chosen = null;
  try { chosen = localStorage.getItem("umf-theme"); } catch (error) { /* storage off */ }
  if (chosen) return;
  document.documentElement.dataset.theme = event.matches ? "dark" : "light";
  showTheme();
});
document.addEventListener("DOMContentLoaded", showTheme);

// --- Copy buttons on messages, code blocks, tool arguments and results. The text copied is
// what the element shows (a message: its content, without its header and buttons).
const COPYABLE = ".msg, .msg pre, .side-col pre, .tool-body pre, .diff-body, .export-preview pre";

function copyText(element) {
  if (element.matches(".msg")) {
    const parts = [...element.children].filter((child) => !child.matches("header, footer, .drift, .copy"));
    return parts.map((part) => part.innerText.trim()).filter(Boolean).join("\n\n");
  }
  return element.innerText;
}

async function writeClipboard(text) {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
  const area = Object.assign(document.createElement("textarea"), { value: text });
  area.setAttribute("readonly", "");
  area.className = "offscreen";
  document.body.append(area);
  area.select();
  document.execCommand("copy");
  area.remove();
  return undefined;
}

function addCopyButtons(root) {
  root.querySelectorAll(COPYABLE).forEach((element) => {
    if (element.dataset.copyReady) return;
    element.dataset.copyReady = "1";
    const what = element.matches(".msg") ? "message" : "text";
    const button = Object.assign(document.createElement("button"), {
      type: "button", className: "copy link", textContent: "Copy",
    });
    button.setAttribute("aria-label", `Copy ${what}`);
    button.addEventListener("click", async () => {
      try {
        await writeClipboard(copyText(element));
        button.textContent = "Copied";
      } catch (error) {
        button.textContent = "Copy failed";
      }
      setTimeout(() => { button.textContent = "Copy"; }, 1500);
    });
    const header = element.matches(".msg") ? element.querySelector(":scope > header") : null;
    if (header) header.append(button);
    else element.before(button);
  });
}
document.addEventListener("DOMContentLoaded", () => addCopyButtons(document));
document.addEventListener("htmx:afterSwap", (event) => addCopyButtons(event.target));

// --- A link to a tool call (or any folded element) opens it: a followed "result of" link
// shows the call with its arguments and result.
function openTarget() {
  if (!location.hash) return;
  let target = null;
  try { target = document.querySelector(decodeURIComponent(location.hash)); } catch (error) { return; }
  for (let node = target; node; node = node.parentElement) {
    if (node.tagName === "DETAILS") node.open = true;
  }
}
window.addEventListener("hashchange", openTarget);
document.addEventListener("DOMContentLoaded", openTarget);

// --- Keyboard: j / k move to the next / previous message, / focuses the search box.
function typing(element) {
  return element && (element.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(element.tagName));
}
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey || typing(document.activeElement)) return;
  if (event.key === "/") {
    const search = document.querySelector("input[type=search], input[name=q]");
    if (search) { event.preventDefault(); search.focus(); search.select(); }
    return;
  }
  if (event.key !== "j" && event.key !== "k") return;
  const messages = [...document.querySelectorAll(".thread .msg")];
  if (!messages.length) return;
  const current = messages.indexOf(document.activeElement.closest && document.activeElement.closest(".msg"));
  let next;
  if (current === -1) {
    // From no message: the first one below the top of the screen (j), or above it (k).
    const below = messages.findIndex((message) => message.getBoundingClientRect().top >= 0);
    next = event.key === "j" ? Math.max(below, 0) : Math.max((below === -1 ? messages.length : below) - 1, 0);
  } else {
    next = Math.min(Math.max(current + (event.key === "j" ? 1 : -1), 0), messages.length - 1);
  }
  const message = messages[next];
  message.setAttribute("tabindex", "-1");
  message.focus({ preventScroll: true });
  message.scrollIntoView({ block: "start", behavior: "smooth" });
  event.preventDefault();
});

// --- An upload shows its progress: the bytes sent, then (on the job's page, which the
// server redirects to) the conversations read. Without this script the form posts as usual.
function uploadWithProgress(form) {
  const file = form.querySelector("input[type=file]");
  if (!file || !file.files.length || !window.FormData) return false;
  const bar = Object.assign(document.createElement("progress"), { className: "upload-progress", max: 1, value: 0 });
  bar.setAttribute("aria-label", "Upload progress");
  const status = Object.assign(document.createElement("p"), { className: "upload-status", role: "status" });
  form.querySelector("button[type=submit]").after(bar, status);
  const request = new XMLHttpRequest();
  request.open("POST", form.action || location.href);
  request.upload.addEventListener("progress", (event) => {
    if (!event.lengthComputable) return;
    bar.max = event.total;
    bar.value = event.loaded;
    const mb = (bytes) => (bytes / 1048576).toFixed(1);
    status.textContent = event.loaded < event.total
      ? `${mb(event.loaded)} of ${mb(event.total)} MB uploaded`
      : "Uploaded: checking the file…";
  });
  request.addEventListener("load", () => {
    if (request.responseURL && new URL(request.responseURL).pathname !== location.pathname) {
      location.assign(request.responseURL); // the job's page: it follows the import
      return;
    }
    // The form again, with the reason the file was refused.
    const page = new DOMParser().parseFromString(request.responseText, "text/html");
    document.querySelector("main").replaceWith(page.querySelector("main"));
  });
  request.addEventListener("error", () => {
    status.textContent = "The upload was interrupted: check the connection and try again.";
  });
  request.send(new FormData(form));
  return true;
}
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (form.id === "upload-form" && uploadWithProgress(form)) event.preventDefault();
});

// --- Bulk selection (the list and the trash): "This page" ticks every row shown; "All that
// match" acts on every conversation the filters match (the server reads the filters, not
// the rows). The count of matches comes with the list's own count.
function showPicked(form) {
  const all = form.querySelector("[data-pick-all]");
  const ticked = form.querySelectorAll('input[name="ids"]:checked').length;
  const label = form.querySelector("[data-picked]");
  if (!label) return;
  if (all && all.checked) {
    const total = form.querySelector("[data-all-count]");
    label.textContent = `all ${total ? total.textContent : ""} that match`.replace("  ", " ");
  } else {
    label.textContent = ticked ? `${ticked} ticked` : "none ticked";
  }
}
document.addEventListener("change", (event) => {
  const form = event.target.closest && event.target.closest("form[data-bulk]");
  if (!form) return;
  if (event.target.matches("[data-pick-page]")) {
    form.querySelectorAll('input[name="ids"]').forEach((box) => { box.checked = event.target.checked; });
  }
  showPicked(form);
});
document.addEventListener("htmx:afterSettle", () => {
  const total = document.querySelector(".list-meta .total");
  const count = document.querySelector("[data-all-count]");
  if (total && count) {
    count.textContent = total.dataset.total || "";
    document.querySelectorAll("form[data-bulk]").forEach(showPicked);
  }
});
