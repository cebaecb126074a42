#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "canopy/core/dynamic_value.hpp"
#include "canopy/core/param.hpp"
#include "canopy/run/blackboard.hpp"

namespace canopy {

namespace detail {

/// An integer compared with a constant, as a range: it holds where `low <= value <= low +
/// width`, or outside that where `outside`. One subtraction and one unsigned compare, no branch
/// on the operator.
struct value_range {
    std::int64_t low = 0;
    std::uint64_t width = 0;
    bool outside = false;

    bool holds(std::int64_t value) const noexcept {
        const bool inside =
            static_cast<std::uint64_t>(value) - static_cast<std::uint64_t>(low) <= width;
        return inside != outside;
    }
};

/// A script that is no more than one integer or boolean key compared with a constant
/// (`a > 3`, `mode == 2`, `ready`): what the engine can test without running it.
struct key_test {
    enum class comparison : std::uint8_t {
        equal,
        not_equal,
        less,
        greater,
        less_equal,
        greater_equal
    };
    std::uint32_t slot = 0;
    comparison op = comparison::equal;
    bool boolean_key = false;  ///< the key holds a bool (one byte), else an std::int64_t
    std::int64_t constant = 0;

    /// `value op constant` as a range.
    value_range range() const noexcept;
};

}  // namespace detail

/// BehaviorTree.CPP 4's script language (docs/scripting.md): statements separated by `;`,
/// assignments, arithmetic, comparisons, logic and string concatenation over blackboard keys,
/// literals and the program's enums. A script is parsed and compiled once, when its tree is
/// built, into a form that addresses blackboard slots: running it looks nothing up by name.
///
/// Compiling takes two steps because a script may create keys (`name := value`), which the
/// builder must declare before it lays out the blackboard: parse every script of a tree, ask
/// each what it assigns, declare the keys, then compile each against the laid-out keys.

/// A problem in a script's text, at the byte offset of the offending character.
struct script_problem {
    std::size_t offset = 0;
    std::string message;
};

/// One assignment a script makes: `name := ...` creates the key, `=` and `+=`... need it to
/// exist.
struct script_assignment {
    std::string name;  ///< as written, `@` prefix included (the main tree's key)
    bool creates = false;
    std::size_t offset = 0;  ///< of the name in the text
    std::size_t index = 0;   ///< which assignment of the script, for parsed_script::value_type
    /// The assignment is a whole statement (`a := 1;`, not inside `c ? (a := 1) : 0`): a run
    /// of the script that ends has made it.
    bool statement = false;
};

/// What compiling needs to know of the tree a script runs in.
class script_scope {
public:
    struct key {
        std::uint32_t slot = 0;
        param_type type = param_type::number;  ///< integer, number, boolean, string or custom
        /// A custom key's type: such a key may be assigned from a key of its type or from
        /// text, as BehaviorTree.CPP allows, and is used in no other way.
        const value_type* custom = nullptr;
        /// Whether the key may hold no value when the script reads it
        /// (blackboard_key::starts_unset): the read then fails the run.
        bool may_be_unset = false;
        /// Whether the key exists only once written (blackboard_key::made_by_script): `=` to
        /// it then fails the run too, as BehaviorTree.CPP's does on a missing entry.
        bool made_by_script = false;
    };
    virtual ~script_scope() = default;
    /// The key a name in the script means (the name as written, `@` included), if any.
    virtual std::optional<key> find_key(std::string_view name) const = 0;
    /// The value of an enum name the program registered, if any.
    virtual std::optional<std::int64_t> find_enum(std::string_view name) const = 0;
    /// Whether values are BehaviorTree.CPP's own (runtime_rules::btcpp): arithmetic, bitwise
    /// operators, `-x`, `~x` and enums give reals, and a boolean (`true`, a comparison, `!`,
    /// `&&`, `||`) is the real 1 or 0 where it is kept in a key or written as text.
    virtual bool btcpp_values() const { return false; }
};

/// A script's statements, parsed, before their names are bound.
class parsed_script {
public:
    /// Parses a script, or says what is wrong with it (the first problem). Bounded in time and
    /// stack whatever the text: nesting deeper than max_depth is a problem, not a crash.
    /// `dialect` behavior3 reads behavior3's expressions instead (docs/behavior3.md).
    static std::variant<parsed_script, script_problem> parse(
        std::string_view text, script_dialect dialect = script_dialect::btcpp);
    static constexpr std::size_t max_depth = 256;

