// How long loading a flat JSON tree takes, next to what nlohmann/json needs to parse the same
// bytes, in one run: files of 10k, 100k and 1M records. See bench/README.md for the figures.
#include <benchmark/benchmark.h>

#include <canopy/canopy.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "generated_tree.hpp"
#include "null_sax.hpp"

namespace {

using json = nlohmann::json;

constexpr std::size_t sizes[] = {10'000, 100'000, 1'000'000};

struct input {
    std::size_t records = 0;
    std::filesystem::path path;
    std::string bytes;  // the file's contents, for the benchmarks that start from memory
};

using canopy::bench::null_sax;

void set_counters(benchmark::State& state, const input& in) {
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * in.bytes.size()));
    auto records = static_cast<double>(in.records);
    state.counters["records/s"] =
        benchmark::Counter(records, benchmark::Counter::kIsIterationInvariantRate);
    // Seconds per record; the console shows it with an SI prefix ("312n" is 312 ns).
    state.counters["time/record"] = benchmark::Counter(
        records, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// Reading the file alone: the part of load_file that the parsers below do not pay.
void read_file(benchmark::State& state, const input* in) {
    for (auto _ : state) {
        std::string bytes = canopy::bench::read_file(in->path);
        benchmark::DoNotOptimize(bytes.data());
    }
    set_counters(state, *in);
}

// (a) in the issue: the bytes, already in memory, parsed into a DOM.
void json_parse_dom(benchmark::State& state, const input* in) {
    for (auto _ : state) {
        json document = json::parse(in->bytes);
        benchmark::DoNotOptimize(document);
        // Freeing the result is left out here as in the canopy benchmarks: each measures the
        // time until its result is ready.
        state.PauseTiming();
        document = json();
        state.ResumeTiming();
    }
    set_counters(state, *in);
}

// The bytes through nlohmann's SAX parser with a handler that does nothing.
void json_parse_sax(benchmark::State& state, const input* in) {
    for (auto _ : state) {
        null_sax handler;
        bool ok = json::sax_parse(in->bytes, &handler);
        benchmark::DoNotOptimize(ok);
    }
    set_counters(state, *in);
}

// (b) in the issue: the file, from its path, to a finished tree (reading included).
void canopy_load_file(benchmark::State& state, const input* in, const canopy::registry* reg) {
    for (auto _ : state) {
        std::shared_ptr<const canopy::tree> tree = canopy::load_file(in->path, *reg);
        benchmark::DoNotOptimize(tree.get());
        state.PauseTiming();
        tree.reset();
        state.ResumeTiming();
    }
    set_counters(state, *in);
}

// The bytes, already in memory, to a finished tree: the like-for-like comparison with (a).
void canopy_load_text(benchmark::State& state, const input* in, const canopy::registry* reg) {
    for (auto _ : state) {
        canopy::load_result result =
            canopy::try_load_text(in->bytes, canopy::file_format::flat_json, *reg, "bench.json");
        benchmark::DoNotOptimize(result.tree.get());
        state.PauseTiming();
        if (!result) state.SkipWithError("try_load_text failed");
        result = {};
        state.ResumeTiming();
    }
    set_counters(state, *in);
}

// Loads every input once before anything is timed; a file that does not give the expected tree
// would make every figure meaningless, so it stops the run.
bool validate(const input& in, const canopy::registry& reg) {
    canopy::load_result loaded = canopy::try_load_file(in.path, reg);
    if (!loaded) {
        std::cerr << "error: " << in.path.string() << " does not load:\n";
        std::size_t shown = 0;
        for (const canopy::diagnostic& d : loaded.diagnostics) {
            if (shown++ == 10) break;
            std::cerr << "  " << d << '\n';
        }
        std::cerr << "  (" << loaded.diagnostics.size() << " diagnostics)\n";
        return false;
    }
    if (loaded.tree->size() != in.records) {
        std::cerr << "error: " << in.path.string() << " gave " << loaded.tree->size()
                  << " nodes, expected " << in.records << '\n';
        return false;
    }
    json document = json::parse(in.bytes);
    null_sax handler;
    if (document.at("nodes").size() != in.records || !json::sax_parse(in.bytes, &handler)) {
        std::cerr << "error: nlohmann/json disagrees about " << in.path.string() << '\n';
        return false;
    }
    return true;
}

std::string describe_shape(const canopy::bench::tree_shape& shape, std::size_t bytes) {
    char text[200];
    std::snprintf(text, sizeof text,
                  "%zu bytes, %zu leaves, %zu Not, depth max %zu mean %.1f, max children %zu",
                  bytes, shape.leaves, shape.decorators, shape.max_depth, shape.mean_depth,
                  shape.max_children);
    return text;
}

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;

    auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
    const std::filesystem::path directory =
        std::filesystem::temp_directory_path() / ("canopy-bench-" + std::to_string(stamp));
    std::filesystem::create_directories(directory);
    struct remove_on_exit {
        std::filesystem::path path;
        ~remove_on_exit() {
            std::error_code ignored;
            std::filesystem::remove_all(path, ignored);
        }
    } cleanup{directory};

    canopy::registry reg;
    canopy::register_builtin_nodes(reg);

    std::vector<std::unique_ptr<input>> inputs;
    try {
        for (std::size_t records : sizes) {
            auto in = std::make_unique<input>();
            in->records = records;
            in->path = directory / ("flat-" + std::to_string(records) + ".json");
            canopy::bench::tree_shape shape;
            in->bytes =
                canopy::bench::generate_flat_json(records, canopy::bench::default_seed, &shape);
            canopy::bench::write_file(in->path, in->bytes);
            if (!validate(*in, reg)) return EXIT_FAILURE;
            benchmark::AddCustomContext("tree/" + std::to_string(records),
                                        describe_shape(shape, in->bytes.size()));
            inputs.push_back(std::move(in));
        }
    } catch (const std::exception& e) {
        std::cerr << "error: cannot prepare the benchmark's files: " << e.what() << '\n';
        return EXIT_FAILURE;
    }

    // Grouped by size, so that the console shows each file's figures together.
    for (const auto& in : inputs) {
        auto add = [&](const std::string& name, auto function, auto... extra) {
            std::string full = name + "/" + std::to_string(in->records);
            benchmark::RegisterBenchmark(full.c_str(), function, in.get(), extra...)
                ->Unit(benchmark::kMillisecond)
                // Wall time: it is what a caller waits, and load_file's reading is system time.
                ->UseRealTime();
        };
        add("BM_read_file", read_file);
        add("BM_json_parse_dom", json_parse_dom);
        add("BM_json_parse_sax", json_parse_sax);
        add("BM_canopy_load_file", canopy_load_file, &reg);
        add("BM_canopy_load_text", canopy_load_text, &reg);
    }

    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return EXIT_SUCCESS;
}
