// What the subcommands share: reading options, standard input, messages, writing files,
// number checks and progress.
#include "commands.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <unordered_set>

#include "canopy/load/substitution.hpp"
#include "canopy/records/records.hpp"
#include "canopy/run/script.hpp"

namespace canopy::cli {
namespace {

// Standard input as the loader reads it: a path, so that every kind of load (one tree, every
// tree, a document) reads it alike.
const std::string standard_input = "/dev/stdin";

std::string lower_case(std::string text) {
    for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

std::int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

}  // namespace

std::string format_names() {
    std::string names;
    for (const format_info& row : formats()) {
        names += (names.empty() ? "'" : ", '") + std::string(row.name) + "'";
    }
    return names;
}

std::optional<file_format> find_format(const std::string& name) {
    for (const format_info& row : formats()) {
        if (lower_case(std::string(row.name)) == lower_case(name)) return row.id;
    }
    return std::nullopt;
}

void add_plugin_option(CLI::App& command) {
    command
        .add_option_function<std::vector<std::string>>(
            "--plugin",
            [](const std::vector<std::string>& paths) {
                for (const std::string& path : paths) add_plugin(path);
            },
            "The program's node types, from a shared library built with canopy_add_plugin "
            "(see docs/cli.md, \"Plugins\"): trees are checked and run with them and the "
            "built-in nodes, strictly, and not with the demos'; may be repeated")
        ->type_name("LIB")
        ->allow_extra_args(false);
}

void add_reading_options(CLI::App& command, load_options& options) {
    CLI::App* group = command.add_option_group(
        "Reading the file", "How to read the tree file (the same for every command)");
    add_plugin_option(*group);
    group->add_option("--tree", options.tree,
                      "The tree to use, by name, where the file holds several (default: its "
                      "main tree)");
    group->add_option_function<std::string>(
        "--from",
        [&options](const std::string& name) {
            options.format = find_format(name);
            if (!options.format) {
                throw CLI::ValidationError(
                    "--from", "unknown format '" + name + "' (formats: " + format_names() + ")");
            }
        },
        "Read the file as this format, whatever its extension and content say (any case): " +
            format_names() + "; needed to read standard input ('-')");
    group->add_flag("--lenient", options.lenient,
                    "Take node types the program does not know from the file's node models "
                    "or from their shape (see docs/formats.md); such a tree runs only with "
                    "--stub");
    group
        ->add_option("--models", options.model_files,
                     "The program's node models (what BehaviorTree.CPP's "
                     "writeTreeNodesModelXML writes, or a Groot2 palette): the types they "
                     "declare are known, with their ports and no other; may be repeated")
        ->type_name("FILE")
        ->allow_extra_args(false);
    group
        ->add_option("--register", options.registered_files,
                     "A tree file, or a folder of them, that the program registers too (as "
                     "BehaviorTree.CPP's registerBehaviorTreeFromFile): its trees are subtrees "
                     "the file may use by name; may be repeated")
        ->type_name("PATH")
        ->allow_extra_args(false);
    group->add_flag("--warnings-as-errors", options.warnings_as_errors,
                    "Fail on warnings (a likely typo the format lets through) as on errors");
    group
        ->add_option_function<std::vector<std::string>>(
            "--enum",
            [](const std::vector<std::string>& enums) {
                for (const std::string& text : enums) {
                    const std::size_t equals = text.find('=');
                    const std::string name = text.substr(0, equals);
                    std::int64_t value = 0;
                    const char* first = text.data() + equals + 1;
                    const char* last = text.data() + text.size();
                    const auto [end, e] = std::from_chars(first, last, value);
                    if (equals == 0 || equals == std::string::npos || e != std::errc() ||
                        end != last || first == last) {
                        throw CLI::ValidationError("--enum",
                                                   "'" + text +
                                                       "' is not NAME=INTEGER (a name scripts may "
                                                       "use, '=', and the integer it stands for)");
                    }
                    try {
                        cli_registry_to_extend().add_enum(name, value);
                    } catch (const std::exception& refused) {
                        throw CLI::ValidationError("--enum", refused.what());
                    }
                }
            },
            "NAME=INTEGER: a name the tree's scripts may use for that integer, as the "
            "program's registerScriptingEnum gives it (`mode == CHASE`); may be repeated")
        ->type_name("NAME=INTEGER");
}

void add_stub_option(CLI::App& command, load_options& options) {
    command
        .add_option_function<std::string>(
            "--stub",
            [&options](const std::string& name) {
                const status result = name == "success"   ? status::success
                                      : name == "failure" ? status::failure
                                                          : status::running;
                options.stub = result;
                options.lenient = true;
            },
            "Run a tree whose node types this tool lacks: read it as --lenient does, and give "
            "each such node a stand-in that returns STATUS at every tick (running: until "
            "halted) without ticking its children, as BehaviorTree.CPP's TestNode does")
        ->check(CLI::IsMember({"success", "failure", "running"}));
}

void add_substitute_option(CLI::App& command, load_options& options) {
    command.add_option_function<std::string>(
        "--substitute",
        [&options](const std::string& path) {
            substitution_read_result read = load_substitution_rules(path);
            print_diagnostics(read.diagnostics);
            if (!read) {
                throw error(error_code::load, "--substitute: " + path +
                                                  " holds no substitution rules Canopy can use");
            }
            options.substitutions =
                std::make_shared<const substitution_rules>(std::move(read.rules));
            options.lenient = true;
        },
        "Run a tree whose node types this tool lacks, read as --lenient does: the nodes "
        "BehaviorTree.CPP substitution rules match (a JSON file of TestNodeConfigs and "
        "SubstitutionRules, as its loadSubstitutionRuleFromJSON reads) run test nodes or nodes "
        "of other types in their place; see docs/testing.md");
}

std::string why_not_runnable(const tree& t) {
    for (tree::index i = 0; i < t.size(); ++i) {
        if (t.object(i) != nullptr) continue;
        return "node type '" + std::string(t.type_name(i)) +
               "' has no behaviour here, so the tree cannot run (--stub success|failure|running "
               "or --substitute FILE gives the program's nodes a stand-in)";
    }
    return {};
}

std::string cannot_run_text(const error& e, const tree& t) {
    std::string why = e.code() == error_code::not_runnable ? why_not_runnable(t) : std::string();
    return why.empty() ? std::string(e.what()) : why;
}

std::vector<bool> keys_of_the_tree(const tree& t) {
    const std::vector<blackboard_key>& keys = t.keys();
    std::vector<bool> ours(keys.size(), true);
    std::unordered_set<std::string_view> program;
    for (const blackboard_key& key : cli_registry().keys()) program.insert(key.name);
    std::unordered_set<std::string> named;
    auto script_names = [&named](const std::string& text, script_dialect dialect) {
        auto parsed = parsed_script::parse(text, dialect);
        if (const auto* script = std::get_if<parsed_script>(&parsed)) {
            for (std::string_view name : script->names()) {
                if (!name.empty() && name.front() == '@') name.remove_prefix(1);
                named.emplace(name);
            }
        }
    };
    const script_dialect dialect =
        t.rules() == runtime_rules::behavior3 ? script_dialect::behavior3 : script_dialect::btcpp;
    std::vector<bool> slot_named(keys.size(), false);
    for (tree::index i = 0; i < t.size(); ++i) {
        for (const param& p : t.params(i)) {
            if (p.key < keys.size()) slot_named[p.key] = true;
            if (p.names_key) {
                if (const auto* slot = std::get_if<std::int64_t>(&p.value);
                    slot != nullptr && *slot >= 0 && static_cast<std::size_t>(*slot) < keys.size())
                    slot_named[static_cast<std::size_t>(*slot)] = true;
            }
            if (p.compiled != nullptr) script_names(p.compiled->text(), dialect);
        }
        for (std::size_t which = 0; which < std::size(condition_params); ++which) {
            if (const script* condition = t.condition(i, which))
                script_names(condition->text(), script_dialect::btcpp);
        }
    }
    for (std::size_t k = 0; k < keys.size(); ++k) {
        if (program.count(keys[k].name) == 0 || keys[k].from_file) continue;
        ours[k] = slot_named[k] || named.count(keys[k].name) != 0;
    }
    return ours;
}

std::string input_path(const std::string& file, const load_options& options) {
    if (file != "-") return file;
    if (!options.format) {
        throw CLI::ValidationError(
            "-", "reading standard input needs --from FORMAT (formats: " + format_names() + ")");
    }
    return standard_input;
}

load_result load_tree(const std::string& file, const load_options& options) {
    if (file != "-") return try_load_file(file, cli_registry(), options);
    input_path(file, options);  // says that --from is needed, if it is missing
    return try_load_stream(stdin, *options.format, cli_registry(), input_name(file), options);
}

std::string input_name(const std::string& file) {
    return file == "-" || file == standard_input ? "<stdin>" : file;
}

void print_diagnostics(const std::vector<diagnostic>& diagnostics) {
    bool unknown_type = false;
    for (diagnostic d : diagnostics) {
        d.path = input_name(d.path);
        for (diagnostic_note& note : d.notes) note.path = input_name(note.path);
        std::cerr << to_string(d, hint_audience::command_line) << '\n';
        unknown_type = unknown_type || (d.code == diagnostic_code::unknown_type &&
                                        d.severity == diagnostic_severity::error);
    }
    if (unknown_type) {
        std::cerr << "canopy: note: `canopy types` lists the node types this tool knows; "
                     "--plugin LIB adds the program's node types, --models FILE its node "
                     "models, --lenient reads a tree written for another program\n";
    }
}

bool write_file(const std::string& path, const std::string& text, const std::string& what) {
    auto fail = [&](int number) {
        std::cerr << path << ": error: cannot write the " << what << ": " << std::strerror(number)
                  << '\n';
        return false;
    };
    std::FILE* file = std::fopen(path.c_str(), "wb");
    if (file == nullptr) return fail(errno);
    const bool written =
        std::fwrite(text.data(), 1, text.size(), file) == text.size() && std::fflush(file) == 0;
    const int write_errno = errno;
    // A full disk may only show when the buffered bytes leave, at flush or close.
    const bool closed = std::fclose(file) == 0;
    if (!written) return fail(write_errno);
    if (!closed) return fail(errno);
    return true;
}

int write_output(const std::string& path, const std::string& text) {
    if (!path.empty()) return write_file(path, text) ? 0 : 1;
    std::cout << text;
    std::cout.flush();
    return std::cout ? 0 : 1;
}

std::string number_text(double value) {
    char text[32];
    char* end = std::to_chars(text, text + sizeof text, value).ptr;
    return {text, end};
}

CLI::Validator whole_number(std::uint64_t minimum, std::uint64_t maximum, std::string name) {
    return {[minimum, maximum](std::string& text) -> std::string {
                std::uint64_t value = 0;
                const char* end = text.data() + text.size();
                const auto [stop, problem] = std::from_chars(text.data(), end, value);
                if (problem == std::errc() && stop == end && value >= minimum && value <= maximum) {
                    return {};
                }
                std::string wanted = "a whole number, " + std::to_string(minimum) + " or more";
                if (maximum != unbounded) {
                    wanted = "a whole number from " + std::to_string(minimum) + " to " +
                             std::to_string(maximum);
                }
                return "expected " + wanted + ", not '" + text + "'";
            },
            std::move(name)};
}

CLI::Validator time_step() {
    return {[](std::string& text) -> std::string {
                char* end = nullptr;
                const double value = std::strtod(text.c_str(), &end);
                if (text.empty() || *end != '\0' || !(value >= 0 && value <= longest_time_step)) {
                    return "expected a number of seconds from 0 to " +
                           number_text(longest_time_step) + " (a year), not '" + text + "'";
                }
                return {};
            },
            "SECONDS"};
}

progress::progress(std::string what, std::uint64_t total, std::uint64_t stride)
    : what_(std::move(what)),
      total_(total),
      stride_(std::max<std::uint64_t>(stride, 1)),
      shown_(isatty(STDERR_FILENO) == 1),
      start_ns_(now_ns()) {}

progress::~progress() {
    if (drawn_) std::cerr << "\r\033[K" << std::flush;  // erase the line
}

void progress::show(std::uint64_t done) {
    const std::int64_t now = now_ns();
    // Work done in half a second needs no progress; then a few redraws a second are enough.
    if (now - start_ns_ < 500'000'000 || now - last_ns_ < 200'000'000) return;
    last_ns_ = now;
    drawn_ = true;
    const double share =
        total_ == 0 ? 1.0 : static_cast<double>(done) / static_cast<double>(total_);
    std::cerr << "\r" << what_ << ": " << done << " of " << total_ << " ("
              << static_cast<int>(share * 100) << "%)" << std::flush;
}

}  // namespace canopy::cli
