// Snapshots (docs/snapshots.md): the input is a snapshot's bytes, or its JSON form. Each is
// restored into agents of three fixed trees (a BehaviorTree.CPP tree with scripts, timers and
// memories; a behavior3 tree with arrays and waits; a flat tree with keys of every type), as
// the same tree and as a changed one. The input's checksum is made to match, so that the
// fuzzer reaches the reader behind it. Promises checked: nothing crashes, leaks, hangs or
// throws but canopy::error; a refused snapshot is of code `snapshot` and leaves the agent as
// it was; a restored agent saves again to a snapshot that restores.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "canopy/canopy.hpp"
#include "core/bytes.hpp"
#include "snapshot_fixtures.hpp"

namespace {

using canopy_fuzz::fixture;
using canopy_fuzz::fixtures;

[[noreturn]] void broken(const std::string& promise) {
    std::fprintf(stderr, "snapshot fuzzer: %s\n", promise.c_str());
    std::abort();
}

// What restoring shows of an agent: its statuses, keys, clock and tick count.
std::string picture(canopy::agent& a) {
    std::string text = std::to_string(a.time_ns()) + " " + std::to_string(a.ticks());
    for (canopy::tree::index i = 0; i < a.tree().size(); ++i)
        text += static_cast<char>('0' + static_cast<int>(a.last_status(i)));
    const canopy::blackboard board = a.blackboard();
    for (std::uint32_t k = 0; k < board.keys().size(); ++k)
        text += " " + (board.is_set(k) ? board.text(k) : std::string("-"));
    return text;
}

// Whether every node state of `a` saved as bytes is one that node had in a fixture snapshot.
bool known_states(const fixture& f, const canopy::agent& a) {
    const canopy::snapshot_content now =
        canopy::read_snapshot(a.save(canopy::unsaved_state::restart));
    for (std::size_t i = 0; i < now.nodes.size(); ++i) {
        const canopy::snapshot_content::node& n = now.nodes[i];
        if (n.state != canopy::snapshot_content::saving::bytes) continue;
        const std::string_view mine =
            std::string_view(now.agents[0].image).substr(n.state_offset, n.state_size);
        bool seen = false;
        for (const fixture& g : fixtures()) {
            if (g.tree != f.tree) continue;
            const canopy::snapshot_content known = canopy::read_snapshot(g.snapshot);
            seen = seen ||
                   std::string_view(known.agents[0].image).substr(n.state_offset, n.state_size) ==
                       mine;
        }
        if (!seen) return false;
    }
    return true;
}

void try_restore(const fixture& f, std::string_view bytes, canopy::snapshot_match match) {
    canopy::agent a(f.tree, {}, 2);
    a.tick(0.1);
    const std::string before = picture(a);
    try {
        a.restore(bytes, match);
    } catch (const canopy::error& e) {
        if (e.code() != canopy::error_code::snapshot)
            broken(std::string("refused with another code: ") + e.what());
        if (picture(a) != before)
            broken(std::string("a refused restore changed the agent: ") + e.what());
        return;
    }
    // A restored agent ticks and saves again. Node states are restored as saved, trusted as
    // a tree file is (docs/snapshots.md): it ticks only when each is one the fixture's agent
    // had, so that the fuzzer's edits reach statuses, keys and clocks, not states.
    if (!known_states(f, a)) return;
    try {
        for (int k = 0; k < 5; ++k) a.tick(0.1);
    } catch (const canopy::error&) {
        return;
    }
    const std::string again = a.save();
    canopy::agent b(f.tree, {}, 3);
    b.restore(again);
    if (picture(b) != picture(a)) broken("a snapshot of a restored agent restores otherwise");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const bool json_form = size != 0 && data[0] == '{';
    std::string bytes;
    if (json_form) {
        try {
            bytes = canopy::snapshot_from_json(input);
        } catch (const canopy::error& e) {
            if (e.code() != canopy::error_code::snapshot)
                broken(std::string("JSON refused with another code: ") + e.what());
            return 0;
        }
    } else {
        bytes = std::string(input);
        canopy::detail::put(bytes, canopy::detail::checksum(input));
    }
    for (const fixture& f : fixtures()) {
        try_restore(f, bytes, canopy::snapshot_match::same_tree);
        try_restore(f, bytes, canopy::snapshot_match::changed_tree);
    }
    try {
        const canopy::snapshot_content content = canopy::read_snapshot(bytes);
        if (canopy::read_snapshot(canopy::write_snapshot(content)).agents.size() !=
            content.agents.size())
            broken("a snapshot written again reads otherwise");
        (void)canopy::snapshot_to_json(bytes);
    } catch (const canopy::error& e) {
        if (e.code() != canopy::error_code::snapshot)
            broken(std::string("read with another code: ") + e.what());
    }
    return 0;
}
