// tree_library and file_watcher: trees follow their files as editors save them.
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include "runtime_support.hpp"

namespace canopy::testing {
namespace {

namespace fs = std::filesystem;

using testing::scratch_folder;

/// Replaces a file's bytes: truncates it and writes them (one save, for the watcher).
void write(const fs::path& file, const std::string& text) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << text;
    REQUIRE(out.good());
}

/// Overwrites a file from its start without truncating it first, as an editor saving in place
/// does (the inode stays), then cuts it to the new length.
void write_in_place(const fs::path& file, const std::string& text) {
    {
        std::fstream out(file, std::ios::binary | std::ios::in | std::ios::out);
        REQUIRE(out.is_open());
        out << text;
        REQUIRE(out.good());
    }
    fs::resize_file(file, text.size());
}

/// A Sequence of `leaves` AlwaysSuccess leaves: leaves + 1 nodes, its describe naming them.
std::string sequence_of(int leaves) {
    std::vector<std::string> records{R"({"id": 1, "type": "Sequence", "describe": "version )" +
                                     std::to_string(leaves) + R"("})"};
    for (int i = 0; i < leaves; ++i) records.push_back(record(2 + i, 1, "AlwaysSuccess"));
    return json_tree(records);
}

/// A file that does not load: an unknown type on line 2.
const std::string broken = json_tree({R"({"id": 1, "type": "Sequnce"})"});

/// Every event a library reports.
struct event_log {
    explicit event_log(tree_library& trees) {
        trees.on_event([this](const reload_event& e) { events.push_back(e); });
    }
    std::size_t count(reload_outcome outcome) const {
        return static_cast<std::size_t>(
            std::count_if(events.begin(), events.end(),
                          [&](const reload_event& e) { return e.outcome == outcome; }));
    }
    std::vector<reload_event> events;
};

/// Polls until the library reports something, at most `polls` times; how many it reported.
std::size_t poll_until_event(tree_library& trees, int polls = 4) {
    for (int k = 0; k < polls; ++k) {
        if (const std::size_t reported = trees.poll()) return reported;
    }
    return 0;
}

}  // namespace

