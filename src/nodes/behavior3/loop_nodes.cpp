// behavior3-ts's loop over an array (its src/behavior3/nodes/decorators/foreach.ts), written
// as the family's decorators are (decorators.cpp): reached with a running child, it first lets
// the child go on, then does what behavior3-ts's node does when resumed with the child's
// status, in the same tick.
#include <cstdint>
#include <vector>

#include "canopy/run/context.hpp"
#include "canopy/run/port.hpp"
#include "canopy/run/stateful_node.hpp"
#include "nodes/behavior3/dynamic_io.hpp"
#include "nodes/behavior3/family.hpp"
#include "nodes/behavior3/value_nodes.hpp"

namespace canopy::detail {
namespace {

// ForEach: for each element of the array in input 1, from the first, writes the element to
// output 1 and its index to output 2 and ticks the child; the child's failure ends it with
// failure, its success goes on to the next element in the same tick, its running returns
// running and the loop goes on from that element once the child finishes. Success after the
// last element (at once for an empty array); failure when input 1 holds no array, or output 1
// cannot hold an element (a number variable given a string, say).
//
// The array is read again before each element, as behavior3-ts's loop reads `arr.length`, so a
// child that pushes onto it lengthens the loop. Its elements in one tick are bounded by
// loop_budget, shared with the loops around and inside it, so that such a loop cannot hang a
// tick.
class for_each final : public stateful_node<std::int64_t> {
public:
    static std::vector<param_spec> parameters() {
        return {json_input("input1"), any_output("output1"),
                param_spec::output_port("output2", param_type::number)};
    }
    explicit for_each(const param_list& params)
        : array_(key_of(params, "input1")),
          element_(output_key(params, "output1")),
          index_(output_key(params, "output2")) {}
    // The index of the element the child runs for.
    void enter(context& ctx) const override { state(ctx) = 0; }

    status tick(context& ctx) const override {
        std::int64_t& at = state(ctx);
        const tree::index child = ctx.child();
        if (ctx.is_running(child)) {
            const status result = behavior3_result(ctx.tick(child));
            if (result != status::success) return result;  // running or failure
            ++at;
        }
        blackboard board = ctx.blackboard();
        loop_budget loop;
        for (;;) {
            const dynamic_value::array_type* elements =
                board.get_ref<dynamic_value>(array_).array();
            if (elements == nullptr) return status::failure;
            if (at >= static_cast<std::int64_t>(elements->size())) return status::success;
            if (!loop.take()) return status::running;
            // A copy: output 1 may be the array's own variable.
            const dynamic_value element = (*elements)[static_cast<std::size_t>(at)];
            if (!write_output(board, element_, element)) return status::failure;
            if (index_ != param::no_key) board.set(index_, static_cast<double>(at));
            const status result = behavior3_result(ctx.tick(child));
            if (result != status::success) return result;
            ++at;
        }
    }

private:
    std::uint32_t array_;
    std::uint32_t element_;
    std::uint32_t index_;
};

}  // namespace

void register_behavior3_loop_nodes(registry& reg) {
    ensure_dynamic_type(reg);
    reg.add<for_each>("behavior3.ForEach", std::nullopt, arity::decorator);
}

}  // namespace canopy::detail
