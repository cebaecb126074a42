// Planted: canopy::btcpp reaching into the library's private headers.
#include "canopy/run/agent.hpp"
#include "run/btcpp_entry.hpp"
#include "load/loader.hpp"
