#pragma once
/// Deterministic flat JSON tree files for the benchmarks, shaped like an editor's export.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

namespace canopy::bench {

/// The seed every benchmark uses, so that every run reads the same files.
inline constexpr std::uint64_t default_seed = 0x5eed'ca00'0b7e'e5ULL;

/// The shape of a generated tree, for the benchmark's context output.
struct tree_shape {
    std::size_t records = 0;
    std::size_t leaves = 0;
    std::size_t decorators = 0;
    std::size_t max_depth = 0;  ///< the root's depth is 0
    double mean_depth = 0;
    std::size_t max_children = 0;
};

/// A flat JSON tree file of `count` records (count >= 1) that validates against the built-in
/// node types, the same bytes for the same count and seed on every platform.
///
/// Record i's parent is an earlier record: the one just before it (30%, which makes chains),
/// one of the 16 before it (25%), or any earlier one (45%). Records stand in creation order,
/// as an editor exports them: a parent always precedes its children, but siblings are spread
/// over the file. Ids increase with gaps, as deleting nodes in an editor leaves. Types follow
/// the child count: AlwaysSuccess/AlwaysFailure for leaves, Not or a composite for one child,
/// Sequence/Selector for more. Describe texts read like an editor's notes, 8% are left out,
/// and a few hold escapes or non-ASCII UTF-8.
std::string generate_flat_json(std::size_t count, std::uint64_t seed = default_seed,
                               tree_shape* shape = nullptr);

/// Writes bytes to a file, replacing it.
/// @warning throws std::runtime_error if the file cannot be written.
void write_file(const std::filesystem::path& path, const std::string& bytes);

/// Reads a whole file.
/// @warning throws std::runtime_error if the file cannot be read.
std::string read_file(const std::filesystem::path& path);

}  // namespace canopy::bench
