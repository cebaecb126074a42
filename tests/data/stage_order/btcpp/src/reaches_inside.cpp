// Planted: canopy::btcpp reaching into the library's private headers.
#include "canopy/run/agent.hpp"
#include "load/loader.hpp"
#include "run/btcpp_entry.hpp"
