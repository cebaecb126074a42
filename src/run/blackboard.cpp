#include "canopy/run/blackboard.hpp"

#include <algorithm>
#include <atomic>
#include <type_traits>
#include <variant>

#include "canopy/core/error.hpp"
#include "core/param_text.hpp"

namespace canopy {
namespace {

std::size_t align_up(std::size_t offset, std::size_t align) {
    return (offset + align - 1) / align * align;
}

struct storage {
    std::size_t size;
    std::size_t align;
};

storage storage_of(const blackboard_key& key) {
    if (key.type == param_type::string) return {sizeof(std::string), alignof(std::string)};
    if (key.type == param_type::custom) return {key.custom->size, key.custom->align};
    return {sizeof(std::int64_t), alignof(std::int64_t)};
}

}  // namespace

void blackboard::layout::place(std::vector<blackboard_key> in_slot_order, bool stamps) {
    static std::atomic<std::uint64_t> next_serial{1};
    serial = next_serial.fetch_add(1, std::memory_order_relaxed);
    keys = std::move(in_slot_order);
    offsets.clear();
    bytes = 0;
    align = alignof(std::int64_t);
    needs_lifetime = false;
    for (const blackboard_key& key : keys) {
        const storage cell = storage_of(key);
        bytes = align_up(bytes, cell.align);
        offsets.push_back(static_cast<std::uint32_t>(bytes));
        bytes += cell.size;
        align = std::max(align, cell.align);
        if (key.type == param_type::string ||
            (key.type == param_type::custom && !key.custom->trivial))
            needs_lifetime = true;
    }
    stamps_offset = no_stamps;
    stamps = stamps || std::any_of(keys.begin(), keys.end(),
                                   [](const blackboard_key& key) { return key.starts_unset; });
    if (stamps && !keys.empty()) {
        bytes = align_up(bytes, alignof(std::uint32_t));
        stamps_offset = static_cast<std::uint32_t>(bytes);
        bytes += keys.size() * sizeof(std::uint32_t);
    }
    bytes = align_up(bytes, align);
}

std::uint32_t blackboard::find(std::string_view name) const noexcept {
    const std::vector<blackboard_key>& all = keys();
    for (std::size_t k = 0; k < all.size(); ++k) {
        if (all[k].name == name) return static_cast<std::uint32_t>(k);
    }
    return npos;
}

std::uint32_t blackboard::slot(std::string_view name) const {
    const std::uint32_t found = find(name);
    if (found == npos)
        throw error(error_code::blackboard, "no blackboard key '" + std::string(name) + "'");
    return found;
}

void blackboard::wrong_type(std::uint32_t slot, param_type asked) const {
    const blackboard_key& key = keys()[slot];
    const std::string holds =
        key.custom != nullptr ? "a " + key.custom->name : detail::with_article(key.type);
    throw error(error_code::blackboard,
                "blackboard key '" + key.name + "' holds " + holds + " value, not " +
                    (asked == param_type::custom ? std::string("one of the type asked for")
                                                 : detail::with_article(asked)));
}

void blackboard::check_custom(std::uint32_t slot, type_id asked) const {
    const blackboard_key& key = keys()[slot];
    if (key.custom == nullptr || key.custom->cpp_type != asked)
        wrong_type(slot, param_type::custom);
}

void blackboard::set_string(std::uint32_t slot, std::string_view value) {
    if (type(slot) != param_type::string) return set_plain(slot, value);
    string_at(slot).assign(value.data(), value.size());
    touch(slot);
}

template <typename V, typename Write>
void blackboard::write_plain(std::uint32_t slot, V value, Write write, param_type as) {
    const value_type* custom = keys()[slot].custom.get();
    if (custom == nullptr || custom->takes_plain == nullptr) wrong_type(slot, as);
    (custom->takes_plain->*write)(at(slot), value);
    touch(slot);
}

void blackboard::set_plain(std::uint32_t slot, bool value) {
    write_plain(slot, value, &value_type::plain_writes::boolean, param_type::boolean);
}
void blackboard::set_plain(std::uint32_t slot, std::int64_t value) {
    write_plain(slot, value, &value_type::plain_writes::integer, param_type::integer);
}
void blackboard::set_plain(std::uint32_t slot, double value) {
    write_plain(slot, value, &value_type::plain_writes::number, param_type::number);
}
void blackboard::set_plain(std::uint32_t slot, std::string_view value) {
    write_plain(slot, value, &value_type::plain_writes::text, param_type::string);
}

void blackboard::set_custom(std::uint32_t slot, type_id asked, const void* value) {
    check_custom(slot, asked);
    const value_type& type = *keys()[slot].custom;
    if (type.trivial) {
        std::memcpy(at(slot), value, type.size);
    } else {
        type.assign(at(slot), value);
    }
    touch(slot);
}

void blackboard::copy(std::uint32_t slot, const blackboard& from, std::uint32_t from_slot) {
    switch (type(slot)) {
        case param_type::string: set_string(slot, from.get<std::string_view>(from_slot)); break;
        case param_type::custom: {
            const value_type& type = *keys()[slot].custom;
            if (type.trivial) {
                std::memmove(at(slot), from.at(from_slot), type.size);
            } else if (at(slot) != from.at(from_slot)) {
                type.assign(at(slot), from.at(from_slot));
            }
            touch(slot);
            break;
        }
        default:  // 8 bytes of the same type
            std::memmove(at(slot), from.at(from_slot), sizeof(std::int64_t));
            touch(slot);
            break;
    }
}

bool blackboard::equal(std::uint32_t slot, const blackboard& other,
                       std::uint32_t other_slot) const {
    switch (type(slot)) {
        case param_type::string: return string_at(slot) == other.string_at(other_slot);
        case param_type::custom: {
            const value_type& type = *keys()[slot].custom;
            return type.equal != nullptr && type.equal(at(slot), other.at(other_slot));
        }
        case param_type::number: return load<double>(slot) == other.load<double>(other_slot);
        case param_type::boolean: return load<bool>(slot) == other.load<bool>(other_slot);
        default: return load<std::int64_t>(slot) == other.load<std::int64_t>(other_slot);
    }
}

std::string blackboard::text(std::uint32_t slot) const {
    switch (type(slot)) {
        case param_type::integer: return std::to_string(load<std::int64_t>(slot));
        case param_type::number: return text::of_number(load<double>(slot));
        case param_type::boolean: return load<bool>(slot) ? "true" : "false";
        case param_type::string: return string_at(slot);
        default: return keys()[slot].custom->to_text(at(slot));
    }
}

void blackboard::unset(std::uint32_t slot) {
    const blackboard_key& key = keys()[slot];
    switch (key.type) {
        case param_type::string:
            string_at(slot).assign(key.initial ? std::get<std::string>(*key.initial) : "");
            break;
        case param_type::custom: {
            const value_type& type = *key.custom;
            if (key.initial_object != nullptr) {
                type.assign(at(slot), key.initial_object.get());
            } else {
                type.reset(at(slot));
            }
            break;
        }
        default: {
            std::int64_t zero = 0;
            std::memcpy(at(slot), &zero, sizeof zero);
            if (!key.initial) break;
            // Boolean, integer or number: the registry and the builder made the initial value
            // of the key's type.
            std::visit(
                [&](const auto& value) {
                    if constexpr (std::is_arithmetic_v<std::decay_t<decltype(value)>>)
                        std::memcpy(at(slot), &value, sizeof value);
                },
                *key.initial);
        }
    }
    if (has_stamps()) stamps()[slot] = (stamps()[slot] + 1) | unset_bit;
}

void blackboard::construct_one(std::uint32_t slot) {
    const blackboard_key& key = keys()[slot];
    if (key.starts_unset) stamps()[slot] = unset_bit;
    switch (key.type) {
        case param_type::string:
            ::new (at(slot)) std::string(key.initial ? std::get<std::string>(*key.initial) : "");
            break;
        case param_type::custom:
            if (key.initial_object != nullptr) {
                key.custom->copy_construct(at(slot), key.initial_object.get());
            } else {
                key.custom->construct(at(slot));
            }
            break;
        case param_type::boolean:
            if (key.initial) std::memcpy(at(slot), &std::get<bool>(*key.initial), sizeof(bool));
            break;
        case param_type::integer:
            if (key.initial)
                std::memcpy(at(slot), &std::get<std::int64_t>(*key.initial), sizeof(std::int64_t));
            break;
        default:
            if (key.initial) std::memcpy(at(slot), &std::get<double>(*key.initial), sizeof(double));
            break;
    }
}

void blackboard::construct() {
    const auto count = static_cast<std::uint32_t>(keys().size());
    std::uint32_t k = 0;
    try {
        for (; k < count; ++k) construct_one(k);
    } catch (...) {
        while (k-- > 0) {
            const blackboard_key& key = keys()[k];
            if (key.type == param_type::string) {
                string_at(k).~basic_string();
            } else if (key.type == param_type::custom && !key.custom->trivial) {
                key.custom->destroy(at(k));
            }
        }
        throw;
    }
}

void blackboard::destroy() noexcept {
    if (!layout_->needs_lifetime) return;
    const std::vector<blackboard_key>& all = keys();
    for (std::uint32_t k = 0; k < all.size(); ++k) {
        if (all[k].type == param_type::string) {
            using std::string;
            string_at(k).~string();
        } else if (all[k].type == param_type::custom && !all[k].custom->trivial) {
            all[k].custom->destroy(at(k));
        }
    }
}

}  // namespace canopy
