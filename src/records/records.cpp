#include "canopy/records/records.hpp"

#include <algorithm>
#include <limits>

#include "canopy/core/error.hpp"
#include "core/json_text.hpp"

namespace canopy {

std::uint32_t record_set::intern_type_name(std::string_view name) {
    // Files repeat a few names many times; the last one is checked before the map.
    if (last_type_name_ < type_names_.size() && type_names_[last_type_name_] == name) {
        return last_type_name_;
    }
    lookup_key_.assign(name);
    auto found = type_name_indexes_.find(lookup_key_);
    if (found != type_name_indexes_.end()) return last_type_name_ = found->second;
    auto index = static_cast<std::uint32_t>(type_names_.size());
    type_names_.push_back(lookup_key_);
    type_name_indexes_.emplace(lookup_key_, index);
    return last_type_name_ = index;
}

std::size_t record_set::push(std::int64_t id, std::int64_t parent_id, std::uint32_t type_name,
                             std::int64_t type_id, std::string_view describe,
                             source_location where) {
    if (describe.size() > std::numeric_limits<std::uint32_t>::max()) {
        throw error(error_code::limit_exceeded, "a describe text longer than 4 GiB");
    }
    record r{};
    r.id = id;
    r.parent_id = parent_id;
    r.type_id = type_id;
    r.type_name = type_name;
    r.written_type = type_name;
    r.describe_offset = text_.size();
    r.describe_size = static_cast<std::uint32_t>(describe.size());
    r.first_param = static_cast<std::uint32_t>(params_.size());
    r.where = where;
    min_id_ = records_.empty() ? id : std::min(min_id_, id);
    max_id_ = records_.empty() ? id : std::max(max_id_, id);
    text_.append(describe);
    records_.push_back(r);
    return records_.size() - 1;
}

std::size_t record_set::add(std::int64_t id, std::int64_t parent_id, std::string_view type_name,
                            std::string_view describe, source_location where) {
    return push(id, parent_id, intern_type_name(type_name), 0, describe, where);
}

std::size_t record_set::add_with_type_id(std::int64_t id, std::int64_t parent_id,
                                         std::int64_t type_id, std::string_view describe,
                                         source_location where) {
    return push(id, parent_id, by_type_id, type_id, describe, where);
}

void record_set::add_param(std::string name, param_value value, source_location where,
                           bool from_text) {
    add_param(raw_param(std::move(name), std::move(value), where, from_text));
}

void record_set::add_param(raw_param param) {
    if (records_.empty())
        throw error(error_code::invalid_argument, "add_param before any record was added");
    params_.push_back(std::move(param));
    ++records_.back().param_count;
}

void record_set::retype(std::size_t i, std::string_view type_name) {
    record& r = records_.at(i);
    const std::uint32_t written = r.written_type;
    r.type_name = intern_type_name(type_name);
    r.type_id = 0;
    r.written_type = written == by_type_id ? r.type_name : written;
}

void record_set::set_written_type(std::string_view name) {
    if (records_.empty())
        throw error(error_code::invalid_argument, "set_written_type before any record was added");
    record& r = records_.back();
    if (r.type_name != by_type_id && type_names_[r.type_name] == name) {
        r.written_type = r.type_name;
        return;
    }
    const std::uint32_t last = last_type_name_;  // keep the cache on the names records use
    r.written_type = intern_type_name(name);
    last_type_name_ = last;
}

void record_set::set_written_params(std::string text) {
    if (records_.empty())
        throw error(error_code::invalid_argument, "set_written_params before any record was added");
    if (!written_params_.empty() && written_params_.back().first == records_.size() - 1) {
        written_params_.back().second = std::move(text);
    } else {
        written_params_.emplace_back(records_.size() - 1, std::move(text));
    }
}

void record_set::append_written(std::string& out, const raw_param* first, const raw_param* last) {
    for (const raw_param* p = first; p != last; ++p) {
        if (p->unwritten) continue;
        out += ' ';
        out += p->name_as_written();
        out += '=';
        detail::append_json_value(out, p->value_as_written());
    }
}

void record_set::drop_params() {
    auto given = written_params_.begin();
    for (std::size_t i = 0; i < records_.size(); ++i) {
        record& r = records_[i];
        const std::size_t offset = written_text_.size();
        if (given != written_params_.end() && given->first == i) {
            written_text_ += given->second;
            ++given;
        } else {
            append_written(written_text_, params_begin(i), params_end(i));
        }
        if (written_text_.size() > std::numeric_limits<std::uint32_t>::max()) {
            throw error(error_code::limit_exceeded,
                        "the parameters of a tree's nodes take more than 4 GiB as text");
        }
        r.first_param = static_cast<std::uint32_t>(offset);
        r.param_count = static_cast<std::uint32_t>(written_text_.size() - offset);
    }
    params_.clear();
    params_.shrink_to_fit();
    written_params_.clear();
    written_params_.shrink_to_fit();
    dropped_ = true;
}

void record_set::add_metadata(std::string name, std::string value) {
    if (records_.empty())
        throw error(error_code::invalid_argument, "add_metadata before any record was added");
    metadata_.push_back({std::move(name), std::move(value)});
    metadata_records_.push_back(records_.size() - 1);
}

void record_set::copy_metadata(const record_set& from, std::size_t i) {
    auto [first, last] = from.metadata(i);
    for (; first != last; ++first) add_metadata(first->name, first->value);
}

std::pair<const record_set::metadata_entry*, const record_set::metadata_entry*>
record_set::metadata(std::size_t i) const {
    auto [first, last] = std::equal_range(metadata_records_.begin(), metadata_records_.end(), i);
    const metadata_entry* base = metadata_.data();
    return {base + (first - metadata_records_.begin()), base + (last - metadata_records_.begin())};
}

void record_set::mark_problem(std::uint8_t problems) {
    if (records_.empty())
        throw error(error_code::invalid_argument, "mark_problem before any record was added");
    records_.back().problems |= problems;
    any_problems_ = any_problems_ || problems != 0;
}

std::string_view record_set::type_name(std::size_t i) const {
    const record& r = records_[i];
    if (r.type_name == by_type_id) return {};
    return type_names_[r.type_name];
}

std::string_view record_set::written_type(std::size_t i) const {
    const record& r = records_[i];
    if (r.written_type == by_type_id) return {};
    return type_names_[r.written_type];
}

std::string_view record_set::written_params(std::size_t i) const {
    if (!dropped_) return {};
    const record& r = records_[i];
    return std::string_view(written_text_).substr(r.first_param, r.param_count);
}

std::string_view record_set::describe(std::size_t i) const {
    const record& r = records_[i];
    return std::string_view(text_).substr(r.describe_offset, r.describe_size);
}

std::pair<record_set::raw_param*, record_set::raw_param*> record_set::params_to_change(
    std::size_t i) {
    if (dropped_) return {nullptr, nullptr};
    raw_param* first = params_.data() + records_[i].first_param;
    return {first, first + records_[i].param_count};
}

const record_set::raw_param* record_set::params_begin(std::size_t i) const {
    return dropped_ ? params_.data() : params_.data() + records_[i].first_param;
}

const record_set::raw_param* record_set::params_end(std::size_t i) const {
    return dropped_ ? params_.data() : params_begin(i) + records_[i].param_count;
}

const std::string* record_set::text_param(std::size_t i, std::string_view name) const {
    for (const raw_param* p = params_begin(i); p != params_end(i); ++p) {
        if (p->name != name) continue;
        if (const auto* text = std::get_if<std::string>(&p->value)) return text;
    }
    return nullptr;
}

}  // namespace canopy
