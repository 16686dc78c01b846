# Installs the viewer's npm packages with `npm ci` when node_modules is missing or older than
# package-lock.json; does nothing otherwise (so an offline rebuild works once installed).
# Usage: cmake -DNPM=/path/to/npm -DVIEWER_DIR=/path/to/viewer -P npm_ci.cmake
set(stamp "${VIEWER_DIR}/node_modules/.package-lock.json")
if(EXISTS "${stamp}" AND NOT "${VIEWER_DIR}/package-lock.json" IS_NEWER_THAN "${stamp}")
  return()
endif()
message(STATUS "viewer: npm ci (installing three, vite, playwright-core into viewer/node_modules)")
execute_process(COMMAND "${NPM}" ci --no-audit --no-fund --loglevel=error
                WORKING_DIRECTORY "${VIEWER_DIR}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "viewer: `npm ci` failed (${rc}); the npm registry must be reachable for the "
                      "first build, or configure with -DCOULOMB_BUILD_VIEWER=OFF")
endif()
