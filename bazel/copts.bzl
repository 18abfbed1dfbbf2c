"""Compiler options for schedref's own code (not for third-party libraries)."""

# Warnings are errors in project code, with clang-14 (every configuration,
# .bazelrc) and with g++-12 (--repo_env=CC=gcc). Third-party headers are
# system headers and do not warn.
SCHEDREF_COPTS = [
    "-Wall",
    "-Wextra",
    "-Werror",
    # g++ warns on designated initializers that leave fields out
    # (Pod{.name = "p"}), an idiom the API structs rely on.
    "-Wno-missing-field-initializers",
] + select({
    "//bazel:compiler_clang": [],
    # g++-12's flow-sensitive warnings have known false positives in libstdc++
    # code at -O2 (std::optional, std::string, std::variant): keep them as
    # warnings, not errors, so that -c opt builds do not break on them.
    "//conditions:default": [
        "-Wno-error=maybe-uninitialized",
        "-Wno-error=restrict",
        "-Wno-error=array-bounds",
        "-Wno-error=stringop-overflow",
        "-Wno-error=stringop-overread",
        "-Wno-error=dangling-pointer",
    ],
})
