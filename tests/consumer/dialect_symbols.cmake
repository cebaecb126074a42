# Counts the functions and objects of PROGRAM whose names name another runtime's rules
# (behavior3, BehaviorTree.CPP, ECMAScript's values): for a program of Canopy's own format that
# links canopy::runtime alone, what it carries of the dialects. Only the library's own
# definitions count (global, not inline: nm's T, D, B and R), which every build type emits
# alike; inline and file-local functions come and go with the optimizer. They are leaving the runtime
# for modules of their own, so the count may only go down: the test fails above MOST, and
# says so when the count has fallen, so that MOST follows it down to 0.
# Run as `cmake -DPROGRAM=<file> -DMOST=<count> -P tests/consumer/dialect_symbols.cmake`.
find_program(NM nm REQUIRED)
execute_process(COMMAND ${NM} -C --defined-only ${PROGRAM}
  OUTPUT_VARIABLE symbols RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "nm could not read ${PROGRAM}")
endif()
string(REPLACE "\n" ";" symbols "${symbols}")
set(named "")
foreach(symbol IN LISTS symbols)
  string(TOLOWER "${symbol}" lower)
  if(symbol MATCHES "^[0-9a-f]+ [TDBR] " AND lower MATCHES "behavior3|btcpp|javascript")
    string(REGEX REPLACE "^[0-9a-f]+ . " "" symbol "${symbol}")
    list(APPEND named "${symbol}")
  endif()
endforeach()
list(LENGTH named count)
if(count GREATER MOST)
  list(SUBLIST named 0 20 shown)
  list(JOIN shown "\n  " shown)
  message(FATAL_ERROR "${PROGRAM} holds ${count} symbols of the dialects, more than the "
    "${MOST} it held: the runtime reaches for a dialect again. The first:\n  ${shown}")
endif()
if(count LESS MOST)
  message(STATUS "${count} symbols of the dialects, fewer than ${MOST}: lower MOST to ${count}")
else()
  message(STATUS "${count} symbols of the dialects, as many as allowed")
endif()
