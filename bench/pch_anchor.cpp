// A source for the library that owns the benchmarks' precompiled header (bench/CMakeLists.txt).
