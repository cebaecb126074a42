// btcpp_runner: ticks a BehaviorTree.CPP 4 XML tree in BehaviorTree.CPP itself and prints what
// `canopy run FILE --ticks N --blackboard` prints, so that scripts/btcpp_differential.py can
// compare the two tick by tick. Not part of Canopy's build: it links against a build of
// BehaviorTree.CPP 4.10 (an install prefix or build directory whose include/ and lib/ hold it).
//
// Build, against BehaviorTree.CPP's sources (SRC, for the headers) and a build directory of it
// (BUILD, where libbehaviortree_cpp.so is; for an install prefix use PREFIX/include and
// PREFIX/lib instead), both outside this repository:
//
//   g++ -std=c++17 -O2 scripts/btcpp_runner.cpp -o build/btcpp-diff/btcpp_runner
//       -I SRC/include -L BUILD -lbehaviortree_cpp -Wl,-rpath,BUILD -pthread
//
// (one command; scripts/btcpp_differential.py --btcpp-prefix BUILD runs it for you).
//
// Usage: btcpp_runner FILE.xml [--ticks N] [--tree ID] [--substitute RULES] [--paths OUT]
//                     [--coverage OUT] [--enum NAME=INTEGER]... [--set KEY=VALUE]...
// --enum registers a scripting enum (registerScriptingEnum). --set writes VALUE into the root
// blackboard once the tree is made, before the first tick, as a program does and as `canopy
// run --set` writes it: an integer as an `int` (an int64_t beyond its range), a number as a
// `double`, true or false as a `bool`, a name --enum gave as a value of the program's enum type,
// "text" (JSON-quoted, no escapes) as that std::string, other text as a std::string.
// With --substitute, RULES is a JSON file of substitution rules, which the factory reads
// (loadSubstitutionRuleFromJSON, with the file's text) before the tree is created; a file it
// refuses is a load error. With --paths, once the tree is created, OUT gets one line per node
// in UID order, substituted nodes and the children they leave dangling included:
// "UID<TAB>fullPath<TAB>name<TAB>registrationName" (a substituted node keeps its original
// registration name). With --coverage, after the ticks, OUT gets one line per node in UID
// order, as BehaviorTree.CPP's TreeObserver counted it: "UID success_count failure_count
// skip_count transitions_count" (the observer leaves out the dangling children).
//
// Registers BehaviorTree.CPP's built-ins and one test leaf, `Scripted` (input port `script`,
// e.g. "sfr": its k-th tick returns the k-th letter's status, round and round; s = SUCCESS,
// f = FAILURE, r = RUNNING). Canopy's CLI has no such node, so the differential generator does
// not use it. Creates the main tree (or --tree ID), then for each tick calls
// tickExactlyOnce() and prints:
//
//   tick K: success|failure|running|skipped
//     bb NAME=VALUE            (each non-empty entry of the root blackboard, sorted by name)
//
// with values as Canopy's `--blackboard` prints them: integers as integers, doubles in their
// shortest round-trip text (7.0 is `7`, 0.1 is `0.1`), booleans `true`/`false`, strings in
// single quotes. A tick that throws prints `tick K: error: MESSAGE` (one line) and ends the
// run, as `canopy run` ends (exit 1) when a tick throws; the runner then exits 1 too. A file
// that does not load prints `load error: MESSAGE` and exits 1.
#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <typeinfo>
#include <vector>

#include "behaviortree_cpp/bt_factory.h"
#include "behaviortree_cpp/loggers/bt_observer.h"

namespace {

// The program's enum type: the values --set writes by a registered name.
enum class ProgramEnum : int {};

// The test leaf: its status on its k-th tick is the k-th letter of `script`, round and round.
class Scripted final : public BT::ActionNodeBase {
public:
    Scripted(const std::string& name, const BT::NodeConfig& config)
        : BT::ActionNodeBase(name, config) {}

    static BT::PortsList providedPorts() {
        return {BT::InputPort<std::string>("script", "statuses: s, f or r per tick")};
    }

    BT::NodeStatus tick() override {
        std::string letters;
        if (!getInput("script", letters) || letters.empty()) {
            throw BT::RuntimeError("Scripted: missing or empty port [script]");
        }
        const char letter = letters[ticks_ % letters.size()];
        ++ticks_;
        switch (letter) {
            case 's': return BT::NodeStatus::SUCCESS;
            case 'f': return BT::NodeStatus::FAILURE;
            case 'r': return BT::NodeStatus::RUNNING;
            default: throw BT::RuntimeError("Scripted: letter other than s, f, r");
        }
    }

