// The script compiler and interpreter on their own (docs/scripting.md): the input is a script.
// It is parsed; each assignment that creates a key the scope lacks gets one of the type
// value_type gives (as the builder declares them); it is compiled against a few keys of each
// type and an enum, then run and tested on a blackboard. Promises checked: nothing crashes,
// leaks, hangs or overflows the stack; a problem lies within the text; running throws nothing
// but canopy::error with code `script`.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "canopy/core/error.hpp"
#include "canopy/run/blackboard.hpp"
#include "canopy/run/script.hpp"

namespace {

[[noreturn]] void broken(const std::string& promise) {
    std::fprintf(stderr, "script fuzzer: %s\n", promise.c_str());
    std::abort();
}

class fuzz_scope : public canopy::script_scope {
public:
    fuzz_scope() {
        using canopy::param_type;
        add("i", param_type::integer, std::int64_t{7});
        add("n", param_type::number, 2.5);
        add("b", param_type::boolean, true);
        add("s", param_type::string, std::string("12"));
        add("t", param_type::string, std::string("text"));
        add("@i", param_type::integer, std::int64_t{-3});
        add("@s", param_type::string, std::string("true"));
    }
    fuzz_scope(const fuzz_scope&) = delete;
    fuzz_scope& operator=(const fuzz_scope&) = delete;
    ~fuzz_scope() {
        if (!cells_.empty()) canopy::blackboard(base(), &layout_).destroy();
    }

    void add(std::string name, canopy::param_type type,
             std::optional<canopy::param_value> initial = std::nullopt) {
        keys_.push_back({std::move(name), type, std::move(initial), false});
    }
    bool has(std::string_view name) const { return find_key(name).has_value(); }

    /// The blackboard, laid out and its values constructed on the first call.
    canopy::blackboard board() {
        if (cells_.empty()) {
            layout_.place(keys_, false);
            cells_.assign(layout_.bytes / 8 + 1, 0);
            canopy::blackboard(base(), &layout_).construct();
        }
        return canopy::blackboard(base(), &layout_);
    }

    std::optional<key> find_key(std::string_view name) const override {
        for (std::size_t k = 0; k < keys_.size(); ++k) {
            if (keys_[k].name == name) {
                return key{static_cast<std::uint32_t>(k), keys_[k].type};
            }
        }
        return std::nullopt;
    }
    std::optional<std::int64_t> find_enum(std::string_view name) const override {
        if (name == "RED") return 1;
        if (name == "BLUE") return 3;
        if (name == "i2") return 2;  // an enum that is also a key's name below
        return std::nullopt;
    }

private:
    std::byte* base() { return reinterpret_cast<std::byte*>(cells_.data()); }

    std::vector<canopy::blackboard_key> keys_;
    canopy::blackboard::layout layout_;
    std::vector<std::int64_t> cells_;  // 8-byte aligned, as every key type here asks
};

void check_problem(const canopy::script_problem& p, std::size_t size, const char* stage) {
    if (p.offset > size) broken(std::string(stage) + " problem past the text: " + p.message);
    if (p.message.empty()) broken(std::string(stage) + " problem without a message");
}

template <typename Run>
void run_checked(Run run) {
    try {
        run();
    } catch (const canopy::error& e) {
        if (e.code() != canopy::error_code::script) {
            broken(std::string("a run threw another code: ") + e.what());
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto parsed = canopy::parsed_script::parse(text);
    if (auto* p = std::get_if<canopy::script_problem>(&parsed)) {
        check_problem(*p, size, "parse");
        return 0;
    }
    const canopy::parsed_script& script = std::get<canopy::parsed_script>(parsed);
    if (script.text() != text) broken("the parsed script's text differs from the input");
    fuzz_scope scope;
    scope.add("i2", canopy::param_type::integer);
    // Declare what the script creates, in text order, as the builder does.
    for (const canopy::script_assignment& a : script.assignments()) {
        if (a.offset > size) broken("an assignment past the text");
        const auto type = script.value_type(a.index, scope);
        if (a.creates && type && !scope.has(a.name)) scope.add(a.name, *type);
    }
    auto compiled = canopy::script::compile(script, scope);
    if (auto* p = std::get_if<canopy::script_problem>(&compiled)) {
        check_problem(*p, size, "compile");
        return 0;
    }
    const auto& program = std::get<0>(compiled);
    if (program->text() != text) broken("the compiled script's text differs from the input");
    canopy::blackboard board = scope.board();
    run_checked([&] { program->run(board); });
    run_checked([&] { (void)program->test(board); });
    return 0;
}
