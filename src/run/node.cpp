#include "canopy/run/node.hpp"

#include <stdexcept>
#include <string>

#include "canopy/core/status.hpp"

namespace canopy {

std::string_view to_string(status s) noexcept {
    switch (s) {
        case status::idle: return "idle";
        case status::success: return "success";
        case status::failure: return "failure";
        case status::running: return "running";
        case status::skipped: return "skipped";
        case status::error: return "error";
    }
    return "invalid";
}

void node::enter(context& /*ctx*/) const {}
void node::exit(context& /*ctx*/, status /*result*/) const {}
void node::halt(context& /*ctx*/) const {}
void node::on_event(context& /*ctx*/, std::string_view /*event*/) const {}
void node::construct_state(void* /*storage*/) const {}
void node::destroy_state(void* /*storage*/) const noexcept {}
bool node::save_state(const void* /*storage*/, std::string& /*out*/) const {
    return false;
}
void node::restore_state(void* /*storage*/, std::string_view /*saved*/) const {
    throw std::logic_error("restore_state of a node whose save_state saves nothing");
}
void node::check_children(std::size_t /*count*/) const {}

}  // namespace canopy
