/*
 * The colour scheme, set before the page paints (a classic script in the
 * head: the modules run after it): the one chosen on this page (local
 * storage), else the system's (prefers-color-scheme), which it follows while
 * nothing is chosen. Bootstrap draws either from data-bs-theme.
 */
(function () {
  var KEY = "webgame.theme";
  var system = window.matchMedia("(prefers-color-scheme: dark)");

  function chosen() {
    try {
      return localStorage.getItem(KEY);
    } catch (e) {
      return null;
    }
  }

  function apply() {
    document.documentElement.setAttribute("data-bs-theme", chosen() || (system.matches ? "dark" : "light"));
  }

  apply();
  system.addEventListener("change", apply);
  window.BoardTheme = {
    /** The scheme shown: "dark" or "light". */
    current: function () {
      return document.documentElement.getAttribute("data-bs-theme");
    },
    /** Switch to the other scheme and remember the choice; returns it. */
    toggle: function () {
      var next = window.BoardTheme.current() === "dark" ? "light" : "dark";
      try {
        localStorage.setItem(KEY, next);
      } catch (e) {
        /* no storage: the choice lasts as long as this page */
      }
      document.documentElement.setAttribute("data-bs-theme", next);
      return next;
    },
  };
})();
