// ReDoc under the app's CSP (appenda/api/docs.py). Loaded before ReDoc's bundle, from a file,
// so the page has no inline script.
"use strict";
(function () {
  // The nonce this page's style-src allows; the server put it on this <script> element.
  const nonce = document.currentScript.nonce;

  // ReDoc adds <style> elements, some while its bundle loads (scrollbar styles), before its
  // own `nonce` option could reach them: give every <style> our scripts insert the nonce.
  // Markup cannot come through here, so an injected <style> still has none and is refused.
  for (const method of ["appendChild", "insertBefore"]) {
    const original = Node.prototype[method];
    Node.prototype[method] = function (node, ...rest) {
      if (node instanceof HTMLStyleElement && !node.nonce) node.nonce = nonce;
      return original.call(this, node, ...rest);
    };
  }
  // ReDoc's side menu shows Redocly's logo from cdn.redoc.ly, which img-src refuses (and a
  // docs page should not tell a third party who reads it): images from elsewhere are not
  // requested, and not shown. React sets an <img>'s src both ways: attribute and property.
  const fromHere = (url) => new URL(url, document.baseURI).origin === document.location.origin;
  const setAttribute = Element.prototype.setAttribute;
  Element.prototype.setAttribute = function (name, value) {
    if (this instanceof HTMLImageElement && name === "src" && !fromHere(value)) {
      this.hidden = true;
      return undefined;
    }
    return setAttribute.call(this, name, value);
  };
  const src = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, "src");
  Object.defineProperty(HTMLImageElement.prototype, "src", {
    ...src,
    set(value) {
      if (fromHere(value)) src.set.call(this, value);
      else this.hidden = true;
    },
  });

  window.addEventListener("DOMContentLoaded", () => {
    const container = document.getElementById("redoc-container");
    const system = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";  // no web fonts
    Redoc.init(container.dataset.specUrl, {
      // Search runs in a worker made from a blob: URL, which script-src 'self' refuses.
      disableSearch: true,
      theme: { typography: { fontFamily: system, headings: { fontFamily: system } } },
    }, container);
  });
})();
