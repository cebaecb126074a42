#!/usr/bin/env python3
"""Drives the live view of a running `canopy run --serve` in headless Chromium.

The program ticks 60 pets a fixed number of ticks, then keeps serving their end, so the state
the page shows is known: it must equal what the program's JSON endpoint says (tick number,
agent 0's statuses, the population's counts per node) and the root status the program
printed. The pets' tree is data/pet.json with one more node that `_skipIf` always skips, so
that skipped shows in the statuses and the counts, in the colour the page gives a skipped
node. The driver then turns the population view on, clicks a node, picks one of the agents
listed there and checks that the page follows that agent. Afterwards, with the tab closed,
the server still answers, malformed requests get 4xx and it still answers, and Ctrl-C ends
the program cleanly.

The page is fetched from the program and loaded from a file with a driver script appended;
it reaches the program through window.canopyLiveBase (Chromium runs with web security off for
that file only: the server itself sends no CORS header).

Usage: live_test.py CANOPY_BINARY SOURCE_DIR. Exits 77 (skipped) when Chromium is absent.
Python 3 standard library only; every wait is bounded.
"""

import html
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from chromium import STATUS, SKIP, check, dump_dom, failures, find_chromium

TICKS = 12
AGENTS = 60
# The node every pet skips: the first child of the coin Sequence (node 1), in preorder.
SKIPPED_NODE = 2


