#include "load/subtree_node.hpp"

#include "canopy/run/context.hpp"

namespace canopy::detail {
namespace {

class subtree_node final : public node {
public:
    status tick(context& ctx) const override {
        return ctx.tick(ctx.node() + 1);
    }  // its one child follows it in preorder
};

}  // namespace

node_type subtree_type() {
    node_type type{
        std::string(subtree_type_name),
        std::nullopt,
        arity::decorator,
        {param_spec::optional("tree", std::string()), param_spec::optional("file", std::string())},
        [](const param_list&) { return std::make_unique<subtree_node>(); }};
    type.sees_errors = true;  // transparent: its root's error is its own
    return type;
}

node_type subtree_placeholder_type() {
    return {std::string(subtree_type_name), std::nullopt, arity::leaf, {}, {}};
}

}  // namespace canopy::detail
