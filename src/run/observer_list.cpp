// Several observers as one (canopy/run/observer_list.hpp).
#include "canopy/run/observer_list.hpp"

#include <algorithm>

namespace canopy {

observer_list::observer_list(std::initializer_list<observer*> observers) {
    for (observer* o : observers) add(o);
}

void observer_list::add(observer* o) {
    if (o != nullptr && !contains(o)) observers_.push_back(o);
}

bool observer_list::remove(const observer* o) noexcept {
    const auto found = std::find(observers_.begin(), observers_.end(), o);
    if (found == observers_.end()) return false;
    observers_.erase(found);
    return true;
}

bool observer_list::contains(const observer* o) const noexcept {
    return std::find(observers_.begin(), observers_.end(), o) != observers_.end();
}

void observer_list::on_visit(const agent& a, tree::index node) {
    for (observer* o : observers_) o->on_visit(a, node);
}

void observer_list::on_tick(const agent& a, tree::index node, status before, status result) {
    for (observer* o : observers_) o->on_tick(a, node, before, result);
}

void observer_list::on_halt(const agent& a, tree::index node) {
    for (observer* o : observers_) o->on_halt(a, node);
}

void observer_list::on_error(const agent& a, const node_error& error) {
    for (observer* o : observers_) o->on_error(a, error);
}

}  // namespace canopy