def skipping_pet_tree(source, workdir):
    """data/pet.json with a first child of the coin Sequence that `_skipIf` always skips: the
    Sequence moves past it, so the pets behave as before, and every pet's byte there says
    skipped from its first tick on (nothing halts or clears the Sequence's children)."""
    with open(os.path.join(source, "data", "pet.json"), encoding="utf-8") as f:
        tree = json.load(f)
    at = next(k for k, node in enumerate(tree["nodes"]) if node["id"] == 2)
    tree["nodes"].insert(at + 1, {"id": 10, "parentId": 2, "type": "CoinNearby",
                                  "describe": "never asked: always skipped",
                                  "params": {"_skipIf": "true"}})
    path = os.path.join(workdir, "pet_skipping.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(tree, f)
    return path


def get(url, timeout=5):
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return response.status, response.read().decode("utf-8")


def state(base):
    status, body = get(base + "api/state")
    check(status == 200, "GET /api/state answered %d" % status)
    return json.loads(body)


def raw(port, data):
    """Sends raw bytes; returns the first line of the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(data)
        try:
            return s.recv(4096).split(b"\r\n")[0].decode("latin-1")
        except socket.timeout:
            return ""


def start_program(canopy, tree):
    command = [canopy, "run", tree, "--agents", str(AGENTS),
               "--ticks", str(TICKS), "--seed", "5", "--rate", "200", "--serve", "0"]
    program = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    url, done = None, False
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not done:
        line = program.stderr.readline()
        if not line:
            break
        match = re.search(r"open (http://127\.0\.0\.1:\d+/)", line)
        if match:
            url = match.group(1)
        done = "ticks done" in line
    if not url or not done:
        os.killpg(program.pid, signal.SIGKILL)
        sys.exit("canopy run --serve printed no address, or did not finish its ticks")
    return program, url


def stop_program(program):
    program.send_signal(signal.SIGINT)
    try:
        out, err = program.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(program.pid, signal.SIGKILL)
        program.communicate()
        check(False, "canopy run --serve did not end within 20 s of Ctrl-C")
        return ""
    check(program.returncode == 0, "canopy run --serve ended with %d after Ctrl-C: %s"
          % (program.returncode, err[-500:]))
    return out


# Waits for the page to show the program's tick, reads it, turns the population view on,
# reads the bars, clicks node 1, watches the first agent listed there other than agent 0,
# and reads the page again. Every wait is bounded (in the page's virtual time).
DRIVER = r"""
var R = {errors: [], steps: []};
window.addEventListener("error", function (e) { R.errors.push(String(e.message)); });
function q(s) { return document.querySelector(s); }
function rows() { return Array.prototype.slice.call(document.querySelectorAll("#canvas .row")); }
function statuses() {
  var out = {};
  rows().forEach(function (r) {
    var m = r.className.match(/\bst-(\w+)/);
    out[r.getAttribute("data-node")] = m ? m[1] : "idle";
  });
  return out;
}
function text(s) { var e = q(s); return e ? e.textContent : null; }
function finish() {
  var pre = document.createElement("pre");
  pre.id = "test-results";
  pre.textContent = JSON.stringify(R);
  document.body.appendChild(pre);
}
function waitFor(test, then, label) {
  var tries = 0;
  (function again() {
    if (test()) { R.steps.push(label); then(); return; }
    if (++tries > 200) { R.errors.push("timed out waiting for " + label); finish(); return; }
    setTimeout(again, 50);
  })();
}
waitFor(function () { return text(".tick-number") === "__TICKS__" && rows().length > 0; }, function () {
  R.tick = text(".tick-number");
  R.agent = text(".agent-number");
  R.root = text(".root-status");
  R.statuses = statuses();
  R.board = Array.prototype.map.call(document.querySelectorAll("#board-box tr"), function (r) {
    return [r.getAttribute("data-key"), r.querySelector(".bvalue").textContent];
  });
  R.populationHidden = q("#population").hidden;
  var skippedRow = q('#canvas .row[data-node="__SKIPPED__"] .dot');
  R.skippedDot = skippedRow ? getComputedStyle(skippedRow).borderTopColor : null;
  q("#population").click();
  waitFor(function () { return document.querySelectorAll("#canvas .pop").length === rows().length; }, function () {
    R.pops = {};
    R.titles = {};
    rows().forEach(function (r) {
      var p = r.querySelector(".pop");
      R.pops[r.getAttribute("data-node")] = p.getAttribute("data-pop");
      R.titles[r.getAttribute("data-node")] = p.getAttribute("title");
    });
    var skippedBar = q('#canvas .row[data-node="__SKIPPED__"] .pop .p4');
    R.skippedBar = skippedBar ? getComputedStyle(skippedBar).backgroundColor : null;
    q('#canvas .row[data-node="1"] .type').click();
    waitFor(function () { return document.querySelectorAll("#agents-here a[data-agent]").length > 0; }, function () {
      R.listed = Array.prototype.map.call(document.querySelectorAll("#agents-here a[data-agent]"),
                                          function (a) { return +a.getAttribute("data-agent"); });
      var pick = null;
      Array.prototype.forEach.call(document.querySelectorAll("#agents-here a[data-agent]"), function (a) {
        if (pick === null && a.getAttribute("data-agent") !== "0") pick = a;
      });
      if (!pick) { R.errors.push("only agent 0 is listed at node 1"); finish(); return; }
      R.picked = +pick.getAttribute("data-agent");
      pick.click();
      waitFor(function () { return text(".agent-number") === String(R.picked); }, function () {
        q("#population").click();  // back to the agent's own colours
        R.pickedStatuses = statuses();
        finish();
      }, "the page watching the picked agent");
    }, "the agents at node 1");
  }, "the population bars");
}, "tick __TICKS__ on the page");
"""


def expected_statuses(st):
    """Each row's status as the page must show it: the status bytes, halted where the newest
    tick halted a node."""
    shown = [STATUS[s] for s in st["statuses"]]
    if st["ticks"]:
        for event in st["ticks"][-1]["e"]:
            if event[0] == 2:
                shown[event[1]] = "halted"
    return {str(i): s for i, s in enumerate(shown)}


def both_views(canopy, source):
    """--groot2 and --serve together, ticking until Ctrl-C: both say where to connect, the
    page's endpoint follows the ticks, and Ctrl-C ends the run with its summary."""
    for attempt in range(20):
        groot2_port = 20000 + (os.getpid() * 7 + attempt * 131) % 40000
        command = [canopy, "run", os.path.join(source, "data", "pet.json"), "--agents", "100",
                   "--ticks", "0", "--rate", "50", "--groot2", str(groot2_port), "--serve", "0"]
        program = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True, start_new_session=True)
        lines = [program.stderr.readline(), program.stderr.readline()]
        url = re.search(r"open (http://127\.0\.0\.1:\d+/)", "".join(lines))
        if "groot2: attach" in "".join(lines) and url:
            break
        os.killpg(program.pid, signal.SIGKILL)
        program.communicate()
    else:
        check(False, "canopy run --groot2 --serve did not start: %s" % lines)
        return
    try:
        first = state(url.group(1))
        deadline = time.monotonic() + 10
        later = first
        while later["tick"] <= first["tick"] + 2 and time.monotonic() < deadline:
            time.sleep(0.05)
            later = state(url.group(1))
        check(later["tick"] > first["tick"] + 2, "with --groot2 too, the page's ticks go on")
    finally:
        out = stop_program(program)
    check("agents: 100" in out, "Ctrl-C ends --groot2 --serve with the summary")


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: live_test.py CANOPY_BINARY SOURCE_DIR")
    canopy, source = sys.argv[1], sys.argv[2]
    chromium = find_chromium()
    if not chromium:
        print("Chromium not found: skipped")
        return SKIP
    with tempfile.TemporaryDirectory() as workdir:
        program, base = start_program(canopy, skipping_pet_tree(source, workdir))
        try:
            before = drive_page(chromium, base, workdir)
        finally:
            out = stop_program(program)
    check(("tick %d: %s" % (TICKS, expected_statuses(before)["0"])) in out,
          "the program printed tick %d's root status as the page showed it" % TICKS)
    both_views(canopy, source)
    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    print("live view: all checks passed")
    return 0


