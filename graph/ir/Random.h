//===- Random.h - A portable seeded random number generator -----*- C++ -*-===//
//
// This file implements the project's random numbers: splitmix64 for the bits,
// the top 53 bits for uniform doubles and Box-Muller for normals. Nothing
// depends on the C++ library's distributions, so a seed gives the same numbers
// on every machine and compiler.
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_RANDOM_H
#define MGP_GRAPH_RANDOM_H

#include "llvm/ADT/StringRef.h"

#include <cmath>
#include <cstdint>

namespace mgp::graph {

/// splitmix64 (Steele, Lea, Flood 2014) with uniform and normal draws.
class Random {
public:
  explicit Random(uint64_t seed) : state(seed) {}

  /// Seeds a stream from `seed` and a name (FNV-1a), so each parameter's
  /// values do not depend on the order parameters are initialised in.
  Random(uint64_t seed, llvm::StringRef name) : state(seed) {
    uint64_t hash = 0xcbf29ce484222325ULL;
    for (char c : name)
      hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
    state ^= hash;
    next();
  }

  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  /// Moves the stream `n` draws ahead, as `n` calls of next() would: the
  /// state advances by a constant per draw, so any position is one step away
  /// (this lets threads fill disjoint ranges of one stream).
  void skip(uint64_t n) { state += n * 0x9e3779b97f4a7c15ULL; }
  /// Uniform in [0, 1).
  double uniform() { return (next() >> 11) * 0x1.0p-53; }
  /// Uniform in [lo, hi).
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  /// Normal with mean `mean` and standard deviation `stddev` (Box-Muller).
  double normal(double mean = 0, double stddev = 1) {
    double u1 = 1.0 - uniform(); // (0, 1]
    double u2 = uniform();
    double r = std::sqrt(-2.0 * std::log(u1));
    return mean + stddev * r * std::cos(6.283185307179586 * u2);
  }

private:
  uint64_t state;
};

} // namespace mgp::graph

#endif // MGP_GRAPH_RANDOM_H