    void halt() override {}

private:
    std::size_t ticks_ = 0;
};

// One line: newlines (BehaviorTree.CPP's script errors have some) become " | ".
std::string one_line(const std::string& text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\r') continue;
        if (c == '\n') {
            if (i + 1 < text.size()) out += " | ";
            continue;
        }
        out += c;
    }
    return out;
}

std::string double_text(double value) {
    char digits[64];
    const auto result = std::to_chars(digits, digits + sizeof digits, value);
    return std::string(digits, result.ptr);
}

std::string status_text(BT::NodeStatus status) {
    switch (status) {
        case BT::NodeStatus::SUCCESS: return "success";
        case BT::NodeStatus::FAILURE: return "failure";
        case BT::NodeStatus::RUNNING: return "running";
        case BT::NodeStatus::SKIPPED: return "skipped";
        case BT::NodeStatus::IDLE: return "idle";
    }
    return "?";
}

// A value as Canopy's `canopy run --blackboard` prints it.
std::string value_text(const BT::Any& value) {
    if (value.isString()) return "'" + value.cast<std::string>() + "'";
    if (value.type() == typeid(bool)) return value.cast<bool>() ? "true" : "false";
    const std::type_info& held = value.castedType();
    if (held == typeid(double)) return double_text(value.cast<double>());
    if (held == typeid(std::int64_t)) return std::to_string(value.cast<std::int64_t>());
    if (held == typeid(std::uint64_t)) return std::to_string(value.cast<std::uint64_t>());
    try {
        return value.cast<std::string>();
    } catch (const std::exception&) {
        return "<" + BT::demangle(value.type()) + ">";
    }
}

void print_blackboard(BT::Tree& tree) {
    const BT::Blackboard::Ptr board = tree.rootBlackboard();
    if (!board) return;
    std::vector<std::string> names;
    for (const auto& name : board->getKeys()) names.emplace_back(name);
    std::sort(names.begin(), names.end());
    for (const std::string& name : names) {
        const auto entry = board->getEntry(name);
        if (!entry) continue;
        std::string shown;
        {
            const std::scoped_lock lock(entry->entry_mutex);
            if (entry->value.empty()) continue;
            shown = value_text(entry->value);
        }
        std::cout << "  bb " << name << '=' << shown << '\n';
    }
}

// One line per node of every subtree, in UID order: "UID\tfullPath\tname\tregistrationName".
// The subtrees' node lists hold the children a substituted node leaves dangling, which the
// tree's visitors do not reach.
bool write_paths(const BT::Tree& tree, const std::string& path) {
    std::map<std::uint16_t, const BT::TreeNode*> by_uid;
    for (const auto& subtree : tree.subtrees) {
        for (const auto& node : subtree->nodes) by_uid[node->UID()] = node.get();
    }
    std::ofstream out(path);
    for (const auto& [uid, node] : by_uid) {
        out << uid << '\t' << node->fullPath() << '\t' << node->name() << '\t'
            << node->registrationName() << '\n';
    }
    return static_cast<bool>(out);
}

std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Writes a --set's VALUE into `board`, as the comment at the top says.
void set_value(BT::Blackboard& board, const std::string& key, const std::string& text,
               const std::map<std::string, int>& enums) {
    const char* first = text.data();
    const char* last = first + text.size();
    std::int64_t integer = 0;
    if (auto [end, e] = std::from_chars(first, last, integer); e == std::errc() && end == last) {
        if (integer >= INT32_MIN && integer <= INT32_MAX) {
            board.set(key, static_cast<int>(integer));
        } else {
            board.set(key, integer);
        }
        return;
    }
    char* end = nullptr;
    const double number = std::strtod(text.c_str(), &end);
    if (!text.empty() && end == last && std::isfinite(number)) return board.set(key, number);
    if (text == "true" || text == "false") return board.set(key, text == "true");
    if (const auto found = enums.find(text); found != enums.end()) {
        return board.set(key, static_cast<ProgramEnum>(found->second));
    }
    if (text.size() >= 2 && text.front() == '"' && text.back() == '"') {
        return board.set(key, text.substr(1, text.size() - 2));
    }
    board.set(key, text);
}

