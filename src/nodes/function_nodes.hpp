#pragma once
// Leaves made from functions (seed 004's action and condition nodes).

#include <functional>
#include <utility>

#include "canopy/context.hpp"
#include "canopy/node.hpp"

namespace canopy::detail {

class action_node final : public node {
public:
    explicit action_node(std::function<status(context&)> action)
        : node({}), action_(std::move(action)) {}
    status tick(context& ctx) const override { return action_(ctx); }

private:
    std::function<status(context&)> action_;
};

class condition_node final : public node {
public:
    explicit condition_node(std::function<bool(context&)> condition)
        : node({}), condition_(std::move(condition)) {}
    status tick(context& ctx) const override {
        return condition_(ctx) ? status::success : status::failure;
    }

private:
    std::function<bool(context&)> condition_;
};

}  // namespace canopy::detail
