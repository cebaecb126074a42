#pragma once
// Zeroed storage at an alignment of its own, owned as one: an agent's state block and a
// script board's keys live in it, so that whatever fails while they are made frees it.

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <new>

namespace canopy::detail {

struct aligned_delete {
    std::size_t align = alignof(std::max_align_t);
    void operator()(std::byte* bytes) const noexcept {
        ::operator delete(bytes, std::align_val_t(align));
    }
};

using aligned_bytes = std::unique_ptr<std::byte[], aligned_delete>;

/// `size` zeroed bytes (at least one) at `align`, a power of two.
inline aligned_bytes allocate_zeroed(std::size_t size, std::size_t align) {
    size = std::max<std::size_t>(size, 1);
    auto* bytes = static_cast<std::byte*>(::operator new(size, std::align_val_t(align)));
    std::memset(bytes, 0, size);
    return aligned_bytes(bytes, aligned_delete{align});
}

}  // namespace canopy::detail