    /// Every assignment, in text order.
    const std::vector<script_assignment>& assignments() const noexcept;
    /// Every name the script uses, a key's or an enum's (`@` prefix included), once each, in
    /// text order: views into text().
    std::vector<std::string_view> names() const;
    /// The names of a behavior3 expression whose fields or elements it reads (`obj` in
    /// `obj.hp`, `list` in `list[i]`): variables that hold objects or arrays.
    std::vector<std::string_view> object_names() const;
    /// The type the value of assignment `index` has, given the keys `scope` knows (slots are
    /// not read), or nothing when it depends on a name the scope does not know yet.
    std::optional<param_type> value_type(std::size_t index, const script_scope& scope) const;
    /// Whether the value of assignment `index` reads the name `name` (`t` in `t := t + 1`).
    bool value_reads(std::size_t index, std::string_view name) const;

    const std::string& text() const noexcept;

    parsed_script(parsed_script&& other) noexcept;
    parsed_script& operator=(parsed_script&& other) noexcept;
    ~parsed_script();

    /// The syntax tree, opaque: defined where the script is compiled.
    struct syntax;

private:
    friend class script;  // compiles the syntax tree
    explicit parsed_script(std::unique_ptr<syntax> tree);
    std::unique_ptr<syntax> syntax_;
};

/// A compiled script, immutable and shared by every agent of its tree.
class script {
public:
    /// Binds every name of a parsed script to its key or enum and checks types, or says what
    /// is wrong (an unknown name, `=` to a key that does not exist, `'a' - 1`...).
    static std::variant<std::shared_ptr<const script>, script_problem> compile(
        const parsed_script& parsed, const script_scope& scope);
    /// Compiles as the above, but as BehaviorTree.CPP meets such problems: when the script
    /// runs. A statement with a problem compiles into a failure: running the script runs the
    /// statements before it, then throws canopy::error (code `script`) with the problem's
    /// message. The problem also goes into `deferred` (so that a loader can warn of it);
    /// with `deferred` null, this is the above.
    static std::variant<std::shared_ptr<const script>, script_problem> compile(
        const parsed_script& parsed, const script_scope& scope,
        std::vector<script_problem>* deferred);

    /// Runs the statements on one agent's blackboard (the `Script` node, post-conditions).
    /// @warning throws canopy::error (code `script`) where BehaviorTree.CPP's script fails at
    /// run time (docs/scripting.md), such as an integer division by zero.
    void run(blackboard board) const;
    /// Runs the statements and gives the last one's value as a boolean, as BehaviorTree.CPP
    /// converts it (`ScriptCondition`, pre-conditions).
    bool test(blackboard board) const;

    /// Runs the statements and gives the last one's value as a number, a boolean as 1 or 0
    /// (behavior3's `Calculate`).
    /// @warning throws canopy::error (code `script`) when the value is a string or of a
    /// program's type, besides what run() throws.
    double number(blackboard board) const;
    /// Runs a behavior3 expression and gives its value as behavior3-ts's evaluator does, a
    /// JavaScript value, or nothing for undefined (behavior3's `Calculate`). Runs another
    /// script and gives its last statement's value as BehaviorTree.CPP's `Any` holds it: a
    /// string as a string, else as number() gives it; nothing when the value is empty (a
    /// dynamic entry that holds none, `1 .. 2` under BehaviorTree.CPP's rules).
    /// @warning throws canopy::error (code `script`) where behavior3-ts's evaluator throws, or
    /// as run() does.
    std::optional<dynamic_value> value(blackboard board) const;
    /// The type of the last statement's value: integer, number, boolean, string or custom.
    param_type result_type() const noexcept;

    /// The script as written.
    const std::string& text() const noexcept;

    /// The script as one comparison of a key with a constant, when it is no more than that
    /// (the builder hands such a condition to the engine's inline step); else nothing.
    std::optional<detail::key_test> as_key_test() const noexcept;

    ~script();

private:
    struct program;
    explicit script(std::unique_ptr<program> code);
    std::unique_ptr<program> program_;
};

}  // namespace canopy
