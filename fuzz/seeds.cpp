// canopy_fuzz_seeds OUT [--generated N] [SOURCE_DIR...]: writes the harnesses' seed corpora
// and the node-type part of their dictionaries into OUT (a build directory):
//   OUT/<format>/      every tree file found under the source dirs, sorted by the format its
//                      extension and content give, and N random valid trees per format written
//                      by the format's own writer;
//   OUT/types.dict     the registered node type, parameter and key names, as dictionary
//                      entries, to append to each fuzz/<format>.dict;
//   OUT/script/        scripts for script_fuzzer, over its keys (i, n, b, s, t, @i, @s, p, q).
// Generated corpora live in build directories only; nothing here is committed.

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "canopy/formats/format.hpp"
#include "canopy/run/registry.hpp"
#include "canopy/views/snapshot_json.hpp"
#include "fuzz_registries.hpp"
#include "snapshot_fixtures.hpp"
#include "tree_generator.hpp"

namespace fs = std::filesystem;

namespace {

constexpr std::uintmax_t largest_seed = 1 << 20;  // libFuzzer mutates small inputs best

std::string format_dir(canopy::file_format format) {
    switch (format) {
        case canopy::file_format::flat_json: return "flat_json";
        case canopy::file_format::flat_xml: return "flat_xml";
        case canopy::file_format::btcpp_xml: return "btcpp_xml";
        case canopy::file_format::behavior3: return "behavior3";
    }
    return "unknown";
}

void write_file(const fs::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

// Copies every tree file under `source` into the directory of its format.
int copy_tree_files(const fs::path& source, const fs::path& out) {
    int copied = 0;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(source, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (!it->is_regular_file() || it->file_size() > largest_seed) continue;
        if (!canopy::format_for_path(it->path())) continue;
        std::ifstream in(it->path(), std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        const std::optional<canopy::file_format> format =
            canopy::detect_format(it->path(), text.str());
        if (!format) continue;
        const std::string name =
            "file_" + std::to_string(copied) + "_" + it->path().filename().string();
        write_file(out / format_dir(*format) / name, text.str());
        ++copied;
    }
    return copied;
}

// Writes `count` random valid documents per format through the format's writer.
int write_generated(int count, const fs::path& out) {
    std::mt19937_64 random(20261124);  // fixed: the same seeds on every run
    int written = 0;
    for (const canopy::format_info& format : canopy::formats()) {
        for (int i = 0; i < count; ++i) {
            const canopy::tree_document document =
                canopy::fuzz::random_document(canopy::fuzz::tick_registry(), random, 4 + i % 40);
            const canopy::write_result text = format.write(document);
            // A document whose subtrees the writer puts in files of their own is left out:
            // a harness reads one input, and the files would not be there.
            if (!text.problems.empty() || !text.files.empty()) continue;
            write_file(out / format_dir(format.id) / ("generated_" + std::to_string(i)), text.text);
            ++written;
        }
    }
    return written;
}

// Every node type, alias, parameter and key name, quoted as libFuzzer's dictionaries want.
void write_dictionary(const fs::path& path) {
    std::set<std::string> words;
    const canopy::registry& reg = canopy::fuzz::tick_registry();
    for (const canopy::node_type& type : reg.types()) {
        words.insert(type.name);
        for (const canopy::param_spec& spec : type.params) words.insert(spec.name);
    }
    for (const auto& [alias, target] : reg.aliases()) words.insert(alias);
    for (const canopy::blackboard_key& key : reg.keys()) words.insert(key.name);
    std::ofstream out(path);
    out << "# node types, aliases, parameters and keys of the fuzz registry (generated)\n";
    for (const std::string& word : words) {
        out << '"';
        for (const char c : word) {
            if (c == '"' || c == '\\') out << '\\';
            out << c;
        }
        out << "\"\n";
    }
}

// Scripts over script_fuzzer's keys and enums, one per file, using every operator.
int write_script_seeds(const fs::path& dir) {
    static const char* const scripts[] = {
        "i > 3 && n != 2",
        "x := 3; y := 5; x + y",
        "i += 1; i -= 2; i *= 3; i /= 1",
        "n := n * 2 - i / 4; b = !b; i = (i + 1) & 0xFF; i < 100 ? i : -i",
        "1 < i <= 10 != false",
        "t == 'text' || s == 12",
        "t := t .. '!' .. 1.5 .. true",
        "@i = ~@i ^ 0x0F | 3",
        "m := RED; m == BLUE ? 'b' : \"r\"",
        "s = '42'; i = s; n = '2.5e1'; b = @s",
        "i2 := i2 + 1; i2",
        "(((i)))+-(-n)*+2e-3",
        "p = '1;2'; q = p; t = '3;4'; p = t; p := q",
    };
    int written = 0;
    fs::create_directories(dir);
    for (const char* text : scripts) {
        std::ofstream(dir / ("seed" + std::to_string(written++) + ".script")) << text;
    }
    return written;
}

}  // namespace

// The snapshot harness's inputs: each fixture's snapshots without their checksum (the
// harness adds it), and their JSON forms.
void write_snapshot_seeds(const fs::path& dir) {
    fs::create_directories(dir);
    int n = 0;
    for (const canopy_fuzz::fixture& f : canopy_fuzz::fixtures()) {
        const std::string& bytes = f.snapshot;
        std::ofstream(dir / ("snapshot" + std::to_string(n) + ".bin"), std::ios::binary)
            << bytes.substr(0, bytes.size() - 8);
        std::ofstream(dir / ("snapshot" + std::to_string(n) + ".json"))
            << canopy::snapshot_to_json(bytes);
        ++n;
    }
}

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: canopy_fuzz_seeds OUT [--generated N] [SOURCE_DIR...]\n";
        return 2;
    }
    const fs::path out = argv[1];
    int generated = 200;
    std::vector<fs::path> sources;
    for (int i = 2; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--generated" && i + 1 < argc) {
            generated = std::atoi(argv[++i]);
        } else {
            sources.emplace_back(arg);
        }
    }
    for (const canopy::format_info& format : canopy::formats())
        fs::create_directories(out / format_dir(format.id));
    int copied = 0;
    for (const fs::path& source : sources)
        if (fs::is_directory(source)) copied += copy_tree_files(source, out);
    const int written = write_generated(generated, out);
    write_dictionary(out / "types.dict");
    write_script_seeds(out / "script");
    write_snapshot_seeds(out / "snapshot");
    std::cout << "seeds: " << copied << " files copied, " << written << " trees generated, in "
              << out.string() << "\n";
    return 0;
}
