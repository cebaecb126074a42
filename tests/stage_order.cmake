# Fails when a file of one stage includes a header of a later stage, so that the include graph
# keeps running one way: core -> records -> formats -> run -> nodes -> builder -> load -> reload
# -> views -> dialects -> testing -> monitor. Run as `cmake -DSOURCE_DIR=<checkout> -P tests/stage_order.cmake`.
#
# A stage is a folder of include/canopy/ and the same folder of src/. A public header is
# included as "canopy/<stage>/<name>.hpp", a private one (from src/) as "<stage>/<name>.hpp".
# btcpp/ (canopy::btcpp) comes after every stage and includes only public headers.
set(stages core records formats run nodes builder load reload views dialects testing monitor)

set(violations "")
set(checked 0)
foreach(root IN ITEMS include/canopy src)
  foreach(stage IN LISTS stages)
    list(FIND stages ${stage} rank)
    file(GLOB_RECURSE files
      ${SOURCE_DIR}/${root}/${stage}/*.hpp ${SOURCE_DIR}/${root}/${stage}/*.cpp)
    foreach(file IN LISTS files)
      math(EXPR checked "${checked} + 1")
      file(STRINGS ${file} includes REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]")
      foreach(line IN LISTS includes)
        if(line MATCHES "[\"<](canopy/)?([a-z_]+)/[^\">]+[\">]")
          list(FIND stages "${CMAKE_MATCH_2}" included_rank)
          if(included_rank GREATER rank)
            file(RELATIVE_PATH shown ${SOURCE_DIR} ${file})
            string(STRIP "${line}" line)
            string(APPEND violations
              "  ${shown} (${stage}) includes a later stage (${CMAKE_MATCH_2}): ${line}\n")
          endif()
        endif()
      endforeach()
    endforeach()
  endforeach()
endforeach()

# canopy::btcpp (btcpp/) is a program of the library: it includes Canopy's public headers
# (canopy/...), not its private ones (src/), but for the internal interface the library
# exports to it on purpose, named here, which only shrinks.
set(btcpp_internal_interface run/btcpp_entry.hpp run/script/syntax.hpp)
file(GLOB_RECURSE files ${SOURCE_DIR}/btcpp/*.hpp ${SOURCE_DIR}/btcpp/*.cpp ${SOURCE_DIR}/btcpp/*.h)
foreach(file IN LISTS files)
  math(EXPR checked "${checked} + 1")
  file(STRINGS ${file} includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  foreach(line IN LISTS includes)
    if(line MATCHES "\"(([a-z_]+)/[^\"]+)\"")
      list(FIND stages "${CMAKE_MATCH_2}" private_stage)
      list(FIND btcpp_internal_interface "${CMAKE_MATCH_1}" exported)
      if(private_stage GREATER -1 AND exported EQUAL -1)
        file(RELATIVE_PATH shown ${SOURCE_DIR} ${file})
        string(STRIP "${line}" line)
        string(APPEND violations
          "  ${shown} (btcpp) includes a private header of the library: ${line}\n")
      endif()
    endif()
  endforeach()
endforeach()

if(checked EQUAL 0)
  message(FATAL_ERROR "no file found under ${SOURCE_DIR}/include/canopy or ${SOURCE_DIR}/src")
endif()
if(violations)
  message(FATAL_ERROR "the include graph reaches back:\n${violations}")
endif()

# The umbrella header includes every public header.
if(EXISTS ${SOURCE_DIR}/include/canopy/canopy.hpp)
  file(READ ${SOURCE_DIR}/include/canopy/canopy.hpp umbrella)
  file(GLOB_RECURSE headers RELATIVE ${SOURCE_DIR}/include ${SOURCE_DIR}/include/canopy/*/*.hpp)
  set(missing "")
  foreach(header IN LISTS headers)
    string(FIND "${umbrella}" "#include \"${header}\"" at)
    if(at EQUAL -1)
      string(APPEND missing "  ${header}\n")
    endif()
  endforeach()
  if(missing)
    message(FATAL_ERROR "canopy/canopy.hpp does not include:\n${missing}")
  endif()
endif()

message(STATUS "${checked} files checked: every include is of the same stage or an earlier one, canopy::btcpp includes public headers and the interface exported to it, and canopy/canopy.hpp includes every public header")
