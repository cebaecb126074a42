#!/usr/bin/env python3
"""Drives the page `canopy html` writes in a real browser (headless Chromium).

For each page it writes a copy with a driver script appended, which clicks and types as a user
would and writes what it sees into the DOM; Chromium's --dump-dom prints that DOM and this
script checks it against the trace and the tree:

  * the Hornet boss replayed for 40 ticks: stepping with the buttons, the Left arrow key and the
    slider colours each node as the trace says for that tick; the trace list is the tick's
    status changes; collapsing a node hides its descendants and expanding shows them again;
    clicking a trace entry reveals and selects its node; a search highlights its hits and
    opens their ancestors;
  * a generated tree of 10,000 nodes: opens collapsed past depth 3 with only the rows in view
    in the DOM, and a search for a deep node's describe or id reveals it;
  * the Hornet page in a window 700 px wide: every row shows its describe, and neither the
    legend nor anything else runs past the window's edge;
  * a RunOnce skipped after its first run: its row and trace entry say "skipped", in a colour
    of its own, neither idle's nor halted's.

Usage: viewer_test.py CANOPY_BINARY SOURCE_DIR. Exits 77 (skipped) when Chromium is absent.
Python 3 standard library only.
"""

import html
import json
import os
import re
import subprocess
import sys
import tempfile

from chromium import STATUS, SKIP, check, dump_dom, failures, find_chromium


def run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, **kwargs)
    if result.returncode != 0:
        sys.exit("command failed (%d): %s\n%s%s" % (result.returncode, " ".join(command),
                                                   result.stdout, result.stderr))
    return result


def page_data(page_text):
    match = re.search(r'<script type="application/json" id="tree-data">(.*?)</script>',
                      page_text, re.S)
    return json.loads(match.group(1))


def drive(chromium, workdir, page, driver, width=1280, height=900):
    """The results the driver script wrote into the page, as Chromium ran it."""
    with open(page, encoding="utf-8") as f:
        text = f.read()
    at = text.rfind("</body>")
    driven = os.path.join(workdir, "driven-" + os.path.basename(page))
    with open(driven, "w", encoding="utf-8") as f:
        f.write(text[:at] + "<script>\n" + DRIVER_COMMON + driver + "\n</script>\n" + text[at:])
    dom, seconds = dump_dom(chromium, driven, os.path.join(workdir, "profile"), width, height)
    match = re.search(r'<pre id="test-results">(.*?)</pre>', dom, re.S)
    if not match:
        sys.exit("the driver wrote no results into " + driven + "; the DOM ends:\n" + dom[-3000:])
    return json.loads(html.unescape(match.group(1))), seconds


# Helpers for the drivers: read the rows in the DOM, and write the results when done.
DRIVER_COMMON = r"""
var R = {errors: []};
window.addEventListener("error", function (e) { R.errors.push(String(e.message)); });
function q(s) { return document.querySelector(s); }
function rowOf(i) { return q('#canvas .row[data-node="' + i + '"]'); }
function rowNodes() {
  return Array.prototype.map.call(document.querySelectorAll("#canvas .row"),
                                  function (r) { return +r.getAttribute("data-node"); });
}
function statusOf(i) {
  var r = rowOf(i); if (!r) return "absent";
  var m = r.className.match(/\bst-(\w+)/); return m ? m[1] : "idle";
}
function statuses(n) { var s = []; for (var i = 0; i < n; i++) s.push(statusOf(i)); return s; }
function classed(c) {
  return Array.prototype.map.call(document.querySelectorAll("#canvas .row." + c),
                                  function (r) { return +r.getAttribute("data-node"); });
}
function press(target, key, shift) {
  target.dispatchEvent(new KeyboardEvent("keydown", {key: key, shiftKey: !!shift, bubbles: true}));
}
function finish() {
  var pre = document.createElement("pre");
  pre.id = "test-results";
  pre.textContent = JSON.stringify(R);
  document.body.appendChild(pre);
}
"""


def statuses_at(tick, n):
    s = ["idle"] * n
    for kind, node, _before, result in tick["e"]:
        if kind == 1:
            s[node] = STATUS[result]
        elif kind == 2:
            s[node] = "halted"
    return s


