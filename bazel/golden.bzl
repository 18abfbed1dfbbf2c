"""golden_test: one test per golden folder and built-in implementation variant."""

# Variant suffix -> (implementation, RunOptions.threads). The optimized
# implementation must produce the same trace whatever its thread count, so
# it is checked with 1, 2 and 4 threads (4 oversubscribes a 2-core machine,
# which shuffles the interleaving further).
GOLDEN_VARIANTS = {
    "reference": ("reference", 0),
    "optimized_1thread": ("optimized", 1),
    "optimized_2threads": ("optimized", 2),
    "optimized_4threads": ("optimized", 4),
}

def golden_test(name, srcs, variants = GOLDEN_VARIANTS.keys(), shard_count = 2):
    """Checks every scenario in `srcs` against each implementation variant.

    Creates `<name>_<variant>` for each variant: a test running
    //conformance:golden_test_main over the files, sharded so that remote
    executors can spread the corpus.
    """
    for variant in variants:
        impl, threads = GOLDEN_VARIANTS[variant]
        native.sh_test(
            name = name + "_" + variant,
            srcs = ["//bazel:golden_test.sh"],
            args = ["$(rootpath //conformance:golden_test_main)", "--impl=" + impl] +
                   (["--threads=%d" % threads] if threads else []) +
                   ["$(rootpath %s)" % s for s in srcs],
            data = srcs + ["//conformance:golden_test_main"],
            shard_count = shard_count if len(srcs) > 1 else 1,
            size = "small",
        )
