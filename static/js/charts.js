// Draws the charts of a page (templates/statistics/_chart.html) with the vendored Chart.js.
//
// Progressive enhancement only: every chart's caption and table of figures say the same
// without this file. Chart.js (70 KB compressed) is fetched only when the page holds a chart,
// and once: a phone that never sees one never downloads it. What to draw comes from the
// chart's <script type="application/json"> (sessions/statistics/charts.py): no inline script,
// no eval, so the Content-Security-Policy (scripts from our own files only) holds.
//
// A live region (the winners of a finished game on the host's page and the phones) is morphed
// in place by htmx: the canvas this file added is dropped by the morph, so every settle draws
// the charts whose box has no canvas. A change of theme or of the device's colour scheme
// draws them all again in the new colours.
(function () {
  "use strict";
  var loading = null;
  var drawn = [];

  function library(src) {
    if (window.Chart) return Promise.resolve();
    if (!loading) {
      loading = new Promise(function (resolve, reject) {
        var script = document.createElement("script");
        script.src = src;
        script.onload = resolve;
        script.onerror = reject;
        document.head.appendChild(script);
      });
    }
    return loading;
  }

  // The theme's colours, as the stylesheet resolves them on the box (light-dark() custom
  // properties cannot be read from script, their resolved colours can).
  function inks(box) {
    var style = getComputedStyle(box);
    return { text: style.color, grid: style.borderTopColor, surface: style.backgroundColor };
  }

  function language() {
    return document.documentElement.lang || undefined;
  }

  var DAY_MS = 86400000;
  // A whole day number (charts.py's day_number) as the page's language writes a date.
  function dateFormat(first, last) {
    var years = new Date(first * DAY_MS).getUTCFullYear() !== new Date(last * DAY_MS).getUTCFullYear();
    var options = { day: "numeric", month: "short", timeZone: "UTC" };
    if (years) options.year = "numeric";
    return new Intl.DateTimeFormat(language(), options);
  }

  function numberFormat() {
    return new Intl.NumberFormat(language(), { maximumFractionDigits: 1 });
  }

  // A pattern over a series' colour, so a bar's part is told apart without its colour.
  // The lines are dark on a light colour and light on a dark one.
  function pattern(name, colour) {
    if (name === "solid") return colour;
    var size = 10, tile = document.createElement("canvas");
    tile.width = tile.height = size;
    var ctx = tile.getContext("2d");
    ctx.fillStyle = colour;
    ctx.fillRect(0, 0, size, size);
    var rgb = colour.match(/\w\w/g).map(function (h) { return parseInt(h, 16); });
    var light = (0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]) > 150;
    ctx.strokeStyle = ctx.fillStyle = light ? "rgba(0,0,0,0.55)" : "rgba(255,255,255,0.7)";
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    var lines = {
      diagonal: [[0, size, size, 0], [-2, 2, 2, -2], [size - 2, size + 2, size + 2, size - 2]],
      "reverse-diagonal": [[0, 0, size, size], [-2, size - 2, 2, size + 2], [size - 2, -2, size + 2, 2]],
      horizontal: [[0, 5, size, 5]],
      vertical: [[5, 0, 5, size]],
      grid: [[0, 5, size, 5], [5, 0, 5, size]],
      cross: [[0, 0, size, size], [0, size, size, 0]],
      dashes: [[1, 3, 5, 3], [6, 8, 10, 8]],
      zigzag: [[0, 7, 2.5, 3], [2.5, 3, 5, 7], [5, 7, 7.5, 3], [7.5, 3, 10, 7]]
    }[name];
    if (lines) {
      lines.forEach(function (l) { ctx.moveTo(l[0], l[1]); ctx.lineTo(l[2], l[3]); });
      ctx.stroke();
    } else if (name === "dots") {
      ctx.arc(5, 5, 2, 0, 2 * Math.PI);
      ctx.fill();
    } else if (name === "rings") {
      ctx.arc(5, 5, 2.5, 0, 2 * Math.PI);
      ctx.stroke();
    }
    return ctx.createPattern(tile, "repeat");
  }

  // The legend is HTML, above the canvas: it wraps like text, so its items never overlap or
  // run off the panel at any width; each item shows its series' marker and dash, or pattern.
  function legend(box, data, colours) {
    var list = document.createElement("ul");
    list.className = "chart-legend";
    list.setAttribute("aria-hidden", "true"); // the table names the series for a screen reader
    data.series.forEach(function (series) {
      var item = document.createElement("li"), swatch = document.createElement("canvas");
      var ratio = window.devicePixelRatio || 1, width = 28, height = 14;
      swatch.width = width * ratio;
      swatch.height = height * ratio;
      swatch.className = "chart-swatch chart-swatch-" + (data.kind === "line" ? "line" : "box");
      var ctx = swatch.getContext("2d");
      ctx.scale(ratio, ratio);
      if (data.kind === "line") {
        ctx.strokeStyle = series.colour;
        ctx.lineWidth = 2;
        ctx.setLineDash(series.dash);
        ctx.beginPath();
        ctx.moveTo(0, height / 2);
        ctx.lineTo(width, height / 2);
        ctx.stroke();
        ctx.setLineDash([]);
        ctx.fillStyle = series.colour;
        ctx.strokeStyle = colours.text;
        ctx.lineWidth = 1;
        window.Chart.helpers.drawPoint(ctx, { pointStyle: series.marker, radius: 4.5, borderWidth: 1, rotation: 0 },
          width / 2, height / 2);
      } else {
        ctx.fillStyle = pattern(series.pattern, series.colour);
        ctx.fillRect(0.5, 0.5, 20, height - 1);
        ctx.strokeStyle = colours.text;
        ctx.lineWidth = 1;
        ctx.strokeRect(0.5, 0.5, 20, height - 1);
      }
      item.appendChild(swatch);
      item.appendChild(document.createTextNode(series.name));
      list.appendChild(item);
    });
    return list;
  }

  function lineConfig(data, colours) {
    var xs = [];
    data.series.forEach(function (s) { s.points.forEach(function (p) { xs.push(p[0]); }); });
    var first = Math.floor(Math.min.apply(null, xs)), last = Math.ceil(Math.max.apply(null, xs));
    if (last === first) last = first + 1;
    var dates = dateFormat(first, last), numbers = numberFormat();
    return {
      type: "line",
      data: {
        datasets: data.series.map(function (s) {
          return {
            label: s.name,
            data: s.points.map(function (p) { return { x: p[0], y: p[1] }; }),
            borderColor: s.colour,
            backgroundColor: s.colour,
            borderDash: s.dash,
            borderWidth: 2,
            pointStyle: s.marker,
            pointRadius: s.points.length > 40 ? 2 : 4,
            pointHoverRadius: 6,
            pointBorderColor: colours.text,
            pointBorderWidth: 1,
            tension: 0
          };
        })
      },
      options: {
        scales: {
          x: {
            type: "linear",
            min: first,
            max: last,
            // Whole days only: each tick a local midnight, so no two labels read the same date.
            ticks: { precision: 0, maxTicksLimit: 6, maxRotation: 0, includeBounds: false, callback: function (value) {
              return Number.isInteger(value) ? dates.format(new Date(value * DAY_MS)) : "";
            } },
            grid: { color: colours.grid }
          },
          y: { grace: "5%", ticks: { callback: function (value) { return numbers.format(value); } },
            grid: { color: colours.grid } }
        },
        plugins: {
          tooltip: { callbacks: {
            title: function (items) { return items.length ? dates.format(new Date(Math.floor(items[0].parsed.x) * DAY_MS)) : ""; },
            label: function (item) { return item.dataset.label + ": " + numbers.format(item.parsed.y); }
          } }
        }
      }
    };
  }

  function barConfig(data, colours) {
    var horizontal = data.kind !== "bar", stacked = data.kind === "stacked-hbar", numbers = numberFormat();
    var value = horizontal ? "x" : "y", label = horizontal ? "y" : "x";
    var scales = {};
    scales[value] = { stacked: stacked, beginAtZero: true, ticks: { precision: 0, callback: function (v) {
      return numbers.format(v);
    } }, grid: { color: colours.grid } };
    scales[label] = { stacked: stacked, grid: { display: false }, ticks: { autoSkip: !horizontal, maxRotation: 0 } };
    return {
      type: "bar",
      data: {
        labels: data.labels,
        datasets: data.series.map(function (s) {
          return {
            label: s.name,
            data: s.values,
            backgroundColor: pattern(s.pattern, s.colour),
            borderColor: stacked ? colours.surface : colours.text,
            borderWidth: stacked ? 1 : 0,
            maxBarThickness: 28
          };
        })
      },
      options: { indexAxis: horizontal ? "y" : "x", scales: scales }
    };
  }

  function draw(box) {
    var source = document.getElementById(box.getAttribute("data-chart"));
    if (!source || box.querySelector("canvas")) return;
    var data = JSON.parse(source.textContent), colours = inks(box), Chart = window.Chart;
    box.textContent = "";
    if (data.series.length > 1) box.appendChild(legend(box, data, colours));
    var frame = document.createElement("div"), canvas = document.createElement("canvas");
    frame.className = "chart-frame";
    // A bar a row: the height follows the number of bars (a style set from script, which the
    // Content-Security-Policy allows, unlike a style attribute in the page).
    if (data.kind === "hbar" || data.kind === "stacked-hbar") frame.style.height = (data.labels.length * 40 + 48) + "px";
    canvas.setAttribute("role", "img");
    canvas.setAttribute("aria-label", box.getAttribute("data-chart-label"));
    canvas.setAttribute("aria-describedby", box.getAttribute("data-chart-described-by"));
    frame.appendChild(canvas);
    box.appendChild(frame);
    var config = data.kind === "line" ? lineConfig(data, colours) : barConfig(data, colours);
    config.options.responsive = true;
    config.options.maintainAspectRatio = false;
    config.options.animation = false; // a chart is read, not watched; and no motion to reduce
    config.options.plugins = config.options.plugins || {};
    config.options.plugins.legend = { display: false };
    Chart.defaults.color = colours.text;
    Chart.defaults.font.size = 13;
    Chart.defaults.font.family = getComputedStyle(box).fontFamily;
    drawn.push(new Chart(canvas, config));
    box.setAttribute("data-chart-drawn", "");
  }

  function drawAll() {
    // A chart whose canvas a morph removed is gone: let it go before drawing its box again.
    drawn = drawn.filter(function (chart) {
      if (chart.canvas && chart.canvas.isConnected) return true;
      chart.destroy();
      return false;
    });
    var boxes = document.querySelectorAll("[data-chart]");
    if (!boxes.length) return;
    library(boxes[0].getAttribute("data-chart-library")).then(function () {
      boxes.forEach(function (box) { if (box.isConnected) draw(box); });
    }, function () { /* offline without it: the tables of figures remain */ });
  }

  function redrawAll() {
    drawn.forEach(function (chart) { chart.destroy(); });
    drawn = [];
    document.querySelectorAll("[data-chart]").forEach(function (box) { box.textContent = ""; });
    drawAll();
  }

  drawAll();
  document.addEventListener("htmx:afterSettle", drawAll);
  new MutationObserver(redrawAll).observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
  if (window.matchMedia) window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", redrawAll);
})();