def changes_of(tick):
    return [[node, STATUS[result] if kind == 1 else "halted"]
            for kind, node, _before, result in tick["e"] if kind != 0]


def descendants(data, i):
    return list(range(i + 1, data["nodes"][i][2]))


def test_hornet(chromium, canopy, source, workdir):
    page = os.path.join(workdir, "hornet.html")
    trace = os.path.join(workdir, "hornet.trace")
    run([canopy, "html", "data/hornet.json", "--ticks", "40", "--write-trace", trace, "-o", page],
        cwd=source)
    # The page made from the saved trace is the same page.
    replayed = os.path.join(workdir, "hornet-replayed.html")
    run([canopy, "html", "data/hornet.json", "--trace", trace, "-o", replayed], cwd=source)
    with open(page, encoding="utf-8") as a, open(replayed, encoding="utf-8") as b:
        check(a.read() == b.read(), "the page from --trace differs from the page from --ticks")
    with open(page, encoding="utf-8") as f:
        data = page_data(f.read())
    nodes, ticks = data["nodes"], data["ticks"]
    n = len(nodes)
    check(len(ticks) == 40, "40 ticks embedded, not %d" % len(ticks))
    # Ticks to look at: K by the Next button, K-1 by the Left arrow, J by the slider; each with
    # nodes of several statuses, so a viewer colouring everything alike fails.
    def varied(k):
        return len(set(statuses_at(ticks[k], n))) >= 3
    k_next = next(k for k in range(5, 40) if varied(k) and varied(k - 1))
    j_slider = next(k for k in range(39, 0, -1) if varied(k) and k not in (k_next, k_next - 1))
    composite = next(i for i in range(1, n) if len(descendants(data, i)) >= 2)
    trace_node = max((c[0] for c in changes_of(ticks[j_slider])), key=lambda i: (i > composite, i))
    hits = [i for i in range(n) if "dash" in nodes[i][4].lower()
            or "dash" in data["types"][nodes[i][0]]["name"].lower()]

    driver = r"""
try {
  var N = %(n)d;
  R.ready = document.body.getAttribute("data-ready");
  R.opened = statuses(N);
  q("#expand-all").click();
  for (var k = 0; k < %(k)d; k++) q("#next").click();
  R.label = q("#tick-label").textContent;
  R.afterNext = statuses(N);
  press(document.body, "ArrowLeft");
  R.afterLeft = statuses(N);
  var slider = q("#slider");
  slider.value = %(j)d;
  slider.dispatchEvent(new Event("input", {bubbles: true}));
  R.afterSlider = statuses(N);
  R.trace = Array.prototype.map.call(document.querySelectorAll("#trace li[data-node]"), function (li) {
    return [+li.getAttribute("data-node"), li.getAttribute("data-status")];
  });
  rowOf(%(c)d).querySelector(".toggle").click();
  R.afterCollapse = rowNodes();
  rowOf(%(c)d).querySelector(".toggle").click();
  R.afterExpand = rowNodes();
  q("#collapse-all").click();
  R.collapsedAll = rowNodes();
  q('#trace li[data-node="%(t)d"]').click();
  R.afterTraceClick = {rows: rowNodes(), selected: classed("sel"), detail: q("#detail").textContent};
  q("#collapse-all").click();
  var search = q("#search");
  search.value = "dash";
  search.dispatchEvent(new Event("input", {bubbles: true}));  // searches after a short pause
  setTimeout(function () {
    R.search = {hits: classed("hit"), rows: rowNodes(), current: classed("cur"),
                label: q("#matches").textContent};
    press(search, "Enter");
    R.search.next = classed("cur");
    finish();
  }, 600);
} catch (e) { R.errors.push(String(e && e.stack || e)); finish(); }
""" % {"n": n, "k": k_next, "j": j_slider, "c": composite, "t": trace_node}
    R, seconds = drive(chromium, workdir, page, driver)
    print("hornet page: %d nodes, %d ticks, %d bytes, Chromium ran it in %.1f s"
          % (n, len(ticks), os.path.getsize(page), seconds))
    check(R["errors"] == [], "script errors: %s" % R["errors"])
    check(R.get("ready") == "1", "the viewer did not start")
    check(R["opened"] == statuses_at(ticks[0], n), "at opening, the nodes are not coloured as "
          "tick 1 says: %s" % R["opened"])
    check(("tick %d " % ticks[k_next]["n"]) in R["label"], "the label after %d steps reads %r"
          % (k_next, R["label"]))
    check(R["afterNext"] == statuses_at(ticks[k_next], n),
          "after %d clicks on Next: %s, but the trace says %s"
          % (k_next, R["afterNext"], statuses_at(ticks[k_next], n)))
    check(R["afterLeft"] == statuses_at(ticks[k_next - 1], n),
          "after the Left arrow: %s, but the trace says %s"
          % (R["afterLeft"], statuses_at(ticks[k_next - 1], n)))
    check(R["afterSlider"] == statuses_at(ticks[j_slider], n),
          "after the slider to %d: %s, but the trace says %s"
          % (j_slider, R["afterSlider"], statuses_at(ticks[j_slider], n)))
    check(R["trace"] == changes_of(ticks[j_slider]), "the trace list of tick %d is %s, not %s"
          % (j_slider, R["trace"], changes_of(ticks[j_slider])))
    hidden = set(descendants(data, composite))
    check(composite in R["afterCollapse"] and not hidden & set(R["afterCollapse"]),
          "collapsing node %d left rows %s" % (composite, R["afterCollapse"]))
    check(R["afterExpand"] == list(range(n)), "expanding again shows %s" % R["afterExpand"])
    check(R["collapsedAll"] == [0] + [i for i in range(1, n) if nodes[i][1] == 0],
          "collapse all shows %s" % R["collapsedAll"])
    clicked = R["afterTraceClick"]
    check(trace_node in clicked["rows"] and clicked["selected"] == [trace_node],
          "clicking the trace entry of node %d: rows %s, selected %s"
          % (trace_node, clicked["rows"], clicked["selected"]))
    check(nodes[trace_node][4] in clicked["detail"], "the detail panel does not show node %d"
          % trace_node)
    found = R["search"]
    check(hits and found["hits"] == hits, "searching 'dash' highlights %s, not %s"
          % (found["hits"], hits))
    check(set(hits) <= set(found["rows"]), "a hit of the search is not shown: rows %s"
          % found["rows"])
    check(found["current"] == hits[:1] and found["label"] == "1 of %d" % len(hits),
          "the current match is %s, labelled %r" % (found["current"], found["label"]))
    check(found["next"] == hits[1:2] or len(hits) == 1, "Enter moves to %s" % found["next"])


