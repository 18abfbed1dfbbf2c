// ThreadSanitizer suppressions compiled into binaries (only under --config=tsan).
//
// Under --config=tsan, @tbb//:tbb is oneTBB built from Debian's source with
// -fsanitize=thread (bazel/third_party/tbb_source.BUILD), so TSan sees TBB's
// synchronisation and checks every body TBB runs; nothing of TBB or of the
// project is suppressed wholesale. The one entry is oneTBB's own
// (cmake/suppressions/tsan.suppressions in its source): a benign race while the
// ittnotify instrumentation hooks initialise, which no schedref code touches.

extern "C" const char* __tsan_default_suppressions() {
  return "race:__itt_nullify_all_pointers\n";
}
