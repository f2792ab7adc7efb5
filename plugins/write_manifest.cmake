# cmake -DPLUGIN=… -DPROVIDER=… -DTORCH=… -DCUDA=… -DARCH=… -DMANIFEST=… -P write_manifest.cmake
# The in-tree plugins' manifest: the built file's SHA-256 and build tag, the file beside it.
file(SHA256 "${PLUGIN}" _sha)
get_filename_component(_name "${PLUGIN}" NAME)
file(WRITE "${MANIFEST}.tmp" "{\"plugins\": [{\"provider\": \"${PROVIDER}\", \"path\": \"${_name}\", \"sha256\": \"${_sha}\", \"build\": {\"torch\": \"${TORCH}\", \"cuda\": \"${CUDA}\", \"arch\": \"${ARCH}\"}}]}\n")
file(RENAME "${MANIFEST}.tmp" "${MANIFEST}")