def test_skipped(chromium, canopy, workdir):
    tree = os.path.join(workdir, "once.json")
    with open(tree, "w", encoding="utf-8") as f:
        json.dump([{"id": 1, "type": "Sequence"},
                   {"id": 2, "parentId": 1, "type": "RunOnce", "describe": "greet once"},
                   {"id": 3, "parentId": 2, "type": "AlwaysSuccess"},
                   {"id": 4, "parentId": 1, "type": "AlwaysSuccess"}], f)
    page = os.path.join(workdir, "once.html")
    run([canopy, "html", tree, "--ticks", "2", "-o", page])
    with open(page, encoding="utf-8") as f:
        data = page_data(f.read())
    ticks, n = data["ticks"], len(data["nodes"])
    check(statuses_at(ticks[1], n)[1] == "skipped", "RunOnce is not skipped on tick 2 of the "
          "trace: %s" % statuses_at(ticks[1], n))
    driver = r"""
try {
  function colour(i) { return getComputedStyle(rowOf(i)).backgroundColor; }
  R.succeeded = colour(1);  // before any step: tick 1, where RunOnce succeeded
  q("#next").click();
  R.statuses = statuses(%(n)d);
  R.trace = Array.prototype.map.call(document.querySelectorAll("#trace li[data-node]"), function (li) {
    return [+li.getAttribute("data-node"), li.getAttribute("data-status")];
  });
  R.skipped = colour(1);
  R.dot = getComputedStyle(rowOf(1).querySelector(".dot")).borderTopStyle;
  R.legend = Array.prototype.map.call(document.querySelectorAll(".legend span"), function (s) {
    return s.textContent;
  });
  finish();
} catch (e) { R.errors.push(String(e && e.stack || e)); finish(); }
""" % {"n": n}
    R, _seconds = drive(chromium, workdir, page, driver)
    check(R["errors"] == [], "script errors: %s" % R["errors"])
    check(R["statuses"] == statuses_at(ticks[1], n), "tick 2 shows %s, but the trace says %s"
          % (R["statuses"], statuses_at(ticks[1], n)))
    check([1, "skipped"] in R["trace"], "the trace list of tick 2 is %s" % R["trace"])
    check(R["skipped"] != R["succeeded"], "a skipped row is coloured as a succeeded one: %s"
          % R["skipped"])
    check(R["dot"] == "dashed", "a skipped node's dot is %s, not dashed" % R["dot"])
    check("skipped" in R["legend"], "the legend lacks skipped: %s" % R["legend"])


