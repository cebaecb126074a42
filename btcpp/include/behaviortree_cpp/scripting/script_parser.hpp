#pragma once

// BehaviorTree.CPP's script functions (docs/scripting.md) on Canopy's script engine: the text
// is parsed and compiled by canopy::parsed_script and canopy::script, and runs over the entries
// of a BT::Blackboard with BehaviorTree.CPP's values, operators and errors.

#include <functional>
#include <memory>
#include <string>
#include <unordered_map>

#include "behaviortree_cpp/blackboard.h"

namespace BT {

/// The names a script reads as integers, as registerScriptingEnum gives them.
using EnumsTable = std::unordered_map<std::string, int>;
using EnumsTablePtr = std::shared_ptr<EnumsTable>;

namespace Ast {

/// What a script runs against: the blackboard whose entries it reads and writes, and the enum
/// names it may use (none when `enums` is null). An enum's name wins over an entry's.
struct Environment {
    Blackboard::Ptr vars;
    EnumsTablePtr enums;
};

}  // namespace Ast

/// Whether the text is a script; if not, the first problem with its place. An empty script
/// (nothing but spaces and `;`) is one.
Result ValidateScript(const std::string& script);

/// A script ready to run: it runs its statements in order against the environment and gives
/// the last one's value. @warning throws RuntimeError where BehaviorTree.CPP's script fails.
using ScriptFunction = std::function<Any(Ast::Environment& env)>;

/// The script parsed, or the first problem of its text.
Expected<ScriptFunction> ParseScript(const std::string& script);

/// Parses the script and runs it once: the last statement's value (a number, or text; empty
/// when the value is), or what went wrong.
Expected<Any> ParseScriptAndExecute(Ast::Environment& env, const std::string& script);

}  // namespace BT
