/* hexnet's web door: fits textual-serve's terminal (textual.js, xterm.js) to any screen.
 *
 * - The font size: the client's whole 80×24 layout when it fits at 12 px or more (a laptop,
 *   a tablet, a phone held sideways), else its one-column layout for 40–79 columns (a phone
 *   upright: 14–16 px). Picked again when the window changes (a phone turned round).
 * - Any device pixel ratio: a browser whose ResizeObserver reports a "device-pixel" box in CSS
 *   pixels (Chromium under device emulation, as in its developer tools) made xterm.js size
 *   its canvas 2–3× too small and draw the top-left part of the screen only; such an entry is
 *   handed on without that box, and xterm.js sizes the canvas from devicePixelRatio itself.
 * - Large print (?large): 60×20 cells in the largest font up to 32 px that fits them.
 * - Fonts: every face the page declares (Roboto Mono and hexnet's symbol subsets) is loaded
 *   before the terminal starts, so the first glyphs drawn are the right ones.
 * - The keyboard works at once: the terminal has the focus when the page opens.
 *
 * Runs before textual.js's window.onload (which builds the terminal from data-font-size).
 */
(function () {
  "use strict";
  var el = document.getElementById("terminal");
  var start = window.onload;
  if (!el || typeof start !== "function") return;
  window.onload = null;

  var FAMILY = "'Roboto Mono', Monaco, 'Courier New', monospace";  // textual.js's
  var large = el.dataset.large === "1";  // ?large: large print, 60×20 in a font up to 32 px
  var WHOLE = large ? [60, 20] : [80, 24];  // the client's full layout (large print: 60×20)
  var ONE_COLUMN = [42, 20];   // its one-column layout: at least this much
  var SMALLEST = 12;           // px: below this nothing is readable on a phone
  var fixed = el.dataset.fit !== "1";  // ?fontsize=N: kept as asked
  var largest = parseInt(el.dataset.fontSize, 10) || 16;
  var terminal = null;         // textual.js's terminal object, once built

  // -- any device pixel ratio ----------------------------------------------------------------
  var Observer = window.ResizeObserver;
  if (Observer) {
    var honest = function (entry) {
      var device = entry.devicePixelContentBoxSize && entry.devicePixelContentBoxSize[0];
      var css = entry.contentBoxSize && entry.contentBoxSize[0];
      if (!device || !css || window.devicePixelRatio === 1) return entry;
      var expected = css.inlineSize * window.devicePixelRatio;
      if (Math.abs(device.inlineSize - expected) <= window.devicePixelRatio + 1) return entry;
      return {target: entry.target, contentRect: entry.contentRect,
              contentBoxSize: entry.contentBoxSize, borderBoxSize: entry.borderBoxSize};
    };
    window.ResizeObserver = function (callback) {
      return new Observer(function (entries, observer) {
        callback(Array.prototype.map.call(entries, honest), observer);
      });
    };
    window.ResizeObserver.prototype = Observer.prototype;
  }

  // -- the font size -------------------------------------------------------------------------
  function cell(size) {
    var probe = document.createElement("span");
    probe.style.cssText = "position:absolute;visibility:hidden;white-space:pre;" +
      "line-height:normal;font-family:" + FAMILY + ";font-size:" + size + "px";
    probe.textContent = new Array(81).join("W");
    document.body.appendChild(probe);
    var box = probe.getBoundingClientRect();
    document.body.removeChild(probe);
    return [box.width / 80, Math.ceil(box.height)];
  }
  function holds(size, cells) {
    var c = cell(size);
    return cells[0] * c[0] <= window.innerWidth && cells[1] * c[1] <= window.innerHeight;
  }
  function pick() {
    var size;
    for (size = largest; size >= SMALLEST; size--) if (holds(size, WHOLE)) return size;
    for (size = largest; size > SMALLEST; size--) if (holds(size, ONE_COLUMN)) return size;
    return SMALLEST;
  }

  // textual.js keeps its terminal to itself; its constructor stores the unicode addon on the
  // object (``this.unicode11Addon = …``), so a setter of that name sees the object once.
  Object.defineProperty(Object.prototype, "unicode11Addon", {
    configurable: true,
    set: function (value) {
      Object.defineProperty(this, "unicode11Addon", {value: value, writable: true,
                                                     configurable: true, enumerable: true});
      if (!terminal && this.terminal && this.fitAddon) terminal = this;
      delete Object.prototype.unicode11Addon;
    }
  });

  function focus() {
    if (terminal) { terminal.terminal.focus(); return; }
    var input = document.querySelector(".xterm-helper-textarea");
    if (input) input.focus();
  }

  var waiting = null;
  function refit() {  // the window changed: perhaps another size, then the columns again
    if (fixed || !terminal) return;
    clearTimeout(waiting);
    waiting = setTimeout(function () {
      var size = pick();
      if (String(size) !== String(terminal.terminal.options.fontSize)) {
        el.dataset.fontSize = String(size);
        terminal.terminal.options.fontSize = size;
      }
      terminal.fit();
    }, 150);
  }

  function go(event) {
    try { if (!fixed) el.dataset.fontSize = String(pick()); } catch (e) { /* as it was */ }
    start.call(window, event);
    window.addEventListener("resize", refit);
    focus();
    // A tap anywhere on the page (the notice, the margin) gives the keyboard back too.
    document.addEventListener("pointerup", function (e) {
      if (!e.target.closest || !e.target.closest("button")) focus();
    });
  }

  window.addEventListener("load", function (event) {
    var fonts = document.fonts;
    var done = false;
    var once = function () { if (!done) { done = true; go(event); } };
    if (!fonts || !fonts.forEach) { once(); return; }
    var loading = [];
    fonts.forEach(function (face) { loading.push(face.load()); });
    Promise.all(loading).then(once, once);
    setTimeout(once, 2000);  // a font that never loads: fit with the fallback's size
  });
})();
