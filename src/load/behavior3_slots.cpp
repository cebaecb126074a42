#include "load/behavior3_slots.hpp"

#include <algorithm>
#include <charconv>
#include <string_view>

#include "formats/behavior3_names.hpp"

namespace canopy::detail::behavior3 {
namespace {

// N for "inputN" (prefix "input"), 0 otherwise.
std::size_t slot_number(std::string_view name, std::string_view prefix) {
    if (name.substr(0, prefix.size()) != prefix) return 0;
    const std::string_view digits = name.substr(prefix.size());
    std::size_t n = 0;
    const auto [end, problem] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (problem != std::errc() || end != digits.data() + digits.size() || digits[0] == '0')
        return 0;
    return n;
}

bool declares(const node_type& type, std::string_view name) {
    return std::any_of(type.params.begin(), type.params.end(),
                       [&](const param_spec& spec) { return spec.name == name; });
}

}  // namespace

bool has_parameter_slots(const node_type& type) {
    return find_rule_for_canopy(type.name) == nullptr &&
           type.name.compare(0, kept_prefix.size(), kept_prefix) != 0;
}

std::vector<const param_spec*> input_slots(const node_type& type) {
    std::vector<const param_spec*> slots;
    for (const param_spec& spec : type.params) {
        if (spec.output || spec.literal_only || spec.type == param_type::key ||
            spec.type == param_type::key_value || spec.type == param_type::script)
            continue;
        slots.push_back(&spec);
    }
    return slots;
}

std::vector<const param_spec*> output_slots(const node_type& type) {
    std::vector<const param_spec*> slots;
    for (const param_spec& spec : type.params) {
        if (spec.output) slots.push_back(&spec);
    }
    return slots;
}

void name_parameter_slots(record_set& records, const registry& reg) {
    for (std::size_t i = 0; i < records.size(); ++i) {
        if (records.has_type_id(i)) continue;
        const node_type* type = reg.find(records.type_name(i));
        if (type == nullptr || !has_parameter_slots(*type)) continue;
        const auto [first, last] = records.params_to_change(i);
        if (first == last) continue;
        const std::vector<const param_spec*> inputs = input_slots(*type);
        const std::vector<const param_spec*> outputs = output_slots(*type);
        for (record_set::raw_param* p = first; p != last; ++p) {
            if (declares(*type, p->name)) continue;
            const param_spec* given = nullptr;
            if (const std::size_t n = slot_number(p->name, "input"); n != 0 && n <= inputs.size())
                given = inputs[n - 1];
            if (const std::size_t n = slot_number(p->name, "output"); n != 0 && n <= outputs.size())
                given = outputs[n - 1];
            if (given == nullptr) continue;
            if (!p->written) p->write_as(p->name);
            p->name = given->name;
        }
    }
}

}  // namespace canopy::detail::behavior3
