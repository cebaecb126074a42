// How long loading a BehaviorTree.CPP XML file takes, next to tinyxml2's own parse of the same
// bytes (Canopy's reader parses with tinyxml2, so that parse is the floor): files of 10k, 100k
// and 1M nodes. See bench/README.md, "Loading BehaviorTree.CPP XML".
#include <benchmark/benchmark.h>
#include <tinyxml2.h>

#include <canopy/canopy.hpp>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace {

constexpr std::size_t sizes[] = {10'000, 100'000, 1'000'000};

// A BehaviorTree.CPP 4 file of about `count` nodes of its built-in types, as Groot2 writes
// them: nested, two spaces an indent, `name` on half the nodes, no deeper than 12 levels
// (tinyxml2 parses 100 at most). Composites take children at random among the open ones,
// decorators wrap one leaf, leaves are AlwaysSuccess/AlwaysFailure, Sleep and SetBlackboard
// writing one of 16 keys. Returns the bytes and, in `nodes`, the exact node count.
std::string generate_btcpp_xml(std::size_t count, std::size_t& nodes) {
    std::mt19937_64 random(0x5eedca000b7ee5ULL);
    struct node {
        std::string element;  // the opening tag's text without '<' and '>'
        std::vector<std::uint32_t> children;
        std::uint32_t depth;
    };
    std::vector<node> tree;
    tree.push_back({"Sequence name=\"root\"", {}, 0});
    std::vector<std::uint32_t> open{0};  // composites a node may join
    static const char* const composites[] = {"Sequence", "Fallback", "ReactiveSequence",
                                             "ReactiveFallback"};
    auto named = [&](std::string element, std::size_t i) {
        if (random() % 2 == 0) element += " name=\"step " + std::to_string(i) + "\"";
        return element;
    };
    auto leaf = [&](std::size_t i) -> std::string {
        switch (random() % 5) {
            case 0:
            case 1: return named("AlwaysSuccess", i);
            case 2: return named("AlwaysFailure", i);
            case 3: return named("Sleep msec=\"" + std::to_string(random() % 2000) + "\"", i);
            default:
                return named("SetBlackboard output_key=\"{key" + std::to_string(random() % 16) +
                                 "}\" value=\"" + std::to_string(i) + "\"",
                             i);
        }
    };
    auto add = [&](std::uint32_t parent, std::string element) {
        const auto index = static_cast<std::uint32_t>(tree.size());
        tree.push_back({std::move(element), {}, tree[parent].depth + 1});
        tree[parent].children.push_back(index);
        return index;
    };
    while (tree.size() < count) {
        // Mostly one of the last few composites, so that siblings come in runs.
        const std::size_t pick =
            random() % 4 == 0 ? random() % open.size()
                              : open.size() - 1 - random() % std::min<std::size_t>(open.size(), 8);
        const std::uint32_t parent = open[pick];
        const std::uint64_t roll = random() % 100;
        if (roll < 15 && tree[parent].depth < 11) {
            open.push_back(add(parent, named(composites[random() % 4], tree.size())));
        } else if (roll < 22) {
            const std::uint32_t decorator =
                add(parent, named(roll % 3 == 0   ? std::string("Inverter")
                                  : roll % 3 == 1 ? "Repeat num_cycles=\"3\""
                                                  : "RetryUntilSuccessful num_attempts=\"2\"",
                                  tree.size()));
            add(decorator, leaf(tree.size()));
        } else {
            add(parent, leaf(tree.size()));
        }
    }
    for (std::uint32_t c : open) {  // a composite needs a child
        if (tree[c].children.empty()) add(c, "AlwaysSuccess");
    }
    nodes = tree.size();
    std::string out =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<root BTCPP_format=\"4\" main_tree_to_execute=\"Main\">\n"
        "  <BehaviorTree ID=\"Main\">\n";
    // Preorder with an explicit stack: (node, next child to write).
    std::vector<std::pair<std::uint32_t, std::size_t>> stack{{0, 0}};
    auto indent = [&](std::uint32_t depth) { out.append(2 * (depth + 2), ' '); };
    indent(0);
    out += '<' + tree[0].element + ">\n";
    while (!stack.empty()) {
        auto& [at, next] = stack.back();
        const node& n = tree[at];
        if (next == n.children.size()) {
            stack.pop_back();
            if (!n.children.empty()) {
                indent(n.depth);
                out += "</" + n.element.substr(0, n.element.find(' ')) + ">\n";
            }
            continue;
        }
        const std::uint32_t child = n.children[next++];
        indent(tree[child].depth);
        out += '<' + tree[child].element + (tree[child].children.empty() ? "/>\n" : ">\n");
        if (!tree[child].children.empty()) stack.push_back({child, 0});
    }
    out += "  </BehaviorTree>\n</root>\n";
    return out;
}

