#!/usr/bin/env bash
# On the GPU test host: unpacks the kit's .deb files (scripts/make-devkit.sh, which copies this
# script into the kit as use-kit.sh) into /opt/kit, never into /, and prints the environment that
# finds them and LibTorch. Use as:  eval "$(bash .devkit/use-kit.sh)"
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kit=/opt/kit
if [ ! -f $kit/.done ]; then
  mkdir -p $kit
  for f in "$here"/debs/*.deb; do dpkg -x "$f" $kit; done
  # Qt's and OpenCV's CMake files point at /usr; rewrite them to the kit's prefix
  grep -rlI --include='*.cmake' '/usr/' $kit/usr/lib/x86_64-linux-gnu/cmake 2>/dev/null \
    | xargs -r sed -i "s#\([\" ;(]\)/usr/#\1$kit/usr/#g"
  # The kit holds OpenCV core and imgproc only (imgcodecs and videoio need GDAL and FFmpeg):
  # a small config in place of Debian's, which expects every module's files.
  ocv=$kit/usr/lib/x86_64-linux-gnu/cmake/opencv4
  mkdir -p $ocv
  cat > $ocv/OpenCVConfig.cmake <<CFG
set(OpenCV_VERSION 4.6.0)
set(OpenCV_INCLUDE_DIRS $kit/usr/include/opencv4)
set(OpenCV_LIBS)
foreach(m core imgproc)
  if(NOT TARGET opencv_\${m})
    add_library(opencv_\${m} SHARED IMPORTED)
    set_target_properties(opencv_\${m} PROPERTIES
      IMPORTED_LOCATION $kit/usr/lib/x86_64-linux-gnu/libopencv_\${m}.so.406
      INTERFACE_INCLUDE_DIRECTORIES $kit/usr/include/opencv4)
  endif()
  set(OpenCV_\${m}_FOUND TRUE)
endforeach()
set(OpenCV_FOUND TRUE)
foreach(c \${OpenCV_FIND_COMPONENTS})
  if(c STREQUAL "core" OR c STREQUAL "imgproc")
    list(APPEND OpenCV_LIBS opencv_\${c})
  else()
    set(OpenCV_\${c}_FOUND FALSE)
    if(OpenCV_FIND_REQUIRED_\${c})
      set(OpenCV_FOUND FALSE)
    endif()
  endif()
endforeach()
if(NOT OpenCV_FIND_COMPONENTS)
  set(OpenCV_LIBS opencv_core opencv_imgproc)
endif()
CFG
  cat > $ocv/OpenCVConfig-version.cmake <<CFG
set(PACKAGE_VERSION 4.6.0)
set(PACKAGE_VERSION_COMPATIBLE TRUE)
CFG
  touch $kit/.done
fi
torch_cmake=$(python3 -c 'import torch;print(torch.utils.cmake_prefix_path)')
# Some of Debian's libraries (libdbus) live in /lib, not /usr/lib.
echo "export LD_LIBRARY_PATH=$kit/usr/lib/x86_64-linux-gnu:$kit/lib/x86_64-linux-gnu:\${LD_LIBRARY_PATH:-}"
echo "export CMAKE_PREFIX_PATH=$torch_cmake:$kit/usr/lib/x86_64-linux-gnu/cmake:$kit/usr"
echo "export PATH=$kit/usr/lib/qt6/libexec:$kit/usr/lib/qt6/bin:\$PATH"
echo "export KIT_PREFIX=$kit/usr"
echo "export LIBREYOLO_CUDNN_FRONTEND_DIR=$here/cudnn-frontend/include"
