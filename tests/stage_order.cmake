# Fails when a file of one stage includes a header of a later stage, so that the include graph
# keeps running one way: core -> records -> formats -> run -> nodes -> builder -> load -> reload
# -> views -> testing -> monitor. Run as `cmake -DSOURCE_DIR=<checkout> -P tests/stage_order.cmake`.
#
# A stage is a folder of include/canopy/ and the same folder of src/. A public header is
# included as "canopy/<stage>/<name>.hpp", a private one (from src/) as "<stage>/<name>.hpp".
set(stages core records formats run nodes builder load reload views testing monitor)

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

message(STATUS "${checked} files checked: every include is of the same stage or an earlier one, and canopy/canopy.hpp includes every public header")
