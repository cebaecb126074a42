// The behavior3-ts side of scripts/behavior3_differential.py: runs a behavior3 tree in the npm
// package `behavior3` and prints, one line per tick, the tree's status (s, f, r; i when the
// tree was interrupted by an error) and the values of the variables named on the command line.
//
//   node behavior3_runner.mjs NODE_MODULES TREE.json TICKS DT [VAR...]
//
// NODE_MODULES is the folder where `behavior3` and `typescript` were installed. The package's
// dist/index.mjs keeps its `@registerNode` class decorators, which Node.js cannot parse: it is
// transpiled once, with TypeScript (the package's own compiler; `registerNode` takes the class
// alone, as a legacy decorator), into dist/index.transpiled.mjs beside it. The tree may use
// `Scripted`, a leaf whose argument `script` ("sfr", say) gives its status on each of its
// ticks, round and round: the same leaf as the Canopy runner's. Every variable starts at 0,
// as Canopy's implicit number keys do. Each tick first advances the context's clock by DT,
// as Canopy's agent::tick(dt) does.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [modulesDir, treePath, ticksText, dtText, ...vars] = process.argv.slice(2);
if (!modulesDir || !treePath || !ticksText || !dtText) {
    console.error("usage: node behavior3_runner.mjs NODE_MODULES TREE.json TICKS DT [VAR...]");
    process.exit(2);
}
const dist = join(modulesDir, "behavior3", "dist");
const transpiled = join(dist, "index.transpiled.mjs");
if (!existsSync(transpiled)) {
    const compiler = join(modulesDir, "typescript", "lib", "typescript.js");
    const ts = (await import(pathToFileURL(compiler).href)).default;
    const options = {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        experimentalDecorators: true,
    };
    const source = readFileSync(join(dist, "index.mjs"), "utf8");
    writeFileSync(transpiled, ts.transpileModule(source, { compilerOptions: options }).outputText);
}
const b3 = await import(pathToFileURL(transpiled).href);

class Scripted extends b3.Node {
    ticks = 0;
    onTick() {
        const script = this.args.script;
        const step = script[this.ticks % script.length];
        this.ticks++;
        return step === "s" ? "success" : step === "f" ? "failure" : "running";
    }
    static get descriptor() {
        return {
            name: "Scripted",
            type: "Action",
            children: 0,
            desc: "statuses from a script",
            args: [{ name: "script", type: "string", desc: "s, f and r, one per tick" }],
        };
    }
}

class FileContext extends b3.Context {
    async loadTree(path) {
        const data = JSON.parse(readFileSync(path, "utf8"));
        this.trees[path] = this._createTree(data);
        return this.trees[path];
    }
}

const context = new FileContext();
context.registerNode(Scripted);
const tree = new b3.Tree(context, {}, treePath);
for (const v of vars) tree.blackboard.set(v, 0);
const letters = { success: "s", failure: "f", running: "r", interrupted: "i" };
const dt = Number(dtText);
const lines = [];
for (let t = 0; t < Number(ticksText); t++) {
    context.update(dt);
    const status = tree.tick();
    const values = vars.map((v) => {
        const value = tree.blackboard.get(v);
        if (typeof value === "boolean") return value ? "1" : "0";
        // An array or object as compact JSON, as Canopy prints a json variable.
        return typeof value === "object" && value !== null ? JSON.stringify(value)
                                                           : String(value ?? 0);
    });
    lines.push([letters[status] ?? "?", ...values].join(" "));
}
console.log(lines.join("\n"));
