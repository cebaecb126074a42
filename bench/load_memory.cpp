// Peak memory while loading a flat JSON tree, against the file's size. Each measurement runs in
// a fresh process (this program started again with --measure), so that no earlier allocation
// raises the high-water mark it reads: getrusage's ru_maxrss before and after one load.
// Linux only (/proc/self/exe, /proc/self/status). See bench/README.md.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <canopy/canopy.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "generated_tree.hpp"
#include "null_sax.hpp"

namespace {

using json = nlohmann::json;

constexpr std::size_t sizes[] = {10'000, 100'000, 1'000'000};
constexpr const char* modes[] = {"read", "sax", "dom", "canopy"};

// The process's peak resident set so far, in bytes (Linux reports KiB).
long long peak_rss() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<long long>(usage.ru_maxrss) * 1024;
}

// The process's resident set now, in bytes.
long long current_rss() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmRSS:", 0) == 0) return std::atoll(line.c_str() + 6) * 1024;
    }
    return 0;
}

using canopy::bench::null_sax;

double mib(long long bytes) {
    return static_cast<double>(bytes) / (1024.0 * 1024.0);
}

// One load in this process. Every mode starts from the path, so every peak includes the file's
// bytes held in memory, as load_file holds them while it reads records:
//   read    reads the file into a string (the floor: 1x the file);
//   sax     reads it and runs nlohmann's SAX parser with a handler that keeps nothing;
//   dom     reads it and parses it into a nlohmann::json DOM;
//   canopy  canopy::load_file to a finished tree.
int measure(const std::string& mode, const std::filesystem::path& path) {
    canopy::registry reg;
    canopy::register_builtin_nodes(reg);
    const auto file_bytes = static_cast<long long>(std::filesystem::file_size(path));
    const long long baseline_peak = peak_rss();
    const long long baseline_now = current_rss();

    auto start = std::chrono::steady_clock::now();
    std::string bytes;
    json document;
    std::shared_ptr<const canopy::tree> tree;
    if (mode == "canopy") {
        tree = canopy::load_file(path, reg);
    } else {
        bytes = canopy::bench::read_file(path);
        if (mode == "sax") {
            null_sax handler;
            if (!json::sax_parse(bytes, &handler)) return EXIT_FAILURE;
        } else if (mode == "dom") {
            document = json::parse(bytes);
        } else if (mode != "read") {
            std::fprintf(stderr, "unknown mode '%s'\n", mode.c_str());
            return EXIT_FAILURE;
        }
    }
    auto elapsed =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start);
    // Read while the result is still alive: what loading leaves behind, as far as RSS can tell
    // (the allocator may keep freed pages, so this is an upper bound).
    const long long retained = current_rss() - baseline_now;
    const long long growth = peak_rss() - baseline_peak;

    std::printf("| %-18s | %-6s | %8.1f | %8.1f | %9.1f | %6.2f | %12.1f | %8.0f |\n",
                path.filename().string().c_str(), mode.c_str(), mib(file_bytes), mib(baseline_peak),
                mib(growth), static_cast<double>(growth) / static_cast<double>(file_bytes),
                mib(retained), elapsed.count());
    return EXIT_SUCCESS;
}

// Runs this program again with the given arguments and waits for it.
bool run_self(const std::vector<std::string>& arguments) {
    std::fflush(stdout);
    pid_t child = fork();
    if (child < 0) return false;
    if (child == 0) {
        std::vector<char*> argv;
        std::string program = "/proc/self/exe";
        argv.push_back(program.data());
        std::vector<std::string> copies = arguments;
        for (std::string& a : copies) argv.push_back(a.data());
        argv.push_back(nullptr);
        execv(program.c_str(), argv.data());
        std::perror("execv");
        _exit(127);
    }
    int status = 0;
    if (waitpid(child, &status, 0) != child) return false;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

int usage() {
    std::fprintf(stderr,
                 "usage: canopy_bench_memory [DIR]\n"
                 "         generates the 10k, 100k and 1M record files in DIR (default: a\n"
                 "         temporary directory, removed afterwards) and measures every mode\n"
                 "       canopy_bench_memory --measure read|sax|dom|canopy FILE\n"
                 "       canopy_bench_memory --generate RECORDS FILE\n");
    return EXIT_FAILURE;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    try {
        if (args.size() == 3 && args[0] == "--measure") return measure(args[1], args[2]);
        if (args.size() == 3 && args[0] == "--generate") {
            std::size_t records = std::strtoull(args[1].c_str(), nullptr, 10);
            if (records == 0) return usage();
            canopy::bench::write_file(args[2], canopy::bench::generate_flat_json(records));
            return EXIT_SUCCESS;
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return EXIT_FAILURE;
    }
    if (args.size() > 1 || (args.size() == 1 && args[0].rfind("--", 0) == 0)) return usage();

    const bool keep = args.size() == 1;
    auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
    const std::filesystem::path directory =
        keep ? std::filesystem::path(args[0])
             : std::filesystem::temp_directory_path() /
                   ("canopy-bench-memory-" + std::to_string(stamp));
    std::filesystem::create_directories(directory);

    std::printf(
        "peak = growth of ru_maxrss during one load in a fresh process; retained = VmRSS growth\n"
        "with the result still alive; time = that one load, cold heap (not a benchmark)\n\n");
    std::printf(
        "| file               | mode   | file MiB | base MiB | peak +MiB | x file | retained MiB "
        "| time ms  |\n"
        "|--------------------|--------|----------|----------|-----------|--------|--------------"
        "|----------|\n");
    bool ok = true;
    for (std::size_t records : sizes) {
        std::string file = (directory / ("flat-" + std::to_string(records) + ".json")).string();
        // Generated in a child as well, so that this process stays small for the next fork.
        ok = ok && run_self({"--generate", std::to_string(records), file});
        for (const char* mode : modes) ok = ok && run_self({"--measure", mode, file});
    }
    if (!keep) {
        std::error_code ignored;
        std::filesystem::remove_all(directory, ignored);
    }
    if (!ok) std::fprintf(stderr, "error: a measurement failed\n");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
