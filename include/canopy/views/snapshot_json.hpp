#pragma once
// A snapshot (canopy/run/snapshot.hpp) as JSON a person can read, and back: the same content
// (docs/snapshots.md, "The JSON form").

#include <string>
#include <string_view>

namespace canopy {

/// The snapshot's content as JSON: the tree's description, then each agent's clock, tick
/// count, generator, each node's status, the states saved as bytes (hexadecimal), what nodes
/// saved themselves, and each key's value, update stamp and whether it is set.
/// @warning throws canopy::error (code `snapshot`) as read_snapshot does.
std::string snapshot_to_json(std::string_view snapshot);

/// The bytes of a snapshot that snapshot_to_json gave (or a person edited): agent::restore
/// takes them.
/// @warning throws canopy::error (code `snapshot`), naming the field, for JSON that is not
/// such a snapshot.
std::string snapshot_from_json(std::string_view text);

}  // namespace canopy