def test_ten_thousand(chromium, canopy, workdir):
    n = 10000
    records = []
    for k in range(1, n + 1):
        parent = 0 if k == 1 else (k - 2) // 8 + 1
        has_children = (k - 1) * 8 + 2 <= n
        record = {"id": k, "parentId": parent,
                  "type": "Sequence" if has_children else "AlwaysSuccess",
                  "describe": "step %d" % k}
        records.append(record)
    needle = 9876
    records[needle - 1]["describe"] = "the needle in the haystack"
    tree_file = os.path.join(workdir, "big.json")
    with open(tree_file, "w", encoding="utf-8") as f:
        json.dump({"name": "ten thousand", "nodes": records}, f)
    page = os.path.join(workdir, "big.html")
    run([canopy, "html", tree_file, "-o", page])
    with open(page, encoding="utf-8") as f:
        data = page_data(f.read())
    nodes = data["nodes"]
    check(len(nodes) == n, "the page holds %d nodes" % len(nodes))
    needle_index = next(i for i in range(n) if nodes[i][3] == needle)
    by_id = next(i for i in range(n) if nodes[i][3] == 5000)
    depth = [0] * n
    for i in range(1, n):
        depth[i] = depth[nodes[i][1]] + 1
    shallow = [i for i in range(n) if depth[i] <= 3]

    driver = r"""
try {
  R.ready = document.body.getAttribute("data-ready");
  R.startedAfterMs = Math.round(performance.now());
  R.rows = rowNodes();
  R.height = q("#canvas").offsetHeight;
  var t0 = performance.now();
  var search = q("#search");
  search.value = "needle";
  press(search, "Enter");
  R.needle = {hits: classed("hit"), current: classed("cur"), label: q("#matches").textContent,
              ms: Math.round(performance.now() - t0)};
  search.value = "#5000";
  press(search, "Enter");
  R.byId = {hits: classed("hit"), current: classed("cur")};
  search.value = "Sequence";
  t0 = performance.now();
  press(search, "Enter");
  R.wide = {label: q("#matches").textContent, ms: Math.round(performance.now() - t0),
            rendered: document.querySelectorAll("#canvas .row").length};
} catch (e) { R.errors.push(String(e && e.stack || e)); }
finish();
"""
    R, seconds = drive(chromium, workdir, page, driver)
    print("10,000-node page: %d bytes, Chromium ran it in %.1f s (script started %s ms after "
          "navigation; search for one describe %s ms, for 'Sequence' %s ms)"
          % (os.path.getsize(page), seconds, R.get("startedAfterMs"), R.get("needle", {}).get("ms"),
             R.get("wide", {}).get("ms")))
    check(R["errors"] == [], "script errors: %s" % R["errors"])
    check(R.get("ready") == "1", "the viewer did not start")
    check(R["height"] == 24 * len(shallow), "the outline is %d px high, not %d rows of 24"
          % (R["height"], len(shallow)))
    check(0 < len(R["rows"]) < 200, "%d rows are in the DOM: the page renders every row"
          % len(R["rows"]))
    check(all(depth[i] <= 3 for i in R["rows"]), "rows deeper than 3 are shown at opening")
    check(R["needle"]["hits"] == [needle_index] and R["needle"]["current"] == [needle_index],
          "searching 'needle' shows hits %s, current %s, not node %d"
          % (R["needle"]["hits"], R["needle"]["current"], needle_index))
    check(R["needle"]["label"] == "1 of 1", "the search label reads %r" % R["needle"]["label"])
    check(R["byId"]["current"] == [by_id], "searching '#5000' reveals %s, not node %d"
          % (R["byId"]["current"], by_id))
    sequences = sum(1 for r in records if r["type"] == "Sequence")
    check(R["wide"]["label"] == "1 of %d" % sequences, "searching 'Sequence' reads %r"
          % R["wide"]["label"])
    check(R["wide"]["rendered"] < 200, "a wide search put %d rows in the DOM"
          % R["wide"]["rendered"])


