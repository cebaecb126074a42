# canopy_add_plugin(<target> <source>...): a node plugin, the program's node types for the
# canopy CLI's --plugin (docs/cli.md, "Plugins"). The sources register the types and define
# the entry point with CANOPY_PLUGIN (canopy/run/plugin.hpp); link the program's own
# libraries to the target as to any other.
#
# The plugin is a MODULE library holding its own copy of canopy::runtime, with every symbol
# hidden but the entry point: nothing of it clashes with the program that loads it, which
# checks, through the entry point, that both were built from the same Canopy headers with the
# same standard library before it calls the plugin's code.
function(canopy_add_plugin target)
  add_library(${target} MODULE ${ARGN})
  if(TARGET canopy::runtime)
    target_link_libraries(${target} PRIVATE canopy::runtime)
  else()
    target_link_libraries(${target} PRIVATE canopy_runtime)
  endif()
  set_target_properties(${target} PROPERTIES
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  if(CMAKE_SYSTEM_NAME STREQUAL "Linux" OR CMAKE_SYSTEM_NAME MATCHES "BSD")
    # Canopy's static library was built with visible symbols: keep them the plugin's own.
    target_link_options(${target} PRIVATE "LINKER:--exclude-libs,ALL")
  endif()
endfunction()
