// behavior3-ts's nodes over arrays and objects (its src/behavior3/nodes: actions/push.ts,
// index.ts, get-field.ts, set-field.ts, concat.ts, random-index.ts, conditions/includes.ts),
// and the reading and writing of variables of any kind they share with the loops
// (dynamic_io.hpp). Their values are canopy::dynamic_value, held in `json` keys. A node that
// fails leaves its output undefined (unset_unless_success): behavior3-ts's node.ts writes
// every output slot of a finished node, undefined where the node gave nothing.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "canopy/core/error.hpp"
#include "canopy/run/context.hpp"
#include "canopy/run/port.hpp"
#include "dialects/behavior3/nodes/dynamic_io.hpp"
#include "dialects/behavior3/nodes/value_nodes.hpp"

namespace canopy::detail {

any_input::any_input(const param_list& params, std::string_view name) {
    const param* found = params.find_param(name);
    if (found == nullptr) return;
    given_ = true;
    key_ = found->key;
    if (key_ != param::no_key) return;
    if (found->object != nullptr && found->object_type == type_id_of<dynamic_value>()) {
        literal_ = *static_cast<const dynamic_value*>(found->object.get());
        return;
    }
    std::visit(
        [&](const auto& value) {
            using T = std::decay_t<decltype(value)>;
            if constexpr (std::is_same_v<T, std::string>) {
                if (!value.empty() && (value.front() == '[' || value.front() == '{')) {
                    try {
                        literal_ = dynamic_value::from_json(value);
                        return;
                    } catch (const error&) {
                        // Text that only looks like JSON: the string itself.
                    }
                }
            }
            literal_ = dynamic_value(value);
        },
        found->value);
}

const dynamic_value& any_input::get(const blackboard& board, dynamic_value& scratch) const {
    if (key_ == param::no_key) return literal_;
    return read_dynamic(board, key_, scratch);
}

const dynamic_value& read_dynamic(const blackboard& board, std::uint32_t slot,
                                  dynamic_value& scratch) {
    switch (board.type(slot)) {
        case param_type::number:
        case param_type::integer: scratch = dynamic_value(board.get<double>(slot)); break;
        case param_type::boolean: scratch = dynamic_value(board.get<bool>(slot)); break;
        case param_type::string: scratch = dynamic_value(board.get<std::string_view>(slot)); break;
        case param_type::custom:
            if (board.keys()[slot].custom->is<dynamic_value>())
                return board.get_ref<dynamic_value>(slot);
            scratch = dynamic_value();  // a program's own type: nothing behavior3 can read
            break;
        default: scratch = dynamic_value(); break;
    }
    return scratch;
}

bool write_dynamic(blackboard board, std::uint32_t slot, const dynamic_value& value) {
    switch (board.type(slot)) {
        case param_type::number:
            if (!value.is_number()) return false;
            board.set(slot, value.number());
            return true;
        case param_type::integer: {
            if (!value.is_number()) return false;
            const double number = value.number();
            if (number != std::floor(number) || !(std::fabs(number) < 9.2e18)) return false;
            board.set(slot, static_cast<std::int64_t>(number));
            return true;
        }
        case param_type::boolean:
            if (value.type() != dynamic_value::kind::boolean) return false;
            board.set(slot, value.boolean());
            return true;
        case param_type::string:
            if (!value.is_string()) return false;
            board.set(slot, std::string_view(value.string()));
            return true;
        case param_type::custom:
            if (!board.keys()[slot].custom->is<dynamic_value>()) return false;
            // A behavior3 file's variable given null is deleted, as behavior3-ts's
            // blackboard deletes it: undefined again.
            if (value.is_null() && board.keys()[slot].starts_unset) {
                board.unset(slot);
                return true;
            }
            board.set(slot, value);
            return true;
        default: return false;
    }
}

dynamic_value* dynamic_slot(blackboard board, std::uint32_t slot) {
    if (board.type(slot) != param_type::custom || !board.keys()[slot].custom->is<dynamic_value>())
        return nullptr;
    return &board.get_mutable<dynamic_value>(slot);
}

param_spec json_input(std::string name) {
    return param_spec::required(std::move(name), dynamic_value_type());
}

param_spec any_output(std::string name) {
    param_spec spec = param_spec::output_port(std::move(name), param_type::any);
    spec.implicit_key_type = dynamic_value_type();
    return spec;
}

param_spec any_param(std::string name) {
    param_spec spec = param_spec::required(std::move(name), param_type::any);
    spec.implicit_key_type = dynamic_value_type();
    return spec;
}

void ensure_dynamic_type(registry& reg) {
    if (reg.find_type<dynamic_value>() == nullptr) reg.add_type(dynamic_value_type());
}

namespace {

// Counts `value` and what it holds into `count`, stopping once past the limit.
bool count_within(const dynamic_value& value, int depth, std::size_t& count) {
    if (++count > max_stored_values || depth >= dynamic_value::max_depth - 1) return false;
    if (const auto* elements = value.array()) {
        for (const dynamic_value& element : *elements)
            if (!count_within(element, depth + 1, count)) return false;
    } else if (const auto* fields = value.object()) {
        for (const auto& field : *fields)
            if (!count_within(field.second, depth + 1, count)) return false;
    }
    return true;
}

}  // namespace

bool fits_in_a_value(const dynamic_value& value) {
    std::size_t count = 0;
    return count_within(value, 0, count);
}

std::uint32_t key_of(const param_list& params, std::string_view name) {
    const param* found = params.find_param(name);
    if (found == nullptr || found->key == param::no_key) {
        throw param_error("'" + std::string(name) + "' must name a variable, as \"{var}\"");
    }
    return found->key;
}

std::uint32_t output_key(const param_list& params, std::string_view name) {
    const param* found = params.find_param(name);
    return found == nullptr ? param::no_key : found->key;
}

void require_defined(const blackboard& board, std::uint32_t key, std::string_view name) {
    if (key != param::no_key && !board.is_set(key))
        throw error(error_code::script, "missing input '" + std::string(name) + "' (variable '" +
                                            board.keys()[key].name + "' is undefined)");
}

bool write_output(blackboard board, std::uint32_t key, const dynamic_value& value) {
    return key == param::no_key || write_dynamic(board, key, value);
}

void unset_output(blackboard board, std::uint32_t key) {
    if (key != param::no_key) board.unset(key);
}

status unset_unless_success(blackboard board, std::uint32_t key, status result) {
    if (result != status::success) unset_output(board, key);
    return result;
}

namespace {

// Refuses an argument given both as itself and through its input slot, as behavior3editor's
// "oneof" check does.
void check_oneof(const any_input& arg, const any_input& slot, const char* arg_name,
                 const char* slot_name) {
    if (arg.given() && slot.given()) {
        throw param_error(std::string("give '") + arg_name + "' or '" + slot_name + "', not both");
    }
}

// Whether `value` is, or holds at any depth, the array or object `target`: storing it there
// would make a value that holds itself, which JavaScript allows and a JSON text cannot show.
// Called after fits_in_a_value, so the walk is bounded.
bool holds(const dynamic_value& value, const void* target) {
    if (value.identity() == target) return true;
    if (const auto* elements = value.array()) {
        return std::any_of(elements->begin(), elements->end(),
                           [&](const dynamic_value& e) { return holds(e, target); });
    }
    if (const auto* fields = value.object()) {
        return std::any_of(fields->begin(), fields->end(),
                           [&](const auto& f) { return holds(f.second, target); });
    }
    return false;
}

// Push: appends input 2 to the array in input 1 and succeeds; error when input 1 holds no
// array; failure when the element is too large or deep (fits_in_a_value) or holds the array.
class push final : public node {
public:
    static std::vector<param_spec> parameters() {
        return {json_input("input1"), any_param("input2")};
    }
    explicit push(const param_list& params)
        : array_(key_of(params, "input1")), element_(params, "input2") {}
    status tick(context& ctx) const override {
        blackboard board = ctx.blackboard();
        dynamic_value scratch;
        // A copy first: the element may be the array itself.
        dynamic_value element = element_.get(board, scratch);
        // The array itself, which every variable sharing it sees change, as in JavaScript.
        const dynamic_value& array = board.get_mutable<dynamic_value>(array_);
        dynamic_value::array_type* elements = array.shared_array();
        if (elements == nullptr) return status::error;
        if (!fits_in_a_value(element) || holds(element, elements)) return status::failure;
        elements->push_back(std::move(element));
        return status::success;
    }

private:
    std::uint32_t array_;
    any_input element_;
};

// Index: writes the element of the array in input 1 at `index` (from 0) to output 1 and
// succeeds; failure when there is no element there (an index out of range or not whole) or the
// element is null; error when input 1 holds no array or the index is NaN.
class index_node final : public node {
public:
    static std::vector<param_spec> parameters() {
        return {json_input("input1"), param_spec::required("index", param_type::number),
                any_output("output1")};
    }
    explicit index_node(const param_list& params)
        : array_(key_of(params, "input1")),
          index_(params, "index"),
          element_(output_key(params, "output1")) {}
    status tick(context& ctx) const override {
        return unset_unless_success(ctx.blackboard(), element_, find(ctx));
    }

private:
    status find(context& ctx) const {
        const blackboard board = ctx.blackboard();
        const auto& list = board.get_ref<dynamic_value>(array_);
        if (!list.is_array()) return status::error;
        require_defined(board, index_.from_blackboard() ? index_.key() : param::no_key, "index");
        const double index = index_.get(ctx);
        if (std::isnan(index)) return status::error;
        // A copy: output 1 may be the array's own variable, which the write replaces.
        // NOLINTNEXTLINE(performance-unnecessary-copy-initialization)
        const dynamic_value element = list.at(dynamic_value(index));
        if (element.is_null()) return status::failure;
        return write_output(board, element_, element) ? status::success : status::failure;
    }

