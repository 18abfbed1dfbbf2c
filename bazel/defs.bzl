"""Macros for schedref's C++ targets.

load("//bazel:defs.bzl", "schedref_cc_library", "schedref_cc_binary",
     "schedref_cc_test", "schedref_fuzz_test")

schedref_cc_library / _binary / _test take exactly the arguments of
cc_library / cc_binary / cc_test from @rules_cc and prepend SCHEDREF_COPTS
(warnings as errors) to `copts`. schedref_cc_test requires `size`: the size
sets the timeout (bazel/README.md "Test sizes"), and a test without one
would silently get "medium". Tests get no implicit deps: add
"@gtest//:gtest_main" (or your own main) yourself.
"""

load("@rules_cc//cc:defs.bzl", "cc_binary", "cc_library", "cc_test")
load("//bazel:copts.bzl", "SCHEDREF_COPTS")

_REPLAY_MAIN = "//bazel:fuzz_replay_main"

# Under --config=asan (which is also --config=fuzz) the project's libraries
# are the code the fuzzers explore: -O1 (OSS-Fuzz's level; about ten times
# the executions of -O0) with libFuzzer's coverage instrumentation. Tests
# link the same objects; test sources themselves stay at -O0 without
# coverage, which compiles them in less than half the time.
_LIBRARY_COPTS = select({
    "//bazel:asan_mode": ["-O1", "-fsanitize=fuzzer-no-link"],
    "//conditions:default": [],
})

# Where *_fuzzer binaries link libFuzzer: --config=asan / fuzz, or a build
# that sets --define=schedref_fuzz=1 itself (fuzz/oss-fuzz/build.sh).
def _fuzzer_select(fuzzing, otherwise):
    return select({
        "//bazel:asan_mode": fuzzing,
        "//bazel:fuzz_mode": fuzzing,
        "//conditions:default": otherwise,
    })

def schedref_cc_library(name, copts = [], **kwargs):
    cc_library(name = name, copts = SCHEDREF_COPTS + _LIBRARY_COPTS + copts, **kwargs)

def schedref_cc_binary(name, copts = [], **kwargs):
    cc_binary(name = name, copts = SCHEDREF_COPTS + copts, **kwargs)

def schedref_cc_test(name, size, copts = [], **kwargs):
    cc_test(name = name, size = size, copts = SCHEDREF_COPTS + copts, **kwargs)

def schedref_fuzz_test(
        name,
        srcs,
        deps = [],
        corpus = [],
        dict = None,
        copts = [],
        tags = [],
        size = "small",
        timeout = None,
        visibility = None,
        **kwargs):
    """A libFuzzer fuzz target, replayed as a test and buildable as a fuzzer.

    `srcs` must define
        extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
    (and may define LLVMFuzzerInitialize), and no main().

    Creates:
      <name>          cc_test: runs the target once on every corpus file
                      (bazel/fuzz_replay_main.cc); fails on a crash or
                      sanitizer report, or if the corpus is empty. Runs in
                      plain `bazel test //...`.
      <name>_fuzzer   cc_binary tagged "fuzzer": a real libFuzzer binary under
                      --config=asan, alias --config=fuzz
                      (-fsanitize=fuzzer,address,undefined),
                      otherwise the same replay binary (so `bazel build //...`
                      always works). Its data are the corpus and the dict; with
                      a dict, `bazel run` passes -dict=<dict>.
      <name>_corpus   filegroup of the seed corpus.
      <name>_dict     filegroup of the dict (only if `dict` is given).

    Args:
      name: base name.
      srcs: the fuzz target source(s).
      deps: libraries the fuzz target uses.
      corpus: seed inputs, e.g. glob(["testdata/foo_corpus/**"]); must not be empty.
      dict: optional libFuzzer dictionary file (label).
      copts: extra copts (SCHEDREF_COPTS are always added).
      tags: extra tags for both targets.
      size: size of the replay test.
      timeout: timeout of the replay test.
      visibility: visibility of all targets.
      **kwargs: passed to both the cc_test and the cc_binary (e.g. local_defines).
    """
    if not corpus:
        fail("schedref_fuzz_test(%s): corpus must not be empty" % name)

    native.filegroup(
        name = name + "_corpus",
        srcs = corpus,
        visibility = visibility,
    )
    corpus_label = ":%s_corpus" % name
    data = [corpus_label]
    fuzzer_args = []
    if dict:
        native.filegroup(
            name = name + "_dict",
            srcs = [dict],
            visibility = visibility,
        )
        data.append(":%s_dict" % name)
        fuzzer_args.append("-dict=$(rootpath :%s_dict)" % name)

    cc_test(
        name = name,
        srcs = srcs,
        deps = deps + [_REPLAY_MAIN],
        copts = SCHEDREF_COPTS + copts,
        args = ["$(rootpaths %s)" % corpus_label],
        data = data,
        size = size,
        timeout = timeout,
        tags = tags + ["fuzz_replay"],
        visibility = visibility,
        **kwargs
    )

    cc_binary(
        name = name + "_fuzzer",
        srcs = srcs,
        deps = deps + _fuzzer_select([], [_REPLAY_MAIN]),
        copts = SCHEDREF_COPTS + copts + _fuzzer_select(
            ["-O1", "-fsanitize=fuzzer,address,undefined"],
            [],
        ),
        linkopts = _fuzzer_select(["-fsanitize=fuzzer,address,undefined"], []),
        args = fuzzer_args,
        data = data,
        tags = tags + ["fuzzer"],
        visibility = visibility,
        **kwargs
    )
