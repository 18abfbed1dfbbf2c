"""@rules_cc from Debian's bazel-rules-cc, patched to load with Bazel 4.2.3.

Debian ships rules_cc 0.0.4 at /usr/share/bazel/rules/cc. Two of its files
(cc/private/rules_impl/compiler_flag.bzl and cc_flags_supplier.bzl) load
`use_cpp_toolchain` from @bazel_tools//tools/cpp:toolchain_utils.bzl, which
Bazel 4 does not have, so a plain local_repository fails at load time.

This rule copies the tree at fetch time and, in every .bzl file that mentions
`use_cpp_toolchain`, replaces `use_cpp_toolchain()` with the toolchain type
label and drops the symbol from the load statement.
"""

_TOOLCHAIN_TYPE = '["@bazel_tools//tools/cpp:toolchain_type"]'

def _rules_cc_debian_impl(rctx):
    src = rctx.path(rctx.attr.path)
    if not src.exists:
        fail("rules_cc_debian: %s does not exist; install the Debian package bazel-rules-cc (./bazelw does that)" % src)

    # Copy the whole tree (it is small: ~100 files).
    res = rctx.execute(["cp", "-R", "%s/." % src, "."])
    if res.return_code != 0:
        fail("rules_cc_debian: copying %s failed: %s" % (src, res.stderr))

    # Its WORKSPACE downloads dev dependencies; it is never evaluated for an
    # external repository, but keep the copy honest.
    rctx.file("WORKSPACE", 'workspace(name = "%s")\n' % rctx.name)

    res = rctx.execute(["grep", "-rl", "--include=*.bzl", "use_cpp_toolchain", "."])
    if res.return_code not in (0, 1):
        fail("rules_cc_debian: grep failed: %s" % res.stderr)
    files = [f for f in res.stdout.strip().split("\n") if f]
    for f in files:
        content = rctx.read(f)
        patched = content
        # Drop the symbol from the load statement, wherever it stands in it.
        patched = patched.replace(', "use_cpp_toolchain"', "")
        patched = patched.replace('"use_cpp_toolchain", ', "")
        patched = patched.replace("use_cpp_toolchain()", _TOOLCHAIN_TYPE)
        if "use_cpp_toolchain" in patched:
            fail("rules_cc_debian: could not patch %s (unexpected use of use_cpp_toolchain); update bazel/rules_cc_debian.bzl" % f)

        # rctx.file would keep the read-only mode of the copied file; replace it.
        rctx.delete(f)
        rctx.file(f, patched, executable = False)

rules_cc_debian = repository_rule(
    implementation = _rules_cc_debian_impl,
    attrs = {
        "path": attr.string(
            default = "/usr/share/bazel/rules/cc",
            doc = "Where Debian's bazel-rules-cc is installed.",
        ),
    },
    doc = "Copies Debian's rules_cc and patches it for Bazel 4 (see module docstring).",
)
