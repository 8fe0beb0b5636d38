// Babel On!'s move of several blocks, chosen in the page (templates/boards/babel_on/_move_towers.html).
//
// The towers hold one set of radio buttons, for the block being chosen: from_<k> on each block
// that may come off, to_<k> on each cell a block can go to. Without this file the form is sent a
// block at a time and comes back with those chosen (hidden fields, their cells marked). With it,
// once block k's two buttons are tapped, they become fields of the form, their cells keep the
// block's number (data-off, data-on), and the set moves on to block k + 1: the whole move is one
// send, a tap on the block and one on its cell per block, then the move. "Start the move again"
// takes back what this file chose.
(function () {
  "use strict";

  var BUTTONS = '.bo-cell input[type="radio"]';

  // The block being chosen, from the buttons' names (k from 0).
  function step(towers) {
    var radio = towers.querySelector(BUTTONS);
    return radio ? Number(radio.name.split("_")[1]) : 0;
  }

  function words(towers, side, k) {
    return towers.getAttribute("data-" + side + "-words").replace("#", String(k + 1));
  }

  // The set of buttons, and the step's words they are named by, for block k.
  function moveTo(towers, from, k) {
    towers.querySelectorAll(BUTTONS).forEach(function (radio) {
      radio.name = radio.name.split("_")[0] + "_" + k;
      radio.checked = false;
      radio.setAttribute("aria-labelledby", radio.getAttribute("aria-labelledby").replace(/^bo-(off|on)-\d+/, "bo-$1-" + k));
    });
    ["off", "on"].forEach(function (side) {
      var label = document.getElementById("bo-" + side + "-" + from);
      if (!label) return;
      label.id = "bo-" + side + "-" + k;
      label.textContent = words(towers, side, k);
    });
  }

  function added(element) {
    element.setAttribute("data-added", "");
    return element;
  }

  document.addEventListener("change", function (event) {
    var radio = event.target;
    var towers = radio.type === "radio" && radio.closest && radio.closest(".bo-move-towers");
    if (!towers) return;
    var k = step(towers);
    if (k + 1 >= Number(towers.getAttribute("data-blocks"))) return; // the last block: sent with the move
    var off = towers.querySelector('.bo-cell [name="from_' + k + '"]:checked');
    var on = towers.querySelector('.bo-cell [name="to_' + k + '"]:checked');
    if (!off || !on) return;
    [off, on].forEach(function (chosen) {
      var field = added(document.createElement("input"));
      field.name = chosen.name;
      field.value = chosen.value;
      field.hidden = true;
      towers.prepend(field);
      chosen.disabled = true;
      chosen.setAttribute("data-used", "");
    });
    off.parentNode.setAttribute("data-off", String(k + 1));
    on.parentNode.setAttribute("data-on", String(k + 1));
    // The block's own cell can take another block now that it is off.
    var put = added(document.createElement("input"));
    put.type = "radio";
    put.name = "to_" + k;
    put.value = off.value;
    put.setAttribute("aria-labelledby", off.getAttribute("aria-labelledby").split(" ").slice(0, 3).join(" ").replace(/^bo-off-/, "bo-on-"));
    off.parentNode.appendChild(put);
    moveTo(towers, k, k + 1);
    var next = towers.querySelector('.bo-cell [name^="from_"]:not(:disabled)');
    if (next) next.focus({ preventScroll: true });
  });

  // After the form's own reset: the blocks this file chose are taken back (those the server
  // sent back chosen stay, the form's first step).
  document.addEventListener("reset", function (event) {
    var towers = event.target.querySelector && event.target.querySelector(".bo-move-towers");
    if (!towers) return;
    setTimeout(function () {
      var first = Number(towers.getAttribute("data-step"));
      towers.querySelectorAll("[data-added]").forEach(function (element) { element.remove(); });
      towers.querySelectorAll("[data-used]").forEach(function (radio) {
        radio.disabled = false;
        radio.removeAttribute("data-used");
      });
      towers.querySelectorAll(".bo-cell[data-off], .bo-cell[data-on]").forEach(function (cell) {
        ["off", "on"].forEach(function (side) {
          if (Number(cell.getAttribute("data-" + side)) > first) cell.removeAttribute("data-" + side);
        });
      });
      moveTo(towers, step(towers), first);
    });
  });
})();
