#pragma once
/// Everything public in Canopy.

#include "canopy/build.hpp"
#include "canopy/builtin_nodes.hpp"
#include "canopy/diagnostic.hpp"
#include "canopy/error.hpp"
#include "canopy/load.hpp"
#include "canopy/node.hpp"
#include "canopy/param.hpp"
#include "canopy/print.hpp"
#include "canopy/records.hpp"
#include "canopy/registry.hpp"
#include "canopy/source_location.hpp"
#include "canopy/tree.hpp"
