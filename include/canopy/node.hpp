#pragma once

namespace canopy {

/// The object a node type's creator makes for one tree node, from that node's parameters.
/// A tree owns one per node whose type has a creator and never changes it after building;
/// the runtime gives it behaviour (enter, tick, exit, halt) through virtual functions that
/// derived classes override.
class node {
public:
    node() = default;
    node(const node&) = delete;
    node& operator=(const node&) = delete;
    virtual ~node() = default;
};

}  // namespace canopy
