"""Compiler options for schedref's own code (not for third-party libraries)."""

# Warnings are errors in project code. Kept to flags that are clean and
# practical with both g++-12 (default) and clang-14 (--config=fuzz).
# Third-party headers come in through -isystem and do not trigger them.
SCHEDREF_COPTS = [
    "-Wall",
    "-Wextra",
    "-Werror",
]