def drive_page(chromium, base, workdir):
    """Checks the page against the program that serves it; returns the program's state at
    its end, as the page first saw it."""
    port = int(base.rstrip("/").rsplit(":", 1)[1])
    # The program's own view of its end, once it has been counted.
    state(base)
    deadline = time.monotonic() + 10
    before = state(base)
    while before["population"] is None and time.monotonic() < deadline:
        time.sleep(0.05)
        before = state(base)
    check(before["tick"] == TICKS, "the program serves tick %s" % before["tick"])
    check(before["population"] is not None, "the program counted its population")

    status, page = get(base)
    check(status == 200 and '"live":true' in page, "GET / serves the page in live mode")
    at = page.find('<script type="application/json"')
    page = page[:at] + "<script>window.canopyLiveBase = %s;</script>\n" % json.dumps(
        base.rstrip("/")) + page[at:]
    end = page.rfind("</body>")
    driver = DRIVER.replace("__TICKS__", str(TICKS)).replace("__SKIPPED__", str(SKIPPED_NODE))
    page = page[:end] + "<script>\n" + driver + "\n</script>\n" + page[end:]
    driven = os.path.join(workdir, "live.html")
    with open(driven, "w", encoding="utf-8") as f:
        f.write(page)
    dom, _ = dump_dom(chromium, driven, os.path.join(workdir, "profile"), budget_ms=30000,
                      extra=["--disable-web-security"])
    match = re.search(r'<pre id="test-results">(.*?)</pre>', dom, re.S)
    if not match:
        sys.exit("the driver wrote no results; the DOM ends:\n" + dom[-3000:])
    r = json.loads(html.unescape(match.group(1)))
    check(not r["errors"], "the page ran without errors: %s (steps: %s)"
          % (r["errors"], r["steps"]))

    # The tab is closed: the program still answers, with the state the page showed.
    after = state(base)
    check(r.get("tick") == str(TICKS), "the page shows tick %s" % r.get("tick"))
    check(r.get("agent") == "0", "the page first shows agent 0")
    check(r.get("statuses") == expected_statuses(before),
          "the page's statuses %s equal the program's %s"
          % (r.get("statuses"), expected_statuses(before)))
    check(r.get("root") == expected_statuses(before)["0"],
          "the page's root status is the program's")
    check(r.get("board") == [[k[0], k[2]] for k in before["blackboard"]],
          "the page's blackboard %s is the program's %s" % (r.get("board"), before["blackboard"]))
    check(r.get("populationHidden") is False, "the population button shows")
    counts = before["population"]["counts"]
    check(all(len(c) == 5 for c in counts),
          "each node has five counts, idle, success, failure, running, skipped: %s" % counts)
    check(r.get("pops") == {str(i): ",".join(map(str, c)) for i, c in enumerate(counts)},
          "the population bars %s equal the program's counts %s" % (r.get("pops"), counts))
    titles = r.get("titles") or {}
    for node in (1, SKIPPED_NODE):
        idle, success, failure, running, skipped = counts[node]
        check(("running %d, success %d, failure %d, skipped %d, idle %d" %
               (running, success, failure, skipped, idle)) in titles.get(str(node), ""),
              "hovering node %d tells its counts %s: %s" % (node, counts[node],
                                                            titles.get(str(node))))
    # Every pet skipped the node on its first tick, and nothing has made it idle since.
    check(counts[SKIPPED_NODE][4] == AGENTS, "the skipped node's counts are %s, not %d skipped"
          % (counts[SKIPPED_NODE], AGENTS))
    check(expected_statuses(before)[str(SKIPPED_NODE)] == "skipped",
          "agent 0's status byte at the skipped node says %s"
          % expected_statuses(before)[str(SKIPPED_NODE)])
    check(r.get("skippedDot") is not None and r.get("skippedBar") == r.get("skippedDot"),
          "the skipped node's bar (%s) has the colour of a skipped node's dot (%s)"
          % (r.get("skippedBar"), r.get("skippedDot")))
    picked = r.get("picked")
    check(picked is not None and after["agent"] == picked,
          "the program watches the agent picked on the page (%s, now %s)"
          % (picked, after["agent"]))
    check(r.get("pickedStatuses") == expected_statuses(after),
          "the page shows the picked agent's statuses %s, the program's %s"
          % (r.get("pickedStatuses"), expected_statuses(after)))
    at_node = set()
    for name in ("running", "success", "failure", "skipped"):
        _, body = get(base + "api/agents?node=1&status=%s&limit=1000" % name)
        at_node.update(json.loads(body)["agents"])
    listed_ok = bool(r.get("listed")) and set(r.get("listed")) <= at_node
    check(listed_ok, "the agents listed at node 1 are there")
    _, body = get(base + "api/agents?node=%d&status=skipped&limit=1000" % SKIPPED_NODE)
    check(json.loads(body)["agents"] == list(range(AGENTS)),
          "every agent is listed as skipped at the skipped node: %s" % body)

    # Malformed requests get 4xx, and the server goes on.
    check(raw(port, b"NONSENSE\r\n\r\n").startswith("HTTP/1.1 400"), "garbage gets 400")
    check(raw(port, b"GET /api/state?since=soon HTTP/1.1\r\nHost: x\r\n\r\n")
          .startswith("HTTP/1.1 400"), "a bad since= gets 400")
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(b"GET /api/sta")  # closed mid-request
    try:
        get(base + "api/agents?node=1")
        check(False, "a query without its status was answered")
    except urllib.error.HTTPError as e:
        check(e.code == 400, "a query without its status gets 400, not %d" % e.code)
    check(state(base)["tick"] == TICKS, "the server still answers")
    return before

if __name__ == "__main__":
    sys.exit(main())
