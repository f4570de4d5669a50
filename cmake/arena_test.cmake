# arena_cmocka_test: one cmocka test program, built and registered with ctest.
#
#   arena_cmocka_test(NAME TIMEOUT SECONDS [LIBS lib...] [SOURCES src...]
#                     [ARGS arg...] [LABELS label...] [TEST ctest-name])
#
# Builds the executable NAME from SOURCES (default NAME.c in the calling
# folder), links LIBS and cmocka, and adds the ctest test (named NAME, or
# TEST) that runs it with ARGS. Every test needs a TIMEOUT (the suite's own
# rule, tests/check_timeouts.py), so it is not optional here.
function(arena_cmocka_test name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "TIMEOUT;TEST" "LIBS;SOURCES;ARGS;LABELS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "arena_cmocka_test(${name}): unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_TIMEOUT)
    message(FATAL_ERROR "arena_cmocka_test(${name}): a TIMEOUT is required")
  endif()
  if(NOT arg_SOURCES)
    set(arg_SOURCES ${name}.c)
  endif()
  if(NOT arg_TEST)
    set(arg_TEST ${name})
  endif()
  add_executable(${name} ${arg_SOURCES})
  target_link_libraries(${name} ${arg_LIBS} PkgConfig::CMOCKA)
  add_test(NAME ${arg_TEST} COMMAND ${name} ${arg_ARGS})
  set_tests_properties(${arg_TEST} PROPERTIES TIMEOUT ${arg_TIMEOUT})
  if(arg_LABELS)
    set_tests_properties(${arg_TEST} PROPERTIES LABELS "${arg_LABELS}")
  endif()
endfunction()
