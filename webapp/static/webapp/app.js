/* Appenda web app: the little behaviour the pages need on top of htmx.
   - confirmation dialogs for forms marked data-confirm (works with and without htmx);
   - toasts: from the server-rendered list and from the "appenda:toast" event (HX-Trigger),
     with an Undo button that posts to the API's undo endpoint for the change set;
   - focus: after a swap, focus goes where the action said (data-focus-after) or to the list,
     never lost on <body>;
   - a confirmed form whose chosen option downloads a file (data-download-choice) reloads after;
   - a tab row that scrolls starts with its current tab in view.
   No inline script anywhere: the Content-Security-Policy allows scripts from 'self' only. */
(function () {
  "use strict";

  const TOAST_MS = { ok: 10000, error: 20000 };

  function csrfToken() {
    const meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.content : "";
  }

  /* --- Toasts ---------------------------------------------------------------------------- */

  function scheduleDismiss(toast, kind) {
    const wait = TOAST_MS[kind] || TOAST_MS.ok;
    const tick = () => {
      // Keep it while the person is on it (keyboard focus or pointer).
      if (toast.matches(":focus-within, :hover")) {
        toast.timer = window.setTimeout(tick, 2000);
      } else {
        toast.remove();
      }
    };
    toast.timer = window.setTimeout(tick, wait);
  }

  function showToast(detail) {
    const region = document.getElementById("toasts");
    if (!region || !detail || !detail.message) return;
    const kind = detail.kind === "error" ? "error" : "ok";
    const toast = document.createElement("div");
    toast.className = "toast toast--" + kind;
    const message = document.createElement("p");
    message.className = "toast-message";
    message.textContent = detail.message;
    toast.appendChild(message);
    if (detail.link && detail.link.href) {
      const link = document.createElement("a");
      link.className = "toast-link";
      link.href = detail.link.href;
      link.textContent = detail.link.label || "Open";
      toast.appendChild(link);
    }
    if (detail.undo) {
      const undo = document.createElement("button");
      undo.type = "button";
      undo.className = "btn btn--small";
      undo.dataset.undoUrl = detail.undo;
      undo.textContent = "Undo";
      toast.appendChild(undo);
    }
    const close = document.createElement("button");
    close.type = "button";
    close.className = "toast-close";
    close.setAttribute("aria-label", "Dismiss");
    close.textContent = "\u00d7";
    toast.appendChild(close);
    region.appendChild(toast);
    scheduleDismiss(toast, kind);
  }

  function refreshList() {
    const list = document.getElementById("notes-list");
    if (list && window.htmx) {
      window.htmx.ajax("GET", window.location.href, { target: "#notes-list", swap: "outerHTML" });
    } else {
      window.location.reload();
    }
  }

  async function undo(button) {
    const toast = button.closest(".toast");
    button.disabled = true;
    let response;
    try {
      response = await fetch(button.dataset.undoUrl, {
        method: "POST",
        credentials: "same-origin",
        headers: { "X-CSRFToken": csrfToken(), Accept: "application/json" },
      });
    } catch (error) {
      button.disabled = false;
      showToast({ message: "Could not reach the server to undo. Try again.", kind: "error" });
      return;
    }
    if (toast) toast.remove();
    if (response.ok) {
      showToast({ message: "Undone.", kind: "ok" });
      refreshList();
      return;
    }
    let detail = "";
    try {
      detail = (await response.json()).detail || "";
    } catch (error) {
      detail = "";
    }
    // A later change stands in the way (409): the history page shows which one to undo first.
    const history = document.querySelector('meta[name="appenda-history"]');
    const link = response.status === 409 && history ? { href: history.content, label: "Open the history" } : null;
    showToast({ message: detail || "Undo is not available for this change.", kind: "error", link: link });
  }

  document.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (!target) return;
    const undoButton = target.closest("[data-undo-url]");
    if (undoButton) {
      undo(undoButton);
      return;
    }
    const close = target.closest(".toast-close");
    if (close) {
      const toast = close.closest(".toast");
      if (toast) toast.remove();
    }
  });

  /* --- Confirmation dialog ------------------------------------------------------------------ */

  function askConfirm(message, label) {
    const dialog = document.getElementById("confirm-dialog");
    if (!dialog || typeof dialog.showModal !== "function") {
      return Promise.resolve(window.confirm(message));
    }
    dialog.querySelector("#confirm-message").textContent = message;
    dialog.querySelector("#confirm-ok").textContent = label || "Delete";
    dialog.returnValue = "";
    return new Promise((resolve) => {
      dialog.addEventListener("close", () => resolve(dialog.returnValue === "confirm"), { once: true });
      dialog.showModal(); // focus starts on Cancel, the safe choice; Escape cancels
    });
  }

  // Capture phase: runs before htmx's own submit handler on the form.
  document.addEventListener(
    "submit",
    (event) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement) || !form.dataset.confirm) return;
      if (form.dataset.confirmed === "yes") {
        delete form.dataset.confirmed;
        return;
      }
      event.preventDefault();
      event.stopImmediatePropagation();
      const submitter = event.submitter || undefined;
      askConfirm(form.dataset.confirm, form.dataset.confirmLabel).then((confirmed) => {
        if (!confirmed) return;
        form.dataset.confirmed = "yes";
        form.requestSubmit(submitter);
        // A choice that answers with a download (delete a bot, exporting its notes) leaves the
        // page where it is: load it again once the download has started, to show what changed.
        const choice = form.dataset.downloadChoice;
        const picked = choice ? form.querySelector('input[type="radio"]:checked') : null;
        if (picked && picked.value === choice) window.setTimeout(() => window.location.reload(), 1500);
      });
    },
    true
  );

  /* --- htmx: toasts, errors, focus, resets ---------------------------------------------------- */

  let focusAfter = null;

  function wireHtmx() {
    const body = document.body;
    body.addEventListener("appenda:toast", (event) => showToast(event.detail));
    body.addEventListener("htmx:beforeRequest", (event) => {
      const source = event.detail.elt;
      const marked = source && source.closest ? source.closest("[data-focus-after]") : null;
      focusAfter = marked ? marked.dataset.focusAfter : null;
    });
    body.addEventListener("htmx:afterRequest", (event) => {
      const form = event.detail.elt;
      if (event.detail.successful && form instanceof HTMLFormElement && form.hasAttribute("data-reset-on-success")) {
        form.reset();
      }
    });
    body.addEventListener("htmx:responseError", (event) => {
      const xhr = event.detail.xhr;
      if (xhr && (xhr.getResponseHeader("HX-Trigger") || "").includes("appenda:toast")) return;
      const status = xhr ? xhr.status : 0;
      const message =
        status === 403
          ? "You may not do this here."
          : status === 404
            ? "This is gone, or you may not see it. Reload the page."
            : "Something went wrong (" + status + "). Try again.";
      showToast({ message: message, kind: "error" });
    });
    body.addEventListener("htmx:sendError", () => {
      showToast({ message: "Could not reach the server. Check your connection and try again.", kind: "error" });
    });
    body.addEventListener("htmx:afterSettle", () => {
      if (focusAfter) {
        const wanted = document.getElementById(focusAfter);
        focusAfter = null;
        if (wanted) {
          wanted.focus();
          return;
        }
      }
      const active = document.activeElement;
      if (!active || active === document.body) {
        const fallback = document.getElementById("notes-list") || document.getElementById("turn-panel");
        if (fallback) fallback.focus({ preventScroll: true });
      }
    });
  }

  // A tab row that scrolls on a narrow screen starts scrolled to the current tab, so the page
  // you are on is never the one hidden past the edge.
  function revealCurrentTabs() {
    document.querySelectorAll(".tabs").forEach((row) => {
      const current = row.querySelector('[aria-current="page"]');
      if (!current || row.scrollWidth <= row.clientWidth) return;
      const left = current.offsetLeft; // the row is positioned: offsets are within it
      const right = left + current.offsetWidth;
      if (left < row.scrollLeft || right > row.scrollLeft + row.clientWidth) {
        row.scrollLeft = Math.max(0, right - row.clientWidth + 24);
      }
    });
  }

  function start() {
    revealCurrentTabs();
    document.querySelectorAll("#toasts .toast").forEach((toast) => {
      scheduleDismiss(toast, toast.classList.contains("toast--error") ? "error" : "ok");
    });
    wireHtmx();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
