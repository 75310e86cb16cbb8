// The entry page: every tap sends its form; this only keeps a second tap from sending it twice
// while the first is on its way. All text and markup come from the server.
"use strict";
(function () {
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.getAttribute("data-sent")) {
      event.preventDefault();
      return;
    }
    form.setAttribute("data-sent", "1");
    window.setTimeout(function () {
      var buttons = document.querySelectorAll("button");
      for (var i = 0; i < buttons.length; i++) {
        buttons[i].disabled = true;
      }
    }, 0);
  });
  window.addEventListener("pageshow", function () { // back to the page from the history: tappable again
    var forms = document.querySelectorAll("form[data-sent]");
    for (var i = 0; i < forms.length; i++) {
      forms[i].removeAttribute("data-sent");
    }
    var buttons = document.querySelectorAll("button");
    for (var j = 0; j < buttons.length; j++) {
      buttons[j].disabled = false;
    }
  });
})();
