"""upstream_test: one upstream-transcribed test source, run against each implementation."""

load("//bazel:defs.bzl", "schedref_cc_test")

def upstream_test(name, srcs, size, reference_deps, optimized_deps, deps = [], **kwargs):
    """Builds `srcs` once per implementation.

    Creates `<name>_reference` and `<name>_optimized` (the naming of
    bazel/golden.bzl), compiled with SCHEDREF_IMPL_REFERENCE or
    SCHEDREF_IMPL_OPTIMIZED; the source's adapter header picks that
    implementation's headers by it. Each variant links only its own
    implementation (`reference_deps` or `optimized_deps`), so neither
    depends on the other.
    """
    for impl, impl_deps in [("reference", reference_deps), ("optimized", optimized_deps)]:
        schedref_cc_test(
            name = name + "_" + impl,
            size = size,
            srcs = srcs,
            local_defines = ["SCHEDREF_IMPL_" + impl.upper()],
            deps = deps + impl_deps,
            **kwargs
        )
