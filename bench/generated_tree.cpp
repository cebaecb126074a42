#include "generated_tree.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace canopy::bench {
namespace {

// splitmix64: tiny, and unlike std::uniform_int_distribution it gives the same numbers with
// every standard library, so every platform benchmarks the same file.
class random_source {
public:
    explicit random_source(std::uint64_t seed) : state_(seed) {}

    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    /// A number in [0, n); the modulo bias is far below anything a benchmark could notice.
    std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
    bool percent(unsigned p) { return below(100) < p; }

    template <std::size_t N>
    std::string_view pick(const std::string_view (&words)[N]) {
        return words[below(N)];
    }

private:
    std::uint64_t state_;
};

constexpr std::string_view things[] = {
    "door",   "coin",     "owner",  "enemy",  "ladder", "chest",   "torch",  "bridge",
    "lever",  "waypoint", "target", "ammo",   "health", "pack",    "gate",   "cart",
    "window", "trap",     "bell",   "banner", "rope",   "crystal", "shield", "campfire"};
constexpr std::string_view states[] = {
    "open",   "closed",  "in sight", "in range",  "empty", "full",    "nearby",  "blocked",
    "locked", "burning", "guarded",  "reachable", "low",   "charged", "visible", "out of reach"};
constexpr std::string_view verbs[] = {"open",  "close",   "pick up", "drop",   "walk to",
                                      "climb", "guard",   "repair",  "light",  "search",
                                      "pull",  "inspect", "carry",   "follow", "mark"};
constexpr std::string_view goals[] = {
    "patrol", "gather", "defend the camp", "explore", "flee",       "restock", "escort",
    "idle",   "hunt",   "trade",           "rest",    "investigate"};
constexpr std::string_view fallbacks[] = {"wander about", "wait a moment", "call for help",
                                          "look around", "go back to the owner"};
// Texts an editor's user writes now and then: escapes and characters beyond ASCII.
constexpr std::string_view unusual[] = {
    R"(say \"hello\" to the owner)",      "wait 2 s \xe2\x86\x92 then look around",
    "go to the caf\xc3\xa9 and sit down", R"(path: C:\\maps\\level1)",
    "\xc2\xbf is the gate open ?",        R"(play the \"idle\" animation)",
};

enum class kind : std::uint8_t { success, failure, invert, sequence, selector };

constexpr std::string_view type_names[] = {"AlwaysSuccess", "AlwaysFailure", "Not", "Sequence",
                                           "Selector"};

void append(std::string& out, std::int64_t value) {
    char buffer[24];
    auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, result.ptr);
}

void append_condition(std::string& out, random_source& rng) {
    out += "is the ";
    out += rng.pick(things);
    out += ' ';
    out += rng.pick(states);
    out += '?';
}

void append_action(std::string& out, random_source& rng) {
    out += rng.pick(verbs);
    out += " the ";
    out += rng.pick(things);
}

void append_describe(std::string& out, kind k, random_source& rng) {
    if (rng.below(1000) < 15) {
        out += rng.pick(unusual);
        return;
    }
    switch (k) {
        case kind::success:
        case kind::failure:
            if (rng.percent(45)) {
                append_condition(out, rng);
            } else {
                append_action(out, rng);
            }
            break;
        case kind::invert:
            out += "not: ";
            append_condition(out, rng);
            break;
        case kind::sequence:
            out += rng.pick(goals);
            out += ": ";
            append_action(out, rng);
            out += ", then ";
            append_action(out, rng);
            break;
        case kind::selector:
            out += "try to ";
            append_action(out, rng);
            out += ", else ";
            out += rng.pick(fallbacks);
            break;
    }
}

}  // namespace

std::string generate_flat_json(std::size_t count, std::uint64_t seed, tree_shape* shape) {
    if (count == 0) throw std::invalid_argument("a generated tree needs at least one record");
    random_source rng(seed);

    std::vector<std::uint32_t> parent(count, 0);
    std::vector<std::uint32_t> children(count, 0);
    for (std::size_t i = 1; i < count; ++i) {
        std::size_t p = 0;
        std::size_t roll = rng.below(100);
        if (roll < 30) {
            p = i - 1;
        } else if (roll < 55) {
            p = i - 1 - rng.below(std::min<std::size_t>(i, 16));
        } else {
            p = rng.below(i);
        }
        parent[i] = static_cast<std::uint32_t>(p);
        ++children[p];
    }

    std::vector<std::int64_t> ids(count);
    std::int64_t next_id = 1;
    for (std::size_t i = 0; i < count; ++i) {
        ids[i] = next_id;
        next_id += 1 + (rng.percent(10) ? static_cast<std::int64_t>(1 + rng.below(9)) : 0);
    }

    std::size_t decorators = 0;
    std::string out;
    out.reserve(count * 100 + 64);
    out += "{\n  \"name\": \"generated-";
    append(out, static_cast<std::int64_t>(count));
    out += "\",\n  \"nodes\": [\n";
    for (std::size_t i = 0; i < count; ++i) {
        kind k = kind::success;
        if (children[i] == 0) {
            k = rng.percent(70) ? kind::success : kind::failure;
        } else if (children[i] == 1 && rng.percent(60)) {
            k = kind::invert;
            ++decorators;
        } else {
            k = rng.percent(55) ? kind::sequence : kind::selector;
        }
        out += "    {\"id\": ";
        append(out, ids[i]);
        out += ", \"parentId\": ";
        append(out, i == 0 ? 0 : ids[parent[i]]);
        out += ", \"type\": \"";
        out += type_names[static_cast<std::size_t>(k)];
        out += '"';
        if (!rng.percent(8)) {
            out += ", \"describe\": \"";
            append_describe(out, k, rng);
            out += '"';
        }
        out += i + 1 == count ? "}\n" : "},\n";
    }
    out += "  ]\n}\n";

    if (shape != nullptr) {
        *shape = tree_shape{};
        shape->records = count;
        shape->decorators = decorators;
        std::vector<std::uint32_t> depth(count, 0);
        double depth_sum = 0;
        for (std::size_t i = 0; i < count; ++i) {
            if (i != 0) depth[i] = depth[parent[i]] + 1;
            depth_sum += depth[i];
            shape->max_depth = std::max<std::size_t>(shape->max_depth, depth[i]);
            shape->max_children = std::max<std::size_t>(shape->max_children, children[i]);
            if (children[i] == 0) ++shape->leaves;
        }
        shape->mean_depth = depth_sum / static_cast<double>(count);
    }
    return out;
}

void write_file(const std::filesystem::path& path, const std::string& bytes) {
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "wb"),
                                                         &std::fclose);
    if (!file || std::fwrite(bytes.data(), 1, bytes.size(), file.get()) != bytes.size() ||
        std::fflush(file.get()) != 0) {
        throw std::runtime_error("cannot write " + path.string());
    }
}

std::string read_file(const std::filesystem::path& path) {
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"),
                                                         &std::fclose);
    if (!file) throw std::runtime_error("cannot open " + path.string());
    std::string bytes;
    std::error_code ec;
    std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (!ec) bytes.reserve(static_cast<std::size_t>(size));  // one allocation, as load_file
    char buffer[1 << 16];
    std::size_t got = 0;
    while ((got = std::fread(buffer, 1, sizeof buffer, file.get())) > 0) bytes.append(buffer, got);
    if (std::ferror(file.get()) != 0) throw std::runtime_error("cannot read " + path.string());
    return bytes;
}

}  // namespace canopy::bench
