#include "checks.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>

#include "canopy/load/load.hpp"
#include "canopy/run/agent.hpp"
#include "canopy/run/registry.hpp"
#include "canopy/views/convert.hpp"
#include "canopy/views/print.hpp"
#include "canopy/views/write.hpp"
#include "fuzz_registries.hpp"
#include "tick_checker.hpp"

namespace canopy::fuzz {

namespace {

std::string with_diagnostics(std::string what, const std::vector<diagnostic>& found) {
    for (const diagnostic& d : found) what += "\n  " + to_string(d);
    return what;
}

// A refusal says why, each problem with the path it concerns and a message.
std::string check_refusal(const std::vector<diagnostic>& found) {
    if (found.empty()) return "refused without a diagnostic";
    for (const diagnostic& d : found)
        if (d.path.empty() || d.message.empty())
            return with_diagnostics("a diagnostic without a path or message", found);
    return {};
}

// In Canopy's words: a round trip through another format keeps the tree, not the file's words.
std::string printed(const tree& t) {
    std::ostringstream out;
    print(t, out, true);  // the file's words, printed to be fuzzed; compared in Canopy's
    return to_canopy_text(t);
}

std::string load_round_trip(std::string_view text, file_format format, bool lenient) {
    load_options options;
    options.lenient = lenient;
    const load_result first = try_load_text(text, format, load_registry(), "<fuzz>", options);
    if (!first) return check_refusal(first.diagnostics);
    tree_document document;
    document.trees.push_back(to_records(*first.tree));
    document.rules = first.tree->rules();
    // The learned types that take the place of a registered one, as loading a document says.
    for (tree::index i = 0; i < first.tree->size(); ++i) {
        const std::string& name = first.tree->type(i).name;
        const auto& namesakes = document.foreign_namesakes;
        if (first.tree->object(i) == nullptr && load_registry().find(name) != nullptr &&
            std::find(namesakes.begin(), namesakes.end(), name) == namesakes.end())
            document.foreign_namesakes.push_back(name);
    }
    const write_result written = info(format).write(document);
    if (!written.problems.empty()) return {};  // the format cannot say it all: no round trip
    const load_result second =
        try_load_text(written.text, format, load_registry(), "<written>", options);
    if (!second)
        return with_diagnostics("a loaded tree, written, does not load again:\n" + written.text,
                                second.diagnostics);
    const std::string before = printed(*first.tree);
    const std::string after = printed(*second.tree);
    if (before != after)
        return "a loaded tree, written and loaded again, prints differently:\n" + before +
               "\nagain:\n" + after;
    return {};
}

}  // namespace

std::string check_read(std::string_view text, file_format format) {
    const read_result first = read_records(text, format, "<fuzz>");
    if (!first.complete) return check_refusal(first.diagnostics);
    if (has_errors(first.diagnostics)) return {};
    const write_result written = info(format).write(first.document);
    if (!written.problems.empty()) return {};  // the format cannot say it all: no round trip
    const read_result second = read_records(written.text, format, "<written>");
    if (!second.complete || has_errors(second.diagnostics))
        return with_diagnostics("the writer's text does not read back:\n" + written.text,
                                second.diagnostics);
    const write_result again = info(format).write(second.document);
    if (again.text != written.text)
        return "writing what was read back gives another text:\n" + written.text + "\nagain:\n" +
               again.text;
    return {};
}

std::string check_load(std::string_view text, file_format format) {
    std::string problem = load_round_trip(text, format, false);
    if (problem.empty()) problem = load_round_trip(text, format, true);
    return problem;
}

std::string check_convert(std::string_view text, file_format format) {
    // Files in memory, under a folder that does not exist: what the input names is not found.
    const std::filesystem::path folder = "/nonexistent-canopy-fuzz";
    const std::filesystem::path in = folder / ("in" + std::string(info(format).extensions[0]));
    load_options options;
    options.lenient = true;
    options.format = format;
    options.files_in_memory[in] = std::string(text);
    const file_load_result original = try_load_every_tree(in, load_registry(), options);
    for (const format_info& target : formats()) {
        const std::filesystem::path out = folder / ("out" + std::string(target.extensions[0]));
        const conversion converted = convert_file(in, out, target.id, load_registry(), options);
        if (!converted) {
            if (original && std::none_of(converted.diagnostics.begin(), converted.diagnostics.end(),
                                         [](const diagnostic& d) {
                                             return d.code == diagnostic_code::not_expressible;
                                         }))
                return with_diagnostics("a file that loads is refused by the " +
                                            std::string(target.name) +
                                            " writer without saying what it cannot say",
                                        converted.diagnostics);
            if (std::string problem = check_refusal(converted.diagnostics); !problem.empty())
                return problem;
            continue;
        }
        if (!original)
            return with_diagnostics(
                "a file that does not load converts to " + std::string(target.name),
                original.diagnostics);
        // Read back as a program would, independently of the conversion's own check.
        load_options back;
        back.lenient = true;
        back.files_in_memory[out] = converted.text;
        for (const auto& [name, written] : converted.files)
            back.files_in_memory[folder / name] = written;
        std::map<std::string, std::string> after;
        auto read = [&](const std::filesystem::path& path) {
            for (const auto& [name, t] : try_load_every_tree(path, load_registry(), back).trees)
                after.emplace(name, meaning_text(*t));
        };
        read(out);
        for (const auto& [name, written] : converted.files) read(folder / name);
        // One tree that the format names otherwise (BehaviorTree.CPP's MainTree for a tree
        // without a name) is still that tree.
        if (original.trees.size() == 1 && after.size() == 1)
            after = {{original.trees.front().first, after.begin()->second}};
        for (const auto& [name, t] : original.trees) {
            auto found = after.find(name);
            if (found == after.end())
                return "tree '" + name + "' is lost converting to " + std::string(target.name) +
                       ":\n" + converted.text;
            if (found->second != meaning_text(*t))
                return "tree '" + name + "' converted to " + std::string(target.name) +
                       " reads back otherwise:\n" + meaning_text(*t) + "\nagain:\n" +
                       found->second + "\nwritten:\n" + converted.text;
        }
    }
    return {};
}

std::string check_tick(const std::uint8_t* data, std::size_t size, file_format format, int ticks) {
    std::size_t text_size = size;
    const std::uint8_t* outcomes = data;
    std::size_t outcome_size = size;
    for (std::size_t i = size; i > 0; --i) {
        if (data[i - 1] == 0) {
            text_size = i - 1;
            outcomes = data + i;
            outcome_size = size - i;
            break;
        }
    }
    const std::string_view text(reinterpret_cast<const char*>(data), text_size);
    const load_result loaded = try_load_text(text, format, tick_registry(), "<fuzz>");
    if (!loaded) return check_refusal(loaded.diagnostics);
    byte_source bytes(outcomes, outcome_size);
    agent runner(loaded.tree, &bytes, outcome_size);
    tick_checker checker(*loaded.tree);
    runner.set_observer(&checker);
    try {
        for (int t = 0; t < ticks; ++t) {
            checker.begin_tick();
            try {
                runner.tick(bytes.next_dt());
            } catch (const enough_visits&) {
                // Exercised enough; the tick was cut short, so the checker's account no
                // longer holds: reset without it.
                runner.set_observer(nullptr);
                try {
                    runner.reset();
                } catch (const error& again) {
                    if (again.code() != error_code::script) throw;
                }
                return {};
            } catch (const error& e) {
                // A script that fails as it runs throws out of the tick, as designed
                // (docs/scripting.md), and so does a port of a BehaviorTree.CPP file's tree
                // that reads a key nothing wrote (docs/btcpp-xml.md), and a node of such a
                // tree where 4.10's tick throws (a child count, a skipped condition). The
                // observer missed the end of that tick, so the checker's account no longer
                // holds: reset without it.
                const bool as_btcpp =
                    loaded.tree->layout().fails_as_btcpp &&
                    (e.code() == error_code::param || e.code() == error_code::unsupported);
                if (e.code() != error_code::script && e.code() != error_code::blackboard &&
                    !as_btcpp)
                    throw;
                runner.set_observer(nullptr);
                try {
                    runner.reset();
                } catch (const error& again) {
                    if (again.code() != error_code::script) throw;  // an _onHalted that fails
                }
                return {};
            }
            checker.end_tick();
        }
        try {
            runner.reset();
        } catch (const error& e) {
            // An _onHalted that fails, once every node was halted (agent::reset).
            if (e.code() != error_code::script) throw;
        }
        checker.check_all_exited();
    } catch (const broken_promise& e) {
        return e.what();
    }
    return {};
}

}  // namespace canopy::fuzz
