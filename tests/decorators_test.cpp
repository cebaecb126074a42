// Table-driven tests of the built-in decorators: each tick's root status and every node's
// enter, exit and halt, written from the documented semantics (docs/nodes.md).
#include "runtime_support.hpp"