TEST_SUITE("hot reload") {
    TEST_CASE("loading one file twice gives one handle") {
        scratch_folder folder;
        write(folder / "a.json", sequence_of(2));
        const registry reg = runtime_registry();
        tree_library trees(reg);
        const tree_handle first = trees.load(folder / "a.json");
        const tree_handle second = trees.load(folder.path / "." / "a.json");
        CHECK(first.current() == second.current());
        CHECK(trees.size() == 1);
        write(folder / "a.json", sequence_of(3));
        CHECK(poll_until_event(trees) == 1);
        CHECK(second.current()->size() == 4);
        CHECK(first.version() == 2);
    }

    TEST_CASE("a file that does not load the first time throws and is not watched") {
        scratch_folder folder;
        write(folder / "bad.json", broken);
        const registry reg = runtime_registry();
        tree_library trees(reg);
        try {
            trees.load(folder / "bad.json");
            FAIL("no load_error");
        } catch (const load_error& e) {
            REQUIRE(e.diagnostics().size() == 1);
            CHECK(e.diagnostics()[0].code == diagnostic_code::unknown_type);
            CHECK(e.diagnostics()[0].where.line == 2);
        }
        CHECK(trees.size() == 0);
        write(folder / "bad.json", sequence_of(1));
        CHECK(trees.load(folder / "bad.json").current()->size() == 2);
    }

    TEST_CASE("a save in place reloads once the file has settled") {
        scratch_folder folder;
        write(folder / "a.json", sequence_of(2));
        const registry reg = runtime_registry();
        tree_library trees(reg);
        event_log log(trees);
        const tree_handle handle = trees.load(folder / "a.json");
        const fs::path key = fs::weakly_canonical(folder / "a.json");
        CHECK(trees.poll() == 0);
        write_in_place(folder / "a.json", sequence_of(5));
        CHECK(trees.poll() == 0);  // first seen: wait for it to settle
        CHECK(handle.version() == 1);
        CHECK(trees.poll() == 1);
        REQUIRE(log.events.size() == 1);
        const reload_event& e = log.events[0];
        CHECK(e.outcome == reload_outcome::reloaded);
        CHECK(e.path == folder / "a.json");
        CHECK(e.nodes == 6);
        CHECK(e.version == 2);
        CHECK(e.diagnostics.empty());
        CHECK(e.changed == std::vector<fs::path>{key});
        CHECK(e.load_time.count() > 0);
        CHECK(handle.current()->size() == 6);
        CHECK(trees.poll() == 0);
        CHECK(trees.poll() == 0);
    }

    TEST_CASE("a save to a temporary file renamed over the old one reloads") {
        scratch_folder folder;
        write(folder / "a.json", sequence_of(2));
        const registry reg = runtime_registry();
        tree_library trees(reg);
        event_log log(trees);
        const tree_handle handle = trees.load(folder / "a.json");
        write(folder / ".a.json.tmp", sequence_of(4));
        fs::rename(folder / ".a.json.tmp", folder / "a.json");
        CHECK(poll_until_event(trees) == 1);
        REQUIRE(log.events.size() == 1);
        CHECK(log.events[0].outcome == reload_outcome::reloaded);
        CHECK(handle.current()->size() == 5);
        CHECK(handle.version() == 2);
    }

    TEST_CASE("a file truncated and then written is never loaded half written") {
        scratch_folder folder;
        const std::string next = sequence_of(6);
        write(folder / "a.json", sequence_of(2));
        const registry reg = runtime_registry();
        tree_library trees(reg);
        event_log log(trees);
        const tree_handle handle = trees.load(folder / "a.json");
        SUBCASE("truncated, then written whole") {
            fs::resize_file(folder / "a.json", 0);
            CHECK(trees.poll() == 0);
            CHECK(trees.poll() == 0);  // settled, but empty: a save in progress
            CHECK(trees.poll() == 0);
            write_in_place(folder / "a.json", next);
            CHECK(trees.poll() == 0);
            CHECK(trees.poll() == 1);
            REQUIRE(log.events.size() == 1);
            CHECK(log.events[0].outcome == reload_outcome::reloaded);
        }
        SUBCASE("truncated, written in part, then the rest") {
            fs::resize_file(folder / "a.json", 0);
            CHECK(trees.poll() == 0);
            CHECK(trees.poll() == 0);
            write_in_place(folder / "a.json", next.substr(0, next.size() / 2));
            trees.poll();
            trees.poll();  // a writer this slow is taken as done: the half does not load
            CHECK(handle.current()->size() == 3);
            CHECK(log.count(reload_outcome::reloaded) == 0);
            write_in_place(folder / "a.json", next);
            trees.poll();
            trees.poll();
            CHECK(log.count(reload_outcome::reloaded) == 1);
        }
        CHECK(handle.current()->size() == 7);
        CHECK(handle.version() == 2);
    }

    TEST_CASE("a file deleted and created again reloads once it is back") {
        scratch_folder folder;
        write(folder / "a.json", sequence_of(2));
        const registry reg = runtime_registry();
        tree_library trees(reg);
        event_log log(trees);
        const tree_handle handle = trees.load(folder / "a.json");
        agent a(handle);
        fs::remove(folder / "a.json");
        CHECK(poll_until_event(trees) == 1);
        REQUIRE(log.events.size() == 1);
        CHECK(log.events[0].outcome == reload_outcome::deleted);
        CHECK(log.events[0].nodes == 3);
        CHECK(poll_until_event(trees) == 0);  // said once
        CHECK(run(a, 2) == "ss");             // the agents go on with the tree they have
        CHECK(handle.version() == 1);
        write(folder / "a.json", sequence_of(3));
        CHECK(poll_until_event(trees) == 1);
        REQUIRE(log.events.size() == 2);
        CHECK(log.events[1].outcome == reload_outcome::reloaded);
        CHECK(handle.current()->size() == 4);
        a.tick(0.1);
        CHECK(a.tree().size() == 4);
    }

    TEST_CASE("a file deleted and at once created again is one change") {
        scratch_folder folder;
        write(folder / "a.json", sequence_of(2));
        const registry reg = runtime_registry();
        tree_library trees(reg);
        event_log log(trees);
        const tree_handle handle = trees.load(folder / "a.json");
        fs::remove(folder / "a.json");
        write(folder / "a.json", sequence_of(8));
        CHECK(poll_until_event(trees) == 1);
        CHECK(poll_until_event(trees) == 0);
        REQUIRE(log.events.size() == 1);
        CHECK(log.events[0].outcome == reload_outcome::reloaded);
        CHECK(handle.current()->size() == 9);
    }

    TEST_CASE("a touch that keeps the bytes does not reload") {
        scratch_folder folder;
        write(folder / "a.json", sequence_of(2));
        const registry reg = runtime_registry();
        tree_library trees(reg);
        event_log log(trees);
        const tree_handle handle = trees.load(folder / "a.json");
        const std::shared_ptr<const tree> first = handle.current();
        fs::last_write_time(folder / "a.json",
                            fs::last_write_time(folder / "a.json") + std::chrono::seconds(3));
        CHECK(poll_until_event(trees) == 0);
        write(folder / "a.json", sequence_of(2));  // the same bytes again
        write(folder / "copy.json", sequence_of(2));
        fs::rename(folder / "copy.json", folder / "a.json");  // and a new inode holding them
        CHECK(poll_until_event(trees) == 0);
        CHECK(log.events.empty());
        CHECK(handle.current() == first);
        CHECK(handle.version() == 1);
    }

    TEST_CASE("a broken save keeps the previous tree until the file is fixed") {
        scratch_folder folder;
        const registry reg = runtime_registry();
        write(folder / "a.json", json_tree({record(1, 0, "Sequence"), leaf(2, 1, "rs")}));
        tree_library trees(reg);
        event_log log(trees);
        const tree_handle handle = trees.load(folder / "a.json");
        script_log host;
        agent a(handle, &host);
        CHECK(run(a, 1) == "r");

        write(folder / "a.json",
              json_tree({record(1, 0, "Sequence"), leaf(2, 1, "rs"), record(3, 1, "Sequnce")}));
        CHECK(poll_until_event(trees) == 1);
        REQUIRE(log.events.size() == 1);
        const reload_event& kept = log.events[0];
        CHECK(kept.outcome == reload_outcome::kept_previous);
        CHECK(kept.nodes == 2);
        CHECK(kept.version == 1);
        REQUIRE(kept.diagnostics.size() == 1);
        CHECK(kept.diagnostics[0].code == diagnostic_code::unknown_type);
        CHECK(kept.diagnostics[0].where.line == 4);
        CHECK(kept.diagnostics[0].message.find("did you mean 'Sequence'") != std::string::npos);
        CHECK(run(a, 2) == "sr");  // the old tree goes on, its leaf not halted
        CHECK(host.enters == 2);
        CHECK(poll_until_event(trees) == 0);  // reported once, retried on the next change

        write(folder / "a.json",
              json_tree({record(1, 0, "Sequence"), leaf(2, 1, "rs"), leaf(3, 1, "s")}));
        CHECK(poll_until_event(trees) == 1);
        REQUIRE(log.events.size() == 2);
        CHECK(log.events[1].outcome == reload_outcome::reloaded);
        CHECK(log.events[1].nodes == 3);
        CHECK(a.is_running(1));
        // The running leaf is unchanged, so it keeps its place (docs/snapshots.md): it goes on
        // from its third tick and succeeds, then the new leaf runs.
        CHECK(run(a, 1) == "s");
        CHECK(host.enters == 3);
        CHECK(a.tree().size() == 3);
        CHECK(host.violations == 0);
        CHECK(host.enters == host.finishes);  // the Sequence finished
        CHECK(run(a, 1) == "r");              // and starts again
        CHECK(host.enters == host.finishes + 1);
    }

    TEST_CASE("a change to a subtree file reloads every tree that uses it") {
        scratch_folder folder;
        const registry reg = runtime_registry();
        write(folder / "sub.json", sequence_of(1));
        const std::string uses_sub = R"({"id": 2, "parentId": 1, "type": "SubTree", )"
                                     R"("params": {"file": "sub.json"}})";
        write(folder / "a.json", json_tree({record(1, 0, "Sequence"), uses_sub}));
        write(folder / "b.json",
              json_tree({record(1, 0, "Selector"), uses_sub, record(3, 1, "AlwaysFailure")}));
        tree_library trees(reg);
        event_log log(trees);
        const tree_handle a = trees.load(folder / "a.json");
        const tree_handle b = trees.load(folder / "b.json");
        CHECK(a.current()->size() == 4);
        CHECK(b.current()->size() == 5);
        write(folder / "sub.json", sequence_of(3));
        CHECK(poll_until_event(trees) == 2);
        CHECK(log.count(reload_outcome::reloaded) == 2);
        for (const reload_event& e : log.events)
            CHECK(e.changed == std::vector<fs::path>{fs::weakly_canonical(folder / "sub.json")});
        CHECK(a.current()->size() == 6);
        CHECK(b.current()->size() == 7);

        SUBCASE("a subtree file deleted keeps the trees; created again, they reload") {
            fs::remove(folder / "sub.json");
            CHECK(poll_until_event(trees) == 2);
            CHECK(log.count(reload_outcome::kept_previous) == 2);
            CHECK(log.events.back().diagnostics.at(0).code == diagnostic_code::io_error);
            write(folder / "sub.json", sequence_of(2));
            CHECK(poll_until_event(trees) == 2);
            CHECK(a.current()->size() == 5);
        }
        SUBCASE("a subtree file named only once the tree changes is watched from then on") {
            write(folder / "other.json", sequence_of(1));
            write(folder / "a.json", json_tree({record(1, 0, "Sequence"),
                                                R"({"id": 2, "parentId": 1, "type": "SubTree", )"
                                                R"("params": {"file": "other.json"}})"}));
            CHECK(poll_until_event(trees) == 1);
            write(folder / "other.json", sequence_of(4));
            CHECK(poll_until_event(trees) == 1);
            CHECK(a.current()->size() == 7);
            CHECK(b.current()->size() == 7);
        }
    }

    // Skipped: try_load_file's list of the files it read leaves out a subtree file that
    // does not exist (file_set::resolve returns an empty path and records nothing), so the
    // library cannot watch for it to appear. Enable once that list holds it.
    TEST_CASE("a missing subtree file that appears makes the tree load") {
        scratch_folder folder;
        const registry reg = runtime_registry();
        write(folder / "sub.json", sequence_of(1));
        write(folder / "a.json",
              json_tree({record(1, 0, "Sequence"), R"({"id": 2, "parentId": 1, "type": "SubTree", )"
                                                   R"("params": {"file": "sub.json"}})"}));
        tree_library trees(reg);
        event_log log(trees);
        const tree_handle a = trees.load(folder / "a.json");
        write(folder / "a.json",
              json_tree({record(1, 0, "Sequence"), R"({"id": 2, "parentId": 1, "type": "SubTree", )"
                                                   R"("params": {"file": "later.json"}})"}));
        CHECK(poll_until_event(trees) == 1);
        CHECK(log.count(reload_outcome::kept_previous) == 1);
        write(folder / "later.json", sequence_of(2));
        CHECK(poll_until_event(trees) == 1);
        CHECK(log.count(reload_outcome::reloaded) == 1);
        CHECK(a.current()->size() == 5);
    }

    TEST_CASE("a tree the program refuses is kept out like one that does not load") {
        scratch_folder folder;
        const registry reg = runtime_registry();
        write(folder / "a.json", sequence_of(1));
        tree_library_options options;
        options.accept = [](const tree& t) {
            return t.size() > 3 ? std::string("too big for this test") : std::string();
        };
        tree_library trees(reg, options);
        event_log log(trees);
        const tree_handle handle = trees.load(folder / "a.json");
        write(folder / "a.json", sequence_of(5));
        CHECK(poll_until_event(trees) == 1);
        REQUIRE(log.events.size() == 1);
        CHECK(log.events[0].outcome == reload_outcome::kept_previous);
        CHECK(log.events[0].refusal == "too big for this test");
        CHECK(handle.version() == 1);
        write(folder / "big.json", sequence_of(5));
        CHECK_THROWS_AS(trees.load(folder / "big.json"), error);
        CHECK(trees.size() == 1);
    }

    TEST_CASE("agents made from a handle run the new tree from their next tick, in place") {
        scratch_folder folder;
        const registry reg = runtime_registry();
        write(folder / "a.json", json_tree({record(1, 0, "Sequence"), leaf(2, 1, "r")}));
        tree_library trees(reg);
        const tree_handle handle = trees.load(folder / "a.json");
        std::vector<script_log> hosts(50);
        std::vector<agent> agents;
        for (script_log& host : hosts) agents.emplace_back(handle, &host, agents.size());
        for (agent& a : agents) CHECK(run(a, 2) == "rr");
        write(folder / "a.json",
              json_tree({record(1, 0, "Sequence"), leaf(2, 1, "s"), leaf(3, 1, "s")}));
        CHECK(poll_until_event(trees) == 1);
        for (agent& a : agents) {
            CHECK(a.time_ns() == 200'000'000);
            CHECK(run(a, 1) == "s");
            CHECK(a.tree().size() == 3);
            CHECK(a.time_ns() == 300'000'000);  // the clock goes on
        }
        for (const script_log& host : hosts) {
            CHECK(host.violations == 0);
            // Only the running leaf's parameter changed: it keeps its place and ticks on with
            // the new one, then the new leaf runs.
            CHECK(host.enters == 2);
            CHECK(host.enters == host.finishes);
            CHECK(host.calls[1] == "exit success #2");
        }
    }

    TEST_CASE("watch polls on its own thread until stopped") {
        scratch_folder folder;
        const registry reg = runtime_registry();
        write(folder / "a.json", sequence_of(1));
        tree_library trees(reg);
        std::atomic<int> events{0};
        trees.on_event([&](const reload_event&) { ++events; });
        const tree_handle handle = trees.load(folder / "a.json");
        trees.watch(std::chrono::milliseconds(5));
        write(folder / "a.json", sequence_of(2));
        const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        while (handle.version() == 1 && std::chrono::steady_clock::now() < give_up)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        const auto asked = std::chrono::steady_clock::now();
        trees.stop();
        CHECK(std::chrono::steady_clock::now() - asked < std::chrono::seconds(1));
        CHECK(handle.current()->size() == 3);
        CHECK(events == 1);
        trees.stop();   // twice is harmless
        trees.watch();  // and the destructor stops it
    }

    TEST_CASE("file_watcher sees same-size rewrites within one tick of the file clock") {
        scratch_folder folder;
        write(folder / "a.txt", "one");
        file_watcher watcher;
        watcher.watch({folder / "a.txt", folder / "missing.txt"});
        CHECK(watcher.size() == 2);
        const auto stamp = fs::last_write_time(folder / "a.txt");
        write_in_place(folder / "a.txt", "two");
        fs::last_write_time(folder / "a.txt", stamp);  // as if written within the same tick
        // The metadata did not move, but a recent file is hashed on every poll.
        auto changes = watcher.poll();
        REQUIRE(changes.size() == 1);
        CHECK(changes[0].first == folder / "a.txt");
        CHECK(watcher.poll().empty());
        write(folder / "missing.txt", "now here");
        CHECK(watcher.poll().empty());
        CHECK(watcher.settled(folder / "missing.txt") == false);
        changes = watcher.poll();
        REQUIRE(changes.size() == 1);
        CHECK(changes[0].first == folder / "missing.txt");
        CHECK(changes[0].second == file_watcher::change::modified);
        watcher.watch({folder / "a.txt"});
        CHECK(watcher.size() == 1);
    }

    TEST_CASE("reloads while other threads tick agents are safe") {
        // The main thread saves a valid version and a broken one in turn and polls; another
        // thread ticks 2,000 agents all along. Every tree an agent runs must be a published
        // valid one (each has its own size), no tick may throw, and all end on the last one.
        scratch_folder folder;
        const registry reg = runtime_registry();
        write(folder / "a.json", sequence_of(1));
        tree_library trees(reg);
        event_log log(trees);
        const tree_handle handle = trees.load(folder / "a.json");
        std::vector<agent> agents;
        for (int i = 0; i < 2000; ++i) agents.emplace_back(handle, nullptr, i);

        std::atomic<bool> done{false};
        std::atomic<int> thrown{0};
        std::atomic<int> passes{0};  // over all the agents
        std::set<std::size_t> seen;  // sizes of the trees agents ran: the ticking thread's
        std::thread ticking([&] {
            while (!done.load()) {
                for (agent& a : agents) {
                    try {
                        a.tick(0.01);
                        seen.insert(a.tree().size());
                    } catch (...) {
                        ++thrown;
                    }
                }
                ++passes;
            }
        });
        // Until a whole pass has begun after now: every agent then ran the current tree.
        auto wait_for_a_pass = [&] {
            const int now = passes.load();
            while (passes.load() < now + 2) std::this_thread::yield();
        };
        std::set<std::size_t> published{2};
        const int versions = 30;
        for (int v = 2; v <= versions; ++v) {
            write(folder / "a.json", broken);
            poll_until_event(trees);
            write(folder / "a.json", sequence_of(v));
            poll_until_event(trees);
            published.insert(static_cast<std::size_t>(v) + 1);
            if (v % 10 == 0) wait_for_a_pass();
        }
        done = true;
        ticking.join();
        CHECK(thrown == 0);
        CHECK(log.count(reload_outcome::reloaded) == versions - 1);
        CHECK(log.count(reload_outcome::kept_previous) == versions - 1);
        for (std::size_t size : seen) CHECK(published.count(size) == 1);
        CHECK(seen.count(11) == 1);  // those waited for were run
        CHECK(seen.count(31) == 1);
        for (agent& a : agents) a.tick(0.01);
        for (const agent& a : agents) CHECK(a.tree().size() == versions + 1);
    }
}

}  // namespace canopy::testing
