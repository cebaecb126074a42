// Placeholder until the writer lands.
#include "readers.hpp"

namespace canopy::detail {

write_result write_btcpp_xml(const tree_document&) {
    return {};
}

}  // namespace canopy::detail