    std::uint32_t array_;
    input<double> index_;
    std::uint32_t element_;
};

// A field name as behavior3-ts accepts one: a string or a number.
bool is_field_name(const dynamic_value& field) {
    return field.is_string() || field.is_number();
}

// GetField: writes the field `field` (a string or number) of the object in input 1 to output
// 1 and succeeds; failure when the field is absent or null; error when input 1 holds no object
// or array, or the field is neither a string nor a number. An array's fields are its indexes
// and `length`.
class get_field final : public node {
public:
    static std::vector<param_spec> parameters() {
        return {json_input("input1"), any_param("field"), any_output("output1")};
    }
    explicit get_field(const param_list& params)
        : object_(key_of(params, "input1")),
          field_(params, "field"),
          value_(output_key(params, "output1")) {
        if (!field_.given()) throw param_error("'field' is required (the argument or input 2)");
    }
    status tick(context& ctx) const override {
        return unset_unless_success(ctx.blackboard(), value_, find(ctx));
    }

private:
    status find(context& ctx) const {
        const blackboard board = ctx.blackboard();
        const auto& object = board.get_ref<dynamic_value>(object_);
        if (!object.is_object() && !object.is_array()) return status::error;
        require_defined(board, field_.from_key() ? field_.key() : param::no_key, "field");
        dynamic_value scratch;
        const dynamic_value& field = field_.get(board, scratch);
        if (!is_field_name(field)) return status::error;
        if (object.is_array() && field.is_string() && field.string() == "length") {
            const auto length = static_cast<double>(object.array()->size());
            return write_output(board, value_, dynamic_value(length)) ? status::success
                                                                      : status::failure;
        }
        // NOLINTNEXTLINE(performance-unnecessary-copy-initialization): as Index's
        const dynamic_value value = object.at(field);
        if (value.is_null()) return status::failure;
        return write_output(board, value_, value) ? status::success : status::failure;
    }

