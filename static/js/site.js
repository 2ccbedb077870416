// The only script of the pages besides htmx (both static files: the CSP allows no inline
// script). It sends the CSRF token with htmx requests and fills the replay form's model
// suggestions for the chosen provider.
"use strict";

document.addEventListener("htmx:configRequest", (event) => {
  const meta = document.querySelector('meta[name="csrf-token"]');
  if (meta) event.detail.headers["X-CSRFToken"] = meta.content;
});

function fillModels(select) {
  const form = select.form;
  const source = document.getElementById("provider-models");
  const list = document.getElementById("replay-models");
  if (!form || !source || !list) return;
  const models = JSON.parse(source.textContent)[select.value] || [];
  list.replaceChildren(...models.map((name) => Object.assign(document.createElement("option"), { value: name })));
  const input = form.elements.namedItem("model");
  if (input && models.length && !models.includes(input.value)) input.value = models[0];
}

document.addEventListener("change", (event) => {
  if (event.target.matches && event.target.matches("select[data-models]")) fillModels(event.target);
});
document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("select[data-models]").forEach(fillModels);
});

// The list's filters fold into a disclosure on phones; on wider screens they start open.
document.addEventListener("DOMContentLoaded", () => {
  if (!window.matchMedia("(min-width: 821px)").matches) return;
  document.querySelectorAll("details.more-filters").forEach((details) => { details.open = true; });
});
