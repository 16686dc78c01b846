# Helpers shared by every CMakeLists.txt of the project.

# Warnings and floating-point rules for every coulomb target.
function(coulomb_compile_options target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -ffp-contract=off)
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
  coulomb_compile_options(coulomb_${name})
  set(COULOMB_MODULES ${COULOMB_MODULES} coulomb_${name} CACHE INTERNAL "")
endfunction()

# coulomb_test(MODULE NAME [LIBS ...]): tests/MODULE/NAME_test.cpp -> one GoogleTest executable,
# registered with ctest test by test. One test file per source file.
function(coulomb_test module name)
  cmake_parse_arguments(ARG "" "" "LIBS" ${ARGN})
  set(target test_${module}_${name})
  add_executable(${target} ${CMAKE_CURRENT_SOURCE_DIR}/${name}_test.cpp)
  target_link_libraries(${target} PRIVATE coulomb_${module} ${ARG_LIBS} GTest::gtest GTest::gtest_main)
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/tests)
  target_compile_definitions(${target} PRIVATE
    COULOMB_SOURCE_DIR="${PROJECT_SOURCE_DIR}" COULOMB_BINARY_DIR="${PROJECT_BINARY_DIR}")
  coulomb_compile_options(${target})
  gtest_discover_tests(${target} DISCOVERY_MODE PRE_TEST PROPERTIES LABELS ${module})
endfunction()