int usage() {
    std::cerr << "usage: btcpp_runner FILE.xml [--ticks N] [--tree ID] [--substitute RULES]"
                 " [--paths OUT] [--coverage OUT] [--enum NAME=INTEGER]... [--set KEY=VALUE]...\n";
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    std::string file;
    std::string tree_id;
    std::string coverage;
    std::string substitute;
    std::string paths;
    long ticks = 10;
    std::map<std::string, int> enums;
    std::vector<std::pair<std::string, std::string>> sets;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--ticks" && i + 1 < argc) {
            char* end = nullptr;
            ticks = std::strtol(argv[++i], &end, 10);
            if (end == nullptr || *end != '\0' || ticks < 1) return usage();
        } else if (arg == "--tree" && i + 1 < argc) {
            tree_id = argv[++i];
        } else if (arg == "--coverage" && i + 1 < argc) {
            coverage = argv[++i];
        } else if (arg == "--substitute" && i + 1 < argc) {
            substitute = argv[++i];
        } else if (arg == "--paths" && i + 1 < argc) {
            paths = argv[++i];
        } else if ((arg == "--set" || arg == "--enum") && i + 1 < argc) {
            const std::string given = argv[++i];
            const std::size_t equals = given.find('=');
            if (equals == 0 || equals == std::string::npos) return usage();
            const std::string name = given.substr(0, equals);
            const std::string value = given.substr(equals + 1);
            if (arg == "--set") {
                sets.emplace_back(name, value);
            } else {
                enums[name] = std::atoi(value.c_str());
            }
        } else if (!arg.empty() && arg[0] == '-') {
            return usage();
        } else if (file.empty()) {
            file = arg;
        } else {
            return usage();
        }
    }
    if (file.empty()) return usage();

    BT::BehaviorTreeFactory factory;
    factory.registerNodeType<Scripted>("Scripted");
    for (const auto& [name, value] : enums) factory.registerScriptingEnum(name, value);
    BT::Tree tree;
    try {
        // BehaviorTree.CPP resolves includes from the file's folder and fails on a bare name
        // ("cannot make absolute path"): give it the absolute path.
        file = std::filesystem::absolute(file).string();
        if (!substitute.empty()) factory.loadSubstitutionRuleFromJSON(read_text(substitute));
        if (tree_id.empty()) {
            tree = factory.createTreeFromFile(file);
        } else {
            factory.registerBehaviorTreeFromFile(file);
            tree = factory.createTree(tree_id);
        }
    } catch (const std::exception& e) {
        std::cout << "load error: " << one_line(e.what()) << std::endl;
        return 1;
    }

    try {
        for (const auto& [key, value] : sets) set_value(*tree.rootBlackboard(), key, value, enums);
    } catch (const std::exception& e) {
        std::cout << "load error: --set: " << one_line(e.what()) << std::endl;
        return 1;
    }

    if (!paths.empty() && !write_paths(tree, paths)) {
        std::cerr << "btcpp_runner: cannot write " << paths << '\n';
        return 1;
    }

    std::unique_ptr<BT::TreeObserver> observer;
    if (!coverage.empty()) observer = std::make_unique<BT::TreeObserver>(tree);
    for (long k = 1; k <= ticks; ++k) {
        BT::NodeStatus status = BT::NodeStatus::IDLE;
        try {
            status = tree.tickExactlyOnce();
        } catch (const std::exception& e) {
            std::cout << "tick " << k << ": error: " << one_line(e.what()) << std::endl;
            std::_Exit(1);
        }
        std::cout << "tick " << k << ": " << status_text(status) << '\n';
        print_blackboard(tree);
    }
    if (observer) {
        std::ofstream out(coverage);
        const std::map<std::uint16_t, BT::TreeObserver::NodeStatistics> by_uid(
            observer->statistics().begin(), observer->statistics().end());
        for (const auto& [uid, stats] : by_uid) {
            out << uid << ' ' << stats.success_count << ' ' << stats.failure_count << ' '
                << stats.skip_count << ' ' << stats.transitions_count << '\n';
        }
    }
    // The tree is not destroyed: its destructor halts every node and runs each `_onHalted`,
    // whose script may throw from a destructor. Nothing is left to clean up.
    std::cout.flush();
    std::_Exit(std::cout ? 0 : 1);
}
