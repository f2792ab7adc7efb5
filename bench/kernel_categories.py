"""What a GPU kernel computes, from its name: the categories bench/profile_forward_kernels.py and
bench/graph_dot_kernels.py sum kernels by."""

CATEGORIES = (  # first match wins; names are the kernels' as CUPTI reports them
    ("layout transpose", ("nchwToNhwc", "nhwcToNchw", "nchw_to_nhwc", "nhwc_to_nchw", "transpose")),
    ("channel slice copy", ("SliceC",)),
    ("batch norm", ("batch_norm",)),
    ("convolution", ("conv", "implicit", "xmma", "gemm", "cutlass", "sm90_", "sm80_", "winograd", "fft", "cudnn")),
    ("concatenation", ("CatArray", "cat_", "concat")),
    ("activation", ("silu", "sigmoid", "swish")),
    ("bias add", ("add", "bias")),
    ("copy", ("copy", "Memcpy", "Memset")),
)


def category(name: str) -> str:
    for label, keys in CATEGORIES:
        if any(k.lower() in name.lower() for k in keys):
            return label
    return "other element-wise"
