# adc_add_conformance_test: a ctest that runs adc-conform against a library.
#
#   adc_add_conformance_test(
#     NAME      test name
#     PRODUCER  library  |  CONSUMER library     (one or both)
#     [PREFIX name] [PRODUCER_PREFIX name] [CONSUMER_PREFIX name]
#     [DEVICES device...]                        (default: cpu)
#     [EXPECT file]                              (known shortfalls)
#     [FILTER glob...]
#     [ARGS arg...]                              (passed on to adc-conform)
#     [TIMEOUT seconds])
#
# A library is a CMake target (its file, $<TARGET_FILE:...>, is used; the
# target must be defined before this call), the word `reference` (the
# bundled reference pair), or a path (relative paths are taken from the
# current binary folder, where ctest runs the test).
#
# EXPECT names an expectations file (CONFORMANCE.md, "Expectations files"),
# relative to the current source folder: the cases it lists end
# expected_fail and keep the test green, and a case that stops failing
# (unexpected_pass) fails it, so the file has to follow the library.
#
# One device gives one test, NAME.  Several give one test per device,
# NAME.DEVICE, each with the same expectations (an entry that matches no
# case of a device is a warning, not a failure), so that ctest reports each
# device separately and FILTER keeps its meaning (globs over the whole case
# ID, <device>/<rule>/<fixture>, as adc-conform --filter).
#
# The test passes when adc-conform exits 0: no MUST case failed, crashed or
# timed out beyond what EXPECT lists, and every side named is shown to
# conform or not.  It fails on exit status 1 (and on anything else), and
# ctest shows it as skipped on exit status 3: nothing failed, but a side
# named is not shown to conform (no MUST case of it passed, or one ended
# unresolved): a GPU device on a machine without its GPU, where every case
# is not_supported, or a FILTER that leaves a side no MUST case.

# The file of a library argument, as adc-conform takes it.
function(_adc_conformance_library out value)
  if(value STREQUAL "reference")
    set(${out} "reference" PARENT_SCOPE)
  elseif(TARGET ${value})
    set(${out} "$<TARGET_FILE:${value}>" PARENT_SCOPE)
  else()
    get_filename_component(path "${value}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
    set(${out} "${path}" PARENT_SCOPE)
  endif()
endfunction()

function(adc_add_conformance_test)
  cmake_parse_arguments(PARSE_ARGV 0 arg ""
                        "NAME;PRODUCER;CONSUMER;PREFIX;PRODUCER_PREFIX;CONSUMER_PREFIX;EXPECT;TIMEOUT"
                        "DEVICES;FILTER;ARGS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "adc_add_conformance_test: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_NAME)
    message(FATAL_ERROR "adc_add_conformance_test: NAME is required")
  endif()
  if(NOT arg_PRODUCER AND NOT arg_CONSUMER)
    message(FATAL_ERROR "adc_add_conformance_test(${arg_NAME}): name a PRODUCER, a CONSUMER or both")
  endif()
  if(NOT TARGET ArrowDeviceConformance::adc-conform)
    message(FATAL_ERROR "adc_add_conformance_test: find_package(ArrowDeviceConformance) first")
  endif()

  set(command "$<TARGET_FILE:ArrowDeviceConformance::adc-conform>")
  if(arg_PRODUCER)
    _adc_conformance_library(producer "${arg_PRODUCER}")
    list(APPEND command --producer "${producer}")
  endif()
  if(arg_CONSUMER)
    _adc_conformance_library(consumer "${arg_CONSUMER}")
    list(APPEND command --consumer "${consumer}")
  endif()
  foreach(option PREFIX PRODUCER_PREFIX CONSUMER_PREFIX)
    if(arg_${option})
      string(TOLOWER "${option}" flag)
      string(REPLACE "_" "-" flag "${flag}")
      list(APPEND command --${flag} "${arg_${option}}")
    endif()
  endforeach()
  if(arg_EXPECT)
    get_filename_component(expect "${arg_EXPECT}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${expect}")
      message(FATAL_ERROR "adc_add_conformance_test(${arg_NAME}): no expectations file ${expect}")
    endif()
    list(APPEND command --expect "${expect}")
  endif()
  foreach(glob IN LISTS arg_FILTER)
    list(APPEND command --filter "${glob}")
  endforeach()
  list(APPEND command ${arg_ARGS})

  if(NOT arg_DEVICES)
    set(arg_DEVICES cpu)
  endif()
  list(LENGTH arg_DEVICES n_devices)
  foreach(device IN LISTS arg_DEVICES)
    set(name "${arg_NAME}")
    if(n_devices GREATER 1)
      set(name "${arg_NAME}.${device}")
    endif()
    add_test(NAME "${name}" COMMAND ${command} --device "${device}")
    # 3: adc-conform's ADC_EXIT_NOT_SHOWN (cmake/Install.cmake checks it).
    set_tests_properties("${name}" PROPERTIES LABELS conformance SKIP_RETURN_CODE 3)
    if(arg_TIMEOUT)
      set_tests_properties("${name}" PROPERTIES TIMEOUT "${arg_TIMEOUT}")
    endif()
  endforeach()
endfunction()
