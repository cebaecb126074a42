#include "canopy/run/tree_handle.hpp"

#include "canopy/core/error.hpp"
#include "run/tree_handle_state.hpp"

namespace canopy {

tree_handle::tree_handle(std::shared_ptr<const tree> first) : shared_(std::make_shared<shared>()) {
    publish(std::move(first));
}

std::shared_ptr<const tree> tree_handle::current() const {
    return shared_ == nullptr ? nullptr : shared_->read().first;
}

std::uint64_t tree_handle::version() const noexcept {
    return shared_ == nullptr ? 0 : shared_->version.load(std::memory_order_acquire);
}

void tree_handle::publish(std::shared_ptr<const tree> next) {
    if (!next) throw error(error_code::invalid_argument, "tree_handle::publish: no tree");
    if (shared_ == nullptr)
        throw error(error_code::invalid_argument, "tree_handle::publish: an empty handle");
    std::lock_guard<std::mutex> lock(shared_->mutex);
    shared_->tree = std::move(next);
    shared_->version.fetch_add(1, std::memory_order_release);
}

}  // namespace canopy
