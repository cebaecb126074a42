#pragma once
// Dynamic values that share an array or object (JavaScript's references, docs/behavior3.md
// "Values") keep sharing it through a snapshot: while a scope lives on a thread, the bytes
// dynamic_value::append_bytes writes name each shared array or object, and from_bytes gives
// every value naming the same one the same array or object back, in whatever order they are
// read and whichever are read.

#include <cstdint>
#include <memory>

namespace canopy::detail {

class value_sharing_scope {
public:
    /// Starts a scope on this thread; within another, it is that one.
    value_sharing_scope();
    ~value_sharing_scope();
    value_sharing_scope(const value_sharing_scope&) = delete;
    value_sharing_scope& operator=(const value_sharing_scope&) = delete;

    struct tables;  // in dynamic_value.cpp

private:
    std::unique_ptr<tables> own_;
};

}  // namespace canopy::detail