    std::uint32_t object_;
    any_input field_;
    std::uint32_t value_;
};

// SetField: sets the field `field` of the object in input 1 to `value` (or input 3) and
// succeeds; a null or absent value deletes the field. Error when input 1 holds no object or
// array, or the field is neither a string nor a number. On an array the field is an index: an
// element is replaced or, one past the end, appended; an index further on fails, and a field
// that is no index succeeds with no visible change (JavaScript makes a property the array's
// JSON does not show).
class set_field final : public node {
public:
    static std::vector<param_spec> parameters() {
        return {json_input("input1"), any_param("field"), any_param("value"), any_param("input3")};
    }
    explicit set_field(const param_list& params)
        : object_(key_of(params, "input1")),
          field_(params, "field"),
          value_(params, "value"),
          value_slot_(params, "input3") {
        check_oneof(value_, value_slot_, "value", "input3");
        if (!field_.given()) throw param_error("'field' is required (the argument or input 2)");
    }
    status tick(context& ctx) const override {
        blackboard board = ctx.blackboard();
        // The object itself, which every variable sharing it sees change, as in JavaScript.
        const auto& object = board.get_ref<dynamic_value>(object_);
        if (!object.is_object() && !object.is_array()) return status::error;
        require_defined(board, field_.from_key() ? field_.key() : param::no_key, "field");
        dynamic_value scratch;
        const dynamic_value field = field_.get(board, scratch);  // a copy: it may be the object
        if (!is_field_name(field)) return status::error;
        dynamic_value value;
        if (value_.given()) value = value_.get(board, scratch);
        if (value_slot_.given()) value = value_slot_.get(board, scratch);
        if (!fits_in_a_value(value) || holds(value, object.identity())) return status::failure;
        (void)board.get_mutable<dynamic_value>(object_);  // a new update stamp
        if (dynamic_value::object_type* fields = object.shared_object()) {
            const std::string name = field.is_string() ? field.string() : field.to_json();
            auto same = std::find_if(fields->begin(), fields->end(),
                                     [&](const auto& f) { return f.first == name; });
            if (value.is_null()) {
                if (same != fields->end()) fields->erase(same);
            } else if (same != fields->end()) {
                same->second = std::move(value);
            } else {
                fields->emplace_back(name, std::move(value));
            }
            return status::success;
        }
        dynamic_value::array_type* elements = object.shared_array();
        // A field that is not an index makes a property, which the array's JSON does not show.
        if (!field.is_number()) return status::success;
        const double index = field.number();
        if (!(index >= 0) || index != std::floor(index) ||
            index > static_cast<double>(elements->size()))
            return status::failure;
        const auto at = static_cast<std::size_t>(index);
        if (at == elements->size()) {
            elements->push_back(std::move(value));
        } else {
            (*elements)[at] = std::move(value);
        }
        return status::success;
    }

private:
    std::uint32_t object_;
    any_input field_;
    any_input value_;
    any_input value_slot_;
};

// Includes (condition): success when the array in input 1 holds an element equal to input 2;
// failure when it does not or input 2 is null; error when input 1 holds no array.
class includes final : public node {
public:
    static std::vector<param_spec> parameters() {
        return {json_input("input1"), any_param("input2")};
    }
    explicit includes(const param_list& params)
        : array_(key_of(params, "input1")), element_(params, "input2") {}
    status tick(context& ctx) const override {
        const blackboard board = ctx.blackboard();
        const auto& list = board.get_ref<dynamic_value>(array_);
        dynamic_value scratch;
        const dynamic_value& element = element_.get(board, scratch);
        if (!list.is_array()) return status::error;
        if (element.is_null()) return status::failure;
        for (const dynamic_value& each : *list.array()) {
            if (each == element) return status::success;
        }
        return status::failure;
    }

private:
    std::uint32_t array_;
    any_input element_;
};

// Concat: writes a new array, input 1's elements then input 2's, to output 1 and succeeds;
// error unless both inputs hold arrays.
class concat final : public node {
public:
    static std::vector<param_spec> parameters() {
        return {json_input("input1"), json_input("input2"),
                param_spec::output_port("output1", dynamic_value_type())};
    }
    explicit concat(const param_list& params)
        : first_(key_of(params, "input1")),
          second_(key_of(params, "input2")),
          result_(output_key(params, "output1")) {}
    status tick(context& ctx) const override {
        return unset_unless_success(ctx.blackboard(), result_, find(ctx));
    }

private:
    status find(context& ctx) const {
        blackboard board = ctx.blackboard();
        const dynamic_value::array_type* first = board.get_ref<dynamic_value>(first_).array();
        const dynamic_value::array_type* second = board.get_ref<dynamic_value>(second_).array();
        if (first == nullptr || second == nullptr) return status::error;
        if (!fits_in_a_value(board.get_ref<dynamic_value>(first_)) ||
            !fits_in_a_value(board.get_ref<dynamic_value>(second_)))
            return status::failure;
        dynamic_value::array_type joined;
        joined.reserve(first->size() + second->size());
        joined.insert(joined.end(), first->begin(), first->end());
        joined.insert(joined.end(), second->begin(), second->end());
        if (result_ != param::no_key) board.set(result_, dynamic_value(std::move(joined)));
        return status::success;
    }

