"""golden_test: one test per golden folder and built-in implementation."""

def golden_test(name, srcs, implementations = ["reference"], shard_count = 2):
    """Checks every scenario in `srcs` against each implementation.

    Creates `<name>_<impl>` for each implementation: a test running
    //conformance:golden_test_main over the files, sharded so that remote
    executors can spread the corpus.
    """
    for impl in implementations:
        native.sh_test(
            name = name + "_" + impl,
            srcs = ["//bazel:golden_test.sh"],
            args = ["$(rootpath //conformance:golden_test_main)", "--impl=" + impl] +
                   ["$(rootpath %s)" % s for s in srcs],
            data = srcs + ["//conformance:golden_test_main"],
            shard_count = shard_count if len(srcs) > 1 else 1,
            size = "small",
        )
