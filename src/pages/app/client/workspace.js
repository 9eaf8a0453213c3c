/*
 * The workspace's keyboard shortcuts, served as it is written (no build step). Every
 * shortcut presses a link or a button that is on the page and labelled with its key, so
 * the page does the same without this script, by mouse, by Tab and Enter, or with
 * JavaScript off.
 *
 *   j / k      the next / previous line of a list ([data-row]); its [data-row-focus] takes focus
 *   a, l, w, r, x, ...   the control of the focused line whose data-key is that key
 *   1 to 9     the quick category of that number (#quick-categories): chosen in the line's
 *              [data-category] select, then its [data-categorise] button pressed
 *   /          the page's search field ([data-search])
 *   ?          shows or hides the list of shortcuts (#shortcuts)
 *
 * No shortcut fires while a field takes typing, or with Ctrl, Alt or Meta held.
 */
(function () {
  "use strict";

  function takesTyping(element) {
    if (!element || !element.tagName) return false;
    var tag = element.tagName.toLowerCase();
    if (tag === "textarea" || tag === "select") return true;
    if (tag === "input") return !/^(checkbox|radio|button|submit|reset)$/i.test(element.type);
    return element.isContentEditable === true;
  }

  function rows() {
    return Array.prototype.slice.call(document.querySelectorAll("[data-row]"));
  }

  function focusRow(row) {
    if (!row) return;
    var target = row.querySelector("[data-row-focus]") || row;
    target.focus();
    if (target.scrollIntoView) target.scrollIntoView({ block: "nearest" });
  }

  function keyed(row, key) {
    var controls = row.querySelectorAll("[data-key]");
    for (var i = 0; i < controls.length; i++) if (controls[i].getAttribute("data-key") === key) return controls[i];
    return null;
  }

  function quickCategory(digit) {
    var item = document.querySelector('#quick-categories [data-quick="' + digit + '"]');
    return item ? item.getAttribute("data-category") : null;
  }

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (takesTyping(event.target)) return;
    var key = event.key;
    if (key === "?") {
      var help = document.getElementById("shortcuts");
      if (help) {
        help.open = !help.open;
        event.preventDefault();
      }
      return;
    }
    if (key === "/") {
      var search = document.querySelector("[data-search]");
      if (search) {
        search.focus();
        event.preventDefault();
      }
      return;
    }
    var list = rows();
    if (list.length === 0) return;
    var current = event.target && event.target.closest ? event.target.closest("[data-row]") : null;
    if (key === "j" || key === "k") {
      var at = list.indexOf(current);
      var next = at === -1 ? (key === "j" ? 0 : list.length - 1) : at + (key === "j" ? 1 : -1);
      if (next >= 0 && next < list.length) focusRow(list[next]);
      event.preventDefault();
      return;
    }
    if (!current) return;
    if (/^[1-9]$/.test(key)) {
      var category = quickCategory(key);
      var select = current.querySelector("[data-category]");
      var button = current.querySelector("[data-categorise]");
      if (category !== null && select && button) {
        select.value = category;
        button.click();
        event.preventDefault();
      }
      return;
    }
    var control = keyed(current, key);
    if (control) {
      control.click();
      event.preventDefault();
    }
  });

  // A line decided in place is replaced by its outcome: focus goes on to the next line still
  // in the list, so a person can keep deciding from the keyboard.
  var focusAfterSwap = -1;
  document.addEventListener("htmx:beforeRequest", function (event) {
    var row = event.target && event.target.closest ? event.target.closest("[data-row]") : null;
    focusAfterSwap = row ? rows().indexOf(row) : -1;
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (focusAfterSwap === -1) return;
    var list = rows();
    var row = list[Math.min(focusAfterSwap, list.length - 1)];
    focusAfterSwap = -1;
    if (row) focusRow(row);
    else {
      var main = document.getElementById("main");
      if (main) main.focus();
    }
  });

  // A refused form's error summary takes focus, so its links to the fields are read first.
  document.addEventListener("DOMContentLoaded", function () {
    var summary = document.querySelector("[data-focus-first]");
    if (summary) summary.focus();
  });
})();
