# canopy_doc_examples(TARGET_PREFIX prefix ROOT dir FILES markdown...)
#
# Turns every ```cpp block of the markdown files into a program of its own, built with the
# project, so that an example that stops compiling breaks the build, and a test runs each whole
# program from ROOT. A #line directive puts every line back at its place in the markdown, so a
# compiler error names the file and line of the block at fault, e.g. docs/nodes.md:395.
#
# A block is a whole program unless an HTML comment (invisible on the rendered page) just before
# it says otherwise:
#
#   <!-- example: engine -->              a whole program built as game engines build theirs,
#                                          with -fno-exceptions -fno-rtti (docs/games.md)
#   <!-- example: fragment -->            statements, compiled inside main() after
#                                          #include <canopy/canopy.hpp>; not run
#   <!-- example: fragment, needs:
#   canopy::registry reg;                  ... and after these lines, which declare what the
#   -->                                    fragment uses without showing it
#
# #include lines, in the block or in its needs, go to the top of the file.
function(canopy_doc_examples)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "TARGET_PREFIX;ROOT" "FILES")
  foreach(markdown IN LISTS arg_FILES)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${markdown})
    file(RELATIVE_PATH name ${arg_ROOT} ${markdown})
    _canopy_doc_examples_of(${markdown} ${name})
  endforeach()
endfunction()

# Semicolons and square brackets would cut or glue list elements: they travel as these tokens.
set(_canopy_semicolon "@canopy_semicolon@")
set(_canopy_open "@canopy_open_bracket@")
set(_canopy_close "@canopy_close_bracket@")

