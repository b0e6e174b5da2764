# What `cmake --install` puts under the prefix, for a downstream project to
# find with find_package(ArrowDeviceConformance) or pkg-config:
#
#   bin/adc-conform
#   lib/libadc_reference.so (+ the CUDA and ROCm modules where built)
#   lib/libadc_python.so (the shim behind --producer python:MODULE:FACTORY)
#   include/adc/*.h
#   share/arrow-device-conformance/fixtures/*.json
#   share/arrow-device-conformance/valgrind/gpu-runtimes.supp (--valgrind)
#   lib/cmake/ArrowDeviceConformance/  (config, version, targets, function)
#   share/pkgconfig/arrow-device-conformance.pc
#
# adc-conform finds the library and the fixtures from its own folder
# (harness/cli/install_layout.c), so the prefix may be moved as a whole.
include(CMakePackageConfigHelpers)

install(TARGETS adc-conform adc_reference adc_headers
        EXPORT ArrowDeviceConformanceTargets
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})

# The GPU modules go next to the reference, where it loads them from
# (reference/reference_devices.c); they are never linked against, so they
# are not exported.  The CUDA module keeps the path to libcudart it was
# linked with: the toolkit is rarely on the loader's default path.
if(TARGET adc_reference_cuda)
  set_target_properties(adc_reference_cuda PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
endif()
if(ADC_GPU_MODULES)
  install(TARGETS ${ADC_GPU_MODULES} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()

# The Python shim goes next to the reference, where adc-conform finds it
# (install_layout.c); nothing links against it.
install(TARGETS adc_python LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})

install(DIRECTORY include/adc DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
# The hand-written and the generated fixtures, in one folder (their names
# never repeat: the harness refuses a run where two would).
install(DIRECTORY fixtures/data/ fixtures/columnar/ DESTINATION ${ADC_INSTALL_FIXTURES_DIR}
        FILES_MATCHING PATTERN "*.json")
install(FILES harness/valgrind/gpu-runtimes.supp DESTINATION ${ADC_INSTALL_VALGRIND_DIR})

install(EXPORT ArrowDeviceConformanceTargets
        NAMESPACE ArrowDeviceConformance::
        DESTINATION ${ADC_INSTALL_CMAKE_DIR})
configure_package_config_file(cmake/ArrowDeviceConformanceConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/ArrowDeviceConformanceConfig.cmake
                              INSTALL_DESTINATION ${ADC_INSTALL_CMAKE_DIR}
                              PATH_VARS ADC_INSTALL_FIXTURES_DIR CMAKE_INSTALL_INCLUDEDIR)
# 0.x: a minor version may change the plugin ABI or the rules.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/ArrowDeviceConformanceConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/ArrowDeviceConformanceConfig.cmake
              ${CMAKE_BINARY_DIR}/ArrowDeviceConformanceConfigVersion.cmake
              cmake/AdcAddConformanceTest.cmake
        DESTINATION ${ADC_INSTALL_CMAKE_DIR})

# adc_add_conformance_test shows a run that exits ADC_EXIT_NOT_SHOWN
# (harness/outcome/verdict.h) as skipped, through SKIP_RETURN_CODE: the
# function is installed without the header, so each says the number, and
# they must agree.
file(STRINGS harness/outcome/verdict.h ADC_EXIT_NOT_SHOWN_LINE REGEX "^#define ADC_EXIT_NOT_SHOWN [0-9]+$")
file(STRINGS cmake/AdcAddConformanceTest.cmake ADC_SKIP_RETURN_CODE_LINE REGEX "SKIP_RETURN_CODE [0-9]+")
string(REGEX MATCH "[0-9]+$" ADC_EXIT_NOT_SHOWN_VALUE "${ADC_EXIT_NOT_SHOWN_LINE}")
string(REGEX MATCH "SKIP_RETURN_CODE [0-9]+" ADC_SKIP_RETURN_CODE_VALUE "${ADC_SKIP_RETURN_CODE_LINE}")
if(NOT ADC_EXIT_NOT_SHOWN_VALUE OR NOT ADC_SKIP_RETURN_CODE_VALUE STREQUAL "SKIP_RETURN_CODE ${ADC_EXIT_NOT_SHOWN_VALUE}")
  message(FATAL_ERROR "cmake/AdcAddConformanceTest.cmake has '${ADC_SKIP_RETURN_CODE_VALUE}', "
                      "harness/outcome/verdict.h ADC_EXIT_NOT_SHOWN '${ADC_EXIT_NOT_SHOWN_VALUE}': make them agree")
endif()

# pkg-config: the headers, and where the harness and fixtures are.  Paths
# are relative to the .pc file (${pcfiledir}), as the prefix may move.
set(ADC_PKGCONFIG_DIR ${CMAKE_INSTALL_DATADIR}/pkgconfig)
file(RELATIVE_PATH ADC_PREFIX_FROM_PKGCONFIG ${CMAKE_INSTALL_PREFIX}/${ADC_PKGCONFIG_DIR} ${CMAKE_INSTALL_PREFIX})
configure_file(cmake/arrow-device-conformance.pc.in ${CMAKE_BINARY_DIR}/arrow-device-conformance.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/arrow-device-conformance.pc DESTINATION ${ADC_PKGCONFIG_DIR})