    std::uint32_t first_;
    std::uint32_t second_;
    std::uint32_t result_;
};

// RandomIndex: writes an element of the array in input 1, chosen uniformly with the agent's
// generator, to output 1 and succeeds; failure when the array is empty or the element chosen
// is null; error when input 1 holds no array.
class random_index final : public node {
public:
    static std::vector<param_spec> parameters() {
        return {json_input("input1"), any_output("output1")};
    }
    explicit random_index(const param_list& params)
        : array_(key_of(params, "input1")), element_(output_key(params, "output1")) {}
    status tick(context& ctx) const override {
        return unset_unless_success(ctx.blackboard(), element_, find(ctx));
    }

private:
    status find(context& ctx) const {
        const blackboard board = ctx.blackboard();
        const dynamic_value::array_type* elements = board.get_ref<dynamic_value>(array_).array();
        if (elements == nullptr) return status::error;
        if (elements->empty()) return status::failure;
        // Math.floor(Math.random() * length), from a uniform double in [0, 1).
        const double unit = static_cast<double>(ctx.random() >> 11) * 0x1.0p-53;
        const auto at = static_cast<std::size_t>(unit * static_cast<double>(elements->size()));
        // NOLINTNEXTLINE(performance-unnecessary-copy-initialization): as Index's
        const dynamic_value element = (*elements)[at];
        if (element.is_null()) return status::failure;
        return write_output(board, element_, element) ? status::success : status::failure;
    }

