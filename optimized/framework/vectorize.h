// SCHEDREF_VECTORIZE: marks a function whose loops over nodes are written
// to vectorize (fixed-width integer arithmetic, __restrict pointers).
//
// g++'s -O2 vectorizes only loops whose trip count needs no scalar
// remainder ("very cheap" cost model); these run over any number of nodes,
// so the marked functions ask for the "cheap" model, which allows a
// remainder. clang's -O2 vectorizes them as they are (and does not know
// the attribute). Purely a performance hint: the result is the same.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_VECTORIZE_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_VECTORIZE_H_

#if defined(__clang__) || !defined(__GNUC__)
#define SCHEDREF_VECTORIZE
#else
#define SCHEDREF_VECTORIZE [[gnu::optimize("vect-cost-model=cheap")]]
#endif

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_VECTORIZE_H_
