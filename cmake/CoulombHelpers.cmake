# Helpers shared by every CMakeLists.txt of the project.

# Warnings and floating-point rules for every coulomb target; OpenMP where it was found (its
# pragmas are ignored, silently, where it was not).
function(coulomb_compile_options target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -ffp-contract=off)
  if(TARGET OpenMP::OpenMP_CXX)
    target_link_libraries(${target} PRIVATE OpenMP::OpenMP_CXX)
  else()
    target_compile_options(${target} PRIVATE -Wno-unknown-pragmas)
  endif()
endfunction()

# coulomb_module(NAME SOURCES... [DEPENDS targets...])
# One static library per module (coulomb_NAME, alias coulomb::NAME), public headers under
# include/coulomb/NAME/. Modules are listed in COULOMB_MODULES for the umbrella target.
function(coulomb_module name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPENDS" ${ARGN})
  if(NOT ARG_SOURCES)
    # A header-only module.
    add_library(coulomb_${name} INTERFACE)
    add_library(coulomb::${name} ALIAS coulomb_${name})
    set_target_properties(coulomb_${name} PROPERTIES EXPORT_NAME ${name})
    target_include_directories(coulomb_${name} INTERFACE
      $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
      $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
    target_link_libraries(coulomb_${name} INTERFACE ${ARG_DEPENDS})
    target_compile_features(coulomb_${name} INTERFACE cxx_std_20)
    set(COULOMB_MODULES ${COULOMB_MODULES} coulomb_${name} CACHE INTERNAL "")
    return()
  endif()
  add_library(coulomb_${name} STATIC ${ARG_SOURCES})
  add_library(coulomb::${name} ALIAS coulomb_${name})
  set_target_properties(coulomb_${name} PROPERTIES EXPORT_NAME ${name})
  target_include_directories(coulomb_${name} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>
    PRIVATE ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(coulomb_${name} PUBLIC ${ARG_DEPENDS})
  # C++20 as a usage requirement, not only CMAKE_CXX_STANDARD: fclib's package file clears
  # CMAKE_CXX_STANDARD in the directories that find it (src/nonsmooth compiled as C++17 until this),
  # and an installed consumer must compile our headers as C++20 too.
  target_compile_features(coulomb_${name} PUBLIC cxx_std_20)
  coulomb_compile_options(coulomb_${name})
  set(COULOMB_MODULES ${COULOMB_MODULES} coulomb_${name} CACHE INTERNAL "")
endfunction()

# coulomb_test(MODULE NAME [LIBS ...] [DIR dir] [LABEL label]): DIR/NAME_test.cpp (DIR: the calling
# folder, tests/MODULE) -> one GoogleTest executable test_MODULE_NAME, registered with ctest test by
# test under the label LABEL (MODULE). One test file per source file.
function(coulomb_test module name)
  cmake_parse_arguments(ARG "" "DIR;LABEL" "LIBS" ${ARGN})
  if(NOT ARG_DIR)
    set(ARG_DIR ${CMAKE_CURRENT_SOURCE_DIR})
  endif()
  if(NOT ARG_LABEL)
    set(ARG_LABEL ${module})
  endif()
  set(target test_${module}_${name})
  add_executable(${target} ${ARG_DIR}/${name}_test.cpp)
  target_link_libraries(${target} PRIVATE coulomb_${module} ${ARG_LIBS} GTest::gtest GTest::gtest_main)
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/tests)
  target_compile_definitions(${target} PRIVATE
    COULOMB_SOURCE_DIR="${PROJECT_SOURCE_DIR}" COULOMB_BINARY_DIR="${PROJECT_BINARY_DIR}")
  coulomb_compile_options(${target})
  gtest_discover_tests(${target} DISCOVERY_MODE PRE_TEST PROPERTIES LABELS ${ARG_LABEL})
endfunction()
