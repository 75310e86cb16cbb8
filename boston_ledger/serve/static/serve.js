// The evening page: follow the ledger's changes and swap in the sheet the server sends.
// All text and markup come from the server, already escaped and translated.
"use strict";
(function () {
  var body = document.body;
  var url = body.getAttribute("data-events");
  var sheet = document.getElementById("sheet");
  var offline = document.getElementById("offline");
  if (!url || !sheet || typeof EventSource === "undefined") {
    return;
  }
  var source = new EventSource(url);
  source.onopen = function () {
    offline.hidden = true;
  };
  source.onerror = function () {
    offline.hidden = false;
  };
  source.onmessage = function (event) {
    offline.hidden = true;
    if (event.data !== sheet.innerHTML) {
      sheet.innerHTML = event.data;
    }
    if (event.lastEventId) {
      body.setAttribute("data-version", event.lastEventId);
    }
    body.setAttribute("data-live", "1");
  };
})();