def test_narrow_window(chromium, canopy, source, workdir):
    page = os.path.join(workdir, "hornet-narrow.html")
    run([canopy, "html", "data/hornet.json", "--ticks", "40", "--seed", "8", "-o", page],
        cwd=source)
    with open(page, encoding="utf-8") as f:
        data = page_data(f.read())
    described = [i for i, node in enumerate(data["nodes"]) if node[4]]

    # Every box is measured where it is drawn: a describe shows when its box has room for some
    # words inside the outline; the legend when each entry lies inside the window.
    driver = r"""
try {
  R.ready = document.body.getAttribute("data-ready");
  q("#expand-all").click();
  q("#slider").value = 30;
  q("#slider").dispatchEvent(new Event("input", {bubbles: true}));
  var outline = q("#outline").getBoundingClientRect();
  R.window = {width: document.documentElement.clientWidth,
              scrollWidth: document.documentElement.scrollWidth};
  R.outline = {left: outline.left, right: outline.right};
  R.descs = Array.prototype.map.call(document.querySelectorAll("#canvas .row"), function (row) {
    var desc = row.querySelector(".desc"), box = desc && desc.getBoundingClientRect();
    return [+row.getAttribute("data-node"), box ? Math.floor(box.width) : 0,
            desc ? desc.scrollWidth : 0, box ? Math.ceil(box.right) : 0];
  });
  R.legend = Array.prototype.map.call(document.querySelectorAll(".legend span"), function (s) {
    var box = s.getBoundingClientRect();
    return [s.textContent, Math.floor(box.left), Math.ceil(box.right), box.width > 0 && box.height > 0];
  });
} catch (e) { R.errors.push(String(e && e.stack || e)); }
finish();
"""
    R, _seconds = drive(chromium, workdir, page, driver, 700, 900)
    check(R["errors"] == [], "script errors at 700 px: %s" % R["errors"])
    check(R.get("ready") == "1", "the viewer did not start at 700 px")
    width = R["window"]["width"]
    check(width == 700, "the window is %d px wide, not 700" % width)
    check(R["window"]["scrollWidth"] <= width, "at 700 px the page is %d px wide: it scrolls "
          "sideways" % R["window"]["scrollWidth"])
    shown = {row[0]: row for row in R["descs"]}
    check(set(described) <= set(shown), "at 700 px rows %s are not in the outline"
          % sorted(set(described) - set(shown)))
    for i in described:
        if i not in shown:
            continue
        _node, box_width, full_width, right = shown[i]
        # scrollWidth is rounded to a whole pixel, the box's width is not: one pixel of slack.
        check(box_width + 1 >= min(full_width, 150) and right <= R["outline"]["right"],
              "at 700 px the describe of node %d shows %d of its %d px (right edge %d, the "
              "outline's %d)" % (i, box_width, full_width, right, R["outline"]["right"]))
    names = [entry[0] for entry in R["legend"]]
    check(names == STATUS[1:] + STATUS[:1], "the legend reads %s" % names)
    for name, left, right, drawn in R["legend"]:
        check(drawn and left >= 0 and right <= width,
              "at 700 px the legend's '%s' spans %d to %d px of %d" % (name, left, right, width))


