#include "core/rules/unchanged_table.h"

namespace retort {

void UnchangedTable::key(uint32_t plan, uint32_t leaf, EClassId matched,
                         std::span<const EClassId> classes) {
  plan_ = plan;
  leaf_ = leaf;
  matched_ = matched.value;
  classes_ = classes;
  // Hashed when first looked up or recorded: most keys of a runner's first iteration never are.
  hash_ = kNoHash;
  at_ = kUnknown;
}

size_t UnchangedTable::hash() {
  if (hash_ == kNoHash) {
    uint64_t h = 0x9e3779b97f4a7c15ull;
    auto word = [&](uint32_t w) { h = (h ^ w) * 0xff51afd7ed558ccdull; };
    word(plan_);
    word(leaf_);
    word(matched_);
    for (EClassId c : classes_) word(c.value);
    hash_ = static_cast<size_t>((h ^ (h >> 32)) & ~kNoHash);
  }
  return hash_;
}

uint32_t UnchangedTable::find() {
  if (index_.size() == 0) return kNone;
  auto found = index_.find(hash(), [&](uint32_t at) {
    const uint32_t* rec = words_.data() + at;
    if (rec[0] != plan_ || rec[1] != leaf_ || rec[2] != matched_ || rec[3] != classes_.size())
      return false;
    for (size_t i = 0; i < classes_.size(); ++i)
      if (rec[4 + i] != classes_[i].value) return false;
    return true;
  });
  return found ? *found : kNone;
}

bool UnchangedTable::known(const EGraph& eg) {
  at_ = find();
  if (at_ == kNone) return false;
  const uint32_t* n_slots = words_.data() + at_ + 4 + classes_.size();
  std::span<const uint32_t> slots(n_slots + 1, *n_slots);
  for (size_t i = 0; i + 1 < slots.size(); ++i)
    if (eg.find(EClassId(slots[i])).value != slots[i]) return false;
  return eg.find(EClassId(slots.back())) == eg.find(EClassId(matched_));
}

std::span<uint32_t> UnchangedTable::record(size_t n_slots) {
  uint32_t at = at_ == kUnknown ? find() : at_;
  if (at == kNone) {
    at = static_cast<uint32_t>(words_.size());
    index_.insert(at, hash());
    words_.resize(at + 5 + classes_.size() + n_slots);
    uint32_t* rec = words_.data() + at;
    rec[0] = plan_;
    rec[1] = leaf_;
    rec[2] = matched_;
    rec[3] = static_cast<uint32_t>(classes_.size());
    for (size_t i = 0; i < classes_.size(); ++i) rec[4 + i] = classes_[i].value;
    rec[4 + classes_.size()] = static_cast<uint32_t>(n_slots);
  }
  uint32_t* rec = words_.data() + at;
  return {rec + 5 + rec[3], n_slots};
}

}  // namespace retort
