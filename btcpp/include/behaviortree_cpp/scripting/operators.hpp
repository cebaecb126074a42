#pragma once

// A script's statements one by one (BT::Scripting::parseStatements), each run on Canopy's
// script engine. BehaviorTree.CPP declares here the classes of its syntax tree (ExprLiteral,
// ExprName, ...); Canopy's syntax tree is its own, so a statement is only an ExprBase.

#include <memory>
#include <string>
#include <vector>

#include "behaviortree_cpp/scripting/script_parser.hpp"

namespace BT::Ast {

/// One statement of a script.
struct ExprBase {
    using Ptr = std::shared_ptr<ExprBase>;

    virtual ~ExprBase() = default;
    /// Runs the statement: reads the entries and enums it names, writes the entries it
    /// assigns (`:=` makes one), and gives its value.
    /// @warning throws RuntimeError where BehaviorTree.CPP's statement fails (an entry that
    /// does not exist or holds no value, an operator its operands cannot take, a value its
    /// entry cannot hold).
    virtual Any evaluate(Environment& env) const = 0;
};

using expr_ptr = std::shared_ptr<ExprBase>;

}  // namespace BT::Ast

namespace BT::Scripting {

/// The statements of a script, in order: none for an empty one. `;` separates them, and may
/// be repeated.
/// @warning throws RuntimeError for text that is not a script, with the problem's place.
std::vector<Ast::expr_ptr> parseStatements(const std::string& script);

}  // namespace BT::Scripting
