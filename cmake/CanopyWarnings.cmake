# Warnings are set per target, never globally, so that a parent project keeps its own flags.
function(canopy_set_warnings target)
  if(MSVC)
    target_compile_options(${target} PRIVATE /W4 $<$<BOOL:${CANOPY_WARNINGS_AS_ERRORS}>:/WX>)
  else()
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
      -Wno-sign-conversion $<$<BOOL:${CANOPY_WARNINGS_AS_ERRORS}>:-Werror>)
  endif()
endfunction()
