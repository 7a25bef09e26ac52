/* Appenda web app: what the Memory page adds to app.js, on every page.
   - one Undo at a time: when a toast with an Undo arrives, older toasts lose theirs (an older
     change can still be undone from its note's history; its Undo here would answer 409);
   - the held count: after an htmx swap, the tab title follows the nav badge ("(3) Memory …").
   No inline script or style: the Content-Security-Policy allows scripts from 'self' only. */
(function () {
  "use strict";

  function onlyNewestUndo(region) {
    const buttons = region.querySelectorAll("[data-undo-url]");
    buttons.forEach((button, index) => {
      if (index < buttons.length - 1) button.remove();
    });
  }

  function titleFollowsBadge() {
    const badge = document.getElementById("held-badge");
    if (!badge) return;
    const count = parseInt(badge.dataset.count || "0", 10) || 0;
    const bare = document.title.replace(/^\(\d+\) /, "");
    document.title = count > 0 ? "(" + count + ") " + bare : bare;
  }

  function start() {
    const region = document.getElementById("toasts");
    if (region) {
      onlyNewestUndo(region);
      new MutationObserver(() => onlyNewestUndo(region)).observe(region, { childList: true });
    }
    document.body.addEventListener("htmx:afterSettle", titleFollowsBadge);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
