#include "canopy/run/port.hpp"

#include <cstdint>
#include <string>

#include "canopy/run/tree.hpp"
#include "core/param_text.hpp"
#include "run/node_named.hpp"

namespace canopy::detail {
namespace {

// The scopes of one thread, innermost first: a node's constructor may make another object
// with ports while its own are bound.
thread_local port_scope* innermost = nullptr;

}  // namespace

port_scope::port_scope(std::vector<param_spec>& declared) noexcept
    : declared_(&declared), outer_(innermost) {
    innermost = this;
}

port_scope::port_scope(const param_list& params) noexcept : params_(params), outer_(innermost) {
    innermost = this;
}

port_scope::~port_scope() {
    innermost = outer_;
}

port_scope* port_scope::current() noexcept {
    return innermost;
}

std::string cpp_name(type_id type) {
    if (type == type_id_of<int>()) return "int";
    if (type == type_id_of<unsigned>()) return "unsigned";
    if (type == type_id_of<std::int8_t>()) return "std::int8_t";
    if (type == type_id_of<std::uint8_t>()) return "std::uint8_t";
    if (type == type_id_of<std::int16_t>()) return "std::int16_t";
    if (type == type_id_of<std::uint16_t>()) return "std::uint16_t";
    if (type == type_id_of<std::int64_t>()) return "std::int64_t";
    if (type == type_id_of<std::uint64_t>()) return "std::uint64_t";
    if (type == type_id_of<long>()) return "long";
    if (type == type_id_of<unsigned long>()) return "unsigned long";
    if (type == type_id_of<long long>()) return "long long";
    if (type == type_id_of<unsigned long long>()) return "unsigned long long";
    if (type == type_id_of<float>()) return "float";
    if (type == type_id_of<double>()) return "double";
    if (type == type_id_of<bool>()) return "bool";
    if (type == type_id_of<std::string>()) return "std::string";
    if (type == type_id_of<std::string_view>()) return "std::string_view";
    return std::string(type.name());
}

void throw_unbound_port(const context& ctx) {
    throw error(error_code::param,
                node_named(ctx) +
                    " reads a port that no registry bound: a node object whose members are "
                    "ports is made by registry::add<Node>, not by a hand-written creator");
}

void throw_out_of_range(const context& ctx, std::uint32_t slot, type_id type) {
    const blackboard board = ctx.blackboard();
    throw error(error_code::blackboard, node_named(ctx) + " reads key '" + board.keys()[slot].name +
                                            "' as " + cpp_name(type) +
                                            ", which cannot hold its value " + board.text(slot));
}

void throw_literal_mismatch(const param& found, type_id type, param_type wanted) {
    const param_type held = type_of(found.value);
    if (held == wanted && found.object == nullptr) {  // a number out of the type's range
        throw param_error("parameter '" + found.name + "' is " + value_text(found.value) +
                          ", which " + cpp_name(type) + " cannot hold");
    }
    throw param_error("parameter '" + found.name + "' is " +
                      std::string(to_string(found.object != nullptr ? param_type::custom : held)) +
                      ", not read as " + cpp_name(type));
}

const param& bound_param(const param_list& params, std::string_view name) {
    const param* found = params.find_param(name);
    if (found == nullptr) throw param_error("no parameter '" + std::string(name) + "'");
    return *found;
}

void throw_no_object(type_id type) {
    throw param_error("a port of " + cpp_name(type) +
                      " holds no value before a registry binds it to a node's parameter");
}

}  // namespace canopy::detail
