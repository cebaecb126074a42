// Hot reload (docs/hot_reload.md): (1) the time from a save to the new tree in use: write the
// file, poll until the handle's version changes, then one agent tick on the new tree, for
// data/pet.json and a generated 100k-node flat JSON tree; (2) what following a handle costs a
// tick when nothing changes: 10,000 agents of data/guard.json ticked 1,000 times each, made
// from a handle and from the tree. Prints its figures; a plain program, since (1) is one
// event, not a loop to average.
#include <algorithm>
#include <canopy/canopy.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "demo.hpp"
#include "generated_tree.hpp"

namespace {

namespace fs = std::filesystem;
using clock_type = std::chrono::steady_clock;

double ms_since(clock_type::time_point start) {
    return std::chrono::duration<double, std::milli>(clock_type::now() - start).count();
}

// Saves `next` over `file`, then polls as a program's loop would (without sleeping) until the
// tree changes, and ticks one agent on it. The median of `runs` saves, alternating two texts.
void save_to_use(const char* label, const fs::path& file, const std::string& first,
                 const std::string& second, const canopy::registry& reg, int runs) {
    canopy::bench::write_file(file, first);
    canopy::tree_library trees(reg);
    const canopy::tree_handle handle = trees.load(file);
    canopy::agent a(handle, nullptr, 1);
    std::vector<double> save_to_tick;
    std::vector<double> load_ms;
    trees.on_event([&](const canopy::reload_event& e) {
        load_ms.push_back(std::chrono::duration<double, std::milli>(e.load_time).count());
    });
    std::size_t polls = 0;
    for (int k = 0; k < runs; ++k) {
        const std::uint64_t before = handle.version();
        const auto start = clock_type::now();
        canopy::bench::write_file(file, k % 2 == 0 ? second : first);
        while (handle.version() == before) {
            trees.poll();
            ++polls;
        }
        a.tick(0.1);
        save_to_tick.push_back(ms_since(start));
    }
    std::sort(save_to_tick.begin(), save_to_tick.end());
    std::sort(load_ms.begin(), load_ms.end());
    std::printf(
        "%-28s %8zu nodes  save to first tick: median %9.3f ms (load %9.3f ms), %.1f polls\n",
        label, handle.current()->size(), save_to_tick[save_to_tick.size() / 2],
        load_ms[load_ms.size() / 2], static_cast<double>(polls) / runs);
}

// ns per agent tick of `agents` agents ticked `ticks` times each.
double ns_per_tick(std::vector<canopy::agent>& agents, int ticks) {
    const auto start = clock_type::now();
    for (int k = 0; k < ticks; ++k) {
        for (canopy::agent& a : agents) a.tick(0.1);
    }
    return ms_since(start) * 1e6 / (static_cast<double>(agents.size()) * ticks);
}

}  // namespace

int main() {
    canopy::registry reg;
    canopy::register_builtin_nodes(reg);
    canopy::demo::register_demo_nodes(reg);
    const fs::path data = CANOPY_SOURCE_DIR "/data";
    const fs::path folder = fs::temp_directory_path() / "canopy_reload_bench";
    fs::create_directories(folder);

    std::printf("(1) save to use: write, poll until the handle's version changes, tick once\n");
    const std::string pet = canopy::bench::read_file(data / "pet.json");
    std::string pet_edited = pet;
    pet_edited.replace(pet_edited.find("wander about"), 12, "wander round");
    save_to_use("data/pet.json", folder / "pet.json", pet, pet_edited, reg, 21);
    const std::string big = canopy::bench::generate_flat_json(100'000);
    const std::string big_edited = canopy::bench::generate_flat_json(100'000, 7);
    save_to_use("generated flat JSON", folder / "big.json", big, big_edited, reg, 5);

    std::printf("(2) per agent tick, nothing reloading: 10,000 agents of data/guard.json\n");
    const int agents = 10'000;
    const int ticks = 1'000;
    canopy::tree_library trees(reg);
    const canopy::tree_handle handle = trees.load(data / "guard.json");
    std::vector<canopy::agent> plain;
    std::vector<canopy::agent> following;
    for (int i = 0; i < agents; ++i) {
        plain.emplace_back(handle.current(), nullptr, i);
        following.emplace_back(handle, nullptr, i);
    }
    // Alternate the two, twice, so that neither gets only the warm or only the cold machine.
    double plain_ns = 0;
    double following_ns = 0;
    for (int round = 0; round < 2; ++round) {
        plain_ns += ns_per_tick(plain, ticks / 2);
        following_ns += ns_per_tick(following, ticks / 2);
    }
    plain_ns /= 2;
    following_ns /= 2;
    std::printf("plain agents        %7.2f ns per agent tick\n", plain_ns);
    std::printf("following a handle  %7.2f ns per agent tick (%.3f x)\n", following_ns,
                following_ns / plain_ns);
    fs::remove_all(folder);
}