    std::uint32_t array_;
    std::uint32_t element_;
};

// Clear (and Let without a value): makes the variable of output 1 hold nothing and succeeds.
// Canopy's keys always hold a value, so the key is unset (blackboard::unset): it reads as its
// initial value (null for a `json` key, else 0, false or ""), and IsNull succeeds on it.
class clear final : public node {
public:
    static std::vector<param_spec> parameters() {
        return {param_spec::required("output1", param_type::key)};
    }
    explicit clear(const param_list& params)
        : key_(static_cast<std::uint32_t>(params.get<std::int64_t>("output1"))) {}
    status tick(context& ctx) const override {
        ctx.blackboard().unset(key_);
        return status::success;
    }

private:
    std::uint32_t key_;
};

}  // namespace

void register_behavior3_array_nodes(registry& reg) {
    ensure_dynamic_type(reg);
    reg.add<clear>("behavior3.Clear");
    reg.add<push>("behavior3.Push");
    reg.add<index_node>("behavior3.Index");
    reg.add<get_field>("behavior3.GetField");
    reg.add<set_field>("behavior3.SetField");
    reg.add<concat>("behavior3.Concat");
    reg.add<random_index>("behavior3.RandomIndex");
    node_type includes_type{"behavior3.Includes", std::nullopt, arity::leaf, includes::parameters(),
                            [](const param_list& params) -> std::unique_ptr<node> {
                                return std::make_unique<includes>(params);
                            }};
    includes_type.condition = true;
    reg.add(std::move(includes_type));
}

}  // namespace canopy::detail
