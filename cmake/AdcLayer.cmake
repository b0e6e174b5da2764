# adc_layer(TARGET SOURCES file... [LINKS target...]): the library of one
# folder of the architecture (docs/architecture.md), declared in that
# folder's own CMakeLists.txt.
#
# The layer's headers are reached as "<folder>/<file>.h" through an include
# root of its own, a build folder holding one link to the layer's source
# folder and nothing else: a file sees the headers of its own layer and of
# the layers its target links, and no other.  An include of a layer above
# (one the target does not link) fails to compile, "No such file or
# directory": the build refuses an arrow up (docs/architecture.md, "Layers").
function(adc_layer target)
  cmake_parse_arguments(PARSE_ARGV 1 layer "" "" "SOURCES;LINKS")
  add_library(${target} STATIC ${layer_SOURCES})
  get_filename_component(folder ${CMAKE_CURRENT_SOURCE_DIR} NAME)
  set(root ${CMAKE_BINARY_DIR}/include-roots/${target})
  file(MAKE_DIRECTORY ${root})
  file(CREATE_LINK ${CMAKE_CURRENT_SOURCE_DIR} ${root}/${folder} SYMBOLIC)
  target_include_directories(${target} PUBLIC ${root})
  target_link_libraries(${target} PUBLIC ${layer_LINKS})
endfunction()
