// ThreadSanitizer suppressions compiled into binaries (only under --config=tsan).
//
// Linked into every binary that depends on @tbb//:tbb: Debian's libtbb.so is not
// built with ThreadSanitizer, so TSan does not see the synchronisation inside it
// and reports false races for everything TBB schedules (task objects reused
// across threads, results written in parallel_for bodies and read afterwards).
// Consequence: races *inside* TBB-run code are not reported under --config=tsan;
// races among std::thread / std::jthread code still are.

extern "C" const char* __tsan_default_suppressions() {
  return "race:libtbb.so\n";
}
