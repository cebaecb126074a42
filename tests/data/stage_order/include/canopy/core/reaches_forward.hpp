#pragma once
// A core header that reaches forward to a view: the stage check must refuse it.
#include "canopy/views/print.hpp"
