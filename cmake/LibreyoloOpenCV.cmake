# OpenCV's CMake package file ships only in Debian's libopencv-dev, which pulls in every OpenCV
# module with VTK, GDAL and hundreds of other packages. The engine links four modules, so
# scripts/setup.sh installs just their -dev packages; where no OpenCVConfig.cmake exists, the
# modules are found by header and library and given the imported targets that OpenCV's own package
# file would define (opencv_core, opencv_imgproc, opencv_imgcodecs, opencv_videoio).
#
# core and imgproc are required; imgcodecs (image files) and videoio (video) are optional, as the
# engine builds without them (the GPU host has neither).
find_package(OpenCV QUIET COMPONENTS core imgproc OPTIONAL_COMPONENTS imgcodecs videoio)
if(OpenCV_FOUND)
  message(STATUS "OpenCV ${OpenCV_VERSION} from its CMake package (${OpenCV_DIR})")
  return()
endif()

find_path(LIBREYOLO_OPENCV_INCLUDE_DIR opencv2/core.hpp PATH_SUFFIXES opencv4)
if(NOT LIBREYOLO_OPENCV_INCLUDE_DIR)
  message(FATAL_ERROR "OpenCV not found: no OpenCVConfig.cmake and no opencv2/core.hpp. "
                      "On Debian: apt-get install libopencv-core-dev libopencv-imgproc-dev "
                      "libopencv-imgcodecs-dev libopencv-videoio-dev (scripts/setup.sh does it).")
endif()

set(found_modules)
foreach(module core imgproc imgcodecs videoio)
  find_library(LIBREYOLO_OPENCV_${module}_LIBRARY opencv_${module})
  if(NOT LIBREYOLO_OPENCV_${module}_LIBRARY)
    if(module STREQUAL "core" OR module STREQUAL "imgproc")
      message(FATAL_ERROR "OpenCV: libopencv_${module}.so not found beside "
                          "${LIBREYOLO_OPENCV_INCLUDE_DIR}; on Debian: apt-get install "
                          "libopencv-${module}-dev")
    endif()
    continue()
  endif()
  if(NOT TARGET opencv_${module})
    add_library(opencv_${module} UNKNOWN IMPORTED)
    set_target_properties(opencv_${module} PROPERTIES
      IMPORTED_LOCATION "${LIBREYOLO_OPENCV_${module}_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${LIBREYOLO_OPENCV_INCLUDE_DIR}")
  endif()
  list(APPEND found_modules ${module})
endforeach()
message(STATUS "OpenCV modules ${found_modules} by header and library (${LIBREYOLO_OPENCV_INCLUDE_DIR})")
