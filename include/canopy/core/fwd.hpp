#pragma once
/// Forward declarations of Canopy's public types, for headers that only name them.

#include <cstdint>

namespace canopy {

struct diagnostic;
struct source_location;
struct param_spec;
struct param;
class param_list;
struct node_type;
class node;
class registry;
class context;
class agent;
class blackboard;
class observer;
struct blackboard_key;
struct state_layout;
struct event_values;
class record_set;
class tree;
class error;
class load_error;
class registry_error;

enum class arity : std::uint8_t;
enum class param_type : std::uint8_t;
enum class diagnostic_code : std::uint8_t;
enum class file_format : std::uint8_t;
enum class status : std::uint8_t;

}  // namespace canopy
