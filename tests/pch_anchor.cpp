// Anchors the shared precompiled header of the tests; holds no code.
