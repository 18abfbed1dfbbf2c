// jemalloc's options for the schedref binary (read by jemalloc at start-up;
// the MALLOC_CONF environment variable still overrides them).
//
// thp:always backs the heap with transparent huge pages (the machine's THP
// mode is "madvise", so without this jemalloc gets 4 KiB pages): a
// scheduler that keeps a trace grows its heap by hundreds of MiB, and
// faulting that in 4 KiB at a time was about a tenth of a SchedulingBasic
// or Unschedulable run (docs/performance.md, "Build and allocator knobs").
extern "C" {
// NOLINTNEXTLINE: the name and type are jemalloc's documented interface.
const char* malloc_conf = "thp:always,metadata_thp:always";
}
