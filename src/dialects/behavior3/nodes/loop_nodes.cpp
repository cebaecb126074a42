// behavior3-ts's loops over an array (its src/behavior3/nodes/decorators/foreach.ts and
// filter.ts), written as the family's decorators are (decorators.cpp): reached with a running
// child, each first lets the child go on, then does what behavior3-ts's node does when resumed
// with the child's status, in the same tick.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "canopy/run/context.hpp"
#include "canopy/run/port.hpp"
#include "canopy/run/stateful_node.hpp"
#include "core/bytes.hpp"
#include "dialects/behavior3/nodes/dynamic_io.hpp"
#include "dialects/behavior3/nodes/family.hpp"
#include "dialects/behavior3/nodes/value_nodes.hpp"

namespace canopy::detail {
namespace {

// ForEach: for each element of the array in input 1, from the first, writes the element to
// output 1 and its index to output 2 and ticks the child; the child's failure ends it with
// failure, its success goes on to the next element in the same tick, its running returns
// running and the loop goes on from that element once the child finishes. Success after the
// last element (at once for an empty array); failure when input 1 holds no array, or output 1
// cannot hold an element (a number variable given a string, say). The child's error ends it
// with error.
//
// The array is read once per tick, after a running child has finished, as behavior3-ts reads
// its input when it resumes the node; that read shares the array, and its length is read again
// before each element, so a child that pushes onto it lengthens the loop, while one that gives
// the variable another value does not change the loop. Its elements in one tick are bounded by
// loop_budget, shared with the loops around and inside it, so that such a loop cannot hang a
// tick.
class for_each final : public stateful_node<std::int64_t> {
public:
    static constexpr bool sees_errors = true;
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

    // Finished, it leaves both outputs unset: behavior3-ts's node writes undefined to each
    // output it did not fill, and ForEach fills none.
    status tick(context& ctx) const override {
        const status result = iterate(ctx);
        if (result != status::running) {
            unset_output(ctx.blackboard(), element_);
            unset_output(ctx.blackboard(), index_);
        }
        return result;
    }

private:
    status iterate(context& ctx) const {
        std::int64_t& at = state(ctx);
        const tree::index child = ctx.child();
        if (ctx.is_running(child)) {
            const status result = behavior3_result(ctx.tick(child));
            if (result != status::success) return result;  // running, failure or error
            ++at;
        }
        blackboard board = ctx.blackboard();
        // behavior3-ts loops while `i < arr.length`: over nothing it throws; over a string,
        // its characters; over another value, no element.
        if (!board.is_set(array_)) require_defined(board, array_, "input1");
        // A copy, which shares the array: it outlives the child giving the variable another
        // value. NOLINTNEXTLINE(performance-unnecessary-copy-initialization)
        const dynamic_value value = board.get_ref<dynamic_value>(array_);
        loop_budget loop;
        for (;;) {
            const dynamic_value::array_type* elements = value.array();
            const std::size_t size = elements != nullptr ? elements->size()
                                     : value.is_string() ? value.string().size()
                                                         : 0;
            if (at >= static_cast<std::int64_t>(size)) return status::success;
            if (!loop.take()) return status::running;
            // A copy: output 1 may be the array's own variable.
            const auto k = static_cast<std::size_t>(at);
            const dynamic_value element =
                elements != nullptr ? (*elements)[k] : dynamic_value(value.string().substr(k, 1));
            if (!write_output(board, element_, element)) return status::failure;
            if (!write_output(board, index_, dynamic_value(static_cast<double>(at))))
                return status::failure;
            const status result = behavior3_result(ctx.tick(child));
            if (result != status::success) return result;
            ++at;
        }
    }

