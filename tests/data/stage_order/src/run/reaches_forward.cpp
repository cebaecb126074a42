// A run source that reaches forward to the loader: the stage check must refuse it.
#include "load/loader.hpp"