function(_canopy_doc_examples_of markdown name)
  file(READ ${markdown} text)
  string(REPLACE ";" "${_canopy_semicolon}" text "${text}")
  string(REPLACE "[" "${_canopy_open}" text "${text}")
  string(REPLACE "]" "${_canopy_close}" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")

  set(line_number 0)
  set(state prose)       # prose, marker (inside an example comment), code (inside a block)
  set(kind program)
  set(needs "")
  set(needs_line 0)
  foreach(line IN LISTS lines)
    math(EXPR line_number "${line_number} + 1")
    if(state STREQUAL "code")
      if(line MATCHES "^```[ \t]*$")
        _canopy_doc_example(${markdown} ${name} ${block_line} ${kind} "${needs}" ${needs_line}
                            "${code}")
        set(state prose)
        set(kind program)
        set(needs "")
        set(needs_line 0)
      else()
        string(APPEND code "${line}\n")
      endif()
    elseif(state STREQUAL "marker")
      if(line MATCHES "^[ \t]*-->[ \t]*$")
        set(state prose)
      else()
        string(APPEND needs "${line}\n")
      endif()
    elseif(line MATCHES "^<!-- example: ([a-z]+)(, needs:)?[ \t]*(-->)?[ \t]*$")
      set(kind ${CMAKE_MATCH_1})
      set(has_needs "${CMAKE_MATCH_2}")
      set(closed "${CMAKE_MATCH_3}")
      if(NOT kind MATCHES "^(program|engine|fragment)$")
        message(FATAL_ERROR "${name}:${line_number}: unknown example kind '${kind}' (program, engine or fragment)")
      endif()
      if(has_needs AND NOT closed)
        set(state marker)
        math(EXPR needs_line "${line_number} + 1")
      elseif(NOT closed)
        message(FATAL_ERROR "${name}:${line_number}: an example marker ends with '-->' on its line, or with ', needs:' and the needed lines before '-->'")
      endif()
    elseif(line MATCHES "^```cpp[ \t]*$")
      set(state code)
      set(code "")
      math(EXPR block_line "${line_number} + 1")
    elseif(line MATCHES "^<!-- example")
      message(FATAL_ERROR "${name}:${line_number}: not an example marker; write '<!-- example: program -->', '<!-- example: fragment -->' or '<!-- example: fragment, needs:'")
    endif()
  endforeach()
  if(NOT state STREQUAL "prose")
    message(FATAL_ERROR "${name}: the file ends inside an example (${state})")
  endif()
endfunction()

# Lines of `code` (starting at `first_line` of `name`): the #include lines go to `includes`
# (each with its #line), the others to `body`, where an include leaves an empty line so that the
# numbering still matches the markdown.
function(_canopy_split_includes name first_line code includes_var body_var)
  set(includes "${${includes_var}}")
  set(body "#line ${first_line} \"${name}\"\n")
  set(line_number ${first_line})
  string(REGEX REPLACE "\n$" "" code "${code}")
  string(REPLACE "\n" ";" lines "${code}")
  foreach(line IN LISTS lines)
    if(line MATCHES "^[ \t]*#[ \t]*include")
      string(APPEND includes "#line ${line_number} \"${name}\"\n${line}\n")
      string(APPEND body "\n")
    else()
      string(APPEND body "${line}\n")
    endif()
    math(EXPR line_number "${line_number} + 1")
  endforeach()
  set(${includes_var} "${includes}" PARENT_SCOPE)
  set(${body_var} "${body}" PARENT_SCOPE)
endfunction()

function(_canopy_doc_example markdown name line kind needs needs_line code)
  string(MAKE_C_IDENTIFIER "${name}_${line}" id)
  set(target ${arg_TARGET_PREFIX}${id})
  set(source "// Made from the block at ${name}:${line}: edit it there.\n")
  if(kind MATCHES "^(program|engine)$")
    string(APPEND source "#line ${line} \"${name}\"\n${code}")
  else()
    set(includes "#include <canopy/canopy.hpp>\n")
    set(needs_body "")
    if(needs_line)
      _canopy_split_includes(${name} ${needs_line} "${needs}" includes needs_body)
    endif()
    _canopy_split_includes(${name} ${line} "${code}" includes body)
    string(APPEND source "${includes}int main() {\n${needs_body}{\n${body}}\n}\n")
  endif()
  string(REPLACE "${_canopy_semicolon}" ";" source "${source}")
  string(REPLACE "${_canopy_open}" "[" source "${source}")
  string(REPLACE "${_canopy_close}" "]" source "${source}")

  # Written through configure_file, which leaves an unchanged file alone: no rebuild for it.
  set(generated ${CMAKE_CURRENT_BINARY_DIR}/examples/${id}.cpp)
  file(WRITE ${generated}.in "${source}")
  configure_file(${generated}.in ${generated} COPYONLY)

  add_executable(${target} ${generated})
  target_link_libraries(${target} PRIVATE canopy::canopy canopy_testing)  # docs/testing.md's
  if(TARGET canopy_groot2)  # docs/monitoring.md's examples
    target_link_libraries(${target} PRIVATE canopy_groot2)
  endif()
  if(TARGET canopy_live)  # and its live view's
    target_link_libraries(${target} PRIVATE canopy_live)
  endif()
  if(TARGET canopy_btcpp)  # docs/btcpp-api.md's and docs/migrating-from-btcpp.md's
    target_link_libraries(${target} PRIVATE canopy_btcpp)
  endif()
  if(COMMAND canopy_set_warnings)
    canopy_set_warnings(${target})
  endif()
  set(runs FALSE)
  if(kind MATCHES "^(program|engine)$")
    set(runs TRUE)
  endif()
  if(kind STREQUAL "engine")
    target_compile_options(${target} PRIVATE -fno-exceptions -fno-rtti)
    # UndefinedBehaviorSanitizer's vptr check reads RTTI through vtables, and the program's
    # own copies of the standard library's vtables have none: it would report the library's
    # every std::shared_ptr. Such a build compiles the example; the tsan preset runs it.
    if(CMAKE_CXX_FLAGS MATCHES "-fsanitize=[^ ]*undefined" AND
       NOT CMAKE_CXX_FLAGS MATCHES "-fno-sanitize=[^ ]*vptr")
      set(runs FALSE)
    endif()
  endif()
  if(runs)
    add_test(NAME "example:${name}:${line}" COMMAND ${target} WORKING_DIRECTORY ${arg_ROOT})
  endif()

endfunction()
