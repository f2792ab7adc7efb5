// A shared library that is not a kernel plugin: it has no libreyolo_kernel_plugin_* entry point.
extern "C" __attribute__((visibility("default"))) int libreyolo_test_not_a_plugin() {
    return 42;
}
