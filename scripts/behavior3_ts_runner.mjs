// The behavior3-ts side of scripts/behavior3_values_differential.py: loads a behavior3 tree
// with behavior3-ts's own sources (its repository's src/behavior3, bundled for Node.js by the
// differential script) and prints, one line per tick, the tree's status (s, f, r; i when an
// error interrupted the tree) and the tree's variables as one JSON object, sorted by name.
//
//   node behavior3_ts_runner.mjs BUNDLE.mjs TREE.json TICKS DT
//
// Nothing is set before the first tick: a variable exists from its first write, as in a
// program that loads the tree and ticks it. Each tick first advances the context's clock by
// DT, as Canopy's agent::tick(dt) does. A tree the runtime refuses prints `load error: ...`
// and exits with 3.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [bundle, treePath, ticksText, dtText] = process.argv.slice(2);
if (!bundle || !treePath || !ticksText || !dtText) {
    console.error("usage: node behavior3_ts_runner.mjs BUNDLE.mjs TREE.json TICKS DT");
    process.exit(2);
}
const b3 = await import(pathToFileURL(bundle).href);

class FileContext extends b3.Context {
    loadTree(path) {
        const data = JSON.parse(readFileSync(path, "utf8"));
        this.trees[path] = this._createTree(data);
        return Promise.resolve(this.trees[path]);
    }
}

// The runtime reports its errors on the console; the differential compares what runs.
const quiet = () => {};
const errors = [];
console.log = console.info = console.debug = console.warn = quiet;
console.error = (...parts) => errors.push(parts.join(" "));

const context = new FileContext();
let tree;
try {
    tree = new b3.Tree(context, {}, treePath);
} catch (e) {
    process.stdout.write(`load error: ${String(e.message ?? e).split("\n")[0]}\n`);
    process.exit(3);
}
if (!tree.ready) {
    process.stdout.write(`load error: ${errors[0] ?? "the tree did not load"}\n`);
    process.exit(3);
}

function variables() {
    const out = {};
    const values = tree.blackboard.values;
    for (const k of Object.keys(values).sort()) {
        if (b3.Blackboard.isTempVar(k) || b3.Blackboard.isPrivateVar(k)) continue;
        const v = values[k];
        try {
            out[k] = JSON.parse(JSON.stringify(v) ?? "null");
        } catch {
            out[k] = "<cycle>";
        }
    }
    return out;
}

const letters = { success: "s", failure: "f", running: "r", interrupted: "i" };
const dt = Number(dtText);
const lines = [];
for (let t = 0; t < Number(ticksText); t++) {
    context.update(dt);
    const status = tree.tick();
    lines.push(`${letters[status] ?? "?"} ${JSON.stringify(variables())}`);
}
process.stdout.write(lines.join("\n") + "\n");