    std::uint32_t array_;
    std::uint32_t element_;
    std::uint32_t index_;
};

// Filter: for each element of the array in input 1, from the first, writes the element to
// output 1 and ticks the child; the elements whose child succeeded make a new array, written
// to output 2 after the last element, and output 1 is left undefined (blackboard::unset).
// Success when the new array has an element, failure when it is empty, and at once, with both
// outputs undefined, failure when input 1 holds an empty array and error when it holds none.
// A running child returns running, and the loop goes on from the next element once the child
// finishes (behavior3-ts starts over from the first, keeping the elements already picked: see
// docs/behavior3.md). Bounded by loop_budget as ForEach is.
struct filter_state {
    std::int64_t at = 0;               // the element the child runs for
    dynamic_value::array_type picked;  // the elements picked so far in this run
};

class filter final : public stateful_node<filter_state> {
public:
    static std::vector<param_spec> parameters() {
        return {json_input("input1"), any_output("output1"),
                param_spec::output_port("output2", dynamic_value_type())};
    }
    explicit filter(const param_list& params)
        : array_(key_of(params, "input1")),
          element_(output_key(params, "output1")),
          picked_(output_key(params, "output2")) {}
    void enter(context& ctx) const override {
        filter_state& s = state(ctx);
        s.at = 0;
        s.picked.clear();
    }
    bool save_state(const void* storage, std::string& out) const override {
        const auto& s = *static_cast<const filter_state*>(storage);
        put(out, s.at);
        dynamic_value(s.picked).append_bytes(out);
        return true;
    }
    void restore_state(void* storage, std::string_view saved) const override {
        auto& s = *static_cast<filter_state*>(storage);
        byte_reader in(saved);
        s.at = in.get<std::int64_t>("a Filter's place");
        const dynamic_value picked =
            dynamic_value::from_bytes(in.get_bytes(in.left(), "a Filter's elements"));
        if (!picked.is_array()) in.fail("a Filter's elements", "not an array");
        s.picked = *picked.array();
    }

    status tick(context& ctx) const override {
        filter_state& s = state(ctx);
        const tree::index child = ctx.child();
        blackboard board = ctx.blackboard();
        status resumed = status::idle;
        if (ctx.is_running(child)) {
            resumed = behavior3_result(ctx.tick(child));
            if (resumed == status::running) return resumed;
        }
        // Read once, sharing the array, as ForEach reads it.
        // NOLINTNEXTLINE(performance-unnecessary-copy-initialization)
        const dynamic_value array = board.get_ref<dynamic_value>(array_);
        const dynamic_value::array_type* elements = array.array();
        if (elements == nullptr) return fail(board, status::error);
        if (elements->empty()) return fail(board);
        if (resumed != status::idle) {
            // behavior3-ts picks the element at the resumed index of the array as it is now.
            if (resumed == status::success) s.picked.push_back(element_at(*elements, s.at));
            ++s.at;
        }
        loop_budget loop;
        for (;;) {
            if (s.at >= static_cast<std::int64_t>(elements->size())) break;
            if (!loop.take()) return status::running;
            // A copy: output 1 may be the array's own variable.
            const dynamic_value element = (*elements)[static_cast<std::size_t>(s.at)];
            if (!write_output(board, element_, element)) return fail(board);
            const status result = behavior3_result(ctx.tick(child));
            if (result == status::running) return result;
            if (result == status::success) s.picked.push_back(element);
            ++s.at;
        }
        const bool none = s.picked.empty();
        const dynamic_value picked(std::move(s.picked));
        s.picked.clear();  // moved from: valid, emptied for certain
        if (!fits_in_a_value(picked)) return fail(board);
        // behavior3-ts writes its outputs in order when the node finishes: undefined to output
        // 1 (which it never fills), then the new array to output 2.
        unset_output(board, element_);
        if (!write_output(board, picked_, picked)) return fail(board);
        return none ? status::failure : status::success;
    }

private:
    // A run that ends before its new array is made leaves both outputs undefined.
    status fail(blackboard board, status result = status::failure) const {
        unset_output(board, element_);
        unset_output(board, picked_);
        return result;
    }

    static dynamic_value element_at(const dynamic_value::array_type& elements, std::int64_t at) {
        return at < static_cast<std::int64_t>(elements.size())
                   ? elements[static_cast<std::size_t>(at)]
                   : dynamic_value();
    }

    std::uint32_t array_;
    std::uint32_t element_;
    std::uint32_t picked_;
};

}  // namespace

void register_behavior3_loop_nodes(registry& reg) {
    ensure_dynamic_type(reg);
    reg.add<for_each>("behavior3.ForEach", std::nullopt, arity::decorator);
    reg.add<filter>("behavior3.Filter", std::nullopt, arity::decorator);
}

}  // namespace canopy::detail