struct input {
    std::size_t nodes = 0;
    std::string bytes;
};

void set_counters(benchmark::State& state, const input& in) {
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * in.bytes.size()));
    state.counters["time/node"] = benchmark::Counter(
        static_cast<double>(in.nodes),
        benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// The floor: tinyxml2's DOM of the bytes, which Canopy's reader walks.
void tinyxml2_parse(benchmark::State& state, const input* in) {
    for (auto _ : state) {
        auto document = std::make_unique<tinyxml2::XMLDocument>();
        document->Parse(in->bytes.data(), in->bytes.size());
        benchmark::DoNotOptimize(document->RootElement());
        state.PauseTiming();
        document.reset();
        state.ResumeTiming();
    }
    set_counters(state, *in);
}

// The reader alone: bytes to records.
void canopy_read(benchmark::State& state, const input* in) {
    for (auto _ : state) {
        canopy::read_result read =
            canopy::read_records(in->bytes, canopy::file_format::btcpp_xml, "bench.xml");
        benchmark::DoNotOptimize(read.document.trees.data());
        state.PauseTiming();
        read = {};
        state.ResumeTiming();
    }
    set_counters(state, *in);
}

// Bytes in memory to a finished tree: reading, checking (keys declared by their first use)
// and building.
void canopy_load(benchmark::State& state, const input* in, const canopy::registry* reg) {
    for (auto _ : state) {
        canopy::load_result result =
            canopy::try_load_text(in->bytes, canopy::file_format::btcpp_xml, *reg, "bench.xml");
        benchmark::DoNotOptimize(result.tree.get());
        state.PauseTiming();
        if (!result) state.SkipWithError("try_load_text failed");
        result = {};
        state.ResumeTiming();
    }
    set_counters(state, *in);
}

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    canopy::registry reg;
    canopy::register_builtin_nodes(reg);
    std::vector<std::unique_ptr<input>> inputs;
    for (std::size_t size : sizes) {
        auto in = std::make_unique<input>();
        in->bytes = generate_btcpp_xml(size, in->nodes);
        canopy::load_result check =
            canopy::try_load_text(in->bytes, canopy::file_format::btcpp_xml, reg, "bench.xml");
        if (!check || check.tree->size() != in->nodes) {
            std::cerr << "error: the generated file of " << in->nodes << " nodes does not load\n";
            for (const canopy::diagnostic& d : check.diagnostics) std::cerr << "  " << d << '\n';
            return EXIT_FAILURE;
        }
        benchmark::AddCustomContext(
            "tree/" + std::to_string(size),
            std::to_string(in->nodes) + " nodes, " + std::to_string(in->bytes.size()) + " bytes");
        inputs.push_back(std::move(in));
    }
    for (const auto& in : inputs) {
        auto add = [&](const std::string& name, auto function, auto... extra) {
            const std::string full = name + "/" + std::to_string(in->nodes);
            benchmark::RegisterBenchmark(full.c_str(), function, in.get(), extra...)
                ->Unit(benchmark::kMillisecond)
                ->UseRealTime();
        };
        add("BM_tinyxml2_parse", tinyxml2_parse);
        add("BM_canopy_read_btcpp", canopy_read);
        add("BM_canopy_load_btcpp", canopy_load, &reg);
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return EXIT_SUCCESS;
}
