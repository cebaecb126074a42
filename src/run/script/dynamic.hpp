#pragma once

// A BehaviorTree.CPP script that reads or writes a dynamic entry (run/btcpp_entry.hpp): its
// values' types are known only when it runs, so it is not compiled to typed instructions but
// walked over its syntax tree with BehaviorTree.CPP's own operators, as BehaviorTree.CPP runs
// every script. Names are bound when it is compiled: it looks nothing up by name either.

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "canopy/run/blackboard.hpp"
#include "canopy/run/script.hpp"
#include "run/btcpp_entry.hpp"
#include "run/script/syntax.hpp"

namespace canopy::detail::script_code {

struct dynamic_script {
    struct binding {
        enum class what : std::uint8_t { none, enum_value, key, entry };
        what is = what::none;
        std::uint32_t slot = 0;
        param_type type = param_type::number;  // a key's
        bool may_be_unset = false;
        bool made_by_script = false;
        double value = 0;  // an enum's
    };
    parsed_script::syntax tree;
    std::vector<binding> names;  // per syntax node; meaningful for names
};

/// Whether a BehaviorTree.CPP script names a dynamic entry, which makes it one to walk.
bool names_dynamic_entry(const parsed_script::syntax& tree, const script_scope& scope);

/// Binds a script's names for walking.
std::shared_ptr<const dynamic_script> bind_dynamic(const parsed_script::syntax& tree,
                                                   const script_scope& scope);

/// Runs it on one agent's blackboard and gives the last statement's value.
/// @warning throws canopy::error (code script) where BehaviorTree.CPP's script fails, with
/// its message after the script's text.
btcpp_any run_dynamic(const dynamic_script& code, const std::string& text, blackboard board);

}  // namespace canopy::detail::script_code