def test_heat_map(chromium, canopy, workdir):
    tree = os.path.join(workdir, "heat.json")
    with open(tree, "w", encoding="utf-8") as f:
        json.dump([{"id": 1, "type": "Fallback"},
                   {"id": 2, "parentId": 1, "type": "AlwaysFailure", "describe": "never"},
                   {"id": 3, "parentId": 1, "type": "AlwaysSuccess", "describe": "always"},
                   {"id": 4, "parentId": 1, "type": "AlwaysSuccess", "describe": "unreached"}], f)
    page = os.path.join(workdir, "heat.html")
    run([canopy, "html", tree, "--ticks", "3", "--heat-map", "-o", page])
    driver = r"""
try {
  R.before = document.querySelectorAll("#canvas .cov").length;
  R.hidden = q("#coverage").hidden;
  q("#coverage").click();
  R.classes = Array.prototype.map.call(document.querySelectorAll("#canvas .row"), function (row) {
    var c = row.querySelector(".cov");
    return c ? c.className : "";
  });
  R.title = rowOf(1).querySelector(".cov").title;
  rowOf(2).click();
  R.detail = q("#detail").textContent;
  finish();
} catch (e) { R.errors.push(String(e && e.stack || e)); finish(); }
"""
    R, _seconds = drive(chromium, workdir, page, driver)
    check(R["errors"] == [], "script errors: %s" % R["errors"])
    check(not R["hidden"] and R["before"] == 0, "the Coverage button is hidden (%s) or the map "
          "shows before it is pressed (%d)" % (R["hidden"], R["before"]))
    # The root and `always` succeed (one outcome), `never` fails (one), `unreached` never ticks.
    check(R["classes"] == ["cov c1", "cov c1", "cov c1", "cov c0"],
          "the heat map colours the rows %s" % R["classes"])
    check(R["title"] == "success 0, failure 3, running 0, skipped 0",
          "the counts of `never` read %r" % R["title"])
    check("success 3, failure 0" in R["detail"] and "over 3 ticks" in R["detail"],
          "the detail panel of `always` lacks its counts: %r" % R["detail"])


def test_file_words(chromium, canopy, source, workdir):
    page = os.path.join(workdir, "words.html")
    run([canopy, "html", os.path.join(source, "tests/data/views/btcpp.xml"), "-o", page])
    driver = r"""
try {
  R.row = rowOf(1).textContent;
  R.keyRow = rowOf(3).textContent;
  rowOf(1).click();
  R.detail = q("#detail").textContent;
  rowOf(0).click();
  R.rootDetail = q("#detail").textContent;
  finish();
} catch (e) { R.errors.push(String(e && e.stack || e)); finish(); }
"""
    R, _seconds = drive(chromium, workdir, page, driver)
    check(R["errors"] == [], "script errors: %s" % R["errors"])
    # The outline speaks the file's words; the panel adds what they mean to Canopy.
    check("Sleep" in R["row"] and 'msec="1000"' in R["row"] and "seconds" not in R["row"],
          "the Sleep row is not in the file's words: %r" % R["row"])
    check("msec={@pause}" in R["keyRow"], "the key row lost its @: %r" % R["keyRow"])
    check("runs as Wait" in R["detail"] and "in Canopy" in R["detail"] and
          "seconds=1" in R["detail"],
          "the Sleep panel does not give Canopy's meaning: %r" % R["detail"])
    check("in Canopy" not in R["rootDetail"],
          "a node whose words are Canopy's shows them twice: %r" % R["rootDetail"])


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: viewer_test.py CANOPY_BINARY SOURCE_DIR")
    canopy, source = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    chromium = find_chromium()
    if chromium is None:
        print("SKIPPED: Chromium is not installed (scripts/install-deps.sh installs the Debian "
              "package 'chromium'); the viewer was not tested in a browser")
        return SKIP
    with tempfile.TemporaryDirectory(prefix="canopy-viewer-test-") as workdir:
        test_hornet(chromium, canopy, source, workdir)
        test_ten_thousand(chromium, canopy, workdir)
        test_narrow_window(chromium, canopy, source, workdir)
        test_skipped(chromium, canopy, workdir)
        test_heat_map(chromium, canopy, workdir)
        test_file_words(chromium, canopy, source, workdir)
    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    print("viewer: every check passed in Chromium")
    return 0


if __name__ == "__main__":
    sys.exit(main())
