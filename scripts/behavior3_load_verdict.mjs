// behavior3_load_verdict: loads a behavior3 tree file with behavior3-ts (its repository's
// src/behavior3, bundled for Node.js with esbuild as scripts/behavior3_values_differential.py
// does) as a program would, and prints whether it loads: behavior3-ts's verdict, which
// scripts/real_files_check.py holds Canopy to.
//
//   node behavior3_load_verdict.mjs BUNDLE.mjs TREE.json
//
// The program's own node types are not at hand, so every node name the file uses that
// behavior3-ts does not register is registered as a dummy that succeeds: an Action if no use
// of it has children, a Decorator if each has one, else a Composite, with the arguments, inputs
// and outputs the uses give it. Then it creates the tree as a program's Context does
// (Context._createTree on the file's JSON, through a Tree) and prints one line:
//
//   LOADS
//   REFUSED: MESSAGE
//
// (the first line of what behavior3-ts threw or reported), and exits 0 either way.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [bundle, treePath] = process.argv.slice(2);
if (!bundle || !treePath) {
    console.error("usage: node behavior3_load_verdict.mjs BUNDLE.mjs TREE.json");
    process.exit(2);
}
const b3 = await import(pathToFileURL(bundle).href);

const say = (line) => process.stdout.write(line + "\n");
const quiet = () => {};
const errors = [];
console.log = console.info = console.debug = console.warn = quiet;
console.error = (...parts) => errors.push(parts.join(" "));

let data;
try {
    data = JSON.parse(readFileSync(treePath, "utf8"));
} catch (e) {
    say(`REFUSED: ${String(e.message ?? e).split("\n")[0]}`);
    process.exit(0);
}

// name -> { children: [counts], args: Set, inputs: max, outputs: max }
const uses = new Map();
function collect(node) {
    if (!node || typeof node !== "object" || typeof node.name !== "string") return;
    const children = Array.isArray(node.children) ? node.children : [];
    const use = uses.get(node.name) ?? { children: [], args: new Set(), inputs: 0, outputs: 0 };
    use.children.push(children.length);
    for (const k of Object.keys(node.args ?? {})) use.args.add(k);
    use.inputs = Math.max(use.inputs, (node.input ?? []).length);
    use.outputs = Math.max(use.outputs, (node.output ?? []).length);
    uses.set(node.name, use);
    children.forEach(collect);
}
collect(data?.root);

class FileContext extends b3.Context {
    loadTree(path) {
        this.trees[path] = this._createTree(data);
        return Promise.resolve(this.trees[path]);
    }
}
const context = new FileContext();

for (const [name, use] of uses) {
    if (context.nodeDefs[name]) continue;
    const most = Math.max(...use.children);
    const type = most === 0 ? "Action" : use.children.every((n) => n === 1) ? "Decorator"
        : "Composite";
    const descriptor = {
        name,
        type,
        desc: "a dummy of the program's node",
        args: [...use.args].map((arg) => ({ name: arg, type: "json?", desc: "" })),
        input: Array.from({ length: use.inputs }, (_, i) => `input${i + 1}?`),
        output: Array.from({ length: use.outputs }, (_, i) => `output${i + 1}?`),
        children: type === "Action" ? 0 : type === "Decorator" ? 1 : -1,
    };
    const Dummy = class extends b3.Node {
        onTick() {
            return "success";
        }
        static get descriptor() {
            return descriptor;
        }
    };
    context.registerNode(Dummy);
}

let tree;
try {
    tree = new b3.Tree(context, {}, treePath);
} catch (e) {
    say(`REFUSED: ${String(e.message ?? e).split("\n")[0]}`);
    process.exit(0);
}
if (!tree.ready) {
    say(`REFUSED: ${errors[0] ?? "the tree did not load"}`);
    process.exit(0);
}
say("LOADS");
