// The Print button prints the sheet's preview frame, which holds the sheet exactly as it prints.
document.addEventListener("DOMContentLoaded", function () {
  var button = document.getElementById("print");
  if (!button) { return; }
  button.addEventListener("click", function () {
    var frame = document.getElementById(button.getAttribute("data-frame"));
    if (frame && frame.contentWindow) { frame.contentWindow.focus(); frame.contentWindow.print(); }
  });
});

// The gallery's cards: each preset's first words, fetched after the page is shown.
document.addEventListener("DOMContentLoaded", function () {
  var cards = document.querySelectorAll("p.preview[data-preset]");
  cards.forEach(function (p) {
    if (p.textContent.trim()) { return; }
    fetch("/preview?preset=" + encodeURIComponent(p.getAttribute("data-preset")))
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) { if (data && data.words.length) { p.textContent = data.words.join(", ") + "…"; } });
  });
});
