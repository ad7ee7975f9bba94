// Seeds of a case's sub-tasks, each from the case seed and a fixed salt (mix_seed). One list for
// the case runner and every strategy, so that no two draws of a case share a stream; the values
// never change, so that a campaign run again from its seed (or resumed) draws the same cases.
#pragma once

#include <cstdint>

namespace retort {

enum CaseSalt : uint64_t {
  kRewriteSalt = 1,   // POLYJUICE's saturation
  kInputsSalt = 2,    // the comparison's inputs
  kRandomSalt = 3,    // POLYJUICE's random extractions, TENSURE's permutations
  kEinsumSalt = 4,    // TENSURE's einsum
  kWeaveSalt = 5,     // OATest's seed graph and pattern
  kLevelSalt = 6,     // HirFuzz's constraint level
  kFunctionSalt = 7,  // HirFuzz's functions and call-chain rewrites
  kRelaxSalt = 8,     // HirFuzz's broken constraints
  kProgramSalt = 9,   // TorchProbe's program mutations
  kStorageSalt = 10,  // TENSURE's storage formats
  kFormSalt = 11      // the program forms (campaign_options.h case_forms)
};

}  // namespace retort
