# `cmake --install` into a scratch prefix, then the installed programs run from there: the CLI
# predicts with the demo model it finds in share/, lists the installed kernel plugin (when built,
# byte for byte the file its manifest pins), and the studio (when built) renders a window.
# cmake -DBUILD_DIR=... -DPREFIX=... -DGUI=ON|OFF -DPLUGINS=ON|OFF -P install_check.cmake
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND ${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${PREFIX}" RESULT_VARIABLE rc
                OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${rc})")
endif()
set(expected bin/libreyolo share/libreyolo-studio/resources/models/yolo9t-shapes.safetensors
    share/libreyolo-studio/resources/samples/shapes.png)
if(GUI)
  list(APPEND expected bin/libreyolo-studio share/applications/libreyolo-studio.desktop
       share/icons/hicolor/256x256/apps/libreyolo-studio.png)
endif()
foreach(f IN LISTS expected)
  if(NOT EXISTS "${PREFIX}/${f}")
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()

# The installed CLI finds the installed demo model (no environment override, no source tree path).
set(ENV{LIBREYOLO_DEMO_MODEL} "")
execute_process(COMMAND "${PREFIX}/bin/libreyolo" info OUTPUT_VARIABLE info RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT info MATCHES "source +${PREFIX}/share/libreyolo-studio/resources/models/yolo9t-shapes")
  message(FATAL_ERROR "installed libreyolo info (${rc}) did not use the installed demo model:\n${info}")
endif()
execute_process(COMMAND "${PREFIX}/bin/libreyolo" predict device=cpu OUTPUT_VARIABLE out ERROR_VARIABLE err
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT out MATCHES "shapes.png")
  message(FATAL_ERROR "installed libreyolo predict failed (${rc}):\n${out}\n${err}")
endif()
if(PLUGINS)
  set(kernels "${PREFIX}/lib/libreyolo/kernels")
  file(READ "${kernels}/manifest.json" manifest)
  string(REGEX MATCH "\"sha256\": \"([0-9a-f]+)\"" _ "${manifest}")
  file(SHA256 "${kernels}/libreyolo_cuda_nms.so" installed_sha)
  if(NOT installed_sha STREQUAL CMAKE_MATCH_1)
    message(FATAL_ERROR "the installed libreyolo_cuda_nms.so (${installed_sha}) is not the file its manifest pins")
  endif()
  execute_process(COMMAND "${PREFIX}/bin/libreyolo" kernels OUTPUT_VARIABLE out RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "libreyolo-cuda-nms \\(in-tree")
    message(FATAL_ERROR "installed libreyolo kernels (${rc}) does not list the installed plugin:\n${out}")
  endif()
endif()
if(GUI)
  set(ENV{QT_QPA_PLATFORM} offscreen)
  execute_process(COMMAND "${PREFIX}/bin/libreyolo-studio" --device cpu --screenshot "${PREFIX}/studio.png"
                  RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 120)
  if(NOT rc EQUAL 0 OR NOT EXISTS "${PREFIX}/studio.png")
    message(FATAL_ERROR "installed libreyolo-studio did not render (${rc}):\n${err}")
  endif()
endif()
